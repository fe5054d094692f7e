/// The compact description of how a model type is stored: its fields with their numbers, names
/// and types, the coded types they refer to, and which fields are indexed.
///
/// trove-gen writes one for every `// @persistable` and `// @coded` type (see
/// ``SchemaDescribing``), and the database records the schema of each model in its file when
/// the model is registered or first written, so that the file says how to read its own items:
/// the `trove` command shows items by field name without the app's code. A schema is data only;
/// nothing reads items through it at run time.
///
/// Recorded schemas are kept: a file holds one per model and schema version, since items written
/// under an older version may remain.
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

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - number: The field's number on disk.
        ///   - name: The field's name.
        ///   - type: The stored type as written.
        ///   - isOptional: Whether the property is optional.
        ///   - index: How the field is indexed, or `nil`.
        public init(number: UInt32, name: String, type: String, isOptional: Bool = false, index: String? = nil) {
            self.number = number
            self.name = name
            self.type = type
            self.isOptional = isOptional
            self.index = index
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
