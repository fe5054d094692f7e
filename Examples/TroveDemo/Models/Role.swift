/// What a ``User`` may do. A `@coded` enum with raw values is stored as its raw value.
// @coded
enum Role: String, Sendable, Equatable {
    case admin
    case member
    case guest
}
