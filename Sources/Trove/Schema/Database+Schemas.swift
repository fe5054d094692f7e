import Foundation

extension Database {
    /// Records in the file the schemas of `models` and of the coded types they refer to, unless
    /// the file holds them already.
    ///
    /// Registering a model records its schema (``init(path:configuration:models:extensions:)``), and so does
    /// the first typed write of a model in each open of the database, inside that write's
    /// transaction; call this to record schemas before anything is written, so that the `trove`
    /// command can show items by field name. Each schema version is recorded once: the file keeps
    /// every version it was given, since items written under an older one may remain, and the
    /// order they were last recorded in, so that tools read a model with its newest version
    /// (recording a version again, as an app that went back to it does, makes it the newest).
    /// When the file holds every schema already, each as the newest of its model, nothing is
    /// written.
    ///
    /// ```swift
    /// try database.recordSchemas(of: [Note.self, Comment.self])
    /// ```
    ///
    /// - Parameter models: The models, usually `@persistable` types.
    /// - Throws: ``TroveError`` when SQLite fails.
    public func recordSchemas(of models: [any SchemaDescribing.Type]) throws {
        let records = try models.map(Self.schemaRecord(of:))
        let missing = try newConnection().read { tx in
            try records.filter { try !tx.isNewestRecordedSchema($0) }
        }
        if !missing.isEmpty {
            try newConnection().changeExtensions { core in
                for record in missing {
                    try Self.insertSchema(record, into: core.sqlite)
                }
                return ((), {})
            }
        }
        recordedSchemaTypes.insert(models.map { ObjectIdentifier($0) })
    }

    /// Every schema recorded in the file, in the order recorded, oldest first: the last schema
    /// of a model (or of a collection) is its newest version. Versions recorded before Trove kept
    /// that order (by earlier versions of Trove) come first, sorted by type name.
    ///
    /// - Returns: The recorded schemas, with the schemas of the types they refer to in
    ///   ``ModelSchema/types``.
    /// - Throws: ``TroveError`` when SQLite fails or a recorded schema is not valid JSON.
    public func recordedSchemas() throws -> [ModelSchema] {
        try newConnection().read { tx in
            let order = try tx.schemaOrder()
            // The rows come sorted by name, which begins with the type name; a version that has no
            // number sorts before every numbered one, and keeps that order.
            let rows = try tx.registryValues(extension: Self.schemaRegistryExtension).enumerated().map {
                (order: order[$0.element.name] ?? 0, offset: $0.offset, row: $0.element)
            }
            return try rows.sorted { ($0.order, $0.offset) < ($1.order, $1.offset) }.map(\.row).map { row in
                do {
                    return try JSONDecoder().decode(ModelSchema.self, from: Data(row.value.utf8))
                } catch {
                    throw TroveError(
                        code: .corruptData,
                        message: "The recorded schema \(row.name) is not valid: \(error).",
                        field: row.name, underlyingError: error)
                }
            }
        }
    }

    /// The registry rows of schema versions: named by type name and fingerprint, valued by JSON.
    static let schemaRegistryExtension = "schema"
    /// The prefix of the registry rows that order the versions of each collection: the rows of
    /// the versions whose items are in collection `c` are under `schema-order:c` (a version
    /// without a collection is under its type name), named as the version's row, and valued by a
    /// number that grows with each recording across the file. The greatest number of a collection
    /// is its newest version, and of a type, the type's; two types that share a collection (a
    /// model renamed, or two versions of it side by side) are ordered together.
    static let schemaOrderPrefix = "schema-order:"
    /// Every registry row of the order of schema versions, as a range of its `extension`
    /// (`;` follows `:`).
    private static let schemaOrderRange = "extension >= 'schema-order:' AND extension < 'schema-order;'"
    private static let insertSchemaSQL =
        "INSERT OR IGNORE INTO trove_registry (extension, name, value) VALUES ('schema', ?1, ?2)"
    /// Numbers the version `?1`, whose order rows are under `?2`, as the newest recorded, unless
    /// it is the newest of its collection already.
    private static let orderSchemaSQL = """
        INSERT OR REPLACE INTO trove_registry (extension, name, value)
        SELECT ?2, ?1, (SELECT coalesce(max(value), 0) + 1 FROM trove_registry WHERE \(schemaOrderRange))
        WHERE NOT (\(isNewestSQL))
        """
    /// Whether the version `?1`, whose order rows are under `?2`, is recorded and numbered as the
    /// newest of its collection.
    static let isNewestSQL = """
        EXISTS (SELECT 1 FROM trove_registry WHERE extension = 'schema' AND name = ?1)
        AND EXISTS (
            SELECT 1 FROM trove_registry AS own WHERE own.extension = ?2 AND own.name = ?1
            AND NOT EXISTS (
                SELECT 1 FROM trove_registry AS other WHERE other.extension = ?2 AND other.value > own.value))
        """
    /// Every order row: the version it numbers, and its number.
    static let selectSchemaOrderSQL = "SELECT name, value FROM trove_registry WHERE \(schemaOrderRange)"

