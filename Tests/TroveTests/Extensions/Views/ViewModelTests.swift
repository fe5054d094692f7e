import Foundation
import Testing
import Trove
import TroveTestSupport

extension ViewChanges {
    /// Expects the group changes to name exactly the groups that appeared between `previous` and
    /// `current` (inserted) and those that went (removed); `moment` says when, in the messages.
    func expectGroupChanges(
        from previous: [String: [String]], to current: [String: [String]], at moment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            Set(groupChanges.filter { $0.kind == .inserted }.map(\.group)) == Set(current.keys).subtracting(previous.keys),
            "inserted groups at \(moment)", sourceLocation: sourceLocation)
        #expect(
            Set(groupChanges.filter { $0.kind == .removed }.map(\.group)) == Set(previous.keys).subtracting(current.keys),
            "removed groups at \(moment)", sourceLocation: sourceLocation)
    }
}

enum ViewTestViews {
    /// Members with fewer than 8 visits, grouped by city, sorted by score (ties by key).
    static let byCity = byCity(storage: .persistent)

    /// The active members of ``byCity``.
    static let activeByCity = byCity.filtered("members_active_by_city") { member, _ in member.active }

    /// ``byCity`` with its pages in `storage`.
    static func byCity(storage: View<Member>.Storage) -> View<Member> {
        View<Member>(
            "members_by_city", storage: storage,
            filter: { _, metadata in (metadata?.visits ?? 0) < 8 },
            grouping: { member, _ in member.city },
            sortedBy: [.ascending(\.score)])
    }

    /// ``activeByCity`` with its pages in `storage`.
    static func activeByCity(storage: View<Member>.Storage) -> View<Member> {
        byCity(storage: storage).filtered("members_active_by_city") { member, _ in member.active }
    }

    /// What `view`'s definition gives for `members`, computed by brute force: keys by group.
    static func expected(
        _ members: [Member], filter: (Member) -> Bool
    ) -> [String: [String]] {
        var groups: [String: [Member]] = [:]
        for member in members where (member.metadata?.visits ?? 0) < 8 && filter(member) {
            guard let city = member.city else { continue }
            groups[city, default: []].append(member)
        }
        return groups.mapValues { members in
            members.sorted { ($0.score, $0.id) < ($1.score, $1.id) }.map(\.id)
        }
    }

    /// The contents of `view` in `tx`: keys by group.
    static func contents(_ view: View<Member>, _ tx: ReadTransaction) throws -> [String: [String]] {
        let reader = view.read(tx)
        var contents: [String: [String]] = [:]
        for group in try reader.groups() {
            contents[group] = try reader.keys(in: group)
        }
        return contents
    }
}

