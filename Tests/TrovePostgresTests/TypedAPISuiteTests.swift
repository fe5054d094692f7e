import Foundation
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

/// Reports, as a skipped test with its reason, that the PostgreSQL half of the suites is not run.
@Test(.enabled(if: !TestServer.isConfigured, "a PostgreSQL server is configured: the suites run against it"))
func postgresSkipNotice() {
    Issue.record(Comment(rawValue: TestServer.skipMessage), severity: .warning)
}

/// The places the suite runs on: a Trove file, and PostgreSQL twice: with the index of `User`,
/// whose writes go one statement each with their index rows, and without it, whose writes are
/// held back and sent in batches (with the next statement or the commit).
enum Place: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    case postgresWithoutIndex = "postgres-without-index"

    var testDescription: String { rawValue }

    /// The places to run: PostgreSQL only when a server is configured (its skip is reported by
    /// ``postgresSkipNotice()``).
    static let available: [Place] = TestServer.isConfigured ? [.sqlite, .postgres, .postgresWithoutIndex] : [.sqlite]

    /// The places that keep the index of `User`, for the tests of its queries.
    static let indexed = available.filter { $0 != .postgresWithoutIndex }

    /// Runs `body` with a fresh place of this kind, seen only through Trove's async protocol, and
    /// disposes of it.
    func run(_ body: (any AsyncDatabaseWriter) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            try await body(try Database.temporary(models: [User.self]))
        case .postgres, .postgresWithoutIndex:
            try await TestServer.withStore(extensions: self == .postgres ? [User.index.databaseExtension] : []) {
                try await body($0)
            }
        }
    }
}

/// The typed API's behaviours through Trove's protocols (`AsyncDatabaseWriter`, its
/// transactions and its conveniences, the terminals of queries), run against a Trove file and
/// PostgreSQL: each test takes the place as argument, and checks it against a dictionary (the
/// model) or against what the API promises.
struct TypedAPISuiteTests {
    static let users = makeUsers(60)

    @Test(arguments: Place.available)
    func writtenItemsReadBackByEveryReader(_ place: Place) async throws {
        func check(_ store: some AsyncDatabaseWriter) async throws {
            try await store.write(Self.users)
            let sorted = Self.users.sorted { $0.userID.itemKey < $1.userID.itemKey }
            for user in Self.users.prefix(10) {
                #expect(try await store.read(User.self, key: user.userID) == user)
                #expect(try await store.metadata(for: User.self, key: user.userID) == user.stats)
                #expect(try await store.contains(User.self, key: user.userID))
            }
            #expect(try await store.readAll(User.self) == sorted)
            #expect(try await store.count(of: User.self) == Self.users.count)
            #expect(try await store.keys(of: User.self) == sorted.map(\.userID))
            let absent = UUID()
            #expect(try await store.read(User.self, key: absent) == nil)
            #expect(try await store.metadata(for: User.self, key: absent) == nil)
            #expect(try await !store.contains(User.self, key: absent))
            // Reading by keys keeps the order asked for and skips missing keys.
            let asked = [Self.users[5].userID, absent, Self.users[2].userID, Self.users[40].userID]
            #expect(try await store.read(User.self, keys: asked) == [Self.users[5], Self.users[2], Self.users[40]])
            // The same, inside one transaction.
            let (one, many) = try await store.read { tx in
                (try await tx.read(User.self, key: Self.users[7].userID), try await tx.read(User.self, keys: asked))
            }
            #expect(one == Self.users[7])
            #expect(many == [Self.users[5], Self.users[2], Self.users[40]])
        }
        try await place.run { try await check($0) }
    }

