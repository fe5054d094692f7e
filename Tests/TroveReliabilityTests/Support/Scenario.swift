import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checks of a scenario that runs in a child process (an exit test), where a failed
/// expectation cannot be recorded directly: each failure is written to standard error, and the
/// process exits with 1 if there was any.
struct Scenario {
    private(set) var failures: [String] = []

    mutating func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { failures.append(message()) }
    }

    mutating func fail(_ message: String) {
        failures.append(message)
    }

    /// Ends the child process, writing each failure to standard error for
    /// ``recordScenarioFailures(_:sourceLocation:)``. The status is 0 when the scenario ran to
    /// its end, failures or not: an exit test's result (and so its standard error) is only
    /// available when the status is the expected one. A trap still fails the test.
    func exit() -> Never {
        for failure in failures {
            FileHandle.standardError.write(
                Data(("scenario: " + failure.replacingOccurrences(of: "\n", with: " ") + "\n").utf8))
        }
        Foundation.exit(0)
    }

    /// When the process is root, runs as the unprivileged user `nobody` until
    /// ``restorePrivileges()``, so that file permissions apply (root ignores them).
    static func dropPrivileges() {
        guard geteuid() == 0 else { return }
        // Effective IDs only: permissions are checked against them, and root can come back.
        precondition(setegid(65_534) == 0 && seteuid(65_534) == 0, "cannot become nobody")
    }

    /// Becomes root again after ``dropPrivileges()``, when the process started as root.
    static func restorePrivileges() {
        guard getuid() == 0, geteuid() != 0 else { return }
        _ = seteuid(0)
        _ = setegid(0)
    }
}

/// Records the standard error of a failed scenario as the test's issue.
func recordScenarioFailures(_ result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let result else { return }
    let errors = String(decoding: result.standardErrorContent, as: UTF8.self)
    let failures = errors.split(separator: "\n").filter { $0.hasPrefix("scenario: ") }
    if !failures.isEmpty {
        Issue.record(Comment(rawValue: failures.joined(separator: "\n")), sourceLocation: sourceLocation)
    }
}
