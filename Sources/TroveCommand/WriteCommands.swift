import ArgumentParser
import Foundation
import Trove

/// `trove backup DB DEST`: a consistent copy, taken with SQLite's online backup API.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database into a new file, consistently, while other processes go on writing.")

    @Argument(help: "The database file.") var database: String
    @Argument(help: "The path of the copy; nothing may exist there.") var destination: String

    func run() throws {
        let inspection = try Inspection(path: database)
        let folder = (destination as NSString).deletingLastPathComponent
        if FileManager.default.fileExists(atPath: destination) {
            throw CommandFailure("Something is already at \(destination): a backup goes to a new file.")
        }
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            throw CommandFailure("Cannot back up to \(destination): the folder \(folder) does not exist.")
        }
        let progress = ProgressBar("backup")
        try inspection.database.backup(to: destination) { progress.update($0.copiedPageCount, of: $0.totalPageCount) }
        progress.finish()
        let pages = try Inspection(path: destination).database.fileSizes().pageCount
        print("backed up \(Output.count(pages)) pages to \(destination)")
    }
}

/// `trove remove DB COLLECTION KEY…`: removes items, such as one that does not decode and keeps
/// the app from working.
///
/// The items go in one write transaction, through the runtime's removal by key, which tells the
/// extensions that follow the collection (an extension that this command cannot maintain,
/// since it does not have the app's code, is marked stale, and the app rebuilds it when it next
/// registers it). Every key given is looked at: the command removes those that are there, prints
/// what it removed, and exits with status 1 naming each key that was not there.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove items by key, in one transaction (writes).",
        discussion: "Exits with status 1 when a key has no item, after removing the others.")

    @OptionGroup var options: DatabaseOptions
    @Argument(help: "The collection.") var collection: String
    @Argument(help: "The keys of the items to remove.") var keys: [String]

    func validate() throws {
        guard !keys.isEmpty else { throw ValidationError("Give the key of at least one item to remove.") }
    }

    func run() throws {
        let inspection = try Inspection(path: options.database, writable: true)
        try inspection.read { try inspection.requireCollection(collection, in: $0) }
        var seen: Set<String> = []
        let unique = keys.filter { seen.insert($0).inserted }
        let removed: [String] = try inspection.database.newConnection().write { tx in
            try unique.filter { try tx.removeItem(forKey: $0, in: collection) }
        }
        let removedSet = Set(removed)
        let missing = unique.filter { !removedSet.contains($0) }
        if options.json {
            print(JSONValue.object([
                ("collection", .string(collection)), ("removed", .array(removed.map(JSONValue.string))),
                ("missing", .array(missing.map(JSONValue.string))),
            ]).rendered(pretty: false))
        } else {
            for key in removed { print("removed \"\(key)\" from \"\(collection)\"") }
        }
        if !missing.isEmpty {
            Output.error(
                "No item at key " + missing.map { "\"\($0)\"" }.joined(separator: ", ")
                    + " in collection \"\(collection)\" of \(options.database): nothing to remove there.")
            throw ExitCode(1)
        }
    }
}

/// `trove vacuum DB`: rebuilds the file without free pages.
struct VacuumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vacuum", abstract: "Rebuild the file without its free pages, giving their space back (writes).")

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        let inspection = try Inspection(path: options.database, writable: true)
        let before = try inspection.database.fileSizes()
        try inspection.database.vacuum()
        let after = try inspection.database.fileSizes()
        if options.json {
            print(JSONValue.object([("bytesBefore", .integer(before.fileBytes + before.walBytes)), ("bytesAfter", .integer(after.fileBytes + after.walBytes))]).rendered(pretty: false))
        } else {
            print("\(Output.count(before.fileBytes + before.walBytes)) bytes -> \(Output.count(after.fileBytes + after.walBytes)) bytes")
        }
    }
}

/// `trove checkpoint DB [--truncate]`: copies the write-ahead log into the database file.
struct CheckpointCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkpoint", abstract: "Copy the write-ahead log into the database file (writes).")

    @OptionGroup var options: DatabaseOptions
    @Flag(help: "Also truncate the log to zero bytes (waits for readers).") var truncate = false

    func run() throws {
        let inspection = try Inspection(path: options.database, writable: true)
        let result = try inspection.database.checkpoint(truncate ? .truncate : .passive)
        if options.json {
            print(JSONValue.object([
                ("logFrames", .integer(Int64(result.logFrameCount))),
                ("checkpointedFrames", .integer(Int64(result.checkpointedFrameCount))),
                ("complete", .bool(result.isComplete)),
            ]).rendered(pretty: false))
        } else {
            print("\(result.checkpointedFrameCount) of \(result.logFrameCount) log frames in the database file\(result.isComplete ? "" : " (incomplete: readers or a writer kept it from finishing)")")
        }
    }
}