struct ViewModelTests {
    /// The property the feature rests on: after every commit of a long random run, (a) the
    /// reported changes turn the previous contents into the new ones, and (b) the contents are
    /// what filter + group + sort give over all items, computed by brute force.
    /// One set of behaviours, every storage: the pages in the file or in memory.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func randomCommitsMatchModelAndChangesReplay(storage: View<Member>.Storage) async throws {
        let soak = ProcessInfo.processInfo.environment["TROVE_VIEW_SOAK"].flatMap { Int($0) }
        try await runModel(storage: storage, seed: 0x5EED_0015, commits: soak ?? 600, keyCount: 120)
    }

    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func randomCommitsInFewGroupsWithManySplits(storage: View<Member>.Storage) async throws {
        // No removal of the whole collection: groups grow past a page, so that pages split and
        // merge in the middle of groups.
        try await runModel(
            storage: storage, seed: 42, commits: 200, keyCount: 400, cities: ["x", "y"], maxBatch: 80,
            bulkRemovals: false)
    }

    func runModel(
        storage: View<Member>.Storage, seed: UInt64, commits: Int, keyCount: Int,
        cities: [String?] = ["a", "b", "c", "d", nil], maxBatch: Int = 12, bulkRemovals: Bool = true
    ) async throws {
        let views = [ViewTestViews.byCity(storage: storage), ViewTestViews.activeByCity(storage: storage)]
        let database = try makeTemporaryDatabase(extensions: views.map(\.databaseExtension))
        let connection = try database.newConnection()
        // The contents are read on another connection: its own snapshot of the file, and of an
        // in-memory view's versions.
        let reader = try database.newConnection()
        var random = SplitMix64(seed: seed)
        var changes = database.changes.makeAsyncIterator()
        var previous: [[String: [String]]] = [[:], [:]]
        let keys = (0..<keyCount).map { "m\($0)" }

        for step in 0..<commits {
            try Self.commitRandomBatch(
                connection, random: &random, keys: keys, cities: cities, maxBatch: maxBatch, bulkRemovals: bulkRemovals)
            let next = await changes.next()
            let changeset = try #require(next)
            let (all, current) = try Self.readState(reader, views: views)
            for (offset, view) in views.enumerated() {
                let expected = ViewTestViews.expected(all, filter: offset == 0 ? { _ in true } : { $0.active })
                #expect(current[offset] == expected, "view \(view.name) at commit \(step) differs from the model")
                let viewChanges = changeset.viewChanges[view.name] ?? ViewChanges()
                let replayed = viewChanges.applied(to: previous[offset])
                #expect(
                    replayed == current[offset],
                    "replaying the changes of \(view.name) at commit \(step) gives \(replayed), not \(current[offset]); changes: \(viewChanges.rowChanges)"
                )
                for change in viewChanges.rowChanges where change.kind == .updated || change.kind == .moved {
                    if let to = change.to {
                        #expect(current[offset][to.group]?[to.index] == change.key, "\(change) at commit \(step)")
                    }
                    if let from = change.from {
                        #expect(previous[offset][from.group]?[from.index] == change.key, "\(change) at commit \(step)")
                    }
                }
                let insertedGroups = Set(current[offset].keys).subtracting(previous[offset].keys)
                let removedGroups = Set(previous[offset].keys).subtracting(current[offset].keys)
                #expect(
                    Set(viewChanges.groupChanges.filter { $0.kind == .inserted }.map(\.group)) == insertedGroups,
                    "inserted groups of \(view.name) at commit \(step)")
                #expect(
                    Set(viewChanges.groupChanges.filter { $0.kind == .removed }.map(\.group)) == removedGroups,
                    "removed groups of \(view.name) at commit \(step)")
                if current[offset] != expected || replayed != current[offset] { return }
            }
            previous = current
        }
    }

    static func readState(_ connection: Connection, views: [View<Member>]) throws -> (
        [Member], [[String: [String]]]
    ) {
        try connection.read { tx in
            (try tx.readAll(Member.self), try views.map { try ViewTestViews.contents($0, tx) })
        }
    }

    /// One commit of 1 to `maxBatch` + 1 random writes, updates, metadata changes, touches, removes and
    /// (when `bulkRemovals`) removals of the collection or of everything.
    static func commitRandomBatch(
        _ connection: Connection, random: inout SplitMix64, keys: [String], cities: [String?], maxBatch: Int,
        bulkRemovals: Bool = true
    ) throws {
        func randomMember(_ key: String) -> Member {
            Member(
                id: key, age: Int.random(in: 0..<90, using: &random),
                city: cities.randomElement(using: &random)!, score: Double(Int.random(in: 0..<6, using: &random)),
                active: Bool.random(using: &random),
                metadata: Bool.random(using: &random) ? MemberStats(visits: Int.random(in: 0..<10, using: &random)) : nil)
        }
        let batch = Int.random(in: 1...maxBatch, using: &random)
        try connection.write { tx in
            for _ in 0..<batch {
                let key = keys.randomElement(using: &random)!
                let choice = Int.random(in: 0..<(bulkRemovals ? 100 : 97), using: &random)
                switch choice {
                case 0..<45:
                    try tx.write(randomMember(key))
                case 45..<60:
                    _ = try tx.setMetadata(
                        Bool.random(using: &random) ? MemberStats(visits: Int.random(in: 0..<10, using: &random)) : nil,
                        for: Member.self, key: key)
                case 60..<70:
                    if try tx.read(Member.self, key: key) != nil { try tx.touch(key: key, in: Member.collection) }
                case 70..<97:
                    _ = try tx.remove(Member.self, key: key)
                case 97..<99:
                    _ = try tx.removeAll(Member.self)
                default:
                    _ = try tx.removeAllItems()
                }
            }
            // Every commit changes something, so that it has a changeset.
            try tx.write(randomMember(keys.randomElement(using: &random)!))
        }
    }
}
