import Foundation
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// What PostgreSQL does not run yet, asked of it: each is refused with a `TroveError` that names
/// the model, the extension or the query, in words, never skipped nor answered with nothing.
///
/// The refusals at open come before any connection: they need no server (the URL points at a
/// port nothing listens on, so a test that got past the check would fail with `server` instead).
@Suite("Bad input: PostgreSQL")
struct BadInputPostgresTests {
    /// A URL that no server answers: a store that got as far as connecting fails with `server`.
    static let nowhere = "postgres://nobody@127.0.0.1:1/none"

    /// Relationships of tallies without any rule: PostgreSQL accepts them (nothing is lost), and
    /// refuses their traversals.
    static let plainEdges = Relationships<Tally>(
        "tally_edges", edges: [.to("next", Tally.self) { tally in tally.value == 0 ? nil : "t\(tally.value)" }])

    /// A view of tallies, which PostgreSQL does not keep.
    static let tallyView = View<Tally>("tally_view", grouping: { _, _ in "all" }, sortedBy: [.ascending(\.value)])

    /// Opens a store with `models` and `extensions`, expecting the refusal of the extension
    /// `name`; checks the error's code, names and wording.
    func expectRefusal(
        models: [any Persistable.Type] = [], extensions: [DatabaseExtension] = [], naming name: String,
        collection: String, model: String?, saying words: [String]
    ) async {
        let error = await #expect(throws: TroveError.self) {
            _ = try await PostgresStore.open(url: Self.nowhere, models: models, extensions: extensions)
        }
        guard let error else { return }
        #expect(error.code == .misuse, "\(error)")
        #expect(error.extensionName == name, "\(error)")
        #expect(error.collection == collection, "\(error)")
        #expect(error.message.contains("'\(name)'"), "\(error.message)")
        if let model { #expect(error.message.contains("model \(model)"), "\(error.message)") }
        for word in words { #expect(error.message.contains(word), "\(error.message)") }
        #expect(internalsShown(in: error.description).isEmpty, "\(error.description)")
    }

    // MARK: At open

    /// A search of trigrams: PostgreSQL's text search has no such configuration.
    static let trigramSearch = FullTextSearch<Tally>(
        "tally_trigrams", tokenizer: .trigram, columns: [.column("id") { $0.id }])

    @Test func aTrigramSearchIsRefusedAtOpen() async {
        await expectRefusal(
            extensions: [Self.trigramSearch.databaseExtension], naming: Self.trigramSearch.name,
            collection: Tally.collection, model: nil, saying: ["full-text search", "trigram"])
    }

    /// Whether PostgreSQL keeps a full-text search: any tokenizer but trigram.
    static func isKeptOnPostgres(_ definition: some FullTextSearchDefinition) -> Bool {
        definition.search.tokenizer != .trigram
    }


    /// Every kind of extension a Trove file registers is either kept by a PostgreSQL store or
    /// refused when it opens: the switch lists every kind, so a new kind fails to compile here
    /// until it is decided.
    @Test func everyKindOfExtensionIsKeptOrRefused() async throws {
        let examples: [DatabaseExtension] = [
            User.index.databaseExtension, Self.plainEdges.databaseExtension, cascadeEdges.databaseExtension,
            Relationships<Tally>("tally_manual", edges: [.manual("linked", to: Tally.self)]).databaseExtension,
            Post.relationships.databaseExtension, Note.fullTextSearch.databaseExtension,
            Self.trigramSearch.databaseExtension, Self.tallyView.databaseExtension, Self.tallySpatial.databaseExtension,
        ]
        var seen: Set<String> = []
        for example in examples {
            let kept: Bool
            switch example.definition {
            case .secondaryIndex:
                seen.insert("secondary index")
                kept = true
            case .relationships:
                seen.insert("relationships")
                kept = true
            case .fullTextSearch(let definition):
                seen.insert("full-text search")
                kept = Self.isKeptOnPostgres(definition)
            case .view:
                seen.insert("view")
                kept = false
            case .other:
                kept = false
            }
            do {
                // A store that gets past the check fails to connect: the extension was kept.
                _ = try await PostgresStore.open(url: Self.nowhere, extensions: [example])
                Issue.record("\(example.name): opened a store on a port nothing listens on")
            } catch let error as TroveError {
                if kept {
                    #expect(error.code == .server, "\(example.name) should be kept: \(error)")
                } else {
                    #expect(error.code == .misuse && error.extensionName == example.name, "\(example.name): \(error)")
                }
            }
        }
        #expect(seen == ["secondary index", "relationships", "full-text search", "view"])
    }

    /// A spatial index of tallies: an R*Tree, which PostgreSQL does not keep.
    static let tallySpatial = SpatialIndex<Tally>("tally_where") { .point(x: Double($0.value), y: 0) }

    @Test func aSpatialIndexIsRefusedAtOpen() async {
        await expectRefusal(
            extensions: [Self.tallySpatial.databaseExtension], naming: Self.tallySpatial.name,
            collection: Tally.collection, model: nil, saying: ["spatialIndex"])
    }

    /// Relationships with an edge to files: their files are in a folder beside a Trove file.
    static let tallyFiles = Relationships<Tally>(
        "tally_files",
        edges: [.toFile("receipt", in: "receipts", rules: .deleteDestinationWhenSourceDeleted) { "\($0.id).pdf" }])

    @Test func relationshipsWithAnEdgeToFilesAreRefusedAtOpen() async {
        await expectRefusal(
            extensions: [Self.tallyFiles.databaseExtension], naming: Self.tallyFiles.name,
            collection: Tally.collection, model: nil, saying: ["edge to files 'receipt'", "remove the files yourself"])
    }

    @Test func aViewIsRefusedAtOpen() async {
        await expectRefusal(
            extensions: [Self.tallyView.databaseExtension], naming: Self.tallyView.name, collection: Tally.collection,
            model: nil, saying: ["view", "Swift closures", "secondary index"])
    }

    @Test func twoExtensionsWithOneNameAreRefusedAtOpen() async {
        let impostor = SecondaryIndex<Tally>(User.index.name, columns: [.column("value") { $0.value }])
        let error = await #expect(throws: TroveError.self) {
            _ = try await PostgresStore.open(
                url: Self.nowhere, extensions: [User.index.databaseExtension, impostor.databaseExtension])
        }
        #expect(error?.code == .misuse, "\(String(describing: error))")
        #expect(error?.extensionName == User.index.name)
        #expect(error?.message.contains("'users'") == true && error?.message.contains("'tallies'") == true)
        let shown = internalsShown(in: error.map { String(describing: $0) } ?? "")
        #expect(shown.isEmpty)
    }

