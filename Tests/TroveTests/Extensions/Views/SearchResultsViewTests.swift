import Foundation
import Synchronization
import Testing
import Trove
import TroveTestSupport

/// A note to search: its text, a folder (its group; none leaves it out) and a rank (its sort).
struct SNote: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<SNote>
    static let collection = "s_notes"
    var id: String
    var text: String
    var folder: String?
    var rank: Int
}

enum SearchResultsTestViews {
    /// The full-text search of the notes' text. Its name sorts after the views' names, so that
    /// the order of the extensions by name alone would reach the views first.
    static let search = FullTextSearch<SNote>("notes_search", columns: [.column("text") { $0.text }])

    /// The hits, grouped by folder, sorted by rank.
    static func byFolder(storage: View<SNote>.Storage) -> SearchResultsView<SNote> {
        SearchResultsView<SNote>(
            "notes_found", storage: storage, search: search, grouping: { note, _ in note.folder },
            sortedBy: [.ascending(\.rank)])
    }

    /// The parent of ``overParent(storage:)``: the notes of rank under 8, by folder, by rank
    /// descending.
    static func parent(storage: View<SNote>.Storage) -> View<SNote> {
        View<SNote>(
            "notes_by_folder", storage: storage, filter: { note, _ in note.rank < 8 },
            grouping: { note, _ in note.folder }, sortedBy: [.descending(\.rank)])
    }

    /// The hits among the rows of ``parent(storage:)``, in its groups and order.
    static func overParent(storage: View<SNote>.Storage) -> SearchResultsView<SNote> {
        SearchResultsView<SNote>("notes_found_ranked", search: search, over: parent(storage: storage))
    }

    static func contents(_ view: SearchResultsView<SNote>, _ tx: ReadTransaction) throws -> [String: [String]] {
        let reader = view.read(tx)
        var contents: [String: [String]] = [:]
        for group in try reader.groups() {
            contents[group] = try reader.keys(in: group)
        }
        return contents
    }
}

/// The brute-force model: the stored notes, the query, and what the view must hold.
struct SearchResultsModel {
    /// What a query means for the test's vocabulary (lowercase ASCII words).
    ///
    /// A struct, not an enum with an array in each case: LeakSanitizer does not recognize the
    /// pointer of a multi-payload enum's array (its spare bits hold the case), and reports the
    /// arrays of the static ``queries`` as leaked.
    struct Query: Equatable {
        /// Whether each word is a prefix (else a whole token).
        var isPrefixes: Bool
        var words: [String]

        static func prefixes(_ words: [String]) -> Query { Query(isPrefixes: true, words: words) }
        static func words(_ words: [String]) -> Query { Query(isPrefixes: false, words: words) }

        var searchQuery: SearchQuery {
            isPrefixes
                ? .prefixes(of: words.joined(separator: " ")) : .allWords(of: words.joined(separator: " "))
        }

        /// Whether `text` matches, as FTS5 with unicode61 matches it for these words: every word
        /// of the query is a token of the text (or starts one, for prefixes).
        func matches(_ text: String) -> Bool {
            let tokens = text.split(separator: " ").map(String.init)
            return isPrefixes
                ? words.allSatisfy { word in tokens.contains { $0.hasPrefix(word) } }
                : words.allSatisfy(tokens.contains)
        }
    }

    static let vocabulary = ["alpha", "alpine", "alps", "beta", "bet", "better", "gamma", "game", "swift", "swim"]
    static let queries: [Query?] = [
        nil, .prefixes(["al"]), .prefixes(["alp"]), .prefixes(["bet"]), .prefixes(["ga", "al"]), .prefixes(["sw"]),
        .words(["bet"]), .words(["alpha", "swim"]), .prefixes(["x"]), .prefixes(["b"]),
    ]

    var notes: [String: SNote] = [:]
    var query: Query?

    /// The keys by group that the view must hold: the matching notes that `belongs` admits,
    /// grouped by folder, sorted by `sortsBefore`.
    func expected(belongs: (SNote) -> Bool, sortsBefore: (SNote, SNote) -> Bool) -> [String: [String]] {
        guard let query else { return [:] }
        var groups: [String: [SNote]] = [:]
        for note in notes.values where query.matches(note.text) && belongs(note) {
            guard let folder = note.folder else { continue }
            groups[folder, default: []].append(note)
        }
        return groups.mapValues { $0.sorted(by: sortsBefore).map(\.id) }
    }

