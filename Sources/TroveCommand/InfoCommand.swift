import ArgumentParser
// `FieldNumber.literal(_:)`: field numbers are shown as generated code writes them.
@_spi(TroveGenerated) import Trove

/// `trove info DB`: schema version, sizes, collections, extensions and recorded model schemas.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Show the schema version, sizes, collections, extensions and model schemas.")

    @OptionGroup var options: DatabaseOptions

    /// The newest recorded version of each model, sorted by type name, with how many versions
    /// the file recorded.
    static func newestSchemas(_ schemas: [ModelSchema]) -> [(schema: ModelSchema, versions: Int)] {
        var newest: [String: (schema: ModelSchema, versions: Int)] = [:]
        for schema in schemas {
            // Recorded oldest first: a later one is newer.
            newest[schema.typeName] = (schema, (newest[schema.typeName]?.versions ?? 0) + 1)
        }
        return newest.values.sorted { $0.schema.typeName < $1.schema.typeName }
    }

    func run() throws {
        let inspection = try Inspection(path: options.database)
        let database = inspection.database
        let version = try database.fileSchemaVersion()
        let sizes = try database.fileSizes()
        let collections = try database.collectionStatistics()
        let extensions = try database.extensionRecords()
        if options.json {
            let value = JSONValue.object([
                ("path", .string(options.database)),
                ("schemaVersion", .integer(Int64(version))),
                ("pageSize", .integer(Int64(sizes.pageSize))),
                ("pageCount", .integer(Int64(sizes.pageCount))),
                ("freePageCount", .integer(Int64(sizes.freePageCount))),
                ("fileBytes", .integer(sizes.fileBytes)),
                ("walBytes", .integer(sizes.walBytes)),
                ("collections", .array(collections.map { statistics in
                    .object([
                        ("name", .string(statistics.collection)), ("count", .integer(Int64(statistics.count))),
                        ("dataBytes", .integer(statistics.dataBytes)), ("metadataBytes", .integer(statistics.metadataBytes)),
                    ])
                })),
                ("extensions", .array(extensions.map { record in
                    .object([
                        ("name", .string(record.name)), ("kind", .string(record.kind)),
                        ("version", .integer(Int64(record.version))), ("collection", .string(record.collection)),
                        ("state", .string(record.state)),
                    ])
                })),
                ("schemas", .array(Self.newestSchemas(inspection.schemas).map { newest in
                    guard case .object(var members) = Self.schemaJSON(newest.schema) else { return .null }
                    members.append(("recordedVersions", .integer(Int64(newest.versions))))
                    return .object(members)
                })),
            ])
            print(value.rendered(pretty: true))
            return
        }
        print("File:            \(options.database)")
        print("Schema version:  \(version)")
        print("Pages:           \(Output.count(sizes.pageCount)) of \(Output.count(sizes.pageSize)) bytes, \(Output.count(sizes.freePageCount)) free")
        print("File size:       \(Output.count(sizes.fileBytes)) bytes (WAL \(Output.count(sizes.walBytes)) bytes)")
        print("")
        Output.table(
            ["COLLECTION", "ITEMS", "DATA BYTES", "METADATA BYTES"],
            collections.map {
                [$0.collection, Output.count($0.count), Output.count($0.dataBytes), Output.count($0.metadataBytes)]
            })
        print("")
        if extensions.isEmpty {
            print("No extensions.")
        } else {
            Output.table(
                ["EXTENSION", "KIND", "VERSION", "COLLECTION", "STATE"],
                extensions.map { [$0.name, $0.kind, String($0.version), $0.collection, $0.state] })
        }
        print("")
        if inspection.schemas.isEmpty {
            print("No recorded model schemas: items show their fields by number.")
        }
        for (schema, versions) in Self.newestSchemas(inspection.schemas) {
            let metadata = schema.metadataType.map { ", metadata \($0)" } ?? ""
            let format = schema.format.map { ", stored as \($0)" } ?? ""
            let history = versions > 1 ? " (newest of \(versions) recorded versions)" : ""
            print("Model \(schema.typeName) in \"\(schema.collection ?? "")\"\(metadata)\(format)\(history)")
            for field in schema.fields {
                let index = field.index.map { " (\($0))" } ?? ""
                let resolved = field.resolvedType.map { " = \($0)" } ?? ""
                let stored = field.format.map { " (stored as \($0))" } ?? ""
                let type = field.type + (field.isOptional ? "?" : "")
                print("  \(FieldNumber.literal(field.number))  \(field.name): \(type)\(resolved)\(stored)\(index)")
            }
            for type in schema.types {
                let members = (type.fields.map(\.name) + type.cases.map(\.name)).joined(separator: ", ")
                print("  coded \(type.typeName)\(type.rawValueType.map { " (raw value \($0))" } ?? "")"
                    + (members.isEmpty ? "" : ": " + members))
            }
        }
    }

    static func schemaJSON(_ schema: ModelSchema) -> JSONValue {
        var members: [(String, JSONValue)] = [("typeName", .string(schema.typeName))]
        if let collection = schema.collection { members.append(("collection", .string(collection))) }
        if let metadata = schema.metadataType { members.append(("metadataType", .string(metadata))) }
        if let raw = schema.rawValueType { members.append(("rawValueType", .string(raw))) }
        if let format = schema.format { members.append(("format", .string(format))) }
        if let format = schema.metadataFormat { members.append(("metadataFormat", .string(format))) }
        func fields(_ fields: [ModelSchema.Field]) -> JSONValue {
            .array(fields.map { field in
                var members: [(String, JSONValue)] = [
                    ("number", .string(FieldNumber.literal(field.number))), ("name", .string(field.name)),
                    ("type", .string(field.type + (field.isOptional ? "?" : ""))),
                ]
                if let resolved = field.resolvedType { members.append(("resolvedType", .string(resolved))) }
                if let format = field.format { members.append(("format", .string(format))) }
                if let index = field.index { members.append(("index", .string(index))) }
                return .object(members)
            })
        }
        if !schema.fields.isEmpty { members.append(("fields", fields(schema.fields))) }
        if !schema.cases.isEmpty {
            members.append(("cases", .array(schema.cases.map { .object([("name", .string($0.name)), ("fields", fields($0.fields))]) })))
        }
        if !schema.types.isEmpty { members.append(("types", .array(schema.types.map(schemaJSON)))) }
        return .object(members)
    }
}
