import ArgumentParser
import Foundation
import Trove

/// `trove keys DB COLLECTION`: the keys of a collection, in order.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "keys", abstract: "List the keys of a collection.")

    @OptionGroup var options: DatabaseOptions
    @Argument(help: "The collection.") var collection: String
    @Option(help: "Only keys that start with this.") var prefix: String?
    @Option(help: "At most this many keys.") var limit: Int?

    func run() throws {
        let inspection = try Inspection(path: options.database)
        let keys: [String] = try inspection.read { tx in
            try inspection.requireCollection(collection, in: tx)
            var keys: [String] = []
            try tx.enumerateKeys(in: collection) { key, stop in
                if let limit, keys.count >= limit {
                    stop = true
                    return
                }
                if prefix.map({ key.hasPrefix($0) }) ?? true { keys.append(key) }
            }
            return keys
        }
        if options.json {
            print(JSONValue.array(keys.map(JSONValue.string)).rendered(pretty: false))
        } else {
            for key in keys { print(key) }
        }
    }
}

/// `trove get DB COLLECTION KEY`: one item and its metadata, decoded.
///
/// An item that does not decode is shown all the same, with the problem and its bytes in
/// hexadecimal; the problem also goes to the standard error, and the exit status is 1.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Show an item and its metadata as JSON, decoded with the recorded schema.",
        discussion: """
            An item that does not decode is shown with its bytes in hexadecimal and the field that failed; \
            the command then exits with status 1.
            """)

    @OptionGroup var options: DatabaseOptions
    @Argument(help: "The collection.") var collection: String
    @Argument(help: "The key.") var key: String
    @Flag(help: "Show the stored bytes in hexadecimal instead.") var raw = false

    func run() throws {
        let inspection = try Inspection(path: options.database)
        let row = try inspection.read { tx in
            try inspection.requireCollection(collection, in: tx)
            return try tx.dataAndMetadata(forKey: key, in: collection)
        }
        guard let row else {
            throw CommandFailure("No item at key \"\(key)\" in collection \"\(collection)\" of \(options.database).")
        }
        let (json, problems) = inspection.rowJSON(
            collection: collection, key: key, data: row.data, metadata: row.metadata, raw: raw)
        print(json.rendered(pretty: !options.json))
        if !problems.isEmpty {
            Output.error(
                "The item at key \"\(key)\" in collection \"\(collection)\" does not decode (field "
                    + problems.map(\.field).joined(separator: ", ") + "); it is shown with its bytes in hexadecimal.")
            throw ExitCode(1)
        }
    }
}

/// `trove dump DB [COLLECTION…]`: every item as JSON Lines.
///
/// An item that does not decode is printed all the same, with the problem and its bytes in
/// hexadecimal, and the dump goes on; at the end the standard error says how many did not, and
/// the exit status is 1.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump", abstract: "Print every item (of the collections given, or all) as JSON Lines.",
        discussion: """
            Items that do not decode are printed with their bytes in hexadecimal and the field that failed, \
            and the dump goes on; the command then exits with status 1.
            """)

    @Argument(help: "The database file.") var database: String
    @Argument(help: "The collections; all when none.") var collections: [String] = []
    @Flag(help: "Show the stored bytes in hexadecimal instead.") var raw = false

    func run() throws {
        let inspection = try Inspection(path: database)
        let progress = ProgressBar("dump")
        var undecodable: [(collection: String, key: String)] = []
        try inspection.read { tx in
            for collection in collections {
                try inspection.requireCollection(collection, in: tx)
            }
            let names = collections.isEmpty ? try tx.collections() : collections
            let total = try names.reduce(0) { $0 + (try tx.count(in: $1)) }
            var done = 0
            for collection in names {
                try tx.enumerateRows(in: collection) { key, data, metadata, _ in
                    let (json, problems) = inspection.rowJSON(
                        collection: collection, key: key, data: data, metadata: metadata, raw: raw)
                    print(json.rendered(pretty: false))
                    if !problems.isEmpty { undecodable.append((collection, key)) }
                    done += 1
                    progress.update(done, of: total)
                }
            }
        }
        progress.finish()
        if !undecodable.isEmpty {
            let shown = undecodable.prefix(10).map { "key \"\($0.key)\" in collection \"\($0.collection)\"" }
            let more = undecodable.count > shown.count ? ", and \(undecodable.count - shown.count) more" : ""
            Output.error(
                "\(Output.count(undecodable.count)) item\(undecodable.count == 1 ? "" : "s") did not decode and "
                    + "\(undecodable.count == 1 ? "is" : "are") shown with \(undecodable.count == 1 ? "its" : "their") "
                    + "bytes in hexadecimal: \(shown.joined(separator: "; "))\(more).")
            throw ExitCode(1)
        }
    }
}

/// `trove query DB COLLECTION --where field=value`: the items whose field has a value.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print the items of a collection whose field equals a value, as JSON Lines.",
        discussion: "Uses the collection's secondary index when one covers the field; reads every item otherwise.")

    @OptionGroup var options: DatabaseOptions
    @Argument(help: "The collection.") var collection: String
    @Option(name: .customLong("where"), help: "field=value") var condition: String

    func run() throws {
        guard let equals = condition.firstIndex(of: "=") else {
            throw ValidationError("--where takes field=value.")
        }
        let field = String(condition[..<equals])
        let value = String(condition[condition.index(after: equals)...])
        let inspection = try Inspection(path: options.database)
        try inspection.read { try inspection.requireCollection(collection, in: $0) }
        if let keys = try inspection.database.indexedKeys(in: collection, field: field, equals: value) {
            FileHandle.standardError.write(Data("(secondary index)\n".utf8))
            try inspection.read { tx in
                for key in keys {
                    guard let row = try tx.dataAndMetadata(forKey: key, in: collection) else { continue }
                    print(inspection.rowJSON(collection: collection, key: key, data: row.data, metadata: row.metadata, raw: false).0.rendered(pretty: false))
                }
            }
            return
        }
        FileHandle.standardError.write(Data("(no index covers \(field): reading every item)\n".utf8))
        try inspection.read { tx in
            try tx.enumerateRows(in: collection) { key, data, metadata, _ in
                let (json, _) = inspection.rowJSON(collection: collection, key: key, data: data, metadata: metadata, raw: false)
                if Self.value(of: field, in: json) == value {
                    print(json.rendered(pretty: false))
                }
            }
        }
    }

    /// The text of `field` (a dotted path) in a row's item, or in its metadata under `metadata.`.
    static func value(of field: String, in row: JSONValue) -> String? {
        guard case .object(let members) = row else { return nil }
        var path = field.split(separator: ".").map(String.init)
        var current: JSONValue? = members.first { $0.0 == "item" }?.1
        if path.first == "metadata" {
            current = members.first { $0.0 == "metadata" }?.1
            path.removeFirst()
        }
        for component in path {
            guard case .object(let fields)? = current else { return nil }
            current = fields.first { $0.0 == component }?.1
        }
        switch current {
        case .string(let text)?: return text
        case let value?: return value.rendered(pretty: false)
        case nil: return nil
        }
    }
}
