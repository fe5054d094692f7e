import ArgumentParser
import Foundation
import Trove

/// `trove check DB`: SQLite's integrity check, then every item and metadata decoded with its
/// schema; each failing row reported by collection, key and field.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the file's integrity and decode every item and metadata with its schema.",
        discussion: "Exits with status 1 when anything is wrong, after reporting each problem.")

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        let inspection = try Inspection(path: options.database)
        var problems: [JSONValue] = []
        var report: [String] = []
        for line in try inspection.database.integrityCheck().problems {
            problems.append(.object([("integrity", .string(line))]))
            report.append("integrity: \(line)")
        }
        let progress = ProgressBar("check")
        var checked = 0
        try inspection.read { tx in
            let total = try tx.count()
            for collection in try tx.collections() {
                try tx.enumerateRows(in: collection) { key, data, metadata, _ in
                    let (_, rowProblems) = inspection.rowJSON(
                        collection: collection, key: key, data: data, metadata: metadata, raw: false)
                    for problem in rowProblems {
                        problems.append(
                            .object([
                                ("collection", .string(collection)), ("key", .string(key)),
                                ("field", .string(problem.field)), ("reason", .string(problem.reason)),
                            ]))
                        report.append("collection \"\(collection)\", key \"\(key)\", field \(problem.field): \(problem.reason)")
                    }
                    checked += 1
                    progress.update(checked, of: total)
                }
            }
        }
        progress.finish()
        if options.json {
            print(
                JSONValue.object([
                    ("ok", .bool(problems.isEmpty)), ("items", .integer(Int64(checked))), ("problems", .array(problems)),
                ]).rendered(pretty: true))
        } else {
            for line in report { print(line) }
            print(problems.isEmpty
                ? "ok: integrity check passed, \(Output.count(checked)) items decoded"
                : "\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(Output.count(checked)) items")
        }
        if !problems.isEmpty {
            throw ExitCode(1)
        }
    }
}
