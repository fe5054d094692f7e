import Foundation
import Testing
import Trove
import TroveTestSupport

/// Manual views against a brute-force model: groups of keys in the order the app gave them.
struct ManualViewModelTests {
    /// The property the feature rests on: after every commit of a long random run of adds,
    /// inserts, moves, removals (at an index, of a key, of a group), item writes, touches, item
    /// removals and removals of the collection, (a) the contents are the model's, and (b) the
    /// reported changes turn the previous contents into the new ones. One set of behaviours,
    /// both storages.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func randomCommitsMatchModelAndChangesReplay(storage: View<Member>.Storage) async throws {
        let (_, kinds) = try await runModel(
            storage: storage, seed: 0x3A_0031, commits: 400, keyCount: 80, groups: ["a", "b", "c", "d"])
        #expect(kinds == [.inserted, .removed, .moved, .updated], "the run reported only \(kinds)")
    }

    /// Few groups and many keys: groups grow past a page, so that pages split and merge in the
    /// middle of groups under inserts and moves at random indexes.
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func randomCommitsInFewGroupsWithManySplits(storage: View<Member>.Storage) async throws {
        let (largestGroup, _) = try await runModel(
            storage: storage, seed: 31, commits: 150, keyCount: 400, groups: ["x", "y"], maxBatch: 60,
            growing: true)
        #expect(largestGroup > 150, "the groups stayed within \(largestGroup) rows: few pages to split")
    }

    /// Runs `commits` random commits; returns the largest group seen and the kinds of row
    /// changes reported, so that a run can show that it reached what it means to test.
    @discardableResult
    func runModel(
        storage: View<Member>.Storage, seed: UInt64, commits: Int, keyCount: Int, groups: [String],
        maxBatch: Int = 10, growing: Bool = false
    ) async throws -> (largestGroup: Int, kinds: Set<ViewRowChange.Kind>) {
        print("ManualViewModelTests seed \(seed) storage \(storage)")
        let view = ManualView<Member>("manual_members", storage: storage)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        // The contents are read on another connection: its own snapshot.
        let reader = try database.newConnection()
        var model = ManualViewModel()
        if growing {
            // Every item is there from the start, for the groups to grow fast.
            try Self.store(keys(keyCount), on: connection)
            model.stored = Set(keys(keyCount))
        }
        var random = SplitMix64(seed: seed)
        var changes = database.changes.makeAsyncIterator()
        var previous: [String: [String]] = [:]
        let keys = keys(keyCount)
        var largestGroup = 0
        var kinds: Set<ViewRowChange.Kind> = []

        for step in 0..<commits {
            try Self.commitRandomBatch(
                connection, view: view, model: &model, random: &random, keys: keys, groups: groups, maxBatch: maxBatch,
                growing: growing)
            let next = await changes.next()
            let changeset = try #require(next)
            let current = try Self.contents(reader, view: view)
            #expect(current == model.groups, "seed \(seed): the view at commit \(step) differs from the model")
            let viewChanges = changeset.viewChanges[view.name] ?? ViewChanges()
            let replayed = viewChanges.applied(to: previous)
            #expect(
                replayed == current,
                "seed \(seed): replaying the changes at commit \(step) gives \(replayed), not \(current); changes: \(viewChanges.rowChanges)"
            )
            for change in viewChanges.rowChanges where change.kind == .updated || change.kind == .moved {
                if let to = change.to {
                    #expect(current[to.group]?[to.index] == change.key, "\(change) at commit \(step)")
                }
                if let from = change.from {
                    #expect(previous[from.group]?[from.index] == change.key, "\(change) at commit \(step)")
                }
            }
            viewChanges.expectGroupChanges(from: previous, to: current, at: "commit \(step)")
            if current != model.groups || replayed != current { return (largestGroup, kinds) }
            largestGroup = max(largestGroup, current.values.map(\.count).max() ?? 0)
            kinds.formUnion(viewChanges.rowChanges.map(\.kind))
            previous = current
        }
        return (largestGroup, kinds)
    }

    func keys(_ count: Int) -> [String] {
        (0..<count).map { "m\($0)" }
    }

    static func store(_ keys: [String], on connection: Connection) throws {
        try connection.write(keys.map { Member(id: $0, age: 0) })
    }

    static func contents(_ connection: Connection, view: ManualView<Member>) throws -> [String: [String]] {
        try connection.read { tx in try ViewTestViews.contents(view, tx) }
    }

    /// One commit of 1 to `maxBatch` random changes, and a write so that it has a changeset.
    static func commitRandomBatch(
        _ connection: Connection, view: ManualView<Member>, model: inout ManualViewModel, random: inout SplitMix64,
        keys: [String], groups: [String], maxBatch: Int, growing: Bool
    ) throws {
        try connection.write { tx in
            let batch = Int.random(in: 1...maxBatch, using: &random)
            for _ in 0..<batch {
                try model.applyRandomOperation(
                    view.write(tx), tx, random: &random, keys: keys, groups: groups, growing: growing)
            }
            // Every commit changes something, so that it has a changeset.
            let key = keys.randomElement(using: &random)!
            try tx.write(Member(id: key, age: Int.random(in: 0..<90, using: &random)))
            model.stored.insert(key)
        }
    }
}

