#if Postgres
    import FluentKit
    import Foundation
    import Logging
    import NIOCore
    import PostgresNIO
    import SQLKit
    import Trove
    import TrovePostgres

    /// The full-text search workloads of the PostgreSQL suite (issue 28): 5,000 documents of the
    /// search suite's corpus (a title of 4 to 8 words, weighing ten times a body of 150 to 350),
    /// indexed in one transaction, then 300 queries (a word of middle rank, or the first three
    /// letters of one), each the top 20 with a snippet of the body.
    ///
    /// Every implementation searches the same way, so that their results are checked equal:
    /// PostgreSQL's `simple` configuration on the texts without their diacritics (removed in
    /// Swift, as Trove removes them), the title in class A and the body in class B, ranked by
    /// `ts_rank_cd` with the weights 1 and 0.1, then by key.
    enum PostgresSearchFixtures {
        static let corpus = SearchCorpus(count: 5_000)
        /// The queries: a word, or a prefix (`prefix` true), cycled to 300.
        static let queries: [(text: String, prefix: Bool)] = {
            let words = corpus.vocabulary
            var distinct: [(text: String, prefix: Bool)] = []
            for offset in 0..<10 { distinct.append((words[300 + offset * 50], false)) }
            for offset in 0..<10 { distinct.append((String(words[200 + offset * 20].prefix(3)), true)) }
            return (0..<300).map { distinct[$0 % distinct.count] }
        }()

        /// The query of `text` in `to_tsquery`'s syntax, as written by hand: the word without its
        /// diacritics, quoted, with `:*` for a prefix.
        static func tsquery(_ text: String, prefix: Bool) -> String {
            let folded = text.folding(options: .diacriticInsensitive, locale: nil).replacingOccurrences(of: "'", with: "''")
            return "'\(folded)'" + (prefix ? ":*" : "")
        }

        static func folded(_ text: String) -> String {
            text.folding(options: .diacriticInsensitive, locale: nil)
        }

        /// The `ts_headline` options of the hand-written snippets: the matches in `<b>`, at most 16 words.
        static let headline = "StartSel=<b>, StopSel=</b>, MaxWords=16, MinWords=15, ShortWord=0, MaxFragments=1"
        /// `ts_rank_cd`'s weights (D, C, B, A): the title's class A weighs ten times the body's B.
        static let rankWeights = "'{0.1,0.1,0.1,1}'::float4[]"
    }

    extension Checksum {
        /// Adds the hit at `position` of a query's results: its document, and whether it has a snippet.
        mutating func add(hit document: Document, position: Int, hasSnippet: Bool) {
            found &+= 1
            sum &+= (position &+ 1) &* (Int(document.id.dropFirst(4)) ?? -1) &+ document.title.utf8.count
                &+ (hasSnippet ? 1 : 0)
        }
    }

    extension TroveOnPostgres {
        func indexDocuments(_ documents: [Document]) async throws {
            try await store.write { tx in try await tx.write(documents) }
        }

        func searchTop20(_ queries: [(text: String, prefix: Bool)]) async throws -> Checksum {
            var checksum = Checksum()
            for (text, prefix) in queries {
                let search = Document.search(for: prefix ? .prefixes(of: text) : .allWords(of: text))
                    .snippets(of: "body").limit(20)
                for (position, hit) in try await search.hits(in: store).enumerated() {
                    checksum.add(hit: hit.item, position: position, hasSnippet: hit.snippet != nil)
                }
            }
            return checksum
        }
    }

    extension RawPostgres {
        /// The documents' table, as a careful user writes it by hand: the texts, and a
        /// `tsvector` of them made by the server from the folded texts, with a GIN index.
        static func makeSearchTable(_ client: PostgresClient) async throws {
            try await client.query(
                """
                CREATE TABLE IF NOT EXISTS bench_raw.documents (
                    id text COLLATE "C" PRIMARY KEY, title text NOT NULL, body text NOT NULL, document tsvector NOT NULL)
                """)
            try await client.query("CREATE INDEX IF NOT EXISTS documents_search ON bench_raw.documents USING gin (document)")
        }

        /// Inserts in one transaction, 1,000 documents per statement (arrays unnested).
        func indexDocuments(_ documents: [Document]) async throws {
            try await transaction("BEGIN") { connection in
                var start = 0
                while start < documents.count {
                    let batch = documents[start..<min(start + 1_000, documents.count)]
                    start += batch.count
                    let ids = batch.map(\.id)
                    let titles = batch.map(\.title)
                    let bodies = batch.map(\.body)
                    let foldedTitles = titles.map(PostgresSearchFixtures.folded)
                    let foldedBodies = bodies.map(PostgresSearchFixtures.folded)
                    try await connection.query(
                        """
                        INSERT INTO bench_raw.documents (id, title, body, document)
                        SELECT i, t, b, setweight(to_tsvector('simple', ft), 'A') || setweight(to_tsvector('simple', fb), 'B')
                        FROM unnest(\(ids)::text[], \(titles)::text[], \(bodies)::text[], \(foldedTitles)::text[], \(foldedBodies)::text[])
                            AS w (i, t, b, ft, fb)
                        """, logger: logger)
                }
            }
        }

        func searchTop20(_ queries: [(text: String, prefix: Bool)]) async throws -> Checksum {
            var checksum = Checksum()
            for (text, prefix) in queries {
                let query = PostgresSearchFixtures.tsquery(text, prefix: prefix)
                let rows = try await client.query(
                    """
                    SELECT id, title, body, ts_headline('simple', body, q, \(PostgresSearchFixtures.headline))
                    FROM to_tsquery('simple', \(query)) AS q, bench_raw.documents
                    WHERE document @@ q
                    ORDER BY ts_rank_cd(\(unescaped: PostgresSearchFixtures.rankWeights), document, q) DESC, id LIMIT 20
                    """, logger: logger)
                var position = 0
                for try await (id, title, body, snippet) in rows.decode((String, String, String, String?).self) {
                    checksum.add(
                        hit: Document(id: id, title: title, body: body), position: position, hasSnippet: snippet != nil)
                    position += 1
                }
            }
            return checksum
        }
    }

    /// A document of the search workloads, as a Fluent model: the texts, and their folded copies
    /// from which the table's generated `tsvector` column is made.
    final class FluentDocument: Model, @unchecked Sendable {
        // @unchecked Sendable as ``FluentUser``.
        static let schema = "documents"
        static let space: String? = "bench_fluent"

        @ID(custom: "id", generatedBy: .user) var id: String?
        @Field(key: "title") var title: String
        @Field(key: "body") var body: String
        @Field(key: "search_title") var searchTitle: String
        @Field(key: "search_body") var searchBody: String

        init() {}

        init(_ document: Document) {
            id = document.id
            title = document.title
            body = document.body
            searchTitle = PostgresSearchFixtures.folded(document.title)
            searchBody = PostgresSearchFixtures.folded(document.body)
        }
    }

    extension FluentPostgres {
        /// The documents' table: Fluent's schema builder has no `tsvector` nor generated column,
        /// so it is written in SQL, as a Fluent user writes it.
        static func makeSearchTable(_ sql: any SQLDatabase) async throws {
            try await sql.raw(
                """
                CREATE TABLE IF NOT EXISTS bench_fluent.documents (
                    id text PRIMARY KEY, title text NOT NULL, body text NOT NULL,
                    search_title text NOT NULL, search_body text NOT NULL,
                    document tsvector GENERATED ALWAYS AS (
                        setweight(to_tsvector('simple', search_title), 'A') || setweight(to_tsvector('simple', search_body), 'B')
                    ) STORED)
                """
            ).run()
            try await sql.raw("CREATE INDEX IF NOT EXISTS documents_search ON bench_fluent.documents USING gin (document)").run()
        }
    }
