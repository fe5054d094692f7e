import Foundation
import Testing
import Trove
import TroveTestSupport

/// A second collection for the views over several collections: its keys are drawn from the same
/// set as ``Member``'s, so that the two collections share keys.
struct Guest: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<Guest>
    typealias MetadataCoder = CodableCoder<MemberStats>
    static let collection = "guests"
    var id: String
    var city: String?
    var score: Double
    var metadata: MemberStats?
    private enum CodingKeys: String, CodingKey { case id, city, score }
}

enum MultiViewTestViews {
    /// What the view's closures need of a row of either collection.
    struct Fields {
        var city: String?
        var score: Double
        var included: Bool
    }

    static func fields(_ row: ViewRow) throws -> Fields {
        if let member = try row.item(as: Member.self) {
            return Fields(city: member.city, score: member.score, included: member.active)
        }
        if let guest = try row.item(as: Guest.self) {
            return Fields(city: guest.city, score: guest.score, included: (guest.metadata?.visits ?? 0) < 8)
        }
        return Fields(city: nil, score: 0, included: false)
    }

    /// Active members and guests with fewer than 8 visits, grouped by city, sorted by score
    /// (ties by collection, then key).
    static func people(storage: MultiCollectionView.Storage) -> MultiCollectionView {
        MultiCollectionView(
            "people_by_city", storage: storage, collections: [Member.collection, Guest.collection],
            filter: { row in try fields(row).included },
            grouping: { row in try fields(row).city },
            areInIncreasingOrder: { lhs, rhs in try fields(lhs).score < fields(rhs).score })
    }

    /// What the definition gives for `members` and `guests`, by brute force: `collection/key` by group.
    static func expected(members: [Member], guests: [Guest]) -> [String: [String]] {
        var groups: [String: [(score: Double, collection: String, key: String)]] = [:]
        for member in members where member.active {
            guard let city = member.city else { continue }
            groups[city, default: []].append((member.score, Member.collection, member.id))
        }
        for guest in guests where (guest.metadata?.visits ?? 0) < 8 {
            guard let city = guest.city else { continue }
            groups[city, default: []].append((guest.score, Guest.collection, guest.id))
        }
        return groups.mapValues { rows in
            rows.sorted { ($0.score, $0.collection, $0.key) < ($1.score, $1.collection, $1.key) }
                .map { "\($0.collection)/\($0.key)" }
        }
    }

    /// The contents of `view` in `tx`: `collection/key` by group.
    static func contents(_ view: MultiCollectionView, _ tx: ReadTransaction) throws -> [String: [String]] {
        let reader = view.read(tx)
        var contents: [String: [String]] = [:]
        for group in try reader.groups() {
            contents[group] = try reader.rows(in: group).map(\.description)
        }
        return contents
    }

    /// `changes` with each row's key replaced by `collection/key`, to replay on ``contents(_:_:)``.
    static func named(_ changes: ViewChanges) -> ViewChanges {
        var named = changes
        for index in named.rowChanges.indices {
            let change = named.rowChanges[index]
            named.rowChanges[index].key = "\(change.collection ?? "?")/\(change.key)"
        }
        return named
    }
}

