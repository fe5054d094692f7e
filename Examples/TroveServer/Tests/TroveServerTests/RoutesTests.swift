import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TroveServerApp

/// The routes of the service, on both stores, through Hummingbird's in-process test client (no
/// socket): statuses, bodies, and the index query against a brute-force model of the seeded users.
@Suite struct RoutesTests {
    /// The stores the routes run on.
    enum Store: String, CaseIterable, Sendable {
        case trove, grdb
    }

    /// A new `store` in a new temporary folder, which the caller removes: the folder, the
    /// database's path in it, and the store.
    static func makeStore(_ store: Store) throws -> (directory: URL, path: String, store: any UserStore) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trove-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("users.sqlite").path
        let userStore: any UserStore =
            switch store {
            case .trove: try TroveUserStore(path: path)
            case .grdb: try GRDBUserStore(path: path)
            }
        return (directory, path, userStore)
    }

    /// Runs `body` with a test client of the application over a new `store` in a temporary folder.
    func withClient(
        _ store: Store, seed: Int = 0, _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let (directory, _, userStore) = try Self.makeStore(store)
        defer { try? FileManager.default.removeItem(at: directory) }
        if seed > 0 { _ = try await userStore.seed(count: seed) }
        let app = Application(router: UserRoutes.router(store: userStore))
        try await app.test(.router) { client in try await body(client) }
    }

    static func json(_ value: some Encodable) throws -> ByteBuffer {
        try ByteBuffer(bytes: JSONEncoder().encode(value))
    }

    /// Sends a request and expects `status`.
    static func expect(
        _ client: any TestClientProtocol, uri: String, method: HTTPRequest.Method, body: ByteBuffer? = nil,
        _ status: HTTPResponse.Status, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let response = try await client.executeRequest(uri: uri, method: method, headers: [:], body: body)
        #expect(response.status == status, "\(method) \(uri)", sourceLocation: sourceLocation)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(response.body.readableBytesView))
    }

    @Test(arguments: Store.allCases)
    func createReadUpdateDelete(store: Store) async throws {
        try await withClient(store) { client in
            let ada = UserInput(name: "Ada", email: "ada@example.com", city: "London", age: 36)
            let created = try await client.execute(uri: "/users", method: .post, body: Self.json(ada))
            #expect(created.status == .created)
            let user = try Self.decode(User.self, created)
            #expect(user == User(id: user.id, ada))
            #expect(!user.id.isEmpty)
            #expect(created.headers[.location] == "/users/\(user.id)")

            let read = try await client.execute(uri: "/users/\(user.id)", method: .get)
            #expect(read.status == .ok)
            #expect(try Self.decode(User.self, read) == user)

            let older = UserInput(name: "Ada", email: "ada@example.org", city: "Paris", age: 37)
            let updated = try await client.execute(uri: "/users/\(user.id)", method: .put, body: Self.json(older))
            #expect(updated.status == .ok)
            #expect(try Self.decode(User.self, updated) == User(id: user.id, older))
            let reread = try await client.execute(uri: "/users/\(user.id)", method: .get)
            #expect(try Self.decode(User.self, reread) == User(id: user.id, older))

            let deleted = try await client.execute(uri: "/users/\(user.id)", method: .delete)
            #expect(deleted.status == .noContent)
            try await Self.expect(client, uri: "/users/\(user.id)", method: .get, .notFound)
            try await Self.expect(client, uri: "/users/\(user.id)", method: .delete, .notFound)
        }
    }

    @Test(arguments: Store.allCases)
    func missingUsersAre404(store: Store) async throws {
        try await withClient(store, seed: 3) { client in
            let input = UserInput(name: "Nobody", email: "no@example.com", city: "Nowhere", age: 1)
            try await Self.expect(client, uri: "/users/user-3", method: .get, .notFound)
            try await Self.expect(client, uri: "/users/user-3", method: .put, body: Self.json(input), .notFound)
            try await Self.expect(client, uri: "/users/user-3", method: .delete, .notFound)
            // The PUT of a missing user wrote nothing.
            try await Self.expect(client, uri: "/users/user-3", method: .get, .notFound)
            try await Self.expect(client, uri: "/users/user-2", method: .get, .ok)
        }
    }

    @Test(arguments: Store.allCases)
    func badRequestsAre400(store: Store) async throws {
        try await withClient(store, seed: 1) { client in
            let notJSON = ByteBuffer(string: "{name: Ada")
            let missingField = ByteBuffer(string: #"{"name": "Ada", "email": "a@example.com", "age": 3}"#)
            let wrongType = ByteBuffer(string: #"{"name": "Ada", "email": "a@example.com", "city": "X", "age": "3"}"#)
            for body in [notJSON, missingField, wrongType] {
                try await Self.expect(client, uri: "/users", method: .post, body: body, .badRequest)
                try await Self.expect(client, uri: "/users/user-0", method: .put, body: body, .badRequest)
            }
            for limit in ["0", "-1", "abc", "\(UserRoutes.maximumLimit + 1)"] {
                try await Self.expect(client, uri: "/users?city=city-0&limit=\(limit)", method: .get, .badRequest)
            }
            // Nothing was written: user-0 is as seeded, and it is still the only user.
            let read = try await client.execute(uri: "/users/user-0", method: .get)
            #expect(try Self.decode(User.self, read) == Seed.user(0))
            let all = try await client.execute(uri: "/users?limit=1000", method: .get)
            #expect(try Self.decode([User].self, all) == [Seed.user(0)])
        }
    }

    @Test(arguments: Store.allCases)
    func listingByCityMatchesAModel(store: Store) async throws {
        let count = 260
        try await withClient(store, seed: count) { client in
            // The model: the seeded users, then the writes below applied to a dictionary.
            var model = Dictionary(uniqueKeysWithValues: (0..<count).map { (Seed.id($0), Seed.user($0)) })
            func expected(city: String?, limit: Int) -> [User] {
                Array(model.values.filter { city == nil || $0.city == city }.sorted { $0.id < $1.id }.prefix(limit))
            }
            func check(city: String?, limit: Int?) async throws {
                var uri = "/users?"
                if let city { uri += "city=\(city)&" }
                if let limit { uri += "limit=\(limit)" }
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok)
                let users = try Self.decode([User].self, response)
                #expect(users == expected(city: city, limit: limit ?? UserRoutes.defaultLimit), "\(uri)")
            }
            for city in ["city-0", "city-7", "city-49", "nowhere"] {
                for limit in [1, 3, 5, 6, 1_000] { try await check(city: city, limit: limit) }
            }
            try await check(city: nil, limit: nil)
            try await check(city: nil, limit: 1_000)

            // Moving users between cities, creating and deleting: the index follows every write.
            for index in stride(from: 0, to: count, by: 9) {
                let input = UserInput(name: "Moved \(index)", email: "m\(index)@example.com", city: "city-7", age: index)
                let response = try await client.execute(uri: "/users/\(Seed.id(index))", method: .put, body: Self.json(input))
                #expect(response.status == .ok)
                model[Seed.id(index)] = User(id: Seed.id(index), input)
            }
            for index in stride(from: 7, to: count, by: 25) {
                try await Self.expect(client, uri: "/users/\(Seed.id(index))", method: .delete, .noContent)
                model[Seed.id(index)] = nil
            }
            let input = UserInput(name: "New", email: "new@example.com", city: "city-0", age: 20)
            let created = try await Self.decode(User.self, client.execute(uri: "/users", method: .post, body: Self.json(input)))
            model[created.id] = created
            for city in ["city-0", "city-7", "city-32"] {
                for limit in [1, 4, 1_000] { try await check(city: city, limit: limit) }
            }
        }
    }
}