    @Test(arguments: Place.available)
    func removalsAndMetadataReturnWhatChanged(_ place: Place) async throws {
        func check(_ store: some AsyncDatabaseWriter) async throws {
            try await store.write(Self.users)
            #expect(try await store.remove(Self.users[0]))
            #expect(try await !store.remove(Self.users[0]))
            #expect(try await store.remove(User.self, keys: [Self.users[1].userID, Self.users[2].userID, UUID()]) == 2)
            #expect(try await store.read(User.self, key: Self.users[1].userID) == nil)
            let stats = UserStats(logins: 99, lastSeen: Date(timeIntervalSince1970: 5))
            #expect(try await store.setMetadata(stats, for: User.self, key: Self.users[3].userID))
            #expect(try await store.metadata(for: User.self, key: Self.users[3].userID) == stats)
            #expect(try await store.read(User.self, key: Self.users[3].userID)?.stats == stats)
            #expect(try await !store.setMetadata(stats, for: User.self, key: UUID()))
            #expect(try await store.setMetadata(nil, for: User.self, key: Self.users[3].userID))
            #expect(try await store.metadata(for: User.self, key: Self.users[3].userID) == nil)
            #expect(try await store.removeAll(User.self) == Self.users.count - 3)
            #expect(try await store.count(of: User.self) == 0)
            #expect(try await store.readAll(User.self).isEmpty)
            #expect(try await store.read(User.self, key: Self.users[10].userID) == nil)
        }
        try await place.run { try await check($0) }
    }