    /// Relationships are kept on PostgreSQL: the store opens (and the same index listed twice,
    /// by its model and by hand, is kept once).
    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func relationshipsAreAccepted() async throws {
        let store = try await TestServer.openStore(
            extensions: [Self.plainEdges.databaseExtension, User.index.databaseExtension, User.index.databaseExtension])
        try await store.write(Tally(id: "t1", value: 2))
        #expect(try await store.read(Tally.self, key: "t1")?.value == 2)
        await TestServer.dispose(store)
    }

    // MARK: Queries

    /// Runs `query` with every terminal on a store that keeps the index of `User`, expecting
    /// `code` and a message with `words` each time.
    func expectRefusal(
        of query: some ItemQuery, code: TroveError.Code, saying words: [String], field: String? = nil,
        store: PostgresStore
    ) async {
        let terminals: [(String, () async throws -> Void)] = [
            ("items(in:)", { _ = try await query.items(in: store) }),
            ("first(in:)", { _ = try await query.first(in: store) }),
            ("keys(in:)", { _ = try await query.keys(in: store) }),
            ("count(in:)", { _ = try await query.count(in: store) }),
            ("items(tx)", { _ = try await store.read { tx in try await query.items(tx) } }),
            ("count(tx), in a write", { _ = try await store.write { tx in try await query.count(tx) } }),
        ]
        for (terminal, run) in terminals {
            do {
                try await run()
                Issue.record("\(terminal) ran a query that PostgreSQL does not run")
            } catch let error as TroveError {
                #expect(error.code == code, "\(terminal): \(error)")
                for word in words { #expect(error.message.contains(word), "\(terminal): \(error.message)") }
                if let field { #expect(error.field == field, "\(terminal): \(error)") }
                #expect(internalsShown(in: error.description).isEmpty, "\(terminal): \(error.description)")
            } catch {
                Issue.record("\(terminal): not a TroveError: \(error)")
            }
        }
    }

    /// A store that keeps the index of `User` (and nothing else), with one user written.
    func withStore(_ body: (PostgresStore) async throws -> Void) async throws {
        try await TestServer.withStore(extensions: [User.index.databaseExtension]) { store in
            try await store.write(makeUsers(1)[0])
            try await body(store)
        }
    }

    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func aFullTextSearchTheStoreDoesNotKeepIsRefused() async throws {
        try await withStore { store in
            await expectRefusal(
                of: User.search(for: .allWords(of: "ada")), code: .extensionFailed,
                saying: ["full-text search '\(User.fullTextSearch.name)'", "not kept by this PostgreSQL store"],
                store: store)
            let error = await #expect(throws: TroveError.self) { _ = try await User.search(for: .allWords(of: "ada")).hits(in: store) }
            #expect(error?.code == .extensionFailed)
            #expect(error?.message.contains("full-text search '\(User.fullTextSearch.name)'") == true)
        }
    }

    /// A query in FTS5's own syntax has no meaning on PostgreSQL: refused by name, never run as
    /// something else; the builders' queries run.
    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func aRawFTS5QueryIsRefused() async throws {
        try await TestServer.withStore(
            extensions: [User.index.databaseExtension, User.fullTextSearch.databaseExtension]
        ) { store in
            var ada = makeUsers(1)[0]
            ada.bio = "ada lovelace"
            try await store.write(ada)
            await expectRefusal(
                of: User.search(for: .raw("ada*")), code: .invalidSearchQuery,
                saying: ["'ada*'", "FTS5's syntax", "SearchQuery.prefixes(of:)"], store: store)
            // The same text typed by a user is words, not syntax: its `*` is searched as text.
            #expect(try await User.search(for: .prefixes(of: "ada*")).keys(in: store) == [ada.userID])
        }
    }

    /// A traversal of relationships the store does not keep is refused, as a query of an index
    /// it does not keep is; an edge the relationships do not have, too.
    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func aTraversalOfRelationshipsTheStoreDoesNotKeepIsRefused() async throws {
        try await withStore { store in
            let post = Post(id: "p1", title: "Hello", authorID: makeUsers(1)[0].userID)
            await expectRefusal(
                of: post.author, code: .extensionFailed,
                saying: ["not kept by this PostgreSQL store", "relationships '\(Post.relationships.name)'"], store: store)
            await expectRefusal(
                of: Self.plainEdges.destinations(of: "t1", edge: "next", as: Tally.self), code: .extensionFailed,
                saying: ["relationships 'tally_edges'"], store: store)
            await expectRefusal(
                of: Self.plainEdges.destinations(of: "t1", edge: "previous", as: Tally.self), code: .extensionFailed,
                saying: ["no edge named 'previous'", "'next'"], store: store)
        }
    }

    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func aViewReadIsRefused() async throws {
        try await withStore { store in
            await expectRefusal(
                of: Self.tallyView.rows(in: "all"), code: .misuse,
                saying: ["PostgreSQL does not run", "view 'tally_view'"], store: store)
        }
    }

    /// A query of a spatial index (an extension's own query, ``QueryPlan/init(extension:keys:)``)
    /// is refused when it runs, naming the index.
    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func aSpatialQueryIsRefused() async throws {
        try await withStore { store in
            await expectRefusal(
                of: Self.tallySpatial.query(near: SpatialPoint(x: 0, y: 0), within: 5).limit(3), code: .misuse,
                saying: ["PostgreSQL does not run", "extension 'tally_where'"], store: store)
        }
    }

    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func aQueryOfAnIndexTheStoreDoesNotKeepIsRefused() async throws {
        try await withStore { store in
            await expectRefusal(
                of: Post.query.filter(.isDraft(true)), code: .extensionFailed,
                saying: ["'\(Post.index.name)'", "not kept", "model Post"], store: store)
        }
    }

    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func aQueryOfAColumnTheIndexDoesNotHaveIsRefused() async throws {
        try await withStore { store in
            await expectRefusal(
                of: User.query.filter(.column("shoeSize", equals: 42)), code: .extensionFailed,
                saying: ["'\(User.index.name)'", "no column 'shoeSize'", "'age'"], field: "shoeSize", store: store)
            await expectRefusal(
                of: User.query.sorted(by: .column("shoeSize")), code: .extensionFailed,
                saying: ["no column 'shoeSize'"], field: "shoeSize", store: store)
        }
    }

    // MARK: Keys

    /// Swift's `==` holds for "caf\u{E9}" and "cafe\u{301}"; PostgreSQL stores two keys (bytewise),
    /// and the store's cache, reads by keys and change log keep them apart: reading one never
    /// returns the other, writing or removing one never leaves the other's cached value stale.
    @Test(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
    func canonicallyEquivalentKeysAreTwoItems() async throws {
        let keys = ["caf\u{E9}", "cafe\u{301}", "a\u{301}\u{316}", "a\u{316}\u{301}"]
        let store = try await TestServer.openStore()
        let other = try await TestServer.openStore(schema: store.configuration.schema)
        defer { other.close() }
        func bytes(_ tallies: [Tally]) -> [[UInt8]] { tallies.map { Array($0.id.utf8) } }
        try await store.write(keys.enumerated().map { Tally(id: $1, value: $0) })
        for reader in [store, other] {
            for _ in 0..<2 {  // The second time from the cache.
                for (value, key) in keys.enumerated() {
                    let read = try await reader.read(Tally.self, key: key)
                    #expect(read.map { Array($0.id.utf8) } == Array(key.utf8) && read?.value == value, "\(key.debugDescription)")
                    let inTransaction = try await reader.read { tx in try await tx.read(Tally.self, key: key) }
                    #expect(inTransaction?.value == value, "\(key.debugDescription)")
                }
                let all = try await reader.read { tx in try await tx.read(Tally.self, keys: keys) }
                #expect(bytes(all) == keys.map { Array($0.utf8) })
                #expect(all.map(\.value) == Array(0..<keys.count))
            }
        }
        // One of each pair changes, in the other instance: neither the changed one nor its twin
        // is stale anywhere.
        try await other.write { tx in
            try await tx.write(Tally(id: keys[1], value: 10))
            _ = try await tx.remove(Tally.self, key: keys[2])
        }
        for reader in [store, other] {
            #expect(try await reader.read(Tally.self, key: keys[0])?.value == 0)
            #expect(try await reader.read { tx in try await tx.read(Tally.self, key: keys[1]) }?.value == 10)
            #expect(try await reader.read { tx in try await tx.read(Tally.self, key: keys[2]) } == nil)
            #expect(try await reader.read { tx in try await tx.read(Tally.self, key: keys[3]) }?.value == 3)
            #expect(try await reader.count(of: Tally.self) == 3)
        }
        await TestServer.dispose(store)
    }
}