    static func randomNote(_ key: String, random: inout SplitMix64) -> SNote {
        let count = Int.random(in: 1...3, using: &random)
        let text = (0..<count).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " ")
        return SNote(
            id: key, text: text, folder: ["a", "b", "c", nil].randomElement(using: &random)!,
            rank: Int.random(in: 0..<10, using: &random))
    }
}

struct SearchResultsViewTests {
    // MARK: The model

    /// The property the view rests on: after every commit of a long random run of inserts,
    /// updates that make notes start or stop matching, touches, removals, removals of the
    /// collection and changes of the query, (a) the rows are the matching notes, grouped and
    /// sorted, computed by brute force, and (b) the reported changes turn the previous rows
    /// into the new ones. Both storages.
    @Test(arguments: [View<SNote>.Storage.persistent, .inMemory])
    func randomCommitsMatchModelAndChangesReplay(storage: View<SNote>.Storage) async throws {
        let view = SearchResultsTestViews.byFolder(storage: storage)
        let kinds = try await runModel(
            view: view, extensions: [view.databaseExtension], seed: 0x5EA_0031, commits: 300,
            belongs: { _ in true }, sortsBefore: { ($0.rank, $0.id) < ($1.rank, $1.id) })
        #expect(kinds == [.inserted, .removed, .moved, .updated], "the run reported only \(kinds)")
    }

    /// The same over a parent view: the matching rows of the parent, in its groups and order.
    @Test(arguments: [View<SNote>.Storage.persistent, .inMemory])
    func overParentMatchesModelAndChangesReplay(storage: View<SNote>.Storage) async throws {
        let view = SearchResultsTestViews.overParent(storage: storage)
        // The parent is registered too, to show the two live side by side; the results do not need it.
        let parent = SearchResultsTestViews.parent(storage: storage)
        let kinds = try await runModel(
            view: view, extensions: [parent.databaseExtension, view.databaseExtension], seed: 0x5EA_0032,
            commits: 300, belongs: { $0.rank < 8 }, sortsBefore: { ($1.rank, $0.id) < ($0.rank, $1.id) })
        #expect(kinds.isSuperset(of: [.inserted, .removed, .moved]), "the run reported only \(kinds)")
    }

    /// Runs `commits` random commits; returns the kinds of row changes reported.
    func runModel(
        view: SearchResultsView<SNote>, extensions: [DatabaseExtension], seed: UInt64, commits: Int,
        belongs: (SNote) -> Bool, sortsBefore: (SNote, SNote) -> Bool
    ) async throws -> Set<ViewRowChange.Kind> {
        print("SearchResultsViewTests seed \(seed) storage \(view.storage)")
        let database = try makeTemporaryDatabase(
            extensions: [SearchResultsTestViews.search.databaseExtension] + extensions)
        let connection = try database.newConnection()
        let reader = try database.newConnection()
        var model = SearchResultsModel()
        var random = SplitMix64(seed: seed)
        var changes = database.changes.makeAsyncIterator()
        var previous: [String: [String]] = [:]
        var kinds: Set<ViewRowChange.Kind> = []
        let keys = (0..<60).map { "n\($0)" }

        func commitRandomBatch() throws {
            try connection.write { tx in
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    let key = keys.randomElement(using: &random)!
                    switch Int.random(in: 0..<100, using: &random) {
                    case 0..<50:
                        let note = SearchResultsModel.randomNote(key, random: &random)
                        try tx.write(note)
                        model.notes[key] = note
                    case 50..<60:
                        if model.notes[key] != nil { try tx.touch(key: key, in: SNote.collection) }
                    case 60..<78:
                        _ = try tx.remove(SNote.self, key: key)
                        model.notes[key] = nil
                    case 78..<80:
                        _ = try tx.removeAll(SNote.self)
                        model.notes.removeAll()
                    default:
                        let query = SearchResultsModel.queries.randomElement(using: &random)!
                        try view.search(for: query?.searchQuery, in: tx)
                        model.query = query
                    }
                }
                // Every commit writes, so that it has a changeset.
                let note = SearchResultsModel.randomNote(keys.randomElement(using: &random)!, random: &random)
                try tx.write(note)
                model.notes[note.id] = note
            }
        }
        func contents() throws -> [String: [String]] {
            try reader.read { tx in try SearchResultsTestViews.contents(view, tx) }
        }
        func storedQuery() throws -> SearchQuery? {
            try reader.read { tx in try view.query(in: tx) }
        }