    /// Random writes, removals, metadata changes and reads against a dictionary: after every
    /// step, what the store returns is what the model holds.
    @Test(arguments: Place.available)
    func randomOperationsMatchTheModel(_ place: Place) async throws {
        func check(_ store: some AsyncDatabaseWriter) async throws {
            let seed: UInt64 = 7
            var random = SeededGenerator(seed: seed)
            let pool = makeUsers(12, seed: 3)
            var model: [UUID: User] = [:]
            for step in 0..<80 {
                let user = pool.randomElement(using: &random)!
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1:
                    var changed = user
                    changed.age = Int.random(in: 0...90, using: &random)
                    changed.name = "step \(step)"
                    try await store.write { tx in try await tx.write(changed) }
                    model[user.userID] = changed
                case 2:
                    let removed = try await store.write { tx in try await tx.remove(User.self, keys: [user.userID]) }
                    #expect(removed == (model.removeValue(forKey: user.userID) == nil ? 0 : 1), "seed \(seed)")
                case 3:
                    let stats = UserStats(logins: step, lastSeen: nil)
                    let changed = try await store.setMetadata(stats, for: User.self, key: user.userID)
                    #expect(changed == (model[user.userID] != nil), "seed \(seed)")
                    model[user.userID]?.stats = stats
                case 4:
                    #expect(try await store.read(User.self, key: user.userID) == model[user.userID], "seed \(seed)")
                default:
                    if Int.random(in: 0..<8, using: &random) == 0 {
                        #expect(try await store.removeAll(User.self) == model.count, "seed \(seed)")
                        model.removeAll()
                    }
                }
                let read = try await store.read { tx in try await tx.read(User.self, key: user.userID) }
                #expect(read == model[user.userID], "seed \(seed), step \(step)")
            }
            let expected = model.values.sorted { $0.userID.itemKey < $1.userID.itemKey }
            #expect(try await store.readAll(User.self) == expected, "seed \(seed)")
            #expect(try await store.count(of: User.self) == model.count, "seed \(seed)")
        }
        try await place.run { try await check($0) }
    }

    /// Queries of the generated index, each checked against a brute-force filter of the users,
    /// with every terminal: on the place, and inside a transaction.
    @Test(arguments: Place.indexed)
    func indexQueriesMatchBruteForce(_ place: Place) async throws {
        func check(_ store: some AsyncDatabaseWriter) async throws {
            try await store.write(Self.users)
            let byKey = { (users: [User]) in users.sorted { $0.userID.itemKey < $1.userID.itemKey }.map(\.userID) }
            let cases: [([IndexCondition<User>], (User) -> Bool)] = [
                ([.age(18...40)], { (18...40).contains($0.age) }),
                ([.age(..<10)], { $0.age < 10 }),
                ([.nickname(isNil: true)], { $0.nickname == nil }),
                ([.nickname("ace")], { $0.nickname == "ace" }),
                ([.nickname(in: ["bee", "cat"])], { ["bee", "cat"].contains($0.nickname ?? "") }),
                ([.mainRole(.admin), .isVerified(true)], { $0.mainRole == .admin && $0.isVerified }),
                ([.rating(1.5...3.0)], { (1.5...3.0).contains($0.rating) }),
                ([.email("u7@example.com")], { $0.email == "u7@example.com" }),
                ([.logins(5...)], { ($0.stats?.logins ?? -1) >= 5 }),
            ]
            for (conditions, matches) in cases {
                let expected = byKey(Self.users.filter(matches))
                #expect(!expected.isEmpty, "a query that matches nothing proves little")
                let query = conditions.reduce(User.query) { $0.filter($1) }
                #expect(try await query.items(in: store).map(\.userID) == expected, "\(conditions)")
                #expect(try await query.keys(in: store) == expected, "\(conditions)")
                #expect(try await query.count(in: store) == expected.count, "\(conditions)")
                #expect(try await query.first(in: store)?.userID == expected.first, "\(conditions)")
                let inside = try await store.read { tx in (try await query.keys(tx), try await query.count(tx)) }
                #expect(inside.0 == expected && inside.1 == expected.count, "\(conditions)")
            }
            // Orderings: by age ascending then key; by nickname descending (nil last) then key; a
            // limit and an offset.
            let byAge = Self.users.sorted { ($0.age, $0.userID.itemKey) < ($1.age, $1.userID.itemKey) }.map(\.userID)
            #expect(try await User.query.sorted(by: .age).keys(in: store) == byAge)
            #expect(try await User.query.sorted(by: .age).limit(7).keys(in: store) == Array(byAge.prefix(7)))
            #expect(try await User.query.sorted(by: .age).limit(7, offset: 5).keys(in: store) == Array(byAge[5..<12]))
            #expect(try await User.query.sorted(by: .age).limit(7, offset: 5).count(in: store) == 7)
            #expect(try await User.query.sorted(by: .age).limit(3, offset: 4).first(in: store)?.userID == byAge[4])
            let byNickname = Self.users.sorted { left, right in
                if left.nickname != right.nickname {
                    guard let l = left.nickname else { return false }
                    guard let r = right.nickname else { return true }
                    return l > r
                }
                return left.userID.itemKey < right.userID.itemKey
            }.map(\.userID)
            #expect(try await User.query.sorted(by: .nickname, .descending).keys(in: store) == byNickname)
            let ada = Self.users[7]
            #expect(try await User.byEmail(ada.email).first(in: store) == ada)
        }
        try await place.run { try await check($0) }
    }

    /// A unique column refuses a second item with the same value, and the transaction is rolled back.
    @Test(arguments: Place.indexed)
    func uniqueColumnRefusesDuplicates(_ place: Place) async throws {
        func check(_ store: some AsyncDatabaseWriter) async throws {
            try await store.write(Array(Self.users.prefix(3)))
            var twin = makeUsers(70)[65]
            twin.email = Self.users[0].email
            let error = await #expect(throws: TroveError.self) { try await store.write(twin) }
            #expect(error?.code == .uniqueViolation)
            #expect(error?.extensionName == User.index.name)
            // The same words on both engines: the index, the value, the item that has it.
            #expect(error?.field == "email")
            let message = error?.message ?? ""
            #expect(message.contains(Self.users[0].email), "\(message)")
            #expect(message.contains("'\(Self.users[0].userID.itemKey)'"), "\(message)")
            #expect(message.contains("'\(User.index.name)'"), "\(message)")
            #expect(internalsShown(in: error.map { String(describing: $0) } ?? "").isEmpty, "\(String(describing: error))")
            #expect(try await store.read(User.self, key: twin.userID) == nil)
            #expect(try await store.count(of: User.self) == 3)
        }
        try await place.run { try await check($0) }
    }
}
