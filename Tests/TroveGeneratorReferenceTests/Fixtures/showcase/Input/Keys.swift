/// Keys of every kind.
// In a module whose default isolation is the main actor, user-written declarations that the
// generated code calls must be `nonisolated` too (the consumer tests compile this file both ways).
import Foundation
import Trove

/// A LosslessStringConvertible key type: declaring `ItemKey` is enough to key items. As a stored
/// field it is Codable, so the runtime stores it through its JSON fallback.
nonisolated struct OrderNumber: LosslessStringConvertible, Hashable, Sendable, Codable {
    var value: Int
    init(_ value: Int) { self.value = value }
    init?(_ description: String) {
        guard description.hasPrefix("ORD-"), let value = Int(description.dropFirst(4)) else { return nil }
        self.value = value
    }
    var description: String { "ORD-\(value)" }
}

extension OrderNumber: ItemKey {}

/// Keyed by a LosslessStringConvertible type; metadata of a type that is not annotated (JSON).
// @persistable(collection: "orders")
struct Order: Sendable, Equatable {
    // @key
    var number: OrderNumber
    var total: Decimal
    // @metadata
    var metadata: OrderNote?
}

/// Metadata that is Codable but not annotated: stored as JSON.
nonisolated struct OrderNote: Codable, Sendable, Equatable {
    var text: String
}

/// Keyed by an integer named `id`; the type's name is the collection.
// @persistable
struct Counter: Sendable, Equatable {
    var id: Int64
    var count: UInt32
}

/// Keyed by a String; public, so its generated members are public.
// @persistable(collection: "tags")
public struct Tag: Sendable, Equatable {
    // @key
    public var name: String
    public var uses: Int

    nonisolated public init(name: String, uses: Int) {
        self.name = name
        self.uses = uses
    }
}

/// An enum item: its key is a computed `id`.
// @persistable(collection: "settings")
enum Setting: Sendable, Equatable {
    case theme(String)
    case volume(level: Int)

    nonisolated var id: String {
        switch self {
        case .theme: "theme"
        case .volume: "volume"
        }
    }
}
