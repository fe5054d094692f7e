/// What ``Database/integrityCheck()`` found: each problem SQLite reports, in SQLite's words.
///
/// ```swift
/// let result = try database.integrityCheck()
/// if !result.isOK {
///     for problem in result.problems { print(problem) }
/// }
/// ```
public struct IntegrityCheckResult: Sendable, Hashable {
    /// The problems found, one line each, in SQLite's words ("On tree page 18 cell 0: invalid
    /// page number 1248008601"); empty when the file is sound. SQLite stops listing after 100.
    public var problems: [String]

    /// Whether the file is sound: SQLite found no problem.
    public var isOK: Bool { problems.isEmpty }

    /// Creates a result.
    ///
    /// - Parameter problems: The problems found, one line each.
    public init(problems: [String]) {
        self.problems = problems
    }
}
