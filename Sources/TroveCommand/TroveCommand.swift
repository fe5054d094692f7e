import ArgumentParser
import Trove

/// `trove`: inspect, check, dump, back up and compact a Trove database from the shell.
///
/// Every verb that only reads opens the file read-only, so it never changes the file and works
/// while another process uses it; `backup` writes only its copy; `remove`, `vacuum` and
/// `checkpoint` write.
@main
struct TroveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trove",
        abstract: "Inspect, check, dump, repair, back up and compact a Trove database.",
        discussion: """
            Items are shown with the model schemas that the file records (registered models record theirs), \
            fields by name; fields no schema knows show by number with their wire type.
            """,
        subcommands: [
            InfoCommand.self, KeysCommand.self, GetCommand.self, DumpCommand.self, QueryCommand.self,
            CheckCommand.self, RemoveCommand.self, BackupCommand.self, VacuumCommand.self, CheckpointCommand.self,
        ])

    /// Runs the verb; an error of the runtime is printed as its message and where it happened, in
    /// words (never the statement that failed, which ``TroveError/description`` may hold).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as TroveError {
            exit(withError: CommandFailure(troveError: error))
        } catch {
            exit(withError: error)
        }
    }
}

/// The options every verb that reads a database shares.
struct DatabaseOptions: ParsableArguments {
    @Argument(help: "The database file.")
    var database: String

    @Flag(help: "Print JSON for scripts instead of tables for people.")
    var json = false
}
