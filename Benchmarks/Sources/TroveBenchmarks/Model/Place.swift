import Foundation

/// A place of the spatial benchmark (issue 32): a point and a name. Its coder is in
/// `Generated/Model_Place+Trove.swift`.
// @persistable(collection: "places")
struct Place: Sendable, Equatable {
    var id: String
    var x: Double
    var y: Double
    var name: String
}
