import Foundation
import Trove

/// `swift run trove-demo [path]`: writes, reads and removes annotated models in a real database file and
/// prints what it did.
///
/// Without a path, the database lives in a temporary folder and is deleted at the end. With a path, the
/// file stays, and the next run starts by reading what this one left behind.
@main
struct TroveDemo {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.contains("-h") || arguments.contains("--help") || arguments.count > 1 {
            print("usage: trove-demo [database-path]")
            return
        }
        do {
            // The models' generated extensions (the secondary index of `User`'s `@indexed` fields and the
            // full-text search of its `@searchable` ones), registered when the database opens, with a view:
            // unchanged on a later open, so nothing is rebuilt.
            let models: [any Persistable.Type] = [User.self]
            let extensions = [usersByRole.databaseExtension]
            let database =
                try arguments.first.map { try Database(path: $0, models: models, extensions: extensions) }
                ?? Database.temporary(models: models, extensions: extensions)
            try run(database)
            try await showView(database)
        } catch {
            FileHandle.standardError.write(Data("trove-demo: error: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ database: Database) throws {
        print("Opened \(database.path)")
        let connection = try database.newConnection()

        let previous = try connection.readAll(User.self)
        if !previous.isEmpty {
            print("Found \(previous.count) user(s) from an earlier run: \(names(previous))")
            // The emails are unique in the index: this run writes the same people anew.
            try connection.removeAll(User.self)
        }

        let launch = Date(timeIntervalSince1970: 1_700_000_000)
        let ada = User(
            userID: UUID(), name: "Ada Lovelace", email: "ada@example.com", age: 36, role: .admin,
            address: Address(street: "12 St James's Square", city: "London"),
            bio: "Wrote the first published algorithm, for Babbage's Analytical Engine.",
            metadata: UserStats(loginCount: 3, lastLogin: launch),
            avatarCache: Data(repeating: 0xFF, count: 64)
        )
        let grace = User(
            userID: UUID(), name: "Grace Hopper", email: "grace@example.com", age: 85,
            address: Address(street: "1 Navy Yard", city: "Arlington"),
            bio: "Rear admiral of the US Navy; wrote the first compiler and helped design COBOL."
        )
        let alan = User(
            userID: UUID(), name: "Alan Turing", email: "alan@example.com", age: 41, role: .guest,
            bio: "Described the Turing machine, broke Enigma, and asked whether machines can think."
        )

        // One transaction: all three are written, or none.
        try connection.write { tx in
            try tx.write([ada, grace, alan])
        }
        print("Wrote \(names([ada, grace, alan])) in one transaction")

        // By key, on a second connection: its cache is empty, so the generated coder decodes the stored bytes.
        // (A connection's cache returns written values as they were, @transient fields included.)
        if let user = try database.newConnection().read(User.self, key: ada.userID) {
            let city = user.address?.city ?? "nowhere"
            print("Read by key: \(user.name) <\(user.email)>, \(user.role.rawValue), lives in \(city)")
            print("  @transient avatarCache was not stored: \(user.avatarCache.map { "\($0.count) bytes" } ?? "nil")")
        }

        try connection.read { tx in
            // By keys: the order of the keys is kept.
            let pair = try tx.read(User.self, keys: [alan.userID, grace.userID])
            print("Read by keys: \(names(pair))")
            // All of a collection.
            print("Read all: \(try tx.readAll(User.self).count) user(s) in \"\(User.collection)\"")
            // Which of these keys exist?
            let stranger = UUID()
            let (found, missing) = try tx.filterExisting(User.self, keys: [ada.userID, stranger, alan.userID])
            print("filterExisting: found \(names(found)), \(missing.count) key(s) missing")
            // Metadata alone: only the metadata column is decoded.
            if let stats = try tx.metadata(for: User.self, key: ada.userID) {
                print("Metadata alone: Ada has logged in \(stats.loginCount) time(s)")
            }
        }

        // The index generated from `// @indexed`: a range query, ordered, and a unique lookup.
        try connection.read { tx in
            let over40 = try User.query.filter(.age(40...)).sorted(by: .age).items(tx)
            print("Index query, age 40 and over, youngest first: \(over40.map(\.name).joined(separator: ", "))")
            let byEmail = try User.byEmail("grace@example.com").first(tx)
            print("Unique lookup by email: \(byEmail?.name ?? "nobody")")
        }
        do {
            try connection.write(User(userID: UUID(), name: "Impostor", email: "ada@example.com", age: 20))
        } catch let error as TroveError where error.code == .uniqueViolation {
            print("A second user with Ada's email was refused: \(error.message)")
        }

        // The full-text search generated from `// @searchable`: ranked by bm25, a match in the name weighing
        // five times one in the bio, with a snippet; `.prefixes(of:)` takes raw typing and is never a syntax error.
        try connection.read { tx in
            for input in ["comp", "machine turing", "analytical \"eng*("] {
                let hits = try User.search(for: .prefixes(of: input))
                    .snippets(of: "bio", before: "[", after: "]", tokens: 8)
                    .limit(20)
                    .hits(tx)
                let found = hits.map { "\($0.item.name): \($0.snippet ?? "")" }
                print("Search as you type \"\(input)\": \(found.isEmpty ? "nothing" : found.joined(separator: "; "))")
            }
            let admins = try User.search(for: .raw("name: ada OR bio: navy")).filter(User.index, .age(..<50)).items(tx)
            print("Raw FTS5 query, filtered by the index (age under 50): \(names(admins))")
        }

        // Replace the metadata without touching the item.
        try connection.write { tx in
            _ = try tx.setMetadata(UserStats(loginCount: 4, lastLogin: launch + 60), for: User.self, key: ada.userID)
        }
        let stats = try connection.metadata(for: User.self, key: ada.userID)
        print("Replaced metadata: Ada has now logged in \(stats?.loginCount ?? 0) time(s)")

        // Remove by value and by key; the file keeps Ada for the next run.
        let removed = try connection.write { tx in
            (try tx.remove(alan) ? 1 : 0) + (try tx.remove(User.self, key: grace.userID) ? 1 : 0)
        }
        let left = try connection.readAll(User.self)
        print("Removed \(removed) user(s); \(left.count) left: \(names(left))")
    }

    /// The users of each role, by name: a view kept in the file and updated by every write.
    static let usersByRole = View<User>(
        "users_by_role", grouping: { user, _ in user.role.rawValue }, sortedBy: [.ascending(\.name)])

    /// Shows the view, then a commit's row changes as a list would animate them.
    static func showView(_ database: Database) async throws {
        let connection = try database.newConnection()
        try await connection.write { tx in
            try tx.write([
                User(userID: UUID(), name: "Barbara Liskov", email: "barbara@example.com", age: 84),
                User(userID: UUID(), name: "Edsger Dijkstra", email: "edsger@example.com", age: 72, role: .guest),
            ])
        }
        try await connection.read { tx in
            for group in try usersByRole.read(tx).groups() {
                let members = try usersByRole.rows(in: group).items(tx).map(\.name)
                print("View \(usersByRole.name), group \(group): \(members)")
            }
        }
        // Subscribe, commit, and read the commit's changes to the view: row indexes before the commit for removals
        // and moves' sources, after it for insertions and moves' destinations, as UIKit's batch updates take them.
        var changes = database.changes.makeAsyncIterator()
        // Mappings: the sections a list shows (here every role, the first 2 users of each); kept to compute the
        // changes to a later snapshot, however many commits apart.
        let mappings = ViewMappings(groups: .all, rows: .init(range: .first(2)))
        let before = try await connection.read { tx in try usersByRole.read(tx).sections(mappings) }
        try await connection.write { tx in
            guard var barbara = try User.byEmail("barbara@example.com").first(tx) else { return }
            barbara.role = .admin
            try tx.write(barbara)
            try tx.write(User(userID: UUID(), name: "Ken Thompson", email: "ken@example.com", age: 83))
        }
        if let changeset = await changes.next(), let rowChanges = changeset.viewChanges[usersByRole.name] {
            print("Row changes of one commit: \(rowChanges.rowChanges.map(\.description).joined(separator: "; "))")
        }
        let after = try await connection.read { tx in try usersByRole.read(tx).sections(mappings) }
        let sectionChanges = after.changes(since: before)
        let described = sectionChanges.sectionChanges.map(\.description) + sectionChanges.rowChanges.map(\.description)
        print("Sections \(after.groups) (first 2 users of each role), changes: \(described.joined(separator: "; "))")
    }

    private static func names(_ users: [User]) -> String {
        users.map(\.name).sorted().joined(separator: ", ")
    }
}
