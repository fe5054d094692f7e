/// The names of generated files, derived from input paths alone (SwiftPM caches plugin
/// evaluation, so a build plugin must know its outputs without reading its inputs).
package enum OutputNaming {
    /// The suffix of every generated file.
    package static let suffix = "+Trove.swift"

    /// The generated file name for an input: its path relative to the source root, without
    /// `.swift`, with `/` replaced by `_`, plus `+Trove.swift`.
    ///
    /// ```swift
    /// OutputNaming.outputName(forInput: "Models/User.swift")  // "Models_User+Trove.swift"
    /// ```
    ///
    /// - Parameter relativePath: The input path relative to the source root.
    /// - Returns: The output file name.
    package static func outputName(forInput relativePath: String) -> String {
        var path = Substring(relativePath)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        if path.hasSuffix(".swift") { path = path.dropLast(".swift".count) }
        return String(path.map { $0 == "/" ? "_" : $0 }) + suffix
    }
}
