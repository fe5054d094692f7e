import Foundation
import Testing
import TroveTestSupport

@testable import Trove

/// An item with an integer key, for the order of ties by key.
struct Ticket: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<Ticket>
    static let collection = "tickets"
    var id: Int
    var rank: Int
    var lane: String
}

/// An item with an unsigned key, whose values go past `Int64.max`.
struct Slot: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<Slot>
    static let collection = "slots"
    var id: UInt64
    var rank: Int
}

/// Where Trove orders "by key" (the ties of a view's sort and of an index query's orderings, and
/// an index query without orderings), integer keys order by value and other keys by text,
/// against a brute-force model.
struct ItemKeyOrderTests {
    /// The integer keys the order must get right: signs, lengths, the ends of the type.
    static let edgeKeys: [Int] = [
        Int.min, Int.min + 1, -100, -10, -9, -2, -1, 0, 1, 2, 9, 10, 11, 99, 100, 101, Int.max - 1, Int.max,
    ]

    /// Edge keys and random ones, without repeats.
    static func integerKeys(count: Int, random: inout SplitMix64) -> [Int] {
        var keys = Set(edgeKeys)
        while keys.count < count {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: keys.insert(Int.random(in: -120...120, using: &random))
            case 1: keys.insert(Int.random(in: -1_000_000...1_000_000, using: &random))
            default: keys.insert(Int.random(in: Int.min...Int.max, using: &random))
            }
        }
        return keys.shuffled(using: &random)
    }

    static func tickets(seed: UInt64, count: Int = 300) -> [Ticket] {
        var random = SplitMix64(seed: seed)
        return integerKeys(count: count, random: &random).map { key in
            Ticket(
                id: key, rank: Int.random(in: 0..<3, using: &random), lane: ["x", "y"].randomElement(using: &random)!)
        }
    }

    /// The view of tickets by lane, sorted by rank: most rows tie.
    static func ticketsByLane(storage: View<Ticket>.Storage) -> View<Ticket> {
        View<Ticket>(
            "tickets_by_lane", storage: storage, grouping: { ticket, _ in ticket.lane }, sortedBy: [.ascending(\.rank)])
    }

    static let ticketIndex = SecondaryIndex<Ticket>(
        "tickets_index", columns: [.column("rank") { $0.rank }, .column("lane") { $0.lane }])

    // MARK: The comparison

    @Test func theKeyTypeDecidesTheOrder() {
        #expect(ItemKeyOrder(of: Int.self) == .integer)
        #expect(ItemKeyOrder(of: Int8.self) == .integer)
        #expect(ItemKeyOrder(of: UInt64.self) == .integer)
        #expect(ItemKeyOrder(of: UInt.self) == .integer)
        #expect(ItemKeyOrder(of: String.self) == .text)
        #expect(ItemKeyOrder(of: UUID.self) == .text)
    }

    /// Sorting the stored text of integer keys with the order gives the order of their values,
    /// for every signed and unsigned 64-bit value; text keys keep Swift's order of strings.
    @Test(arguments: [UInt64(1), 2, 3])
    func integerTextSortsByValue(seed: UInt64) {
        print("ItemKeyOrderTests.integerTextSortsByValue: seed \(seed)")
        var random = SplitMix64(seed: seed)
        let signed = Self.integerKeys(count: 500, random: &random)
        #expect(signed.map(\.itemKey).sorted(by: ItemKeyOrder.integer.precedes) == signed.sorted().map(\.itemKey))
        var unsigned = Set<UInt64>([
            0, 1, 9, 10, 100, UInt64(Int64.max) - 1, UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64.max - 1,
            UInt64.max,
        ])
        while unsigned.count < 300 { unsigned.insert(UInt64.random(in: 0...UInt64.max, using: &random)) }
        #expect(unsigned.map(\.itemKey).sorted(by: ItemKeyOrder.integer.precedes) == unsigned.sorted().map(\.itemKey))
        let texts = ["b", "a", "ab", "10", "9", "Z", "é", "-1"]
        #expect(texts.sorted(by: ItemKeyOrder.text.precedes) == texts.sorted())
    }

    // MARK: Views

    /// The rows of each group are in the order of the sort, then of the key's value, whether
    /// the view was built from stored items or kept up to date by writes; both storages.
    @Test(arguments: [View<Ticket>.Storage.persistent, .inMemory], [UInt64(11), 12])
    func viewTiesOrderIntegerKeysByValue(storage: View<Ticket>.Storage, seed: UInt64) throws {
        print("ItemKeyOrderTests.viewTiesOrderIntegerKeysByValue: seed \(seed), storage \(storage)")
        let tickets = Self.tickets(seed: seed)
        let view = Self.ticketsByLane(storage: storage)
        // Half written before the view exists (built), half after (kept up to date).
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        try connection.write(Array(tickets[..<150]))
        _ = try database.register(view.databaseExtension)
        try connection.write(Array(tickets[150...]))
        let expected = Self.expectedTicketsByLane(tickets)
        try connection.read { tx throws in
            let reader = view.read(tx)
            for lane in ["x", "y"] {
                #expect(try reader.keys(in: lane) == expected[lane], "lane \(lane), seed \(seed)")
            }
        }
    }

    /// What ``ticketsByLane(storage:)`` gives, by brute force: keys by lane, by rank then key.
    static func expectedTicketsByLane(_ tickets: [Ticket]) -> [String: [Int]] {
        Dictionary(grouping: tickets, by: \.lane).mapValues { tickets in
            tickets.sorted { ($0.rank, $0.id) < ($1.rank, $1.id) }.map(\.id)
        }
    }

    /// A view of string keys still orders ties by text.
    @Test func viewTiesOrderStringKeysByText() throws {
        let view = View<Member>("members_by_city_key", grouping: { member, _ in member.city }, sortedBy: [])
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let keys = ["9", "10", "-1", "a", "B", "b10", "b9"]
        try database.newConnection().write(keys.map { Member(id: $0, age: 0, city: "c") })
        let stored = try database.newConnection().read { tx in try view.read(tx).keys(in: "c") }
        #expect(stored == keys.sorted())
    }

    // MARK: Index queries

    /// Sorted by a column, ties come in key order; without orderings, key order; pages of a
    /// limited query put together are the whole query. Integer keys by value.
    @Test(arguments: [UInt64(21), 22])
    func indexQueriesOrderIntegerKeysByValue(seed: UInt64) throws {
        print("ItemKeyOrderTests.indexQueriesOrderIntegerKeysByValue: seed \(seed)")
        let tickets = Self.tickets(seed: seed)
        let database = try makeTemporaryDatabase(extensions: [Self.ticketIndex.databaseExtension])
        let connection = try database.newConnection()
        try connection.write(tickets)
        try connection.read { tx in
            let query = Self.ticketIndex.query
            #expect(try query.keys(tx) == tickets.map(\.id).sorted())
            #expect(try query.items(tx).map(\.id) == tickets.map(\.id).sorted())
            let byRank = tickets.sorted { ($0.rank, $0.id) < ($1.rank, $1.id) }.map(\.id)
            #expect(try query.sorted(by: .column("rank")).keys(tx) == byRank)
            let byRankDown = tickets.sorted { ($1.rank, $0.id) < ($0.rank, $1.id) }.map(\.id)
            #expect(try query.sorted(by: .column("rank", .descending)).keys(tx) == byRankDown)
            let inLaneX = tickets.filter { $0.lane == "x" }.sorted { ($0.rank, $0.id) < ($1.rank, $1.id) }.map(\.id)
            var pages: [Int] = []
            for offset in stride(from: 0, to: inLaneX.count + 40, by: 40) {
                pages += try query.filter(.column("lane", equals: "x")).sorted(by: .column("rank")).limit(
                    40, offset: offset
                )
                .keys(tx)
            }
            #expect(pages == inLaneX)
            #expect(try query.sorted(by: .column("rank")).first(tx)?.id == byRank.first)
        }
    }

    /// Unsigned keys above `Int64.max`, which SQLite's integers do not hold, still order by value.
    @Test func indexQueriesOrderLargeUnsignedKeysByValue() throws {
        let index = SecondaryIndex<Slot>("slots_index", columns: [.column("rank") { $0.rank }])
        let database = try makeTemporaryDatabase(extensions: [index.databaseExtension])
        var random = SplitMix64(seed: 31)
        var keys = Set<UInt64>([0, 9, 10, UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64(Int64.max) + 10, UInt64.max])
        while keys.count < 200 { keys.insert(UInt64.random(in: 0...UInt64.max, using: &random)) }
        let slots = keys.map { Slot(id: $0, rank: Int.random(in: 0..<2, using: &random)) }
        try database.newConnection().write(slots)
        try database.newConnection().read { tx throws in
            #expect(try index.query.keys(tx) == keys.sorted())
            let byRank = slots.sorted { ($0.rank, $0.id) < ($1.rank, $1.id) }.map(\.id)
            #expect(try index.query.sorted(by: .column("rank")).keys(tx) == byRank)
        }
    }

    /// An index of string keys still orders by text, byte by byte.
    @Test func indexQueriesOrderStringKeysByText() throws {
        let database = try makeTemporaryDatabase(extensions: [MemberIndexes.members.databaseExtension])
        let keys = ["9", "10", "-1", "a", "B", "b10", "b9"]
        try database.newConnection().write(keys.map { Member(id: $0, age: 1) })
        let stored = try database.newConnection().read { tx in
            try MemberIndexes.members.query.sorted(by: .column("age")).keys(tx)
        }
        #expect(stored == keys.sorted())
    }

    // MARK: Collections

    /// The order of a collection is the order of the stored text (the file's index): documented,
    /// not the key's value. A change here must change the documentation too.
    @Test func collectionOrderIsTheStoredText() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let keys = [10, 9, -1, 100, 0]
        try connection.write(keys.map { Ticket(id: $0, rank: 0, lane: "x") })
        let text = keys.map(\.itemKey).sorted().map { Int($0)! }
        #expect(try connection.readAll(Ticket.self).map(\.id) == text)
        let enumerated = try connection.read { tx in
            var ids: [Int] = []
            try tx.enumerateKeys(of: Ticket.self) { id, _ in ids.append(id) }
            return ids
        }
        #expect(enumerated == text)
    }
}
