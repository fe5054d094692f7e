// What an engine other than SQLite reads of an extension (package access, for TrovePostgres):
// which kind it is, and for a secondary index, the index itself. The kinds that engine does not
// keep are refused when it opens, by name, instead of being left out without a word.

/// An extension as an engine other than SQLite's sees it.
package enum ExtensionDefinition: Sendable {
    /// A secondary index, with its definition.
    case secondaryIndex(any SecondaryIndexDefinition)
    /// A full-text search.
    case fullTextSearch
    /// Relationships; `hasDeleteRules` when an edge has a delete or notify rule, which another
    /// engine would have to apply in its write transactions.
    case relationships(hasDeleteRules: Bool)
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
        .secondaryIndex(SecondaryIndex<Item>(name, version: version, columns: columns))
    }
}

extension FullTextSearchImplementation: EngineDescribable {
    fileprivate func definition(name: String, version: Int) -> ExtensionDefinition {
        .fullTextSearch
    }
}

extension RelationshipsImplementation: EngineDescribable {
    fileprivate func definition(name: String, version: Int) -> ExtensionDefinition {
        .relationships(hasDeleteRules: edges.contains { !$0.rules.isEmpty })
    }
}

extension ViewImplementation: EngineDescribable {
    fileprivate func definition(name: String, version: Int) -> ExtensionDefinition {
        .view
    }
}
