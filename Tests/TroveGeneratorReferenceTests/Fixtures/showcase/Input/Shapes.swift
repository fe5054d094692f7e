/// Enums of every kind that can be stored.

/// A raw-value enum stored as its raw value.
// @coded
enum Role: String, Sendable, Hashable, Codable {
    case reader, editor, admin
}

/// An integer raw-value enum.
// @coded
enum Priority: Int, Sendable, Equatable {
    case low = 1, normal = 5, high = 10
}

/// An enum with associated values: labeled, unlabeled, optional, defaulted, none.
// @coded
enum Shape: Sendable, Equatable {
    case circle(radius: Double)
    case rectangle(Double, Double)
    case polygon(points: [Point], label: String?)
    case text(String, size: Int = 12)
    case empty
}

/// A plain Codable type, not annotated: stored through the runtime's JSON fallback.
nonisolated struct Point: Codable, Sendable, Equatable, Hashable {
    var x: Double
    var y: Double
}
