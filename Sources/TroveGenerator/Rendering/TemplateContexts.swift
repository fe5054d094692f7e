// The values templates see. Templates only substitute and loop: every decision (what to call,
// which literal, which default) is made here, in Swift. swift-mustache reads stored properties
// through reflection, so these are plain structs of strings, booleans and arrays.

/// The header of every generated file.
struct HeaderContext {
    var sourcePath: String
}

/// The conformance declarations of one type.
struct ConformancesContext {
    var name: String
    var conformances: String
    var nonisolatedConformances: String
}

/// The `Persistable` members of one type.
struct PersistableContext {
    struct Key {
        var typeName: String
        var property: String
        var swiftProperty: String
        var type: String
    }

    struct Metadata {
        struct Accessor {
            var property: String
            var swiftProperty: String
        }

        var type: String
        var coder: String
        var coderDescription: String
        var accessor: Accessor?
    }

    var name: String
    var access: String
    var collectionLiteral: String
    var key: Key?
    var metadata: Metadata?
}

/// The `BinaryMessage` members of a struct or final class.
struct MessageContext {
    struct Field {
        var name: String
        var swiftName: String
        var localName: String
        var type: String
        var encodeMethod: String
        var numberLiteral: String
        var encodeComment: String
        var caseNumbers: String
        var caseComment: String
    }

    var name: String
    var access: String
    var encodeNote: String
    var fields: [Field]
    var hasArguments: Bool
    var arguments: [String]
}

/// The `BinaryMessage` members of an enum.
struct EnumMessageContext {
    struct Case {
        var name: String
        var swiftName: String
        var pattern: String
        var numberLiteral: String
        var hasParameters: Bool
        var parameters: [MessageContext.Field]
        var construction: String
    }

    var name: String
    var access: String
    var cases: [Case]
}

/// The secondary index of one `@persistable` type and its typed queries.
struct SecondaryIndexContext {
    struct Column {
        var columnLiteral: String
        var path: String
        var source: String
        var swiftName: String
        var type: String
        var valueType: String
        var isUnique: Bool
        var isOptional: Bool
        var isComparable: Bool
        var last: Bool
    }

    struct Lookup {
        var itemName: String
        var source: String
        var swiftName: String
        var lookup: String
        var parameter: String
        var type: String
        var last: Bool
    }

    var name: String
    var access: String
    var summary: String
    var nameLiteral: String
    var version: Int
    var columns: [Column]
    var hasUnique: Bool
    var unique: [Lookup]
}

/// The full-text search of one `@persistable` type and its typed search.
struct FullTextSearchContext {
    struct Column {
        var columnLiteral: String
        var weight: String?
        var text: String
    }

    var name: String
    var access: String
    var summary: String
    var tokenizerName: String
    var nameLiteral: String
    var version: Int
    var tokenizer: String
    var columns: [Column]
}

/// The relationships of one `@persistable` type and their typed queries.
struct RelationshipsContext {
    struct Edge {
        var edgeName: String
        var edgeLiteral: String
        var property: String
        var sourceName: String
        var destination: String
        var rules: String?
        var extractLabel: String
        var extract: String
        var forwardSummary: String
        var swiftName: String
        var forwardType: String
        var forwardBody: String
        var inverseAccess: String
        var inverseSwiftName: String
        var inverseCountName: String
    }

    var name: String
    var access: String
    var summary: String
    var nameLiteral: String
    var version: Int
    var edges: [Edge]
}

/// The list of the extensions of one `@persistable` type.
struct DatabaseExtensionsContext {
    var name: String
    var access: String
    var summary: String
    var list: String
}
