import Foundation
import Testing
import Trove
import TroveTestSupport

/// Mappings and sections: the model test and a few named cases.
struct ViewMappingsTests {
    static let cities: [String?] = ["a", "b", "c", "d", nil]

    /// The sections `mappings` give of `contents` (keys by group, in the view's order), computed
    /// by brute force: reverse, then cut the range in the shown order.
    static func expectedSections(
        _ contents: [String: [String]], mappings: ViewMappings, dynamic: DynamicGroups?, previous: ViewSections? = nil
    ) -> [ViewSectionContent] {
        let groups: [String]
        if let fixed = mappings.groups.fixedGroups {
            groups = fixed
        } else {
            let dynamic = try! #require(dynamic)
            groups = contents.keys.filter(dynamic.filter).sorted(by: dynamic.descending ? (>) : (<))
        }
        var sections: [ViewSectionContent] = []
        for group in groups {
            let rows = mappings.rows(of: group)
            var keys = contents[group] ?? []
            if rows.reversed { keys.reverse() }
            switch rows.range {
            case .all: break
            case .first(let n): keys = Array(keys.prefix(n))
            case .last(let n): keys = Array(keys.suffix(n))
            case .flexible(let range):
                keys = Self.flexibleRows(keys, range: range, previous: previous.flatMap { Self.shownKeys(of: group, in: $0) })
            }
            if keys.isEmpty && !(mappings.showsEmptyGroups && mappings.groups.fixedGroups != nil) { continue }
            sections.append(ViewSectionContent(group: group, keys: keys))
        }
        if let consolidation = mappings.consolidation, !sections.isEmpty,
            sections.map(\.keys.count).reduce(0, +) < consolidation.threshold
        {
            return [ViewSectionContent(group: consolidation.group, keys: sections.flatMap(\.keys))]
        }
        return sections
    }

    /// The keys `previous` showed of `group`, in its own section or a consolidated one.
    static func shownKeys(of group: String, in previous: ViewSections) -> [String]? {
        for section in previous.sections {
            if section.consolidated.isEmpty, section.group == group { return section.keys }
            if let part = section.consolidated.first(where: { $0.group == group }) { return part.keys }
        }
        return nil
    }

    /// The rows a flexible range shows of `keys` (the group in the shown order), by brute force:
    /// the pinned end at the offset; the far end on the farthest row shown before that is still
    /// on the far side (else the length shown before); the length within the range's bounds.
    static func flexibleRows(_ keys: [String], range: ViewMappings.FlexibleRange, previous: [String]?) -> [String] {
        let pinnedIndex = range.pin == .end ? keys.count - range.offset : range.offset  // first excluded / first shown
        var length = range.length
        if let previous {
            var farthest: Int?
            for key in previous {
                guard let index = keys.firstIndex(of: key) else { continue }
                let rows = range.pin == .end ? pinnedIndex - index : index - pinnedIndex + 1
                if rows > 0 { farthest = max(farthest ?? 0, rows) }
            }
            length = farthest ?? previous.count
        }
        let available = range.pin == .end ? max(0, pinnedIndex) : max(0, keys.count - range.offset)
        length = min(max(length, range.minimumLength), range.maximumLength, available)
        if range.pin == .end {
            let end = max(0, pinnedIndex)
            return Array(keys[(end - length)..<end])
        }
        let start = min(range.offset, keys.count)
        return Array(keys[start..<(start + length)])
    }

    /// The closures of a dynamic selection, known to the model.
    struct DynamicGroups {
        var excluded: String
        var descending: Bool
        func filter(_ group: String) -> Bool { group != excluded }
    }

    static func randomRows(_ random: inout SplitMix64) -> ViewMappings.Rows {
        let n = Int.random(in: 0...6, using: &random)
        let range: ViewMappings.Range
        switch Int.random(in: 0..<5, using: &random) {
        case 0: range = .all
        case 1: range = .first(n)
        case 2: range = .last(n)
        default:
            let minimum = Int.random(in: 0...3, using: &random)
            range = .flexible(
                ViewMappings.FlexibleRange(
                    length: n, offset: Int.random(in: 0...2, using: &random),
                    pin: Bool.random(using: &random) ? .end : .beginning, minimumLength: minimum,
                    maximumLength: Bool.random(using: &random) ? minimum + Int.random(in: 0...8, using: &random) : .max))
        }
        // Rows that draw from their neighbours half the time: the one before, after, or two before.
        let dependencies = Bool.random(using: &random) ? Set([-1, 1, -2].filter { _ in Bool.random(using: &random) }) : []
        return ViewMappings.Rows(reversed: Bool.random(using: &random), range: range, dependencies: dependencies)
    }

