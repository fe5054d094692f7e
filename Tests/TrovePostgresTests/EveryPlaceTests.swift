import Foundation
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// The typed API, written once (the drivers of `EveryPlaceSuite.swift`), run on every place: seeded
/// random operations (writes, metadata, removals, several at once) checked after each step against
/// a dictionary, with every read, index query, unique lookup, search, view read and relationship
/// traversal. An engine that does not run a kind of query must refuse it with `misuse`, never
/// answer without it.
struct EveryPlaceTests {
    /// A view of the users by role, sorted by age: registered on SQLite's places.
    static let byRole = View<User>(
        "suite_users_by_role", grouping: { user, _ in user.mainRole.rawValue }, sortedBy: [.ascending { $0.age }])
    static let words = ["swift", "sqlite", "server", "cache", "index", "query", "view", "merge"]
    static let steps = ProcessInfo.processInfo.environment["TROVE_SUITE_STEPS"].flatMap { Int($0) } ?? 60

    /// A fresh place of `kind` and what disposes of it.
    static func make(_ kind: SuitePlace) async throws -> (driver: any SuiteDriver, dispose: @Sendable () async -> Void) {
        if kind.isPostgres {
            // The suite's view is refused at open: the store is opened with the models' other
            // extensions.
            let store = try await TestServer.openStore(models: [User.self, Post.self, Topic.self])
            let driver: any SuiteDriver =
                kind == .postgres ? AsyncPlaceDriver(place: store) : AnyEngineTransactionDriver(place: store)
            return (driver, { await TestServer.dispose(store) })
        }
        let database = try Database.temporary(
            models: [User.self, Post.self, Topic.self], extensions: [byRole.databaseExtension])
        let connection = try database.newConnection()
        let driver: any SuiteDriver =
            switch kind {
            case .transaction: SyncTransactionDriver(place: connection)
            case .connection: SyncPlaceDriver(place: connection)
            case .database: SyncPlaceDriver(place: database)
            case .connectionAsync: AsyncPlaceDriver(place: connection)
            case .databaseAsync: AsyncPlaceDriver(place: database)
            default: AnyEngineTransactionDriver(place: database)
            }
        return (driver, {})
    }

