import ArgumentParser
import Foundation
import Trove

/// `trove check DB`: SQLite's integrity check, then every item and metadata decoded with its
/// schema, then the items the app's extensions left out because its coders could not read them
/// (``UnreadableItem``); each failing row reported by collection, key and field.
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
                        report.append(
                            "collection \"\(collection)\", key \"\(key)\", field \(problem.field): \(problem.reason)")
                    }
                    checked += 1
                    progress.update(checked, of: total)
                }
            }
        }
        // Items the app's own coders could not read, which its extensions left out: the schema
        // may read them (a field the recorded schema does not describe), so they are named here.
        let reported = Set(
            problems.compactMap { problem -> String? in
                guard case .object(let fields) = problem,
                    case .string(let collection)? = fields.first(where: { $0.0 == "collection" })?.1,
                    case .string(let key)? = fields.first(where: { $0.0 == "key" })?.1
                else { return nil }
                return collection + "/" + key
            })
        for item in try inspection.read({ try $0.unreadableItems() })
        where !reported.contains("\(item.collection)/\(item.key)") {
            let extensions = item.extensionNames.joined(separator: ", ")
            problems.append(
                .object([
                    ("collection", .string(item.collection)), ("key", .string(item.key)),
                    ("field", .string(item.field ?? "(item)")), ("reason", .string(item.reason)),
                    ("leftOutOf", .array(item.extensionNames.map { .string($0) })),
                ]))
            report.append(
                "collection \"\(item.collection)\", key \"\(item.key)\", field \(item.field ?? "(item)"): \(item.reason) (left out of \(extensions))"
            )
        }
        progress.finish()
        if options.json {
            print(
                JSONValue.object([
                    ("ok", .bool(problems.isEmpty)), ("items", .integer(Int64(checked))),
                    ("problems", .array(problems)),
                ]).rendered(pretty: true))
        } else {
            for line in report { print(line) }
            print(
                problems.isEmpty
                    ? "ok: integrity check passed, \(Output.count(checked)) items decoded"
                    : "\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(Output.count(checked)) items")
        }
        if !problems.isEmpty {
            throw ExitCode(1)
        }
    }
}
