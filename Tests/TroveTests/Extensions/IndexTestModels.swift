import Foundation
import Trove

/// The metadata of a ``Member``.
struct MemberStats: Codable, Sendable, Equatable {
    var visits: Int
}

/// An item with a column of each kind an index stores, and metadata, coded through the Codable
/// fallback (a model without the generator, with a hand-written index).
struct Member: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<Member>
    typealias MetadataCoder = CodableCoder<MemberStats>
    static let collection = "members"
    var id: String
    var age: Int
    var city: String?
    var score: Double
    var active: Bool
    var handle: String?
    var metadata: MemberStats?
    private enum CodingKeys: String, CodingKey { case id, age, city, score, active, handle }

    init(
        id: String, age: Int, city: String? = nil, score: Double = 0, active: Bool = false, handle: String? = nil,
        metadata: MemberStats? = nil
    ) {
        self.id = id
        self.age = age
        self.city = city
        self.score = score
        self.active = active
        self.handle = handle
        self.metadata = metadata
    }
}

enum MemberIndexes {
    /// Every kind of column, none unique.
    static let members = SecondaryIndex<Member>(
        "members",
        columns: [
            .column("age") { $0.age },
            .column("city") { $0.city },
            .column("score") { $0.score },
            .column("active") { $0.active },
            .column("visits") { $0.metadata?.visits },
        ])

    /// A unique column.
    static let byHandle = SecondaryIndex<Member>("members_by_handle", columns: [.column("handle", unique: true) { $0.handle }])
}
