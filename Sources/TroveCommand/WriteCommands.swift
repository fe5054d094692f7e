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
        let progress = ProgressBar("backup")
        try inspection.database.backup(to: destination) { progress.update($0.copiedPageCount, of: $0.totalPageCount) }
        progress.finish()
        let pages = try Inspection(path: destination).database.fileSizes().pageCount
        print("backed up \(Output.count(pages)) pages to \(destination)")
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