        for step in 0..<commits {
            try commitRandomBatch()
            let next = await changes.next()
            let changeset = try #require(next)
            let current = try contents()
            let expected = model.expected(belongs: belongs, sortsBefore: sortsBefore)
            #expect(
                current == expected,
                "seed \(seed): the view at commit \(step) differs from the model (query \(String(describing: model.query)))"
            )
            let viewChanges = changeset.viewChanges[view.name] ?? ViewChanges()
            let replayed = viewChanges.applied(to: previous)
            #expect(
                replayed == current,
                "seed \(seed): replaying the changes at commit \(step) gives \(replayed), not \(current); changes: \(viewChanges.rowChanges)"
            )
            if current != expected || replayed != current { return kinds }
            kinds.formUnion(viewChanges.rowChanges.map(\.kind))
            previous = current
        }
        // The query is kept with the view, at every snapshot.
        let stored = try storedQuery()
        #expect(stored == model.query?.searchQuery, "the view's query is \(String(describing: stored))")
        return kinds
    }

    // MARK: Registration and persistence

    /// A search results view reads its full-text search: registering it without that search
    /// fails, saying which search it needs; with it, in any order, it works.
    @Test func registeringWithoutItsFullTextSearchFails() throws {
        let view = SearchResultsTestViews.byFolder(storage: .persistent)
        let database = try makeTemporaryDatabase()
        let error = #expect(throws: TroveError.self) { try database.register(view.databaseExtension) }
        #expect(error?.code == .extensionFailed)
        #expect(error?.message.contains("the full-text search 'notes_search'") == true, "\(String(describing: error))")
        #expect(database.registeredExtensions.isEmpty)
        // The view first in the batch: the search is built first all the same.
        try database.write(SNote(id: "n1", text: "alpha", folder: "a", rank: 1))
        try database.register([view.databaseExtension, SearchResultsTestViews.search.databaseExtension])
        try database.write { tx in try view.search(for: .prefixes(of: "alp"), in: tx) }
        let contents = try database.read { tx in try SearchResultsTestViews.contents(view, tx) }
        #expect(contents == ["a": ["n1"]])
        // Unregistering the search unregisters the view that reads it.
        try database.unregister(SearchResultsTestViews.search.name)
        #expect(database.registeredExtensions.isEmpty)
    }

    /// The query is kept in the file: another open of the file holds the same results, and a
    /// rebuild (a new version) runs the kept query again.
    @Test func queryPersistsAcrossOpensAndRebuilds() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = (folder as NSString).appendingPathComponent("notes.trove")
        let view = SearchResultsTestViews.byFolder(storage: .persistent)
        let extensions = [SearchResultsTestViews.search.databaseExtension, view.databaseExtension]
        do {
            let database = try Database(path: path, extensions: extensions)
            try database.write([
                SNote(id: "n1", text: "alpha beta", folder: "a", rank: 2),
                SNote(id: "n2", text: "alpine", folder: "a", rank: 1),
                SNote(id: "n3", text: "gamma", folder: "b", rank: 1),
            ])
            try database.write { tx in try view.search(for: .prefixes(of: "alp"), in: tx) }
        }
        let database = try Database(path: path, extensions: extensions)
        let (query, contents) = try database.read { tx in
            (try view.query(in: tx), try SearchResultsTestViews.contents(view, tx))
        }
        #expect(query == .prefixes(of: "alp"))
        #expect(contents == ["a": ["n2", "n1"]])
        let version2 = SearchResultsView<SNote>(
            "notes_found", version: 2, search: SearchResultsTestViews.search, grouping: { note, _ in note.folder },
            sortedBy: [.descending(\.rank)])
        try database.register(version2.databaseExtension)
        let rebuilt = try database.read { tx in try SearchResultsTestViews.contents(version2, tx) }
        #expect(rebuilt == ["a": ["n1", "n2"]])
    }

    /// ``Database/observe(_:mappings:)`` follows a search results view: a change of the query
    /// yields the sections and the changes that replay it.
    @Test(arguments: [View<SNote>.Storage.persistent, .inMemory])
    func observationWithMappingsFollowsTheQuery(storage: View<SNote>.Storage) async throws {
        let view = SearchResultsTestViews.byFolder(storage: storage)
        let database = try makeTemporaryDatabase(
            extensions: [SearchResultsTestViews.search.databaseExtension, view.databaseExtension])
        try await database.write([
            SNote(id: "n1", text: "swift", folder: "a", rank: 2), SNote(id: "n2", text: "swim alpha", folder: "a", rank: 1),
            SNote(id: "n3", text: "alpha", folder: "b", rank: 1),
        ])
        try await database.write { tx in try view.search(for: .prefixes(of: "sw"), in: tx) }
        var iterator = database.observe(view, mappings: ViewMappings(groups: .all)).makeAsyncIterator()
        let first = try #require(try await iterator.next())
        #expect(first.sections.contents == [ViewSectionContent(group: "a", keys: ["n2", "n1"])])
        try await database.write { tx in try view.search(for: .prefixes(of: "alp"), in: tx) }
        let update = try #require(try await iterator.next())
        #expect(
            update.sections.contents == [
                ViewSectionContent(group: "a", keys: ["n2"]), ViewSectionContent(group: "b", keys: ["n3"]),
            ])
        #expect(try #require(update.changes).applied(to: first.sections.contents) == update.sections.contents)
    }

    // MARK: Snippets

    /// Each row has its snippet, made by FTS5's snippet() for the query: stored when the row
    /// enters, made again when its item changes or the query changes, gone when it leaves.
    @Test(arguments: [View<SNote>.Storage.persistent, .inMemory])
    func snippetsAreStoredAndFollowTheItems(storage: View<SNote>.Storage) throws {
        let view = SearchResultsView<SNote>(
            "notes_found", storage: storage, search: SearchResultsTestViews.search,
            snippet: SearchSnippet(before: "[", after: "]"), grouping: { _, _ in "all" }, sortedBy: [.ascending(\.rank)])
        let database = try makeTemporaryDatabase(
            extensions: [SearchResultsTestViews.search.databaseExtension, view.databaseExtension])
        try database.write(SNote(id: "n1", text: "swift alpha", folder: "a", rank: 1))
        try database.write { tx in try view.search(for: .prefixes(of: "swi"), in: tx) }
        func snippet(_ key: String) throws -> String? {
            try database.read { tx in try view.snippet(forKey: key, in: tx) }
        }
        #expect(try snippet("n1") == "[swift] alpha")
        // An item that changes and still matches: its snippet is made again.
        try database.write(SNote(id: "n1", text: "beta swim", folder: "a", rank: 1))
        #expect(try snippet("n1") == "beta [swim]")
        // An item that enters by a write has its snippet at once.
        try database.write(SNote(id: "n2", text: "gamma swift game", folder: "b", rank: 2))
        #expect(try snippet("n2") == "gamma [swift] game")
        // The query changes: the rows that stay have the new query's snippets.
        try database.write { tx in try view.search(for: .prefixes(of: "ga"), in: tx) }
        #expect(try snippet("n2") == "[gamma] swift [game]")
        #expect(try snippet("n1") == nil)
        // An item that stops matching leaves, with its snippet.
        try database.write(SNote(id: "n2", text: "alpha", folder: "b", rank: 2))
        #expect(try snippet("n2") == nil)
    }

    // MARK: The queue

    /// A search that a newer query supersedes is abandoned: made deterministic by a sort that
    /// enqueues the newer query from inside the search (the 10th comparison of the rows that
    /// enter). The search stops at its next batch of rows and rolls back; the newer query then
    /// completes; no commit ever shows the abandoned query's results.
    @Test(arguments: [View<SNote>.Storage.persistent, .inMemory])
    func newerQueryAbandonsTheSearchUnderWay(storage: View<SNote>.Storage) async throws {
        let queue = SearchQueue()
        let comparisons = Mutex(0)
        let view = SearchResultsView<SNote>(
            "notes_found", storage: storage, search: SearchResultsTestViews.search, grouping: { _, _ in "all" },
            areInIncreasingOrder: { lhs, rhs in
                let count = comparisons.withLock { count in
                    count += 1
                    return count
                }
                if count == 10 { queue.enqueue(.prefixes(of: "beta")) }
                return lhs.rank < rhs.rank
            })
        let database = try makeTemporaryDatabase(
            extensions: [SearchResultsTestViews.search.databaseExtension, view.databaseExtension])
        // 400 alpha notes (the superseded query's), 30 beta ones (the newer's), one gamma (the first).
        var notes = (0..<400).map { SNote(id: "a\($0)", text: "alpha", folder: "x", rank: $0) }
        notes += (0..<30).map { SNote(id: "b\($0)", text: "beta", folder: "x", rank: $0) }
        notes.append(SNote(id: "g", text: "gamma", folder: "x", rank: 0))
        func setUp() throws {
            try database.write(notes)
            try database.write { tx in try view.search(for: .prefixes(of: "gamma"), in: tx) }
        }
        try setUp()
        var changes = database.changes.makeAsyncIterator()
        comparisons.withLock { $0 = 0 }

        queue.enqueue(.prefixes(of: "alpha"))
        func runOnce() throws -> SearchOutcome { try database.search(view, from: queue) }
        let first = try runOnce()
        #expect(first == .abandoned, "the superseded search ended \(first)")
        // All 400 rows entering take about 3,000 comparisons; a batch of 64 rows, about 400.
        let compared = comparisons.withLock { $0 }
        #expect(compared < 1_000, "the abandoned search went on: \(compared) comparisons")
        func contents() throws -> [String: [String]] {
            try database.read { tx in try SearchResultsTestViews.contents(view, tx) }
        }
        func writeMarker() throws {
            try database.write(SNote(id: "z", text: "zeta", folder: nil, rank: 0))
        }
        let afterAbandon = try contents()
        #expect(afterAbandon == ["all": ["g"]], "the abandoned search left \(afterAbandon)")
        #expect(queue.hasPendingQuery)

        let second = try runOnce()
        #expect(second == .completed(.prefixes(of: "beta")))
        let betas = (0..<30).map { "b\($0)" }
        let final = try contents()
        #expect(final == ["all": betas])
        #expect(try runOnce() == .idle)

        // The only commit after the setup is the newer query's: its changes turn the first
        // query's rows into the newer query's, never through the abandoned one's.
        let next = await changes.next()
        let changeset = try #require(next)
        let viewChanges = try #require(changeset.viewChanges[view.name])
        #expect(viewChanges.applied(to: ["all": ["g"]]) == ["all": betas])
        #expect(!viewChanges.rowChanges.contains { $0.key.hasPrefix("a") }, "a commit reported an alpha row")
        try writeMarker()
        let marker = await changes.next()
        #expect(marker?.viewChanges[view.name] == nil, "another commit came between: \(String(describing: marker))")
    }

    /// The searcher task: queries enqueued in a burst run as the newest one, and the task returns
    /// when the queue is finished.
    @Test func runSearchesRunsTheNewestQueryUntilFinished() async throws {
        let view = SearchResultsTestViews.byFolder(storage: .inMemory)
        let database = try makeTemporaryDatabase(
            extensions: [SearchResultsTestViews.search.databaseExtension, view.databaseExtension])
        try await database.write([
            SNote(id: "n1", text: "swift", folder: "a", rank: 1), SNote(id: "n2", text: "swim", folder: "a", rank: 2),
            SNote(id: "n3", text: "alpha", folder: "a", rank: 3),
        ])
        let queue = SearchQueue()
        let searcher = Task { try await database.runSearches(view, from: queue) }
        for typed in ["s", "sw", "swi", "swif", "swift"] { queue.enqueue(.prefixes(of: typed)) }
        queue.finish()
        try await searcher.value
        let contents = try await database.read { tx in try SearchResultsTestViews.contents(view, tx) }
        #expect(contents == ["a": ["n1"]])

        // A cancelled searcher throws CancellationError.
        let idle = Task { try await database.runSearches(view, from: SearchQueue()) }
        idle.cancel()
        await #expect(throws: CancellationError.self) { try await idle.value }
    }
}