/// The brute-force model of a manual view: its groups of keys, and the keys of the stored items.
struct ManualViewModel {
    var groups: [String: [String]] = [:]
    var stored: Set<String> = []

    /// Takes `key` out of its group, if it is in one; returns its group and index.
    @discardableResult
    mutating func take(_ key: String) -> (group: String, index: Int)? {
        for (group, keys) in groups {
            if let index = keys.firstIndex(of: key) {
                groups[group]!.remove(at: index)
                if groups[group]!.isEmpty { groups[group] = nil }
                return (group, index)
            }
        }
        return nil
    }

    mutating func put(_ key: String, in group: String, at index: Int) {
        groups[group, default: []].insert(key, at: index)
    }

    /// One random change through `writer` and `tx`, applied to the model too. When `growing`,
    /// the removals of groups, of the collection and most of the items' are adds instead.
    mutating func applyRandomOperation(
        _ writer: ManualViewWriter<Member>, _ tx: ReadWriteTransaction, random: inout SplitMix64, keys: [String],
        groups groupNames: [String], growing: Bool
    ) throws {
        let key = keys.randomElement(using: &random)!
        let group = groupNames.randomElement(using: &random)!
        let nonEmpty = groups.keys.sorted()
        var choice = Int.random(in: 0..<100, using: &random)
        if growing, (68..<70).contains(choice) || choice >= 88 { choice = 0 }
        switch choice {
        case 0..<20:
            // Add at the end (a move when the key is in the view).
            guard stored.contains(key) else { return }
            try writer.append(key, to: group)
            take(key)
            put(key, in: group, at: groups[group]?.count ?? 0)
        case 20..<40:
            // Insert at a random index.
            guard stored.contains(key) else { return }
            take(key)
            let index = Int.random(in: 0...(groups[group]?.count ?? 0), using: &random)
            try writer.insert(key, at: index, in: group)
            put(key, in: group, at: index)
        case 40..<55:
            // Move a row, within its group or to another.
            guard let from = nonEmpty.randomElement(using: &random) else { return }
            let index = Int.random(in: 0..<groups[from]!.count, using: &random)
            let moved = groups[from]![index]
            take(moved)
            let newIndex = Int.random(in: 0...(groups[group]?.count ?? 0), using: &random)
            try writer.move(from: index, in: from, to: newIndex, in: group)
            put(moved, in: group, at: newIndex)
        case 55..<62:
            guard let from = nonEmpty.randomElement(using: &random) else { return }
            let index = Int.random(in: 0..<groups[from]!.count, using: &random)
            try writer.remove(at: index, in: from)
            take(groups[from]![index])
        case 62..<68:
            let removed = try writer.remove(key)
            #expect(removed == (take(key) != nil), "remove(\(key)) says \(removed)")
        case 68..<70:
            let count = try writer.removeGroup(group)
            #expect(count == groups[group]?.count ?? 0, "removeGroup(\(group)) says \(count)")
            groups[group] = nil
        case 70..<82:
            // An item written (new or updated) keeps its row, if it has one.
            try tx.write(Member(id: key, age: Int.random(in: 0..<90, using: &random)))
            stored.insert(key)
        case 82..<86:
            if stored.contains(key) { try tx.touch(key: key, in: Member.collection) }
        case 86..<98:
            // An item removed takes its row with it.
            _ = try tx.remove(Member.self, key: key)
            stored.remove(key)
            take(key)
        default:
            _ = try tx.removeAll(Member.self)
            stored.removeAll()
            groups.removeAll()
        }
    }
}

extension ViewTestViews {
    /// The contents of the manual view `view` in `tx`: keys by group.
    static func contents(_ view: ManualView<Member>, _ tx: ReadTransaction) throws -> [String: [String]] {
        let reader = view.read(tx)
        var contents: [String: [String]] = [:]
        for group in try reader.groups() {
            contents[group] = try reader.keys(in: group)
        }
        return contents
    }
}
