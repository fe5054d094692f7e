import Foundation
import Testing
import Trove

/// Queries the secondary index that trove-gen generated from the `@indexed` fields of the
/// showcase `User` (item fields of several types, a unique email, an enum, metadata fields), and
/// checks every answer against a brute-force filter of the same users.
struct GeneratedIndexTests {
    /// A deterministic pseudo-random generator, so that a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let users: [User] = {
        var random = SplitMix(state: 42)
        let nicknames: [String?] = [nil, "ace", "bee", "cat", nil, "dot"]
        return (0..<120).map { number in
            var user = User(
                userID: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", number * 7919))!,
                name: "user \(number)", email: "u\(number)@example.com", age: Int.random(in: 0...60, using: &random))
            user.nickname = nicknames.randomElement(using: &random)!
            user.mainRole = [Role.reader, .editor, .admin].randomElement(using: &random)!
            user.isVerified = Bool.random(using: &random)
            user.rating = Double(Int.random(in: 0...50, using: &random)) / 10
            if number % 4 != 0 {
                let lastSeen =
                    number % 3 == 0 ? nil : Date(timeIntervalSince1970: Double(Int.random(in: 0...1000, using: &random)))
                user.stats = UserStats(logins: Int.random(in: 0...20, using: &random), lastSeen: lastSeen)
            }
            return user
        }
    }()

    /// A database with the generated index registered, holding ``users``.
    static func makeDatabase() throws -> Database {
        let database = try Database.temporary(models: [User.self])
        try database.newConnection().write { tx in try tx.write(users) }
        return database
    }

    /// Expects `query` to return exactly the users that `matches`, in key order.
    static func expect(
        _ database: Database, _ conditions: [IndexCondition<User>], matching matches: (User) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let expected = users.filter(matches).map(\.userID.itemKey).sorted()
        let keys = try database.newConnection().read { tx in
            try conditions.reduce(User.query) { $0.filter($1) }.keys(tx).map(\.itemKey)
        }
        #expect(keys == expected, sourceLocation: sourceLocation)
        #expect(!expected.isEmpty || conditions.isEmpty, "a query that matches nothing proves little", sourceLocation: sourceLocation)
    }

    @Test func equalityAndMembership() throws {
        let database = try Self.makeDatabase()
        try Self.expect(database, [.age(30)]) { $0.age == 30 }
        try Self.expect(database, [.age(in: [1, 30, 59])]) { [1, 30, 59].contains($0.age) }
        try Self.expect(database, [.email("u7@example.com")]) { $0.email == "u7@example.com" }
        try Self.expect(database, [.email(in: ["u1@example.com", "u2@example.com"])]) {
            ["u1@example.com", "u2@example.com"].contains($0.email)
        }
        try Self.expect(database, [.mainRole(.editor)]) { $0.mainRole == .editor }
        try Self.expect(database, [.mainRole(in: [.reader, .admin])]) { $0.mainRole != .editor }
        try Self.expect(database, [.isVerified(true)]) { $0.isVerified }
        try Self.expect(database, [.rating(2.5)]) { $0.rating == 2.5 }
        try Self.expect(database, [.nickname("bee")]) { $0.nickname == "bee" }
        try Self.expect(database, [.logins(5)]) { $0.stats?.logins == 5 }
    }

    @Test func everyKindOfRange() throws {
        let database = try Self.makeDatabase()
        try Self.expect(database, [.age(18..<30)]) { (18..<30).contains($0.age) }
        try Self.expect(database, [.age(18...30)]) { (18...30).contains($0.age) }
        try Self.expect(database, [.age(45...)]) { $0.age >= 45 }
        try Self.expect(database, [.age(..<10)]) { $0.age < 10 }
        try Self.expect(database, [.age(...10)]) { $0.age <= 10 }
        try Self.expect(database, [.rating(1.5..<3)]) { (1.5..<3).contains($0.rating) }
        try Self.expect(database, [.email("u1"..<"u2")]) { ("u1"..<"u2").contains($0.email) }
        try Self.expect(database, [.nickname("b"...)]) { ($0.nickname ?? "") >= "b" }
        try Self.expect(database, [.logins(10...)]) { ($0.stats?.logins ?? -1) >= 10 }
        let noon = Date(timeIntervalSince1970: 500)
        try Self.expect(database, [.lastSeen(..<noon)]) { $0.stats?.lastSeen.map { $0 < noon } ?? false }
    }

    @Test func nilAndNotNil() throws {
        let database = try Self.makeDatabase()
        try Self.expect(database, [.nickname(nil)]) { $0.nickname == nil }
        try Self.expect(database, [.nickname(isNil: true)]) { $0.nickname == nil }
        try Self.expect(database, [.nickname(isNil: false)]) { $0.nickname != nil }
        // No metadata at all, or metadata without a date: both are nil in the column.
        try Self.expect(database, [.lastSeen(isNil: true)]) { $0.stats?.lastSeen == nil }
        try Self.expect(database, [.lastSeen(isNil: false)]) { $0.stats?.lastSeen != nil }
    }

    @Test func conditionsCombineWithAnd() throws {
        let database = try Self.makeDatabase()
        try Self.expect(database, [.age(20...), .mainRole(.admin), .isVerified(false)]) {
            $0.age >= 20 && $0.mainRole == .admin && !$0.isVerified
        }
        try Self.expect(database, [.age(..<40), .logins(in: [1, 2, 3, 4, 5, 6])]) {
            $0.age < 40 && (1...6).contains($0.stats?.logins ?? -1)
        }
    }

    @Test func orderingLimitAndOffset() throws {
        let database = try Self.makeDatabase()
        let connection = try database.newConnection()
        let byAge = Self.users.sorted { ($0.age, $1.userID.itemKey) > ($1.age, $0.userID.itemKey) }
        let page = try connection.read { tx in
            try User.query.filter(.age(10...)).sorted(by: .age, .descending).limit(20, offset: 5).items(tx)
        }
        #expect(page.map(\.userID) == Array(byAge.filter { $0.age >= 10 }.dropFirst(5).prefix(20)).map(\.userID))

        // Ascending with nil first, then by key; a second ordering decides ties of the first.
        let byNickname = Self.users.sorted {
            ($0.nickname ?? "", $0.nickname == nil ? 0 : 1, $0.rating, $0.userID.itemKey)
                < ($1.nickname ?? "", $1.nickname == nil ? 0 : 1, $1.rating, $1.userID.itemKey)
        }
        let sorted = try connection.read { tx in try User.query.sorted(by: .nickname, .rating).keys(tx) }
        #expect(sorted == byNickname.map(\.userID))

        let count = try connection.read { tx in try User.query.filter(.mainRole(.reader)).count(tx) }
        #expect(count == Self.users.filter { $0.mainRole == .reader }.count)
        let oldest = try connection.read { tx in try User.query.sorted(by: .age, .descending).first(tx) }
        #expect(oldest?.age == Self.users.map(\.age).max())
        let mostLogins = try connection.read { tx in try User.query.sorted(by: .logins, .descending).first(tx) }
        #expect(mostLogins?.stats?.logins == Self.users.compactMap(\.stats?.logins).max())
    }

    @Test func uniqueLookup() async throws {
        let database = try Self.makeDatabase()
        let connection = try database.newConnection()
        let user = Self.users[17]
        try Self.lookUpSynchronously(user, on: connection)
        let asynchronously = try await User.byEmail(user.email).first(in: connection)
        #expect(asynchronously?.userID == user.userID)
        let count = try await User.query.filter(.age(18..<30)).count(in: connection)
        #expect(count == Self.users.filter { (18..<30).contains($0.age) }.count)

        var impostor = Self.users[3]
        impostor.userID = UUID()
        impostor.email = user.email
        #expect(throws: TroveError.self) { try connection.write(impostor) }
    }

    /// The synchronous lookups: in a transaction, and on a connection.
    static func lookUpSynchronously(_ user: User, on connection: Connection) throws {
        let inTransaction = try connection.read { tx in try User.byEmail(user.email).first(tx) }
        #expect(inTransaction?.userID == user.userID)
        #expect(try connection.read { tx in try User.byEmail("nobody@example.com").first(tx) } == nil)
        let onConnection = try User.byEmail(user.email).first(in: connection)
        #expect(onConnection?.userID == user.userID)
    }

    @Test func metadataWritesReachTheIndex() throws {
        let database = try Self.makeDatabase()
        let connection = try database.newConnection()
        let user = Self.users[0]
        try connection.write { tx in
            _ = try tx.setMetadata(UserStats(logins: 999, lastSeen: nil), for: User.self, key: user.userID)
        }
        let found = try connection.read { tx in try User.query.filter(.logins(999)).keys(tx) }
        #expect(found == [user.userID])
    }

    @Test func registersWithTheDatabaseAndReopensUnchanged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trove-index-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("users.trove").path
        do {
            let database = try Database(path: path, models: [User.self])
            try database.newConnection().write { tx in try tx.write(Self.users) }
        }
        let database = try Database(path: path)
        #expect(try database.register(User.self) == [.unchanged, .unchanged])
        #expect(User.databaseExtensions.map(\.name) == ["User_index", "User_search"])
        let adults = try database.newConnection().read { tx in try User.query.filter(.age(18...)).count(tx) }
        #expect(adults == Self.users.filter { $0.age >= 18 }.count)
    }
}
