/// A postal address, stored as a field of a ``User``.
// @coded
struct Address: Sendable, Equatable {
    var street: String
    var city: String
}
