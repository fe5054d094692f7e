/// The relationships generated from the `@relationship` fields of a `@persistable` type: one
/// edge per field, from each item to the items whose keys the field holds (`to:`), or to the
/// files whose paths it holds (`toFiles:`).
package struct RelationshipsDescription: Sendable, Equatable, Codable {
    /// The name of the extension: the type's name, sanitized, with `_relationships`.
    package var name: String
    /// The version: a hash of the edges' names, destinations (the folder of an edge to files),
    /// rules and properties, so that a change of them rebuilds the edges.
    package var version: Int
    /// The edges, in declaration order.
    package var edges: [RelationshipEdgeDescription]

    /// Creates a relationships description; its version is computed from `edges`.
    ///
    /// - Parameters:
    ///   - name: The name of the extension.
    ///   - edges: The edges.
    package init(name: String, edges: [RelationshipEdgeDescription]) {
        self.name = name
        self.edges = edges
        let text = edges.map { edge in
            // "files in <folder>" cannot be the name of a type: no edge to items hashes like it.
            let destination = edge.folder.map { "files in " + $0 } ?? edge.destination
            return ([edge.name, edge.property, destination, edge.shape.rawValue] + edge.rules).joined(separator: ":")
        }.joined(separator: ";")
        self.version = Int(IndexableTypes.hash(text) >> 1)
    }
}

/// One edge of a generated ``RelationshipsDescription``: a `@relationship` stored property, whose
/// destinations are items (`to:`) or files in ``folder`` (`toFiles:`).
package struct RelationshipEdgeDescription: Sendable, Equatable, Codable {
    /// How the property holds the destination keys (or paths, for an edge to files).
    package enum Shape: String, Sendable, Equatable, Codable {
        /// One key.
        case key
        /// An optional key: `nil` is no edge.
        case optionalKey
        /// An array of keys.
        case array
        /// A set of keys.
        case set
        /// An optional array of keys: `nil` is no edge.
        case optionalArray
        /// An optional set of keys: `nil` is no edge.
        case optionalSet
    }

    /// The name of the edge, which is also the name of the query on the source (`author`); an
    /// edge to files has no query.
    package var name: String
    /// The property name, without backticks.
    package var property: String
    /// The dotted name of the destination type; empty for an edge to files.
    package var destination: String
    /// The folder of the files of an edge to files, as `toFiles:` gives it; `nil` for an edge to items.
    package var folder: String?
    /// How the property holds the keys.
    package var shape: Shape
    /// The names of the runtime's `DeleteRules` the edge has, in the runtime's order.
    package var rules: [String]
    /// The name of the query on the destination that returns the sources (`posts`); empty for an
    /// edge to files.
    package var inverse: String
    /// The access modifier of the query on the destination: the lower of the two types'.
    package var inverseAccessModifier: String

    /// Creates an edge description.
    ///
    /// - Parameters:
    ///   - name: The name of the edge.
    ///   - property: The property name.
    ///   - destination: The destination type.
    ///   - shape: How the property holds the keys.
    ///   - rules: The runtime names of the delete rules.
    ///   - inverse: The name of the query on the destination.
    ///   - inverseAccessModifier: The access modifier of that query.
    package init(
        name: String, property: String, destination: String, shape: Shape, rules: [String], inverse: String,
        inverseAccessModifier: String
    ) {
        self.name = name
        self.property = property
        self.destination = destination
        self.shape = shape
        self.rules = rules
        self.inverse = inverse
        self.inverseAccessModifier = inverseAccessModifier
    }

    /// Creates the description of an edge to files.
    ///
    /// - Parameters:
    ///   - name: The name of the edge.
    ///   - property: The property name.
    ///   - folder: The folder of the files, as `toFiles:` gives it.
    ///   - shape: How the property holds the paths.
    ///   - rules: The runtime names of the delete rules.
    package init(name: String, property: String, folder: String, shape: Shape, rules: [String]) {
        self.init(
            name: name, property: property, destination: "", shape: shape, rules: rules, inverse: "",
            inverseAccessModifier: "")
        self.folder = folder
    }

    /// Whether the destinations are files (``folder`` is set).
    package var isFile: Bool { folder != nil }

    /// Whether the property holds a collection of keys (or paths).
    package var isCollection: Bool {
        switch shape {
        case .key, .optionalKey: false
        case .array, .set, .optionalArray, .optionalSet: true
        }
    }
}

/// The delete rules a `@relationship(onDelete:)` can name, with the runtime's `DeleteRules`
/// member each stands for. The annotation is written on the source (the item that holds the
/// key); the destination is the item the key points at.
package enum RelationshipRule: String, Sendable, CaseIterable {
    /// The source goes when its destination goes (a post with its author).
    case deleteSource
    /// The destination goes when its source goes (a user's avatar with the user).
    case deleteDestination
    /// The source goes when the last of its destinations goes (an album with its last photo).
    case deleteSourceWithLastDestination
    /// The destination goes when the last of its sources goes (a tag with its last post).
    case deleteDestinationWithLastSource
    /// The source hears that its destination went.
    case notifySource
    /// The destination hears that its source went.
    case notifyDestination

    /// The rules an edge to files takes: those that remove destinations.
    package static let fileRules: [RelationshipRule] = [.deleteDestination, .deleteDestinationWithLastSource]

    /// The name of the runtime's `DeleteRules` member.
    package var runtimeName: String {
        switch self {
        case .deleteSource: "deleteSourceWhenDestinationDeleted"
        case .deleteDestination: "deleteDestinationWhenSourceDeleted"
        case .deleteSourceWithLastDestination: "deleteSourceWhenAllDestinationsDeleted"
        case .deleteDestinationWithLastSource: "deleteDestinationWhenAllSourcesDeleted"
        case .notifySource: "notifySourceWhenDestinationDeleted"
        case .notifyDestination: "notifyDestinationWhenSourceDeleted"
        }
    }
}
