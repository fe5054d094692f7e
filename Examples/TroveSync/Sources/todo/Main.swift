import ArgumentParser
import Foundation
import TodoModel
import Trove
import TroveSync

/// `todo --database FILE --server URL --token T --partition P <subcommand>`: one replica of a
/// synced todo list. Every subcommand but `sync` works on the file alone, offline; `sync` sends
/// the local changes and fetches the others'.
@main
struct TodoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo",
        abstract: "A replica of a synced todo list: edits are local until `todo sync`.",
        subcommands: [AddCommand.self, SetCommand.self, RemoveCommand.self, ListCommand.self, SyncCommand.self])

    /// The replica's options, given before the subcommand; each subcommand declares the same
    /// group, which receives them (they may also come after the subcommand's name).
    @OptionGroup var replica: ReplicaOptions
}

/// Where the replica is and which server and partition it syncs with.
struct ReplicaOptions: ParsableArguments {
    @Option(help: "The replica's database file (created when missing).")
    var database: String

    @Option(help: "The sync server's routes, such as http://127.0.0.1:8080/sync.")
    var server: String

    @Option(help: "The bearer token shown to the server.")
    var token: String

    @Option(help: "The partition synced.")
    var partition = "default"

    /// Opens the replica's file and its sync client. The client is made on every run, also for
    /// the offline subcommands: it registers the ledger, which queues each commit to `todos` in
    /// the same transaction; nothing reaches the network before `sync()`.
    func open() throws -> (Database, TroveSync) {
        guard let url = URL(string: server) else { throw ValidationError("'\(server)' is not a URL.") }
        let database = try Database(path: database, models: [Todo.self])
        let sync = try TroveSync(
            database: database, server: url, credentials: .bearer(token), partition: partition,
            collections: [Todo.self])
        return (database, sync)
    }
}

extension Todo {
    /// One line: `[x] id  "title"  priority N  notes: …`.
    var line: String {
        "[\(isDone ? "x" : " ")] \(id)  \"\(title)\"  priority \(priority)  notes: \"\(notes)\""
    }
}

/// Prints the pending count after an offline edit. Read from the ledger: the client's `state`
/// is what it was when the client was made until `sync()` runs.
func reportPending(_ database: Database, _ sync: TroveSync) throws {
    let pending = try database.read { tx in try sync.ledger.pendingCount(in: tx) }
    print("(offline: \(pending) change(s) pending)")
}

/// A refusal of the tool, printed as it is.
struct TodoError: Error, CustomStringConvertible {
    /// What went wrong.
    var description: String
}

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a todo (offline).")
    @OptionGroup var replica: ReplicaOptions
    @Argument(help: "The todo's key.") var id: String
    @Argument(help: "Its title.") var title: String

    func run() throws {
        let (database, sync) = try replica.open()
        let todo = Todo(id: id, title: title)
        let added = try database.write { tx in
            guard try !tx.contains(Todo.self, key: todo.id) else { return false }
            try tx.write(todo)
            return true
        }
        guard added else { throw TodoError(description: "There is already a todo '\(id)'.") }
        print("added \(todo.line)")
        try reportPending(database, sync)
    }
}

struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Change fields of a todo (offline).")
    @OptionGroup var replica: ReplicaOptions
    @Argument(help: "The todo's key.") var id: String
    @Option(help: "The new title.") var title: String?
    @Option(help: "The new notes.") var notes: String?
    @Option(help: "The new priority.") var priority: Int?
    @Flag(help: "Mark it done.") var done = false
    @Flag(help: "Mark it not done.") var undone = false

    func validate() throws {
        if title == nil, notes == nil, priority == nil, !done, !undone {
            throw ValidationError("Nothing to change: give --title, --notes, --priority, --done or --undone.")
        }
        if done, undone { throw ValidationError("--done and --undone contradict each other.") }
    }

    func run() throws {
        let (database, sync) = try replica.open()
        let changed = try database.write { tx -> Todo? in
            guard var todo = try tx.read(Todo.self, key: id) else { return nil }
            if let title { todo.title = title }
            if let notes { todo.notes = notes }
            if let priority { todo.priority = priority }
            if done { todo.isDone = true }
            if undone { todo.isDone = false }
            try tx.write(todo)
            return todo
        }
        guard let changed else { throw TodoError(description: "There is no todo '\(id)'.") }
        print("set \(changed.line)")
        try reportPending(database, sync)
    }
}

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a todo (offline).")
    @OptionGroup var replica: ReplicaOptions
    @Argument(help: "The todo's key.") var id: String

    func run() throws {
        let (database, sync) = try replica.open()
        let removed = try database.write { tx in try tx.remove(Todo.self, key: id) }
        guard removed else { throw TodoError(description: "There is no todo '\(id)'.") }
        print("removed \(id)")
        try reportPending(database, sync)
    }
}

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the todos of the replica (offline).")
    @OptionGroup var replica: ReplicaOptions

    func run() throws {
        let (database, _) = try replica.open()
        let todos = try database.read { tx in try tx.read(Todo.self, keys: try tx.keys(of: Todo.self)) }
        for todo in todos.sorted(by: { $0.id < $1.id }) { print(todo.line) }
        if todos.isEmpty { print("(no todos)") }
    }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send the local changes to the server, then fetch the others' until none are left.")
    @OptionGroup var replica: ReplicaOptions

    func run() async throws {
        let (_, sync) = try replica.open()
        let before = sync.state
        print("sync: \(before.pendingChanges) change(s) pending, pulled through \(before.cursor)")
        try await sync.sync()
        let after = sync.state
        print(
            "sync: pushed \(after.pushedChanges), pulled \(after.pulledChanges); "
                + "\(after.pendingChanges) change(s) pending, pulled through \(after.cursor)")
    }
}
