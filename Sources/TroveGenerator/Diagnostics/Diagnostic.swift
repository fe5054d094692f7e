/// A problem found in an input file, reported as `path:line:column: severity: message`.
///
/// The generator collects every diagnostic of a run instead of stopping at the first one, so a
/// user sees all mistakes at once. Any diagnostic with severity ``Severity/error`` means the run
/// produced no files.
package struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How serious a diagnostic is.
    package enum Severity: String, Sendable, Hashable, Codable {
        /// The input is wrong: nothing is generated.
        case error
        /// The input is suspicious but usable.
        case warning
    }

    /// How serious this diagnostic is.
    package var severity: Severity
    /// What is wrong, as a sentence without a final period.
    package var message: String
    /// Where it is wrong.
    package var location: SourceLocation

    /// Creates a diagnostic.
    ///
    /// - Parameters:
    ///   - severity: How serious it is.
    ///   - message: What is wrong.
    ///   - location: Where it is wrong.
    package init(severity: Severity, message: String, location: SourceLocation) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// Creates an error diagnostic.
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - location: Where it is wrong.
    /// - Returns: A diagnostic of severity ``Severity/error``.
    package static func error(_ message: String, at location: SourceLocation) -> Self {
        Diagnostic(severity: .error, message: message, location: location)
    }

    /// The form SwiftPM and Xcode show on the offending line:
    /// `path:line:column: error: message`.
    package var description: String {
        "\(location.path):\(location.line):\(location.column): \(severity.rawValue): \(message)"
    }
}
