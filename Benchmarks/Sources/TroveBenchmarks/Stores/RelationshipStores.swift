import CSQLiteBenchmark
import Foundation
import GRDB
import Trove

/// A store of the relationships benchmark (issue 16): authors and their posts, each post tied
/// to its author so that removing the author removes the posts.
protocol RelationshipBenchmarkStore: AnyObject {
    /// Writes `authors` in one write transaction.
    func insert(_ authors: [Author]) throws
    /// Writes `posts` in one write transaction.
    func insert(_ posts: ArraySlice<Post>) throws
    /// Removes the author at `key` in one write transaction (and, by the rule, its posts).
    func removeAuthor(_ key: String) throws
    /// Removes the authors at `keys` in one write transaction (and, by the rule, their posts).
    func removeAuthors(_ keys: [String]) throws
    /// The number of posts whose author is `key`, by the relationship or the foreign key's
    /// index, and the stored posts among `keys`.
    func postCount(of author: String, storedAmong keys: [String]) throws -> (byAuthor: Int, stored: Int)
    /// The number of posts and of authors stored.
    func counts() throws -> (posts: Int, authors: Int)
}

/// Trove: `Relationships<Post>` with an edge "author" to ``Author`` whose rule removes the post
/// when its author goes (registered at open), or no relationship at all.
final class TroveRelationshipStore: RelationshipBenchmarkStore {
    static let edges = Relationships<Post>(
        "post_edges",
        edges: [.to("author", Author.self, rules: .deleteSourceWhenDestinationDeleted) { $0.authorID }])

    let database: Trove.Database
    let writer: Trove.Connection
    let reader: Trove.Connection
    let hasRelationship: Bool

    /// - Parameter key: The key of the file (`nil`: plain; the encrypted pass, issue 34).
    init(directory: String, relationship: Bool, key: EncryptionKey? = nil) throws {
        hasRelationship = relationship
        database = try Trove.Database(
            path: directory + "/posts.trove", configuration: .benchmark(key: key),
            extensions: relationship ? [Self.edges.databaseExtension] : [])
        writer = try database.newConnection()
        reader = try database.newConnection()
    }

    func insert(_ authors: [Author]) throws {
        try writer.write { tx in try tx.write(authors) }
    }

    func insert(_ posts: ArraySlice<Post>) throws {
        try writer.write { tx in try tx.write(Array(posts)) }
    }

    func removeAuthor(_ key: String) throws {
        try writer.write { tx in _ = try tx.remove(Author.self, key: key) }
    }

    func removeAuthors(_ keys: [String]) throws {
        try writer.write { tx in _ = try tx.remove(Author.self, keys: keys) }
    }

    func postCount(of author: String, storedAmong keys: [String]) throws -> (byAuthor: Int, stored: Int) {
        try reader.read { tx in
            let byAuthor =
                hasRelationship ? try Self.edges.sources(pointingTo: author, edge: "author").count(tx) : -1
            return (byAuthor, try tx.read(Post.self, keys: keys).count)
        }
    }

    func counts() throws -> (posts: Int, authors: Int) {
        try reader.read { tx in (try tx.count(of: Post.self), try tx.count(of: Author.self)) }
    }
}

/// Raw SQLite through the C API: `authors` and `posts` tables, `posts.authorID REFERENCES
/// authors(id) ON DELETE CASCADE` with an index on it, `PRAGMA foreign_keys = ON`; every
/// statement prepared once.
final class RawRelationshipStore: RelationshipBenchmarkStore {
    private let sqlite: RawSQLite
    private let insertAuthor: RawStatement
    private let insertPost: RawStatement
    private let deleteAuthor: RawStatement
    private let countByAuthor: RawStatement
    private let postExists: RawStatement
    private let begin: RawStatement
    private let commit: RawStatement

    init(directory: String) throws {
        sqlite = try RawSQLite(path: directory + "/posts.sqlite")
        try sqlite.execute("PRAGMA foreign_keys = ON")
        try sqlite.execute("CREATE TABLE authors (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL)")
        try sqlite.execute(
            "CREATE TABLE posts (id TEXT PRIMARY KEY NOT NULL, "
                + "authorID TEXT NOT NULL REFERENCES authors (id) ON DELETE CASCADE, title TEXT NOT NULL, body TEXT NOT NULL)")
        try sqlite.execute("CREATE INDEX posts_author ON posts (authorID)")
        insertAuthor = try sqlite.prepare("INSERT INTO authors (id, name) VALUES (?1, ?2)")
        insertPost = try sqlite.prepare("INSERT INTO posts (id, authorID, title, body) VALUES (?1, ?2, ?3, ?4)")
        deleteAuthor = try sqlite.prepare("DELETE FROM authors WHERE id = ?1")
        countByAuthor = try sqlite.prepare("SELECT count(*) FROM posts WHERE authorID = ?1")
        postExists = try sqlite.prepare("SELECT 1 FROM posts WHERE id = ?1")
        begin = try sqlite.prepare("BEGIN IMMEDIATE")
        commit = try sqlite.prepare("COMMIT")
    }

