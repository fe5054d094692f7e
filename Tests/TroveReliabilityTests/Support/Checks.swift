import Testing

/// The expectations of a test that reports figures: each failure is recorded as an issue, as
/// `#expect` records it, and counted, so that the test prints its `[reliability]` line only
/// when everything held (a report line is a claim; a failed run must not make it).
struct Checks {
    private(set) var failures = 0

    /// Whether no check failed.
    var passed: Bool { failures == 0 }

    /// Records an issue with `comment` when `condition` is false.
    mutating func expect(
        _ condition: Bool, _ comment: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard !condition else { return }
        failures += 1
        Issue.record(Comment(rawValue: comment()), sourceLocation: sourceLocation)
    }
}