    @Test(arguments: SuitePlace.available)
    func everyOperationAgreesWithAModel(_ kind: SuitePlace) async throws {
        let (driver, dispose) = try await Self.make(kind)
        defer { Task { await dispose() } }
        let seed = ProcessInfo.processInfo.environment["TROVE_SUITE_SEED"].flatMap { Int($0) } ?? 2_718
        var random = SeededGenerator(seed: UInt64(seed))
        var model = SuiteModel()
        var counter = 0
        func newUser() -> User {
            counter += 1
            var user = User(
                userID: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", counter * 7_919))!,
                name: "user \(counter)", email: "u\(counter)@example.com", age: Int.random(in: 0...40, using: &random))
            user.mainRole = [Role.reader, .editor, .admin].randomElement(using: &random)!
            user.isVerified = Bool.random(using: &random)
            user.bio = (0..<3).map { _ in Self.words.randomElement(using: &random)! }.joined(separator: " ")
            if Bool.random(using: &random) { user.stats = UserStats(logins: Int.random(in: 0...9, using: &random)) }
            return user
        }
        for step in 0..<Self.steps {
            let existing = model.users.keys.sorted { $0.itemKey < $1.itemKey }
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                let user = newUser()
                try await driver.write(user)
                model.users[user.userID] = user
            case 30..<45:
                let users = (0..<Int.random(in: 1...5, using: &random)).map { _ in newUser() }
                try await driver.write(users)
                for user in users { model.users[user.userID] = user }
            case 45..<55 where !existing.isEmpty:
                var user = model.users[existing.randomElement(using: &random)!]!
                user.age = Int.random(in: 0...40, using: &random)
                user.isVerified.toggle()
                try await driver.write(user)
                model.users[user.userID] = user
            case 55..<63:
                let id = existing.randomElement(using: &random) ?? UUID()
                let stats = Bool.random(using: &random) ? UserStats(logins: step) : nil
                #expect(try await driver.setMetadata(stats, id) == (model.users[id] != nil), "step \(step)")
                model.users[id]?.stats = stats
            case 63..<72 where !existing.isEmpty:
                let user = model.users[existing.randomElement(using: &random)!]!
                #expect(try await driver.remove(user), "step \(step)")
                model.remove(user.userID)
            case 72..<78:
                let keys = Array(existing.shuffled(using: &random).prefix(2)) + [UUID()]
                #expect(try await driver.remove(keys: keys) == keys.count - 1, "step \(step)")
                for key in keys { model.remove(key) }
            case 78..<80:
                #expect(try await driver.removeAll() == model.users.count, "step \(step)")
                model.removeAll()
            case 80..<100 where !existing.isEmpty:
                let posts = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    counter += 1
                    return Post(
                        id: String(format: "p%05d", counter), title: "post \(counter)",
                        authorID: existing.randomElement(using: &random)!)
                }
                try await driver.write(posts)
                for post in posts { model.posts[post.id] = post }
            default:
                continue
            }
            try await check(driver, model, kind: kind, step: step, random: &random)
        }
        #expect(model.users.count > 5, "the run wrote too little to prove anything")
    }

    /// Every read of `driver` against `model`.
    func check(
        _ driver: any SuiteDriver, _ model: SuiteModel, kind: SuitePlace, step: Int, random: inout SeededGenerator
    ) async throws {
        let label = "\(kind.rawValue), step \(step)"
        let sorted = model.sortedUsers
        #expect(try await driver.count() == sorted.count, "\(label)")
        #expect(try await driver.keys() == sorted.map(\.userID), "\(label)")
        #expect(try await driver.readAll() == sorted, "\(label)")
        let absent = UUID()
        for user in sorted.shuffled(using: &random).prefix(3) {
            #expect(try await driver.read(user.userID) == user, "\(label)")
            #expect(try await driver.contains(user.userID), "\(label)")
            #expect(try await driver.metadata(user.userID) == user.stats, "\(label)")
        }
        #expect(try await driver.read(absent) == nil, "\(label)")
        #expect(try await !driver.contains(absent), "\(label)")
        let asked = Array(sorted.shuffled(using: &random).prefix(3).map(\.userID)) + [absent]
        #expect(try await driver.read(keys: asked) == asked.compactMap { model.users[$0] }, "\(label)")

        // An index query: random conditions, an ordering, a limit.
        let low = Int.random(in: 0...30, using: &random)
        let ages = low..<(low + Int.random(in: 1...15, using: &random))
        let verified = Bool.random(using: &random)
        var query = User.query.filter(.age(ages))
        var expected = sorted.filter { ages.contains($0.age) }
        if Bool.random(using: &random) {
            query = query.filter(.isVerified(verified))
            expected = expected.filter { $0.isVerified == verified }
        }
        let descending = Bool.random(using: &random)
        query = query.sorted(by: .age, descending ? .descending : .ascending)
        expected = expected.sorted { lhs, rhs in
            lhs.age != rhs.age ? (descending ? lhs.age > rhs.age : lhs.age < rhs.age) : lhs.userID.itemKey < rhs.userID.itemKey
        }
        if Bool.random(using: &random) {
            query = query.limit(3)
            expected = Array(expected.prefix(3))
        }
        #expect(try await driver.items(query) == expected, "\(label): \(ages) \(verified) \(descending)")
        #expect(try await driver.keys(query) == expected.map(\.userID), "\(label)")
        #expect(try await driver.count(query) == expected.count, "\(label)")
        #expect(try await driver.first(query) == expected.first, "\(label)")

        // A unique lookup, of a stored email and of one nobody has.
        if let user = sorted.randomElement(using: &random) {
            #expect(try await driver.first(User.byEmail(user.email)) == user, "\(label)")
        }
        #expect(try await driver.first(User.byEmail("nobody@example.com")) == nil, "\(label)")

        // A search, answered by every engine; a view read and a traversal: answered by SQLite,
        // refused by PostgreSQL (which keeps relationships, but not the notify rule of `Post`'s,
        // so not these).
        let word = Self.words.randomElement(using: &random)!
        let role = [Role.reader, .editor, .admin].randomElement(using: &random)!
        let author = sorted.randomElement(using: &random)
        let search = User.search(for: .allWords(of: word))
        let matching = sorted.filter { $0.bio.split(separator: " ").contains(Substring(word)) }
        #expect(try await driver.hits(search).map(\.key).sorted { $0.itemKey < $1.itemKey } == matching.map(\.userID), "\(label)")
        #expect(try await driver.count(search) == matching.count, "\(label)")
        if let author {
            let posts = model.posts.values.filter { $0.authorID == author.userID }.sorted { $0.id < $1.id }
            #expect(try await driver.items(author.posts) == posts, "\(label): posts of \(author.name)")
            #expect(try await driver.count(author.posts) == posts.count, "\(label)")
            if let post = posts.first {
                #expect(try await driver.first(post.author) == author, "\(label)")
            }
        }
        // A view read: answered by SQLite, refused by PostgreSQL.
        let view = Self.byRole.rows(in: role.rawValue)
        if kind.isPostgres {
            try await expectRefused(label) { _ = try await driver.keys(view) }
            return
        }
        let rows = sorted.filter { $0.mainRole == role }.sorted { ($0.age, $0.userID.itemKey) < ($1.age, $1.userID.itemKey) }
        #expect(try await driver.keys(view) == rows.map(\.userID), "\(label): view of \(role)")
        #expect(try await driver.count(view) == rows.count, "\(label)")
    }

    func expectRefused(
        _ label: String, _ code: TroveError.Code = .misuse, _ body: () async throws -> Void
    ) async throws {
        do {
            try await body()
            Issue.record("\(label): PostgreSQL answered a query it does not run")
        } catch let error as TroveError {
            #expect(error.code == code, "\(label): \(error)")
        }
    }
}

/// What the suite expects the store to hold.
struct SuiteModel {
    var users: [UUID: User] = [:]
    var posts: [String: Post] = [:]

    var sortedUsers: [User] { users.values.sorted { $0.userID.itemKey < $1.userID.itemKey } }

    mutating func remove(_ id: UUID) {
        // Removing a user removes its posts (the `.deleteSource` rule of `Post.author`).
        guard users.removeValue(forKey: id) != nil else { return }
        posts = posts.filter { $0.value.authorID != id }
    }

    mutating func removeAll() {
        users.removeAll()
        posts.removeAll()
    }
}
