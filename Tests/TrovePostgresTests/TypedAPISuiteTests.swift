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

/// The typed API's behaviours, run against both stores: each test takes the store as argument,
/// and checks it against a dictionary (the model) or against what the API promises.
struct TypedAPISuiteTests {
    static let users = makeUsers(60)

    /// Runs `body` with a fresh store of `backend`, and disposes of it.
    func with(_ backend: Backend, _ body: (any TypedBackend) async throws -> Void) async throws {
        let store = try await backend.make()
        do {
            try await body(store)
        } catch {
            await store.dispose()
            throw error
        }
        await store.dispose()
    }

    @Test(arguments: Backend.available)
    func writtenItemsReadBackByEveryReader(_ backend: Backend) async throws {
        try await with(backend) { store in
            try await store.write(Self.users)
            let sorted = Self.users.sorted { $0.userID.itemKey < $1.userID.itemKey }
            for user in Self.users.prefix(10) {
                #expect(try await store.byKey(user.userID) == user)
                #expect(try await store.metadata(user.userID) == user.stats)
                #expect(try await store.contains(user.userID))
            }
            #expect(try await store.all() == sorted)
            #expect(try await store.count() == Self.users.count)
            #expect(try await store.keys() == sorted.map(\.userID))
            let absent = UUID()
            #expect(try await store.byKey(absent) == nil)
            #expect(try await store.metadata(absent) == nil)
            #expect(try await !store.contains(absent))
            // byKeys keeps the order asked for and skips missing keys.
            let asked = [Self.users[5].userID, absent, Self.users[2].userID, Self.users[40].userID]
            #expect(try await store.byKeys(asked) == [Self.users[5], Self.users[2], Self.users[40]])
            let (found, missing) = try await store.filterExisting(asked)
            #expect(found == [Self.users[5], Self.users[2], Self.users[40]])
            #expect(missing == [absent])
        }
    }

    @Test(arguments: Backend.available)
    func removalsAndMetadataReturnWhatChanged(_ backend: Backend) async throws {
        try await with(backend) { store in
            try await store.write(Self.users)
            #expect(try await store.remove(Self.users[0]))
            #expect(try await !store.remove(Self.users[0]))
            #expect(try await store.remove(keys: [Self.users[1].userID, Self.users[2].userID, UUID()]) == 2)
            #expect(try await store.byKey(Self.users[1].userID) == nil)
            let stats = UserStats(logins: 99, lastSeen: Date(timeIntervalSince1970: 5))
            #expect(try await store.setMetadata(stats, Self.users[3].userID))
            #expect(try await store.metadata(Self.users[3].userID) == stats)
            #expect(try await store.byKey(Self.users[3].userID)?.stats == stats)
            #expect(try await !store.setMetadata(stats, UUID()))
            #expect(try await store.setMetadata(nil, Self.users[3].userID))
            #expect(try await store.metadata(Self.users[3].userID) == nil)
            #expect(try await store.removeAll() == Self.users.count - 3)
            #expect(try await store.count() == 0)
            #expect(try await store.all().isEmpty)
            #expect(try await store.byKey(Self.users[10].userID) == nil)
        }
    }

    /// Random writes, removals, metadata changes and reads against a dictionary: after every
    /// step, what the store returns is what the model holds.
    @Test(arguments: Backend.available)
    func randomOperationsMatchTheModel(_ backend: Backend) async throws {
        try await with(backend) { store in
            var random = SeededGenerator(seed: 7)
            let pool = makeUsers(12, seed: 3)
            var model: [UUID: User] = [:]
            for step in 0..<80 {
                let user = pool.randomElement(using: &random)!
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1:
                    var changed = user
                    changed.age = Int.random(in: 0...90, using: &random)
                    changed.name = "step \(step)"
                    try await store.write([changed])
                    model[user.userID] = changed
                case 2:
                    #expect(try await store.remove(keys: [user.userID]) == (model.removeValue(forKey: user.userID) == nil ? 0 : 1))
                case 3:
                    let stats = UserStats(logins: step, lastSeen: nil)
                    let changed = try await store.setMetadata(stats, user.userID)
                    #expect(changed == (model[user.userID] != nil))
                    model[user.userID]?.stats = stats
                case 4:
                    #expect(try await store.byKey(user.userID) == model[user.userID])
                default:
                    if Int.random(in: 0..<8, using: &random) == 0 {
                        #expect(try await store.removeAll() == model.count)
                        model.removeAll()
                    }
                }
                #expect(try await store.byKey(user.userID) == model[user.userID], "step \(step)")
            }
            let expected = model.values.sorted { $0.userID.itemKey < $1.userID.itemKey }
            #expect(try await store.all() == expected)
            #expect(try await store.count() == model.count)
        }
    }

    /// Queries of the generated index, each checked against a brute-force filter of the users.
    @Test(arguments: Backend.indexed)
    func indexQueriesMatchBruteForce(_ backend: Backend) async throws {
        try await with(backend) { store in
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
                #expect(try await store.query(conditions, [], limit: nil) == expected, "\(conditions)")
                #expect(try await store.queryCount(conditions) == expected.count, "\(conditions)")
            }
            // Orderings: by age ascending then key; by nickname descending (nil last) then key; a limit.
            let byAge = Self.users.sorted { ($0.age, $0.userID.itemKey) < ($1.age, $1.userID.itemKey) }.map(\.userID)
            #expect(try await store.query([], [.age], limit: nil) == byAge)
            #expect(try await store.query([], [.age], limit: 7) == Array(byAge.prefix(7)))
            let byNickname = Self.users.sorted { left, right in
                if left.nickname != right.nickname {
                    guard let l = left.nickname else { return false }
                    guard let r = right.nickname else { return true }
                    return l > r
                }
                return left.userID.itemKey < right.userID.itemKey
            }.map(\.userID)
            #expect(try await store.query([], [.column("nickname", .descending)], limit: nil) == byNickname)
        }
    }

    /// A unique column refuses a second item with the same value, and the transaction is rolled back.
    @Test(arguments: Backend.indexed)
    func uniqueColumnRefusesDuplicates(_ backend: Backend) async throws {
        try await with(backend) { store in
            try await store.write(Array(Self.users.prefix(3)))
            var twin = makeUsers(70)[65]
            twin.email = Self.users[0].email
            let error = await #expect(throws: TroveError.self) { try await store.write([twin]) }
            #expect(error?.code == .uniqueViolation)
            #expect(error?.extensionName == User.index.name)
            #expect(try await store.byKey(twin.userID) == nil)
            #expect(try await store.count() == 3)
        }
    }
}
