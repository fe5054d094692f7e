import Foundation

/// Settings of the reliability tests that soak runs raise through the environment, and the
/// figures the tests report for RELIABILITY.md.
enum Soak {
    /// The integer in environment variable `name`, or `defaultValue`.
    static func integer(_ name: String, default defaultValue: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? defaultValue
    }

    /// Prints one line of figures, prefixed so that `grep '\[reliability\]'` collects them.
    static func report(_ line: String) {
        print("[reliability] \(line)")
    }
}
