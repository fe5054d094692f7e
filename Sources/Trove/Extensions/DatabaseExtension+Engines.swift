// What an engine other than SQLite reads of an extension (package access, for TrovePostgres):
// which kind it is, and for a secondary index or relationships, their definition. The kinds that engine does not
// keep are refused when it opens, by name, instead of being left out without a word.

/// An extension as an engine other than SQLite's sees it.
package enum ExtensionDefinition: Sendable {
    /// A secondary index, with its definition.
    case secondaryIndex(any SecondaryIndexDefinition)
    /// A full-text search, with its definition: the columns, their weights and texts, and the
    /// tokenizer, which another engine keeps in its own kind of text index.
    case fullTextSearch(any FullTextSearchDefinition)
    /// Relationships, with their definition: the edges, their rules, and how to read a source's
    /// destinations, which another engine keeps in its own table and whose rules it applies in
    /// its write transactions.
    case relationships(any RelationshipsDefinition)
    /// A view (of one collection or of several).
    case view
    /// A kind of extension this list does not know yet, by the kind's name.
    case other(kind: String)
}

/// The definition of a secondary index of some item type: what another engine builds its own
/// table of the index from (open the existential with a generic function to get at `Item`).
package protocol SecondaryIndexDefinition: Sendable {
    /// The type of the indexed items.
    associatedtype Item: Persistable
    /// The index.
    var index: SecondaryIndex<Item> { get }
}

extension SecondaryIndex: SecondaryIndexDefinition {
    /// The index itself.
    package var index: SecondaryIndex<Item> { self }
}

/// The definition of a full-text search of some item type: what another engine builds its own
/// text index from (open the existential with a generic function to get at `Item`).
package protocol FullTextSearchDefinition: Sendable {
    /// The type of the searched items.
    associatedtype Item: Persistable
    /// The search.
    var search: FullTextSearch<Item> { get }
}

extension FullTextSearch: FullTextSearchDefinition {
    /// The search itself.
    package var search: FullTextSearch<Item> { self }
}

extension DatabaseExtension {
    /// The extension as an engine other than SQLite's sees it.
    package var definition: ExtensionDefinition {
        switch implementation {
        case let implementation as any EngineDescribable: implementation.definition(name: name, version: version)
        default: .other(kind: implementation.kind)
        }
    }
}

/// An implementation that says what it is to another engine.
private protocol EngineDescribable {
    func definition(name: String, version: Int) -> ExtensionDefinition
}

extension SecondaryIndexImplementation: EngineDescribable {
    fileprivate func definition(name: String, version: Int) -> ExtensionDefinition {
        .secondaryIndex(SecondaryIndex<Item>(name, version: version, columns: definedColumns))
    }
}

extension FullTextSearchImplementation: EngineDescribable {
    fileprivate func definition(name: String, version: Int) -> ExtensionDefinition {
        .fullTextSearch(FullTextSearch<Item>(name, version: version, tokenizer: tokenizer, columns: columns))
    }
}

extension RelationshipsImplementation: EngineDescribable {
    fileprivate func definition(name: String, version: Int) -> ExtensionDefinition {
        .relationships(RelationshipsDefinitionOf(name: name, version: version, implementation: self))
    }
}

/// The definition of relationships of some source type: what another engine keeps their edges
/// from (open the existential with a generic function to get at `Source`).
package protocol RelationshipsDefinition: Sendable {
    /// The type of the sources.
    associatedtype Source: Persistable
    /// The name of the extension.
    var name: String { get }
    /// The version of the definition.
    var version: Int { get }
    /// What the edges are kept from: a change of it rebuilds them.
    var fingerprint: String { get }
    /// The edges.
    var edges: [RelationshipEdge<Source>] { get }
}

extension RelationshipsDefinition {
    /// The names of the edges to files, which only a Trove file keeps.
    package var fileEdgeNames: [String] { edges.filter(\.isFile).map(\.name) }
}

/// ``RelationshipsDefinition`` of a registered ``Relationships``.
private struct RelationshipsDefinitionOf<Source: Persistable>: RelationshipsDefinition {
    let name: String
    let version: Int
    let implementation: RelationshipsImplementation<Source>

    var fingerprint: String { implementation.fingerprint }
    var edges: [RelationshipEdge<Source>] { implementation.edges }
}

extension ViewImplementation: EngineDescribable {
    fileprivate func definition(name: String, version: Int) -> ExtensionDefinition {
        .view
    }
}