    static func randomMappings(_ random: inout SplitMix64) -> (ViewMappings, DynamicGroups?) {
        let groups: ViewMappings.Groups
        var dynamic: DynamicGroups?
        if Bool.random(using: &random) {
            let names = ["a", "b", "c", "d", "zz"].filter { _ in Int.random(in: 0..<4, using: &random) != 0 }
            groups = .fixed(names.shuffled(using: &random))
        } else {
            let model = DynamicGroups(
                excluded: ["a", "b", "c", "d", "none"].randomElement(using: &random)!,
                descending: Bool.random(using: &random))
            dynamic = model
            let excluded = model.excluded
            let descending = model.descending
            groups = .dynamic(
                "not \(excluded) \(descending)", filter: { $0 != excluded },
                areInIncreasingOrder: { descending ? $0 > $1 : $0 < $1 })
        }
        var byGroup: [String: ViewMappings.Rows] = [:]
        for group in ["a", "b", "c", "d"] where Int.random(in: 0..<3, using: &random) == 0 {
            byGroup[group] = randomRows(&random)
        }
        // One section under a threshold of rows, a third of the time.
        let consolidation =
            Int.random(in: 0..<3, using: &random) == 0
            ? ViewMappings.Consolidation(threshold: Int.random(in: 1...14, using: &random), group: "all") : nil
        let mappings = ViewMappings(
            groups: groups, rows: randomRows(&random), rowsByGroup: byGroup,
            showsEmptyGroups: Bool.random(using: &random), consolidation: consolidation)
        return (mappings, dynamic)
    }

    /// The property mappings rest on: a consumer holding sections at one snapshot advances by a
    /// random run of 1...k commits of random writes, metadata changes, touches and removes;
    /// then, for random mappings (fixed and dynamic groups, reversed, first/last N):
    /// - the sections equal the brute-force sections of the brute-force view contents;
    /// - applying the changes to the old sections gives exactly the new ones;
    /// - every row shown in both whose item or metadata changed is reported updated (or moved
    ///   with changed parts), with the right parts, and no other row is;
    /// - each reported position holds its key, and each shown row maps to its index in the group.
    ///
    /// 500 runs (about 1,500 commits) here; `TROVE_VIEW_SOAK=5000` runs 5,000 (about a minute).
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func randomRunsOfCommitsMatchModel(storage: View<Member>.Storage) async throws {
        let soak = ProcessInfo.processInfo.environment["TROVE_VIEW_SOAK"].flatMap { Int($0) }
        try await runModel(seed: 0x0015_3A95, runs: soak ?? 500, maxRun: 5, storage: storage)
    }

    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func longRunsWithFewKeys(storage: View<Member>.Storage) async throws {
        try await runModel(seed: 7, runs: 150, maxRun: 12, keyCount: 20, mappingsCount: 6, storage: storage)
    }

