import Trove

// The extensions a store is opened with: the secondary indexes, full-text searches and
// relationships it keeps, and the refusal of what PostgreSQL does not keep yet, by name, before
// anything reaches the server (nothing is left out without a word).

extension PostgresStore {
    /// The extensions of `models` (their generated `databaseExtensions`) and of `extensions` that
    /// the store keeps, in order, each once.
    ///
    /// - Throws: ``/Trove/TroveError/Code/misuse`` naming the model (or the collection) and the
    ///   extension that PostgreSQL does not keep, or two different extensions with one name.
    static func keptExtensions(of models: [any Persistable.Type], extensions: [DatabaseExtension]) throws
        -> [any PostgresKeptExtension]
    {
        var kept: [any PostgresKeptExtension] = []
        var byName: [String: any PostgresKeptExtension] = [:]
        var requested: [(model: String?, extension: DatabaseExtension)] = []
        for model in models {
            for databaseExtension in (model as? any DatabaseExtensionProviding.Type)?.databaseExtensions ?? [] {
                requested.append(("\(model)", databaseExtension))
            }
        }
        requested += extensions.map { (nil, $0) }
        for (model, databaseExtension) in requested {
            let made = try make(databaseExtension, of: model)
            if let other = byName[made.name] {
                guard other.collection == made.collection, other.version == made.version,
                    other.fingerprint == made.fingerprint
                else {
                    throw TroveError(
                        code: .misuse,
                        message:
                            "Two different extensions are named '\(made.name)' (of the collections '\(other.collection)' and '\(made.collection)'): a PostgreSQL store keeps one extension per name.",
                        collection: made.collection, extensionName: made.name)
                }
                continue
            }
            byName[made.name] = made
            kept.append(made)
        }
        return kept
    }

    /// The extension that `databaseExtension` is on PostgreSQL, or the error that refuses it.
    private static func make(_ databaseExtension: DatabaseExtension, of model: String?) throws
        -> any PostgresKeptExtension
    {
        let what: String
        var remedy: String?
        switch databaseExtension.definition {
        case .secondaryIndex(let definition):
            return try PostgresIndex(definition)
        case .relationships(let definition):
            guard let edge = definition.fileEdgeNames.first else { return PostgresRelationships(definition) }
            what =
                "the edge to files '\(edge)' of the relationships '\(databaseExtension.name)' (the files of a Trove file are in a folder beside it; the instances that share a PostgreSQL store share no folder to remove them from)"
            remedy = "define the relationships without edges to files for the store, and remove the files yourself"
        case .fullTextSearch(let definition):
            if let refusal = refusal(of: definition) {
                what = refusal
            } else {
                return PostgresSearch(definition)
            }
        case .view:
            what =
                "the view '\(databaseExtension.name)' (its groups and order come from Swift closures, which the server cannot run: every instance would have to run them for every other instance's writes; a query of a secondary index, sorted by its columns, runs on PostgreSQL)"
        case .other(let kind):
            what = "the extension '\(databaseExtension.name)' (of the kind '\(kind)')"
        }
        let whose =
            model.map { "of the model \($0)" } ?? "of the collection '\(databaseExtension.collection)'"
        let usualRemedy =
            model.map {
                "pass the extensions of \($0) that PostgreSQL keeps (its secondary indexes, full-text searches and relationships) in extensions: instead of the model, or keep \($0) in a Trove file"
            } ?? "pass only secondary indexes, full-text searches and relationships in extensions:"
        throw TroveError(
            code: .misuse,
            message: "A PostgreSQL store does not keep \(what) \(whose) yet: \(remedy ?? usualRemedy).",
            collection: databaseExtension.collection, extensionName: databaseExtension.name)
    }

    /// What of `definition` PostgreSQL does not keep, in words, or `nil` when it keeps it all:
    /// the trigram tokenizer has no text-search configuration there.
    private static func refusal(of definition: some FullTextSearchDefinition) -> String? {
        guard definition.search.tokenizer == .trigram else { return nil }
        return
            "the full-text search '\(definition.search.name)' with the trigram tokenizer (PostgreSQL's text search has no trigram configuration)"
    }

}

extension PostgresIndex {
    /// The PostgreSQL form of the index `definition` describes.
    ///
    /// - Throws: ``/Trove/TroveError/Code/extensionFailed`` for a unique multi-valued column, as
    ///   a Trove file refuses it.
    fileprivate init(_ definition: some SecondaryIndexDefinition) throws {
        let index = definition.index
        if let column = index.columns.first(where: { $0.isMultiValued && $0.isUnique }) {
            throw TroveError.uniqueMultiValuedColumn(
                column.name, index: index.name, collection: Self.collection(of: index))
        }
        self.init(index)
    }

    private static func collection<Item: Persistable>(of index: SecondaryIndex<Item>) -> String { Item.collection }
}

extension PostgresStore {
    /// The relationships named `name` that the store keeps, when their definition's fingerprint
    /// is `fingerprint`; else the error of relationships the store does not keep.
    ///
    /// - Throws: ``/Trove/TroveError/Code/extensionFailed`` naming them and saying how to keep them.
    func keptRelationships(_ name: String, fingerprint: String, collection: String) throws -> PostgresRelationships {
        guard let kept = relationshipsByName[name], kept.fingerprint == "relationships " + fingerprint else {
            throw TroveError(
                code: .extensionFailed,
                message:
                    "The relationships '\(name)' are not kept by this PostgreSQL store with this definition: open the store with their model in models:, or with them in extensions:.",
                collection: collection, extensionName: name)
        }
        return kept
    }
}