struct MultiCollectionViewTests {
    /// The property of views, over two collections that share keys: after every commit of a
    /// random run of writes, metadata changes, touches, removes, removals of one collection and
    /// of everything, the reported changes turn the previous contents into the new ones, and the
    /// contents are filter + group + sort by brute force over both collections.
    @Test(arguments: [MultiCollectionView.Storage.persistent, .inMemory])
    func randomCommitsOverTwoCollectionsMatchModelAndChangesReplay(storage: MultiCollectionView.Storage) async throws {
        let soak = ProcessInfo.processInfo.environment["TROVE_VIEW_SOAK"].flatMap { Int($0) }
        let view = MultiViewTestViews.people(storage: storage)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        let reader = try database.newConnection()
        var random = SplitMix64(seed: 0x4D55_4C54)
        var changes = database.changes.makeAsyncIterator()
        var previous: [String: [String]] = [:]
        let keys = (0..<60).map { "k\($0)" }
        let cities: [String?] = ["a", "b", "c", nil]

        for step in 0..<(soak ?? 400) {
            try Self.commitRandomBatch(connection, random: &random, keys: keys, cities: cities)
            let next = await changes.next()
            let changeset = try #require(next)
            let (members, guests, current) = try Self.readState(reader, view: view)
            let expected = MultiViewTestViews.expected(members: members, guests: guests)
            #expect(current == expected, "the view at commit \(step) differs from the model")
            // Ranges of a group (which may span pages) and single rows read by index equal the slices.
            if step % 5 == 0 {
                var probes: [(group: String, range: Range<Int>)] = []
                for (group, rows) in current.sorted(by: { $0.key < $1.key }) {
                    let lower = Int.random(in: 0...rows.count, using: &random)
                    probes.append((group, lower..<Int.random(in: lower...rows.count, using: &random)))
                }
                let asked = probes
                let read = try await reader.read { tx in
                    let viewReader = view.read(tx)
                    return try asked.map { probe in
                        (
                            try viewReader.rows(in: probe.group, range: probe.range).map(\.description),
                            try viewReader.row(at: probe.range.lowerBound, in: probe.group)?.description
                        )
                    }
                }
                for (probe, (rows, first)) in zip(asked, read) {
                    let all = current[probe.group] ?? []
                    #expect(rows == Array(all[probe.range]), "rows \(probe.range) of \(probe.group) at \(step)")
                    #expect(first == (probe.range.lowerBound < all.count ? all[probe.range.lowerBound] : nil))
                }
            }
            let viewChanges = changeset.viewChanges[view.name] ?? ViewChanges()
            #expect(viewChanges.rowChanges.allSatisfy { $0.collection != nil }, "changes name their collections")
            let replayed = MultiViewTestViews.named(viewChanges).applied(to: previous)
            #expect(
                replayed == current,
                "replaying the changes at commit \(step) gives \(replayed), not \(current); changes: \(viewChanges.rowChanges)"
            )
            for change in MultiViewTestViews.named(viewChanges).rowChanges
            where change.kind == .updated || change.kind == .moved {
                if let to = change.to { #expect(current[to.group]?[to.index] == change.key, "\(change) at \(step)") }
                if let from = change.from {
                    #expect(previous[from.group]?[from.index] == change.key, "\(change) at \(step)")
                }
            }
            viewChanges.expectGroupChanges(from: previous, to: current, at: "\(step)")
            if current != expected || replayed != current { return }
            previous = current
        }
    }

