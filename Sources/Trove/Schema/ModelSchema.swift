/// The compact description of how a model type is stored: its fields with their numbers, names
/// and types, the coded types they refer to, and which fields are indexed.
///
/// trove-gen writes one for every `// @persistable` and `// @coded` type (see
/// ``SchemaDescribing``), and the database records the schema of each model in its file when
/// the model is registered or first written, so that the file says how to read its own items:
/// the `trove` command shows items by field name without the app's code. A schema is data only;
/// nothing reads items through it at run time. Code reads schemas (``SchemaDescribing/troveSchema``,
/// ``Database/recordedSchemas()``); only generated code makes them, so the initializers are SPI
/// (`@_spi(TroveGenerated) import Trove`).
///
/// Recorded schemas are kept: a file holds one per model and schema version, since items written
/// under an older version may remain, and the order they were last recorded in, so that tools
/// read each collection with its newest version (see ``Database/recordedSchemas()``). A schema
/// also says what the fields' typealiases stand for (``Field/resolvedType``) and which values
/// are JSON (``format``, ``metadataFormat``, ``Field/format``).
public struct ModelSchema: Sendable, Hashable, Codable {
    /// A stored field of a message.
    public struct Field: Sendable, Hashable, Codable {
        /// The field's number on disk.
        public var number: UInt32
        /// The field's current name.
        public var name: String
        /// The stored type as written in Swift, without the optional (`String`, `[Address]`, `[String: Int]`).
        public var type: String
        /// Whether the property is optional: the field is then absent when `nil`.
        public var isOptional: Bool
        /// How the field is indexed (`indexed`, `unique` or `searchable`), or `nil`.
        public var index: String?
        /// The stored type with every typealias resolved, in the notation of ``type``, when it
        /// differs from ``type``: `String` for a field written `Project.ID`, `[String]` for one
        /// written `Tags`; `nil` when ``type`` is already resolved, or when the schema was
        /// recorded without the Swift type (by code that trove-gen did not write).
        ///
        /// Tools read the field with this type when there is one: only the Swift type knows what
        /// a typealias stands for, wherever it is declared (another file, another module, or an
        /// associated type that Swift infers, such as the `ID` of an `Identifiable` type).
        public var resolvedType: String?
        /// How the value of the field is stored, when not in Trove's binary format: `"json"` for
        /// a `Codable` type that has no binary coding (the runtime's JSON fallback); `nil` for a
        /// binary value.
        public var format: String?

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - number: The field's number on disk.
        ///   - name: The field's name.
        ///   - type: The stored type as written.
        ///   - isOptional: Whether the property is optional.
        ///   - index: How the field is indexed, or `nil`.
        @_spi(TroveGenerated)
        public init(number: UInt32, name: String, type: String, isOptional: Bool = false, index: String? = nil) {
            self.number = number
            self.name = name
            self.type = type
            self.isOptional = isOptional
            self.index = index
        }

        /// Creates a field whose stored type is also given as a Swift type, from which the
        /// field's ``resolvedType`` and ``format`` are read: trove-gen writes this form.
        ///
        /// ```swift
        /// .init(number: 0x06E7_0B5C, name: "id", type: "Project.ID", swiftType: Project.ID.self)
        /// ```
        ///
        /// - Parameters:
        ///   - number: The field's number on disk.
        ///   - name: The field's name.
        ///   - type: The stored type as written.
        ///   - swiftType: The stored type itself (without the optional of an optional property).
        ///   - isOptional: Whether the property is optional.
        ///   - index: How the field is indexed, or `nil`.
        @_spi(TroveGenerated)
        public init(
            number: UInt32, name: String, type: String, swiftType: Any.Type, isOptional: Bool = false,
            index: String? = nil
        ) {
            self.init(number: number, name: name, type: type, isOptional: isOptional, index: index)
            if let resolved = SchemaTypeName.of(swiftType), resolved != type {
                resolvedType = resolved
            }
            format = SchemaTypeName.format(of: swiftType)
        }
    }

    /// A case of an enumeration stored as a message: a field whose value is a message of the
    /// case's associated values.
    public struct Case: Sendable, Hashable, Codable {
        /// The case's field number.
        public var number: UInt32
        /// The case's name.
        public var name: String
        /// The associated values, as fields of the nested message.
        public var fields: [Field]

        /// Creates a case.
        ///
        /// - Parameters:
        ///   - number: The case's field number.
        ///   - name: The case's name.
        ///   - fields: The associated values.
        @_spi(TroveGenerated)
        public init(number: UInt32, name: String, fields: [Field] = []) {
            self.number = number
            self.name = name
            self.fields = fields
        }
    }

    /// The Swift name of the type (`User`, `Outer.Inner`).
    public var typeName: String
    /// The collection of a persistable type, `nil` for a coded type.
    public var collection: String?
    /// The metadata type of a persistable type that has metadata.
    public var metadataType: String?
    /// The raw-value type of an enumeration stored by its raw value.
    public var rawValueType: String?
    /// How the items of a persistable type are stored, when not in Trove's binary message format:
    /// `"json"` when its ``Persistable/Coder`` is ``CodableCoder``; `nil` for binary messages
    /// (``MessageCoder``, what trove-gen writes). Filled in when the schema is recorded.
    public var format: String?
    /// How the metadata of a persistable type is stored, as ``format`` says for its items:
    /// `"json"` when its ``Persistable/MetadataCoder`` is ``CodableCoder`` (trove-gen chooses it
    /// for a metadata type that is not annotated). Filled in when the schema is recorded.
    public var metadataFormat: String?
    /// The fields of a message.
    public var fields: [Field]
    /// The cases of an enumeration stored as a message.
    public var cases: [Case]
    /// The schemas of the coded types that the fields refer to, directly or not, sorted by name.
    /// Filled in when the schema is recorded in a file (see ``Database/recordSchemas(of:)``).
    public var types: [ModelSchema]

    /// Creates a schema.
    ///
    /// - Parameters:
    ///   - typeName: The Swift name of the type.
    ///   - collection: The collection of a persistable type.
    ///   - metadataType: The metadata type.
    ///   - rawValueType: The raw-value type of an enumeration stored by its raw value.
    ///   - fields: The fields of a message.
    ///   - cases: The cases of an enumeration stored as a message.
    ///   - types: The schemas of the coded types its fields refer to.
    @_spi(TroveGenerated)
    public init(
        typeName: String, collection: String? = nil, metadataType: String? = nil, rawValueType: String? = nil,
        fields: [Field] = [], cases: [Case] = [], types: [ModelSchema] = []
    ) {
        self.typeName = typeName
        self.collection = collection
        self.metadataType = metadataType
        self.rawValueType = rawValueType
        self.fields = fields
        self.cases = cases
        self.types = types
    }
}
