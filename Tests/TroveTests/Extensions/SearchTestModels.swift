import TroveCSQLite
import Foundation
import Trove

/// The metadata of an ``Article``.
struct ArticleNote: Codable, Sendable, Equatable {
    var note: String
}

/// An item with a title, a body, tags and metadata, all searched, coded through the Codable
/// fallback (a model without the generator, with a hand-written full-text search).
struct Article: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<Article>
    typealias MetadataCoder = CodableCoder<ArticleNote>
    static let collection = "articles"
    var id: String
    var title: String
    var body: String?
    var tags: [String]
    var metadata: ArticleNote?
    private enum CodingKeys: String, CodingKey { case id, title, body, tags }

    init(id: String, title: String, body: String? = nil, tags: [String] = [], metadata: ArticleNote? = nil) {
        self.id = id
        self.title = title
        self.body = body
        self.tags = tags
        self.metadata = metadata
    }
}

enum ArticleSearches {
    static let columns: [SearchColumn<Article>] = [
        .column("title", weight: 10) { $0.title },
        .column("body") { $0.body },
        .column("tags", weight: 2) { $0.tags },
        .column("note", weight: 0.5) { $0.metadata?.note },
    ]

    /// Every column, the default tokenizer.
    static let articles = FullTextSearch<Article>("article_search", columns: columns)

    /// A secondary index of the same items, to filter searches by.
    static let byShape = SecondaryIndex<Article>(
        "articles_by_shape", columns: [.column("tagCount") { $0.tags.count }, .column("hasBody") { $0.body != nil }])
}

/// An FTS5 table that a test keeps itself, through the raw C API on an in-memory database, as
/// the reference that a ``FullTextSearch`` must agree with.
final class ReferenceFTS {
    private var handle: OpaquePointer?
    let columns: [String]
    let weights: [Double]

    init(columns: [String], weights: [Double], tokenize: String) throws {
        self.columns = columns
        self.weights = weights
        guard sqlite3_open(":memory:", &handle) == SQLITE_OK else { throw TroveError(code: .sqlite, message: "open") }
        try execute("CREATE VIRTUAL TABLE ref USING fts5(\(columns.joined(separator: ", ")), tokenize = '\(tokenize)')")
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw TroveError(code: .sqlite, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
    }

    /// Replaces every row with `rows` (rowid, then one text or `nil` per column).
    func reset(_ rows: [(Int64, [String?])]) throws {
        try execute("DELETE FROM ref")
        let placeholders = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
        let statement = try prepare("INSERT INTO ref (rowid, \(columns.joined(separator: ", "))) VALUES (\(placeholders))")
        defer { sqlite3_finalize(statement) }
        for (rowID, texts) in rows {
            sqlite3_reset(statement)
            sqlite3_bind_int64(statement, 1, rowID)
            for (offset, text) in texts.enumerated() {
                if let text {
                    sqlite3_bind_text(statement, Int32(offset + 2), text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                } else {
                    sqlite3_bind_null(statement, Int32(offset + 2))
                }
            }
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw TroveError(code: .sqlite, message: String(cString: sqlite3_errmsg(handle)))
            }
        }
    }

    /// The rowids and bm25 scores that match `expression`, unordered.
    func search(_ expression: String) throws -> [(rowID: Int64, score: Double)] {
        let rank = "bm25(ref, \(weights.map { "\($0)" }.joined(separator: ", ")))"
        let statement = try prepare("SELECT rowid, \(rank) FROM ref WHERE ref MATCH ?1")
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, expression, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        var rows: [(Int64, Double)] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw TroveError(code: .sqlite, message: String(cString: sqlite3_errmsg(handle)), sql: expression)
            }
            rows.append((sqlite3_column_int64(statement, 0), sqlite3_column_double(statement, 1)))
        }
        return rows
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw TroveError(code: .sqlite, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
        return statement
    }
}