    /// The row of the file's registry that records the schema of `model`: its name is the type
    /// name and the fingerprint of the JSON, so that each schema version has a row of its own.
    static func schemaRecord(of model: any SchemaDescribing.Type) throws -> SchemaRecord {
        let schema = resolvedSchema(of: model)
        let json = try schemaJSON(schema)
        return SchemaRecord(
            name: "\(schema.typeName) \(fingerprint(json))",
            orderExtension: schemaOrderPrefix + (schema.collection ?? schema.typeName), json: json)
    }

    /// Inserts `record` in the registry of the file, in the write transaction under way on
    /// `sqlite`, unless the file holds it already, and numbers it as the newest version of its
    /// type unless it is already.
    static func insertSchema(_ record: SchemaRecord, into sqlite: SQLiteConnection) throws {
        let insert = try sqlite.cachedStatement(insertSchemaSQL)
        do {
            defer { insert.reset() }
            try insert.bind(record.name, at: 1)
            try insert.bind(record.json, at: 2)
            try insert.stepToEnd()
        }
        let order = try sqlite.cachedStatement(orderSchemaSQL)
        defer { order.reset() }
        try order.bind(record.name, at: 1)
        try order.bind(record.orderExtension, at: 2)
        try order.stepToEnd()
    }

    /// The schema of `model` with the schemas of every describing type it refers to, directly or
    /// not, in ``ModelSchema/types``, and the formats of its items and metadata.
    static func resolvedSchema(of model: any SchemaDescribing.Type) -> ModelSchema {
        var schema = resolvedOwnSchema(of: model)
        (schema.format, schema.metadataFormat) = SchemaTypeName.formats(of: model)
        var seen: Set<String> = [schema.typeName]
        var pending = model.troveSchemaReferences
        var types: [ModelSchema] = []
        while let next = pending.popLast() {
            if let container = next as? any SchemaTypeNaming.Type {
                // A reference written as a typealias of a collection (`Milestones` for
                // `[Milestone]`) refers to its elements.
                pending += container.elementTypes
                continue
            }
            guard let describing = next as? any SchemaDescribing.Type else { continue }
            let nested = resolvedOwnSchema(of: describing)
            guard seen.insert(nested.typeName).inserted else { continue }
            types.append(nested)
            pending += describing.troveSchemaReferences
        }
        schema.types = types.sorted { $0.typeName < $1.typeName }
        return schema
    }

    /// The schema of `type` itself, with its raw-value type resolved as the fields' types are
    /// (see ``ModelSchema/Field/resolvedType``): an enumeration may be written `enum Code: Raw`
    /// where `Raw` is a typealias.
    private static func resolvedOwnSchema(of type: any SchemaDescribing.Type) -> ModelSchema {
        var schema = type.troveSchema
        if schema.rawValueType != nil, let raw = SchemaTypeName.rawValueType(of: type) {
            schema.rawValueType = raw
        }
        return schema
    }

    /// The JSON of `schema` as recorded: keys sorted, so that a schema always has the same bytes.
    static func schemaJSON(_ schema: ModelSchema) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(schema), as: UTF8.self)
        } catch {
            throw TroveError(
                code: .encodingFailed, message: "Cannot encode the schema of \(schema.typeName): \(error).",
                underlyingError: error)
        }
    }

    /// A 64-bit FNV-1a hash of `text`, in hexadecimal: the version of a schema in the registry.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// The registry row of one schema version (see ``Database/schemaRecord(of:)``).
struct SchemaRecord {
    /// The row's name: the type name and the fingerprint of ``json``.
    var name: String
    /// The `extension` of the rows that order the versions of its collection (see
    /// ``Database/schemaOrderPrefix``).
    var orderExtension: String
    /// The schema as recorded.
    var json: String
}

extension ReadTransaction {
    /// Whether the file holds `record` as the newest recorded version of its type.
    func isNewestRecordedSchema(_ record: SchemaRecord) throws -> Bool {
        let statement = try checkedCore.sqlite.cachedStatement("SELECT " + Database.isNewestSQL)
        defer { statement.reset() }
        try statement.bind(record.name, at: 1)
        try statement.bind(record.orderExtension, at: 2)
        return try statement.step() && statement.int64(at: 0) != 0
    }

    /// The number of each ordered schema version, by the name of its row (see
    /// ``Database/schemaOrderPrefix``).
    func schemaOrder() throws -> [String: Int64] {
        let statement = try checkedCore.sqlite.cachedStatement(Database.selectSchemaOrderSQL)
        defer { statement.reset() }
        var order: [String: Int64] = [:]
        while try statement.step() {
            order[statement.string(at: 0)] = max(order[statement.string(at: 0)] ?? 0, statement.int64(at: 1))
        }
        return order
    }

    /// The rows of the file's registry under `extension`, in the order of their names.
    func registryValues(extension: String) throws -> [(name: String, value: String)] {
        let statement = try checkedCore.sqlite.cachedStatement(
            "SELECT name, value FROM trove_registry WHERE extension = ?1 ORDER BY name")
        defer { statement.reset() }
        try statement.bind(`extension`, at: 1)
        var rows: [(name: String, value: String)] = []
        while try statement.step() {
            rows.append((statement.string(at: 0), statement.string(at: 1)))
        }
        return rows
    }
}
