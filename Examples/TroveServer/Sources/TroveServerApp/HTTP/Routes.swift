import Foundation
import Hummingbird

extension User: ResponseEncodable {}

/// The routes of the service, over any ``UserStore``:
///
/// | Route | Answer |
/// |---|---|
/// | `POST /users` with a ``UserInput`` | `201 Created`, the new ``User`` (its `id` made by the server) and its `Location` |
/// | `GET /users/:id` | `200` and the user, `404` when there is none |
/// | `PUT /users/:id` with a ``UserInput`` | `200` and the replaced user, `404` when there is none |
/// | `DELETE /users/:id` | `204 No Content`, `404` when there was none |
/// | `GET /users?city=C&limit=N` | `200` and at most `N` users of city `C` (every city without `city`), in key order |
///
/// A body that is not JSON, or lacks a field, or a `limit` outside `1...maximumLimit`, is
/// `400 Bad Request`.
public enum UserRoutes {
    /// The number of users `GET /users` answers without a `limit`.
    public static let defaultLimit = 50
    /// The largest `limit` that `GET /users` accepts.
    public static let maximumLimit = 1_000

    /// Adds the routes to `router`, under `/users`.
    public static func add<Context: RequestContext>(to router: Router<Context>, store: some UserStore) {
        router.group("users")
            .post { request, context -> EditedResponse<User> in
                let input = try await request.decode(as: UserInput.self, context: context)
                let user = User(id: UUID().uuidString.lowercased(), input)
                try await store.create(user)
                return EditedResponse(status: .created, headers: [.location: "/users/\(user.id)"], response: user)
            }
            .get(":id") { _, context -> User in
                let id = try context.parameters.require("id")
                guard let user = try await store.user(id: id) else {
                    throw HTTPError(.notFound, message: "No user with id \(id)")
                }
                return user
            }
            .put(":id") { request, context -> User in
                let id = try context.parameters.require("id")
                let user = try await User(id: id, request.decode(as: UserInput.self, context: context))
                guard try await store.update(user) else {
                    throw HTTPError(.notFound, message: "No user with id \(id)")
                }
                return user
            }
            .delete(":id") { _, context -> HTTPResponse.Status in
                let id = try context.parameters.require("id")
                guard try await store.delete(id: id) else {
                    throw HTTPError(.notFound, message: "No user with id \(id)")
                }
                return .noContent
            }
            .get { request, _ -> [User] in
                let parameters = request.uri.queryParameters
                let limit: Int
                if let text = parameters.get("limit") {
                    guard let value = Int(text), (1...maximumLimit).contains(value) else {
                        throw HTTPError(.badRequest, message: "limit must be an integer in 1...\(maximumLimit)")
                    }
                    limit = value
                } else {
                    limit = defaultLimit
                }
                return try await store.users(city: parameters.get("city"), limit: limit)
            }
    }

    /// A router with the routes of the service over `store`, behind ``UnexpectedErrorLogger``.
    public static func router(store: some UserStore) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: UnexpectedErrorLogger())
        add(to: router, store: store)
        return router
    }

    /// The application: the routes over `store`, listening on `host`:`port`, with Hummingbird's
    /// default logger (level `info`: it logs the start, the end and the errors of
    /// ``UnexpectedErrorLogger``, not each request).
    public static func application(
        store: some UserStore, host: String = "127.0.0.1", port: Int = 8080
    ) -> some ApplicationProtocol {
        Application(
            router: router(store: store),
            configuration: .init(address: .hostname(host, port: port), serverName: "trove-server")
        )
    }
}