    /// Removing one collection takes out its rows only, and the changes say which collection's
    /// rows left, though the other collection has rows with the same keys.
    @Test func removingOneCollectionKeepsTheOther() async throws {
        let view = MultiViewTestViews.people(storage: .persistent)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        try await connection.write { tx in
            try tx.write(Member(id: "x", age: 1, city: "a", score: 1, active: true))
            try tx.write(Guest(id: "x", city: "a", score: 2))
            try tx.write(Guest(id: "y", city: "b", score: 0))
        }
        var changes = database.changes.makeAsyncIterator()
        try await connection.write { tx in _ = try tx.removeAll(Guest.self) }
        let changeset = try #require(await changes.next())
        let viewChanges = try #require(changeset.viewChanges[view.name])
        #expect(
            viewChanges.rowChanges == [
                ViewRowChange(
                    kind: .removed, key: "x", from: ViewIndexPath(group: "a", index: 1), to: nil, collection: "guests"),
                ViewRowChange(
                    kind: .removed, key: "y", from: ViewIndexPath(group: "b", index: 0), to: nil, collection: "guests"),
            ])
        #expect(viewChanges.groupChanges == [ViewGroupChange(kind: .removed, group: "b")])
        let (rows, member, guest, count) = try Self.readRemovalState(connection, view: view)
        #expect(rows == [ViewRowKey(collection: "members", key: "x")])
        #expect(member == ViewIndexPath(group: "a", index: 0))
        #expect(guest == nil)
        #expect(count == 1)
    }

    /// A view registered on a file that already holds items of both collections is built from
    /// both; a later open with the same definition finds it built.
    @Test func populatesFromBothCollectionsAndReopens() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = (folder as NSString).appendingPathComponent("multi.trove")
        let view = MultiViewTestViews.people(storage: .persistent)
        do {
            let database = try Database(path: path)
            let connection = try database.newConnection()
            try connection.write { tx in
                try tx.write(Member(id: "m", age: 1, city: "a", score: 3, active: true))
                try tx.write(Guest(id: "m", city: "a", score: 1))
                try tx.write(Guest(id: "g", city: "a", score: 3, metadata: MemberStats(visits: 9)))
            }
            #expect(try database.register(view.databaseExtension) == .created)
            let contents = try connection.read { tx in try MultiViewTestViews.contents(view, tx) }
            #expect(contents == ["a": ["guests/m", "members/m"]])
        }
        let reopened = try Database(path: path)
        #expect(try reopened.register(view.databaseExtension) == .unchanged)
        let contents = try reopened.newConnection().read { tx in try MultiViewTestViews.contents(view, tx) }
        #expect(contents == ["a": ["guests/m", "members/m"]])
    }

    /// A view that names no collection is refused when it is registered.
    @Test func aViewOfNoCollectionIsRefused() throws {
        let database = try makeTemporaryDatabase()
        let view = MultiCollectionView(
            "nothing", collections: [], grouping: { _ in "g" }, areInIncreasingOrder: { _, _ in false })
        #expect(throws: TroveError.self) { try database.register(view.databaseExtension) }
    }

    static func readState(_ connection: Connection, view: MultiCollectionView) throws -> (
        [Member], [Guest], [String: [String]]
    ) {
        try connection.read { tx in
            (try tx.readAll(Member.self), try tx.readAll(Guest.self), try MultiViewTestViews.contents(view, tx))
        }
    }

    static func readRemovalState(_ connection: Connection, view: MultiCollectionView) throws -> (
        [ViewRowKey], ViewIndexPath?, ViewIndexPath?, Int
    ) {
        try connection.read { tx in
            let reader = view.read(tx)
            return (
                try reader.rows(in: "a"), try reader.indexPath(ofKey: "x", in: "members"),
                try reader.indexPath(ofKey: "x", in: "guests"), try reader.count()
            )
        }
    }

    static func commitRandomBatch(
        _ connection: Connection, random: inout SplitMix64, keys: [String], cities: [String?]
    ) throws {
        func stats() -> MemberStats? {
            Bool.random(using: &random) ? MemberStats(visits: Int.random(in: 0..<10, using: &random)) : nil
        }
        func score() -> Double { Double(Int.random(in: 0..<5, using: &random)) }
        let batch = Int.random(in: 1...10, using: &random)
        try connection.write { tx in
            for _ in 0..<batch {
                let key = keys.randomElement(using: &random)!
                let isMember = Bool.random(using: &random)
                let city = cities.randomElement(using: &random)!
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<45:
                    if isMember {
                        try tx.write(
                            Member(
                                id: key, age: 1, city: city, score: score(), active: Bool.random(using: &random),
                                metadata: stats()))
                    } else {
                        try tx.write(Guest(id: key, city: city, score: score(), metadata: stats()))
                    }
                case 45..<58:
                    if isMember {
                        _ = try tx.setMetadata(stats(), for: Member.self, key: key)
                    } else {
                        _ = try tx.setMetadata(stats(), for: Guest.self, key: key)
                    }
                case 58..<66:
                    let collection = isMember ? Member.collection : Guest.collection
                    if try isMember ? tx.read(Member.self, key: key) != nil : tx.read(Guest.self, key: key) != nil {
                        try tx.touch(key: key, in: collection)
                    }
                case 66..<95:
                    if isMember {
                        _ = try tx.remove(Member.self, key: key)
                    } else {
                        _ = try tx.remove(Guest.self, key: key)
                    }
                case 95..<99:
                    if isMember {
                        _ = try tx.removeAll(Member.self)
                    } else {
                        _ = try tx.removeAll(Guest.self)
                    }
                default:
                    _ = try tx.removeAllItems()
                }
            }
            // Every commit changes something, so that it has a changeset.
            try tx.write(Guest(id: keys.randomElement(using: &random)!, city: "a", score: score()))
        }
    }
}