#endif

#if Postgres
    extension FluentPostgres {
        /// Inserts the documents in one transaction, with one `create` of them all (Fluent's
        /// batch insert); the server makes each `tsvector`.
        func indexDocuments(_ documents: [Document]) async throws {
            try await database.transaction { tx in
                try await documents.map(FluentDocument.init).create(on: tx)
            }
        }

        /// Each query in SQL (Fluent's query builder has no full-text search), its rows decoded
        /// by column.
        func searchTop20(_ queries: [(text: String, prefix: Bool)]) async throws -> Checksum {
            guard let sql = database as? any SQLDatabase else { throw BenchmarkError("fluent: not an SQL database") }
            var checksum = Checksum()
            for (text, prefix) in queries {
                let query = PostgresSearchFixtures.tsquery(text, prefix: prefix)
                let rows = try await sql.raw(
                    """
                    SELECT id, title, body, ts_headline('simple', body, q, \(bind: PostgresSearchFixtures.headline)) AS snippet
                    FROM to_tsquery('simple', \(bind: query)) AS q, bench_fluent.documents
                    WHERE document @@ q
                    ORDER BY ts_rank_cd(\(unsafeRaw: PostgresSearchFixtures.rankWeights), document, q) DESC, id LIMIT 20
                    """
                ).all()
                for (position, row) in rows.enumerated() {
                    let document = Document(
                        id: try row.decode(column: "id", as: String.self),
                        title: try row.decode(column: "title", as: String.self),
                        body: try row.decode(column: "body", as: String.self))
                    let snippet = try row.decode(column: "snippet", as: String?.self)
                    checksum.add(hit: document, position: position, hasSnippet: snippet != nil)
                }
            }
            return checksum
        }
    }
#endif
