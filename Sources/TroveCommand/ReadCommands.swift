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
            var seen: Set<String> = []
            let given = collections.filter { seen.insert($0).inserted }
            for collection in given {
                try inspection.requireCollection(collection, in: tx)
            }
            let names = given.isEmpty ? try tx.collections() : given
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
            let count = undecodable.count
            let shown = undecodable.prefix(10).map { "key \"\($0.key)\" in collection \"\($0.collection)\"" }
            let more = count > shown.count ? "; and \(Output.count(count - shown.count)) more" : ""
            Output.error(
                "\(Output.count(count)) item\(count == 1 ? "" : "s") did not decode "
                    + "(\(shown.joined(separator: "; "))\(more)); "
                    + "each is printed with its bytes in hexadecimal and the field that failed.")
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

    func validate() throws {
        guard let equals = condition.firstIndex(of: "="), equals != condition.startIndex else {
            throw ValidationError("--where takes field=value, such as --where name=Ada; it was \"\(condition)\".")
        }
    }

    func run() throws {
        let equals = condition.firstIndex(of: "=") ?? condition.endIndex
        let field = String(condition[..<equals])
        let value = String(condition.dropFirst(field.count + 1))
        let inspection = try Inspection(path: options.database)
        try inspection.read { try inspection.requireCollection(collection, in: $0) }
        try Self.requireField(field, of: collection, in: inspection)
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

    /// Throws when the collection's recorded schema (or that of its metadata, for a field under
    /// `metadata.`) does not have the first component of `field`: a query that can match nothing.
    /// Without a schema, any field may be asked for.
    static func requireField(_ field: String, of collection: String, in inspection: Inspection) throws {
        guard let schema = inspection.decoder.schema(ofCollection: collection), schema.format == nil else { return }
        var components = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var fields = schema.fields.map(\.name)
        var owner = "the items"
        if components.first == "metadata", components.count > 1 {
            guard schema.metadataFormat == nil, let type = schema.metadataType,
                let metadata = inspection.decoder.schema(ofType: type)
            else { return }
            components.removeFirst()
            fields = metadata.fields.map(\.name)
            owner = "the metadata"
        }
        guard let name = components.first, !fields.contains(name) else { return }
        throw CommandFailure(
            "No field \"\(name)\" in \(owner) of collection \"\(collection)\"; its fields are "
                + fields.map { "\"\($0)\"" }.joined(separator: ", ") + ".")
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
