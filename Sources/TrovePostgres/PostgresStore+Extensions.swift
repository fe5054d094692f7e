import Trove

// The extensions a store is opened with: the secondary indexes it keeps, and the refusal of
// what PostgreSQL does not keep yet, by name, before anything reaches the server (a model with
// delete rules would otherwise lose its cascades without a word).

extension PostgresIndex {
    /// The secondary indexes of `models` (their generated `databaseExtensions`) and of
    /// `extensions`, in order, each once.
    ///
    /// - Throws: ``/Trove/TroveError/Code/misuse`` naming the model (or the collection) and the
    ///   extension that PostgreSQL does not keep, or two different extensions with one name.
    static func indexes(of models: [any Persistable.Type], extensions: [DatabaseExtension]) throws -> [PostgresIndex] {
        var indexes: [PostgresIndex] = []
        var byName: [String: PostgresIndex] = [:]
        var requested: [(model: String?, extension: DatabaseExtension)] = []
        for model in models {
            for databaseExtension in (model as? any DatabaseExtensionProviding.Type)?.databaseExtensions ?? [] {
                requested.append(("\(model)", databaseExtension))
            }
        }
        requested += extensions.map { (nil, $0) }
        for (model, databaseExtension) in requested {
            guard let index = try make(databaseExtension, of: model) else { continue }
            if let kept = byName[index.name] {
                guard kept.collection == index.collection, kept.version == index.version,
                    kept.fingerprint == index.fingerprint
                else {
                    throw TroveError(
                        code: .misuse,
                        message:
                            "Two different extensions are named '\(index.name)' (of the collections '\(kept.collection)' and '\(index.collection)'): a PostgreSQL store keeps one extension per name.",
                        collection: index.collection, extensionName: index.name)
                }
                continue
            }
            byName[index.name] = index
            indexes.append(index)
        }
        return indexes
    }

    /// The index that `databaseExtension` is; `nil` for relationships without rules, which need
    /// nothing kept; or the error that refuses it.
    private static func make(_ databaseExtension: DatabaseExtension, of model: String?) throws -> PostgresIndex? {
        let what: String
        switch databaseExtension.definition {
        case .secondaryIndex(let definition):
            return PostgresIndex(definition)
        case .fullTextSearch:
            what = "the full-text search '\(databaseExtension.name)'"
        case .view:
            what = "the view '\(databaseExtension.name)'"
        case .relationships(let hasDeleteRules):
            guard hasDeleteRules else {
                // Nothing is lost: edges are read from the items, and a traversal is refused when
                // it runs (`PostgresReadTransaction+Queries.swift`).
                return nil
            }
            what =
                "the relationships '\(databaseExtension.name)', whose delete rules (cascades and notices) it would not apply,"
        case .other(let kind):
            what = "the extension '\(databaseExtension.name)' (of the kind '\(kind)')"
        }
        let whose =
            model.map { "of the model \($0)" } ?? "of the collection '\(databaseExtension.collection)'"
        let remedy =
            model.map {
                "pass the extensions of \($0) that PostgreSQL keeps (its secondary indexes) in extensions: instead of the model, or keep \($0) in a Trove file"
            } ?? "pass only secondary indexes in extensions:"
        throw TroveError(
            code: .misuse,
            message: "A PostgreSQL store does not keep \(what) \(whose) yet: \(remedy).",
            collection: databaseExtension.collection, extensionName: databaseExtension.name)
    }

    /// The PostgreSQL form of the index `definition` describes.
    private init(_ definition: some SecondaryIndexDefinition) {
        self.init(definition.index)
    }
}
