import Foundation

extension Database {
    /// Records in the file the schemas of `models` and of the coded types they refer to, unless
    /// the file holds them already.
    ///
    /// Registering a model records its schema (``init(path:configuration:models:extensions:)``), and so does
    /// the first typed write of a model in each open of the database, inside that write's
    /// transaction; call this to record schemas before anything is written, so that the `trove`
    /// command can show items by field name. Each schema version is recorded once: the file keeps
    /// every version it was given, since items written under an older one may remain. When the
    /// file holds every schema already, nothing is written.
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
            try records.filter { try tx.registryValue(extension: Self.schemaRegistryExtension, name: $0.name) == nil }
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

    /// Every schema recorded in the file, sorted by type name, then in the order recorded.
    ///
    /// - Returns: The recorded schemas, with the schemas of the types they refer to in
    ///   ``ModelSchema/types``.
    /// - Throws: ``TroveError`` when SQLite fails or a recorded schema is not valid JSON.
    public func recordedSchemas() throws -> [ModelSchema] {
        try newConnection().read { tx in
            try tx.registryValues(extension: Self.schemaRegistryExtension).map { name, value in
                do {
                    return try JSONDecoder().decode(ModelSchema.self, from: Data(value.utf8))
                } catch {
                    throw TroveError(
                        code: .corruptData, message: "The recorded schema \(name) is not valid: \(error).",
                        field: name, underlyingError: error)
                }
            }
        }
    }

    static let schemaRegistryExtension = "schema"
    private static let insertSchemaSQL =
        "INSERT OR IGNORE INTO trove_registry (extension, name, value) VALUES (?1, ?2, ?3)"

    /// The row of the file's registry that records the schema of `model`: its name is the type
    /// name and the fingerprint of the JSON, so that each schema version has a row of its own.
    static func schemaRecord(of model: any SchemaDescribing.Type) throws -> (name: String, json: String) {
        let schema = resolvedSchema(of: model)
        let json = try schemaJSON(schema)
        return (name: "\(schema.typeName) \(fingerprint(json))", json: json)
    }

    /// Inserts `record` in the registry of the file, in the write transaction under way on
    /// `sqlite`, unless the file holds it already.
    static func insertSchema(_ record: (name: String, json: String), into sqlite: SQLiteConnection) throws {
        let statement = try sqlite.cachedStatement(insertSchemaSQL)
        defer { statement.reset() }
        try statement.bind(schemaRegistryExtension, at: 1)
        try statement.bind(record.name, at: 2)
        try statement.bind(record.json, at: 3)
        try statement.stepToEnd()
    }

    /// The schema of `model` with the schemas of every describing type it refers to, directly or
    /// not, in ``ModelSchema/types``.
    static func resolvedSchema(of model: any SchemaDescribing.Type) -> ModelSchema {
        var schema = model.troveSchema
        var seen: Set<String> = [schema.typeName]
        var pending = model.troveSchemaReferences
        var types: [ModelSchema] = []
        while let next = pending.popLast() {
            guard let describing = next as? any SchemaDescribing.Type else { continue }
            let nested = describing.troveSchema
            guard seen.insert(nested.typeName).inserted else { continue }
            types.append(nested)
            pending += describing.troveSchemaReferences
        }
        schema.types = types.sorted { $0.typeName < $1.typeName }
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

extension ReadTransaction {
    /// The value of a row of the file's registry, or `nil` when there is none.
    func registryValue(extension: String, name: String) throws -> String? {
        let statement = try checkedCore.sqlite.cachedStatement(
            "SELECT value FROM trove_registry WHERE extension = ?1 AND name = ?2")
        defer { statement.reset() }
        try statement.bind(`extension`, at: 1)
        try statement.bind(name, at: 2)
        return try statement.step() ? statement.string(at: 0) : nil
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
