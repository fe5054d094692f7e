/// The validated description of every annotated type of a generator run: what is generated,
/// independent of how it is rendered.
///
/// It is the seam between parsing and rendering: the parser and ``ModelBuilder`` produce it,
/// the renderer turns it into Swift, and `trove-gen generate --dump-model` prints it as JSON.
package struct ModelDescription: Sendable, Equatable, Codable {
    /// One entry per input file that declares annotated types, in input order.
    package var files: [FileDescription]

    /// Creates a model.
    ///
    /// - Parameter files: The annotated files.
    package init(files: [FileDescription]) {
        self.files = files
    }
}

/// The annotated types of one input file.
package struct FileDescription: Sendable, Equatable, Codable {
    /// The path of the input, relative to the source root.
    package var sourcePath: String
    /// The annotated types, sorted by ``TypeDescription/name``.
    package var types: [TypeDescription]

    /// Creates a file description.
    ///
    /// - Parameters:
    ///   - sourcePath: The path of the input.
    ///   - types: Its annotated types.
    package init(sourcePath: String, types: [TypeDescription]) {
        self.sourcePath = sourcePath
        self.types = types
    }
}

/// An annotated type: a `@persistable` item type or a `@coded` value type.
package struct TypeDescription: Sendable, Equatable, Codable {
    /// The kind of declaration.
    package enum Kind: String, Sendable, Equatable, Codable {
        /// A struct: decoded through its memberwise initializer.
        case `struct`
        /// A final class: decoded through its initializer that takes every stored property.
        case finalClass
        /// An enum.
        case `enum`
    }

    /// How values of the type are encoded.
    package enum Coding: Sendable, Equatable, Codable {
        /// A message of fields, one per persisted stored property, in declaration order.
        case message(fields: [FieldDescription])
        /// The raw value, through the runtime's default conformance.
        case rawValue(type: String)
        /// A message with one nested-message field per enum case.
        case cases([CaseDescription])
    }

    /// The dotted name (`Outer.Inner`).
    package var name: String
    /// The kind of declaration.
    package var kind: Kind
    /// The access modifier generated members take (`"public"`, `"package"`, or `""` for internal).
    package var accessModifier: String
    /// The item description, for `@persistable` types.
    package var persistable: PersistableDescription?
    /// How values are encoded.
    package var coding: Coding

    /// Creates a type description.
    ///
    /// - Parameters:
    ///   - name: The dotted name.
    ///   - kind: The kind of declaration.
    ///   - accessModifier: The access modifier of generated members.
    ///   - persistable: The item description, for `@persistable` types.
    ///   - coding: How values are encoded.
    package init(
        name: String, kind: Kind, accessModifier: String, persistable: PersistableDescription?, coding: Coding
    ) {
        self.name = name
        self.kind = kind
        self.accessModifier = accessModifier
        self.persistable = persistable
        self.coding = coding
    }
}

/// What makes a type an item of a collection.
package struct PersistableDescription: Sendable, Equatable, Codable {
    /// The collection name.
    package var collection: String
    /// The key property.
    package var key: KeyDescription
    /// The metadata property, if any.
    package var metadata: MetadataDescription?
    /// The `@indexed` and `@searchable` properties of the type itself.
    package var indexes: [IndexDescription]
    /// The secondary index generated from the `@indexed` fields of the type and of its metadata.
    package var secondaryIndex: SecondaryIndexDescription?
    /// The full-text search generated from the `@searchable` fields of the type and of its
    /// metadata.
    package var fullTextSearch: FullTextSearchDescription?
    /// The relationships generated from the `@relationship` fields of the type.
    package var relationships: RelationshipsDescription?

    /// Creates a persistable description.
    ///
    /// - Parameters:
    ///   - collection: The collection name.
    ///   - key: The key property.
    ///   - metadata: The metadata property.
    ///   - indexes: The indexed and searchable properties.
    ///   - secondaryIndex: The generated secondary index, if any field is `@indexed`.
    ///   - fullTextSearch: The generated full-text search, if any field is `@searchable`.
    ///   - relationships: The generated relationships, if any field is a `@relationship`.
    package init(
        collection: String, key: KeyDescription, metadata: MetadataDescription?, indexes: [IndexDescription],
        secondaryIndex: SecondaryIndexDescription? = nil, fullTextSearch: FullTextSearchDescription? = nil,
        relationships: RelationshipsDescription? = nil
    ) {
        self.collection = collection
        self.key = key
        self.metadata = metadata
        self.indexes = indexes
        self.secondaryIndex = secondaryIndex
        self.fullTextSearch = fullTextSearch
        self.relationships = relationships
    }
}

/// The property that identifies an item.
package struct KeyDescription: Sendable, Equatable, Codable {
    /// The property name, without backticks.
    package var property: String
    /// Its type as written.
    package var type: String

    /// Creates a key description.
    ///
    /// - Parameters:
    ///   - property: The property name.
    ///   - type: Its type.
    package init(property: String, type: String) {
        self.property = property
        self.type = type
    }
}

/// The `@metadata` property of an item type.
package struct MetadataDescription: Sendable, Equatable, Codable {
    /// The property name, without backticks.
    package var property: String
    /// The metadata type: the property's type without its optional.
    package var type: String
    /// Whether the metadata type is annotated in this run, so it has a generated binary coder;
    /// otherwise it is stored as JSON through `CodableCoder`.
    package var hasGeneratedCoder: Bool

    /// Creates a metadata description.
    ///
    /// - Parameters:
    ///   - property: The property name.
    ///   - type: The metadata type.
    ///   - hasGeneratedCoder: Whether the metadata type has a generated coder.
    package init(property: String, type: String, hasGeneratedCoder: Bool) {
        self.property = property
        self.type = type
        self.hasGeneratedCoder = hasGeneratedCoder
    }
}

/// An `@indexed` or `@searchable` property.
package struct IndexDescription: Sendable, Equatable, Codable {
    /// The kind of index.
    package enum Kind: String, Sendable, Equatable, Codable {
        /// `@indexed`.
        case indexed
        /// `@indexed(unique: true)`.
        case unique
        /// `@searchable`.
        case searchable
    }

    /// The property name.
    package var property: String
    /// The kind of index.
    package var kind: Kind

    /// Creates an index description.
    ///
    /// - Parameters:
    ///   - property: The property name.
    ///   - kind: The kind of index.
    package init(property: String, kind: Kind) {
        self.property = property
        self.kind = kind
    }
}
