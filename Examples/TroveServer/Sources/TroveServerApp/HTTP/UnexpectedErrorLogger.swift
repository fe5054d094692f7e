import Hummingbird
import Logging

/// Logs, at level `error`, every error of a route that is not an answer of its own (not an
/// `HTTPResponseError` such as `404`): an error of a store, which Hummingbird turns into a bare
/// `500 Internal Server Error` and logs only at level `debug`.
///
/// The log names the request and the error (a store's error says what failed, e.g. GRDB's
/// `SQLite error 5: database is locked`), so that a load test that counts 500s can say why.
/// The error is thrown on unchanged: the answer stays Hummingbird's.
public struct UnexpectedErrorLogger<Context: RequestContext>: RouterMiddleware {
    /// A middleware that logs through each request's logger.
    public init() {}

    /// Runs the rest of the chain and logs what it throws, unless it is an HTTP answer.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            context.logger.error(
                "Unexpected error, answered 500",
                metadata: [
                    "hb.request.method": .string(request.method.rawValue),
                    "hb.request.path": .stringConvertible(request.uri),
                    "error": .string(String(describing: error)),
                ])
            throw error
        }
    }
}
