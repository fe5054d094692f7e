import ArgumentParser
import Hummingbird
import TroveServerApp

/// The store the server runs on.
enum StoreKind: String, ExpressibleByArgument, CaseIterable {
    /// Trove, through the database's pool of readers and its one writer.
    case trove
    /// GRDB.swift's `DatabasePool`.
    case grdb
}

/// `trove-server --store trove|grdb --port 8080 --path FILE [--seed N]`: the JSON service of
/// `UserRoutes` over the chosen store, until SIGINT or SIGTERM.
@main
struct TroveServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trove-server",
        abstract: "A JSON HTTP service of users over Trove or GRDB, for examples and load tests.")

    @Option(help: "The store: trove or grdb.")
    var store: StoreKind = .trove

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: "The database file (default: trove-server-<store>.sqlite in the current directory).")
    var path: String?

    @Option(help: "Before serving, write the users user-0 ..< user-N that are missing.")
    var seed = 0

    func run() async throws {
        let file = path ?? "trove-server-\(store.rawValue).sqlite"
        let userStore: any UserStore =
            switch store {
            case .trove: try TroveUserStore(path: file)
            case .grdb: try GRDBUserStore(path: file)
            }
        if seed > 0 {
            let written = try await userStore.seed(count: seed)
            print("trove-server: seeded \(written) user(s) of \(seed) in \(file)")
        }
        print("trove-server: \(store.rawValue) store at \(file), listening on \(host):\(port)")
        try await UserRoutes.application(store: userStore, host: host, port: port).runService()
    }
}