    private func inWriteTransaction(_ body: () throws -> Void) throws {
        try begin.run()
        do {
            try body()
            try commit.run()
        } catch {
            try? sqlite.execute("ROLLBACK")
            throw error
        }
    }

    func insert(_ authors: [Author]) throws {
        try inWriteTransaction {
            for author in authors {
                try author.id.withUTF8Buffer { id in
                    try author.name.withUTF8Buffer { name in
                        insertAuthor.bindText(id, at: 1)
                        insertAuthor.bindText(name, at: 2)
                        try insertAuthor.run()
                    }
                }
            }
        }
    }

    func insert(_ posts: ArraySlice<Post>) throws {
        try inWriteTransaction {
            for post in posts {
                try post.id.withUTF8Buffer { id in
                    try post.authorID.withUTF8Buffer { author in
                        try post.title.withUTF8Buffer { title in
                            try post.body.withUTF8Buffer { body in
                                insertPost.bindText(id, at: 1)
                                insertPost.bindText(author, at: 2)
                                insertPost.bindText(title, at: 3)
                                insertPost.bindText(body, at: 4)
                                try insertPost.run()
                            }
                        }
                    }
                }
            }
        }
    }

    func removeAuthor(_ key: String) throws {
        try removeAuthors([key])
    }

    func removeAuthors(_ keys: [String]) throws {
        try inWriteTransaction {
            for key in keys {
                try key.withUTF8Buffer { key in
                    deleteAuthor.bindText(key, at: 1)
                    try deleteAuthor.run()
                }
            }
        }
    }

    private func integer(_ sql: String) throws -> Int {
        let statement = try sqlite.prepare(sql)
        guard try statement.step() else { throw BenchmarkError("no row for \(sql)") }
        return Int(statement.int64(at: 0))
    }

    func postCount(of author: String, storedAmong keys: [String]) throws -> (byAuthor: Int, stored: Int) {
        let byAuthor = try author.withUTF8Buffer { author in
            countByAuthor.bindText(author, at: 1)
            defer { countByAuthor.reset() }
            guard try countByAuthor.step() else { throw BenchmarkError("no count") }
            return Int(countByAuthor.int64(at: 0))
        }
        var stored = 0
        for key in keys {
            try key.withUTF8Buffer { key in
                postExists.bindText(key, at: 1)
                defer { postExists.reset() }
                if try postExists.step() { stored += 1 }
            }
        }
        return (byAuthor, stored)
    }

    func counts() throws -> (posts: Int, authors: Int) {
        (try integer("SELECT count(*) FROM posts"), try integer("SELECT count(*) FROM authors"))
    }
}

extension Author: FetchableRecord, PersistableRecord {}
extension Post: FetchableRecord, PersistableRecord {}

/// GRDB 7.10: ``Author`` and ``Post`` as Codable records, the post's `authorID` a foreign key
/// `ON DELETE CASCADE` (GRDB turns foreign keys on) with an index, through a `DatabasePool`.
final class GRDBRelationshipStore: RelationshipBenchmarkStore {
    let pool: DatabasePool

    init(directory: String) throws {
        var configuration = GRDB.Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: directory + "/posts.grdb.sqlite", configuration: configuration)
        try pool.write { db in
            try db.create(table: Author.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
            }
            try db.create(table: Post.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("authorID", .text).notNull().indexed()
                    .references(Author.databaseTableName, onDelete: .cascade)
                table.column("title", .text).notNull()
                table.column("body", .text).notNull()
            }
        }
    }

    func insert(_ authors: [Author]) throws {
        try pool.write { db in
            for author in authors { try author.insert(db) }
        }
    }

    func insert(_ posts: ArraySlice<Post>) throws {
        try pool.write { db in
            for post in posts { try post.insert(db) }
        }
    }

    func removeAuthor(_ key: String) throws {
        _ = try pool.write { db in try Author.deleteOne(db, key: key) }
    }

    func removeAuthors(_ keys: [String]) throws {
        try pool.write { db in
            for key in keys { _ = try Author.deleteOne(db, key: key) }
        }
    }

    func postCount(of author: String, storedAmong keys: [String]) throws -> (byAuthor: Int, stored: Int) {
        try pool.read { db in
            (
                try Post.filter(Column("authorID") == author).fetchCount(db),
                try Post.filter(keys: keys).fetchCount(db)
            )
        }
    }

    func counts() throws -> (posts: Int, authors: Int) {
        try pool.read { db in (try Post.fetchCount(db), try Author.fetchCount(db)) }
    }
}