    func runModel(
        seed: UInt64, runs: Int, maxRun: Int, keyCount: Int = 60, mappingsCount: Int = 4, storage: View<Member>.Storage
    ) async throws {
        let view = ViewTestViews.byCity(storage: storage)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        var random = SplitMix64(seed: seed)
        let keys = (0..<keyCount).map { "m\($0)" }
        var allMappings = (0..<mappingsCount).map { _ in Self.randomMappings(&random) }
        var (oldMembers, oldSections) = try Self.read(
            connection, view: view, mappings: allMappings.map(\.0), previous: allMappings.map { _ in nil })
        var updatesSeen = 0
        var movesSeen = 0
        var neighboursSeen = 0
        var consolidationsCrossed = 0

        for run in 0..<runs {
            let length = Int.random(in: 1...maxRun, using: &random)
            for _ in 0..<length {
                try ViewModelTests.commitRandomBatch(
                    connection, random: &random, keys: keys, cities: Self.cities, maxBatch: 6)
            }
            let (members, sections) = try Self.read(
                connection, view: view, mappings: allMappings.map(\.0), previous: oldSections)
            let contents = ViewTestViews.expected(Array(members.values), filter: { _ in true })
            for (offset, (mappings, dynamic)) in allMappings.enumerated() {
                let old = oldSections[offset]
                let new = sections[offset]
                let expected = Self.expectedSections(contents, mappings: mappings, dynamic: dynamic, previous: old)
                #expect(new.contents == expected, "run \(run), mappings \(offset): sections differ from the model")
                let changes = new.changes(since: old)
                let replayed = changes.applied(to: old.contents)
                #expect(
                    replayed == new.contents,
                    "run \(run), mappings \(offset): replaying \(changes.sectionChanges) \(changes.rowChanges) gives \(replayed), not \(new.contents)"
                )
                // Sections: removed by old index, inserted by new index, exactly the groups that went
                // and came.
                let removed = Set(old.groups).subtracting(new.groups)
                let inserted = Set(new.groups).subtracting(old.groups)
                for change in changes.sectionChanges {
                    switch change.kind {
                    case .removed: #expect(old.groups[change.index] == change.group && removed.contains(change.group))
                    case .inserted: #expect(new.groups[change.index] == change.group && inserted.contains(change.group))
                    }
                }
                #expect(changes.sectionChanges.count == removed.count + inserted.count, "run \(run)")
                if let name = mappings.consolidation?.group, old.groups.contains(name) != new.groups.contains(name),
                    !old.groups.isEmpty, !new.groups.isEmpty
                {
                    consolidationsCrossed += 1
                }

                // Updates: exactly the rows shown in kept sections before and after whose item or
                // metadata changed.
                let reported = Dictionary(
                    changes.rowChanges.filter { $0.kind == .updated || ($0.kind == .moved && !$0.changedParts.isEmpty) }
                        .map { ($0.key, $0.changedParts) }, uniquingKeysWith: { a, _ in a })
                var expectedUpdates: [String: ViewRowChange.Parts] = [:]
                func ownParts(_ key: String) -> ViewRowChange.Parts {
                    guard let before = oldMembers[key], let after = members[key] else { return [] }
                    var beforeData = before
                    beforeData.metadata = nil
                    var afterData = after
                    afterData.metadata = nil
                    if beforeData != afterData { return .item }
                    return before.metadata != after.metadata ? .metadata : []
                }
                for key in Set(old.contents.flatMap(\.keys)).intersection(new.contents.flatMap(\.keys)) {
                    guard let path = new.indexPath(ofKey: key), let oldPath = old.indexPath(ofKey: key),
                        !inserted.contains(new.groups[path.section]), !removed.contains(old.groups[oldPath.section])
                    else { continue }
                    var parts = ownParts(key)
                    // A neighbour it draws from, brute force: the key at each offset, before and after.
                    let oldKeys = old.contents[oldPath.section].keys
                    let newKeys = new.contents[path.section].keys
                    for offset in mappings.rows(of: new.groups[path.section]).dependencies {
                        let before = oldKeys.indices.contains(oldPath.row + offset) ? oldKeys[oldPath.row + offset] : nil
                        let after = newKeys.indices.contains(path.row + offset) ? newKeys[path.row + offset] : nil
                        if before != after || after.map({ !ownParts($0).isEmpty }) == true { parts.insert(.neighbour) }
                    }
                    if !parts.isEmpty { expectedUpdates[key] = parts }
                }
                #expect(
                    reported == expectedUpdates,
                    "run \(run), mappings \(offset): updates reported \(reported), expected \(expectedUpdates)")
                // One failing run is enough to read: stop there.
                if new.contents != expected || replayed != new.contents || reported != expectedUpdates { return }
                for change in changes.rowChanges {
                    if change.kind == .updated { updatesSeen += 1 }
                    if change.changedParts.contains(.neighbour) { neighboursSeen += 1 }
                    if change.kind == .moved { movesSeen += 1 }
                    if let from = change.from { #expect(old.key(at: from) == change.key, "run \(run): \(change)") }
                    if let to = change.to { #expect(new.key(at: to) == change.key, "run \(run): \(change)") }
                }
            }
            if Int.random(in: 0..<20, using: &random) == 0 {
                // Another list with other mappings starts following the view.
                allMappings[Int.random(in: 0..<mappingsCount, using: &random)] = Self.randomMappings(&random)
                (oldMembers, oldSections) = try Self.read(
                    connection, view: view, mappings: allMappings.map(\.0), previous: allMappings.map { _ in nil })
            } else {
                (oldMembers, oldSections) = (members, sections)
            }
        }
        // The run exercised what it claims to check.
        #expect(
            updatesSeen > runs / 4 && movesSeen > runs / 4 && neighboursSeen > runs / 4 && consolidationsCrossed > 0,
            "updates \(updatesSeen), moves \(movesSeen), neighbours \(neighboursSeen), consolidations crossed \(consolidationsCrossed)")
    }

    /// Every member by key, and the sections of each mappings, in one transaction; checks that
    /// each shown row is at its reported index of the view's group.
    static func read(
        _ connection: Connection, view: View<Member>, mappings: [ViewMappings], previous: [ViewSections?]
    ) throws -> (
        [String: Member], [ViewSections]
    ) {
        try connection.read { tx in
            let members = Dictionary(uniqueKeysWithValues: try tx.readAll(Member.self).map { ($0.id, $0) })
            let reader = view.read(tx)
            let sections = try zip(mappings, previous).map { try reader.sections($0, following: $1) }
            for each in sections {
                for section in each.sections {
                    for (row, key) in section.keys.enumerated() {
                        let (group, index) = try #require(section.groupPosition(ofRow: row))
                        #expect(try reader.key(at: index, in: group) == key, "row \(row) of \(section.group)")
                        #expect(each.section(ofGroup: group) != nil)
                        if section.consolidated.isEmpty {
                            #expect(section.groupIndex(ofRow: row) == index)
                            #expect(section.row(ofGroupIndex: index) == row)
                        }
                    }
                    #expect(
                        section.groupIndex(ofRow: -1) == nil && section.groupIndex(ofRow: section.keys.count) == nil)
                }
            }
            return (members, sections)
        }
    }

    /// A flexible range pinned to the end: it grows with the rows added at the end up to its
    /// maximum, then its far end gives way; a row removed inside it shrinks it; `.last(3)` over the
    /// same commits scrolls instead.
    @Test func aFlexibleRangeGrowsAndShrinksWithItsRows() throws {
        let view = ViewTestViews.byCity
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        func member(_ score: Int) -> Member { Member(id: "s\(score)", age: 1, city: "a", score: Double(score)) }
        try database.write { tx in for score in 0..<10 { try tx.write(member(score)) } }
        let flexible = ViewMappings(
            groups: .fixed(["a"]),
            rows: .init(range: .flexible(.init(length: 3, pin: .end, minimumLength: 2, maximumLength: 5))))
        let fixed = ViewMappings(groups: .fixed(["a"]), rows: .init(range: .last(3)))
        var sections = try database.read { tx in try view.read(tx).sections(flexible) }
        var fixedSections = try database.read { tx in try view.read(tx).sections(fixed) }
        func step(_ write: (ReadWriteTransaction) throws -> Void) throws -> (ViewSectionChanges, ViewSectionChanges) {
            try database.write { tx in try write(tx) }
            let (next, nextFixed) = try database.read { tx in
                (try view.read(tx).sections(flexible, following: sections), try view.read(tx).sections(fixed))
            }
            defer { (sections, fixedSections) = (next, nextFixed) }
            return (next.changes(since: sections), nextFixed.changes(since: fixedSections))
        }
        #expect(sections.sections[0].keys == ["s7", "s8", "s9"])
        let (grown, scrolled) = try step { try $0.write(member(10)) }
        #expect(sections.sections[0].keys == ["s7", "s8", "s9", "s10"])
        #expect(grown.rowChanges.map(\.kind) == [.inserted])
        #expect(scrolled.rowChanges.map(\.kind) == [.removed, .inserted])
        _ = try step { tx in for score in 11...12 { try tx.write(member(score)) } }
        #expect(sections.sections[0].keys == ["s8", "s9", "s10", "s11", "s12"])
        _ = try step { _ = try $0.remove(Member.self, key: "s10") }
        #expect(sections.sections[0].keys == ["s8", "s9", "s11", "s12"])
        _ = try step { tx in for key in ["s8", "s9", "s11"] { _ = try tx.remove(Member.self, key: key) } }
        // Under its minimum, the range takes rows again.
        #expect(sections.sections[0].keys == ["s7", "s12"])
    }

    /// The observation of sections follows a flexible range from the sections it read before.
    @Test func anObservedFlexibleRangeGrows() async throws {
        let view = ViewTestViews.byCity
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        func member(_ score: Int) -> Member { Member(id: "s\(score)", age: 1, city: "a", score: Double(score)) }
        try await database.write { tx in for score in 0..<5 { try tx.write(member(score)) } }
        let mappings = ViewMappings(
            groups: .fixed(["a"]), rows: .init(range: .flexible(.init(length: 2, pin: .end))))
        var updates = database.observe(view, mappings: mappings).makeAsyncIterator()
        #expect(try await updates.next()?.sections.sections.first?.keys == ["s3", "s4"])
        try await database.write { tx in try tx.write(member(5)) }
        let update = try #require(try await updates.next())
        #expect(update.sections.sections.first?.keys == ["s3", "s4", "s5"])
        #expect(update.changes?.rowChanges.map(\.kind) == [.inserted])
    }

    /// The last 3 rows of a group: a row added at the end scrolls the first shown one out; a
    /// row updated in place, then moved and updated, across several commits.
    @Test func lastRowsScrollAndMergedUpdates() async throws {
        let view = ViewTestViews.byCity
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        for (id, score) in [("p", 1.0), ("q", 2.0), ("r", 3.0), ("s", 4.0)] {
            try await connection.write(Member(id: id, age: 1, city: "a", score: score))
        }
        let mappings = ViewMappings(groups: .fixed(["a", "b"]), rows: .init(range: .last(3)))
        let before = try await connection.read { tx in try view.read(tx).sections(mappings) }
        #expect(before.contents == [ViewSectionContent(group: "a", keys: ["q", "r", "s"])])

        try await connection.write(Member(id: "t", age: 1, city: "a", score: 5))  // scrolls q out
        try await connection.write(Member(id: "r", age: 2, city: "a", score: 3))  // r updated in place
        try await connection.write(Member(id: "s", age: 1, city: "a", score: 0))  // s moves out of the range
        try await connection.write(Member(id: "s", age: 9, city: "a", score: 4.5))  // and back, updated
        try await connection.write(Member(id: "u", age: 1, city: "b", score: 1))  // section b appears
        let after = try await connection.read { tx in try view.read(tx).sections(mappings) }
        #expect(
            after.contents == [
                ViewSectionContent(group: "a", keys: ["r", "s", "t"]), ViewSectionContent(group: "b", keys: ["u"]),
            ])
        let changes = after.changes(since: before)
        #expect(changes.sectionChanges == [ViewSectionChange(kind: .inserted, index: 1, group: "b", keys: ["u"])])
        #expect(
            changes.rowChanges == [
                ViewSectionRowChange(kind: .removed, key: "q", from: .init(section: 0, row: 0), to: nil),
                ViewSectionRowChange(kind: .inserted, key: "t", from: nil, to: .init(section: 0, row: 2)),
                ViewSectionRowChange(
                    kind: .updated, key: "r", from: .init(section: 0, row: 1), to: .init(section: 0, row: 0),
                    changedParts: .item),
                ViewSectionRowChange(
                    kind: .updated, key: "s", from: .init(section: 0, row: 2), to: .init(section: 0, row: 1),
                    changedParts: .item),
            ])
        #expect(changes.applied(to: before.contents) == after.contents)

        // Reversed, first 2: the same rows seen from the other end.
        let reversed = ViewMappings(groups: .all, rows: .init(reversed: true, range: .first(2)))
        let shown = try await connection.read { tx in try view.read(tx).sections(reversed) }
        #expect(
            shown.contents == [
                ViewSectionContent(group: "a", keys: ["t", "s"]), ViewSectionContent(group: "b", keys: ["u"]),
            ])
        #expect(shown.sections[0].groupIndex(ofRow: 0) == 4 && shown.sections[0].groupRange == 3..<5)
    }

    /// A row that changed section and item in the commits between is moved with changed parts;
    /// a metadata-only change is reported as such; a row updated then removed is removed only.
    @Test func movedAndRemovedRowsAcrossCommits() async throws {
        let view = ViewTestViews.byCity
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        try await connection.write(Member(id: "x", age: 1, city: "a", score: 1))
        try await connection.write(Member(id: "y", age: 1, city: "b", score: 1))
        try await connection.write(Member(id: "z", age: 1, city: "b", score: 2))
        try await connection.write(Member(id: "w", age: 1, city: "b", score: 3))
        let mappings = ViewMappings(groups: .fixed(["a", "b"]))
        let before = try await connection.read { tx in try view.read(tx).sections(mappings) }

        try await connection.write(Member(id: "y", age: 5, city: "b", score: 1))
        try await connection.write(Member(id: "y", age: 5, city: "a", score: 2))  // moves to a
        try await connection.write(Member(id: "z", age: 5, city: "b", score: 2))
        _ = try await connection.write { tx in try tx.remove(Member.self, key: "z") }
        _ = try await connection.write { tx in
            try tx.setMetadata(MemberStats(visits: 1), for: Member.self, key: "w")
        }
        let after = try await connection.read { tx in try view.read(tx).sections(mappings) }
        let changes = after.changes(since: before)
        #expect(
            changes.rowChanges == [
                ViewSectionRowChange(kind: .removed, key: "z", from: .init(section: 1, row: 1), to: nil),
                ViewSectionRowChange(
                    kind: .moved, key: "y", from: .init(section: 1, row: 0), to: .init(section: 0, row: 1),
                    changedParts: .item),
                ViewSectionRowChange(
                    kind: .updated, key: "w", from: .init(section: 1, row: 2), to: .init(section: 1, row: 0),
                    changedParts: .metadata),
            ])
        #expect(changes.applied(to: before.contents) == after.contents)
    }

    /// The observation yields the sections now without changes, then after commits the sections
    /// with the changes since the element before, commits made meanwhile merged, updates in
    /// place included.
    @Test func observationYieldsSectionsAndMergedChanges() async throws {
        let view = ViewTestViews.byCity
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        try await connection.write(Member(id: "x", age: 1, city: "a", score: 1))
        let mappings = ViewMappings(groups: .all, rows: .init(reversed: true))
        var iterator = database.observe(view, mappings: mappings).makeAsyncIterator()
        let first = try #require(try await iterator.next())
        #expect(first.changes == nil)
        #expect(first.sections.contents == [ViewSectionContent(group: "a", keys: ["x"])])

        // Three commits before the consumer asks again: one element, every change in it.
        try await connection.write(Member(id: "y", age: 1, city: "a", score: 2))
        try await connection.write(Member(id: "x", age: 2, city: "a", score: 1))
        try await connection.write(Member(id: "z", age: 1, city: "b", score: 1))
        // The observation may have read between the commits: follow it to the last state.
        let target = [ViewSectionContent(group: "a", keys: ["y", "x"]), ViewSectionContent(group: "b", keys: ["z"])]
        var shown = first.sections
        while shown.contents != target {
            let update = try #require(try await iterator.next())
            let changes = try #require(update.changes)
            #expect(changes.applied(to: shown.contents) == update.sections.contents)
            #expect(changes.rows(.updated).map(\.key).allSatisfy { $0 == "x" })
            shown = update.sections
        }
        let merged = shown.changes(since: first.sections)
        #expect(merged.rows(.updated).map(\.key) == ["x"])

        // An update in place that moves nothing still yields an element.
        try await connection.write(Member(id: "z", age: 7, city: "b", score: 1))
        let next = try #require(try await iterator.next())
        #expect(next.changes?.rowChanges.map(\.kind) == [.updated])
    }

    /// ``ViewContents/changes(since:)`` reports updates in place too.
    @Test func contentsReportUpdatesInPlace() async throws {
        let view = ViewTestViews.byCity
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        try await connection.write(Member(id: "x", age: 1, city: "a", score: 1))
        try await connection.write(Member(id: "y", age: 1, city: "a", score: 2))
        let before = try await connection.read { tx in try view.read(tx).contents() }
        try await connection.write(Member(id: "x", age: 2, city: "a", score: 1))
        try await connection.write(Member(id: "y", age: 1, city: "a", score: 2))  // same bytes
        let after = try await connection.read { tx in try view.read(tx).contents() }
        #expect(
            after.changes(since: before).rowChanges == [
                ViewRowChange(
                    kind: .updated, key: "x", from: .init(group: "a", index: 0), to: .init(group: "a", index: 0),
                    changedParts: .item)
            ])
        // Equality is about keys: contents read from the view equal the same keys built by hand.
        #expect(after == ViewContents(keysByGroup: after.keysByGroup))
        #expect(after == before)

        // The observation still yields after an update that changes no key.
        var iterator = database.observe(view).makeAsyncIterator()
        let first = try #require(try await iterator.next())
        try await connection.write(Member(id: "y", age: 3, city: "a", score: 2))
        let second = try #require(try await iterator.next())
        #expect(second.changes(since: first).rowChanges.map(\.key) == ["y"])
    }
}
