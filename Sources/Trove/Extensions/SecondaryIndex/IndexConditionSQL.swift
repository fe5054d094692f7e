/// How one engine writes the SQL of the conditions of a ``SecondaryIndex`` query: its
/// columns, and what "a multi-valued column has one, or all, of these values" is in its tables.
/// The conditions themselves are turned into SQL once, by ``IndexColumnSet/predicates(of:dialect:placeholder:)``,
/// for every engine.
package protocol IndexSQLDialect {
    /// The single-valued column `name` of the index's table, quoted, as the query names it.
    func column(_ name: String) -> String
    /// The predicate "the multi-valued column `name` has one of the values of `placeholders`"
    /// (never empty).
    func containsAny(_ name: String, _ placeholders: [String]) -> String
    /// The predicate "the multi-valued column `name` has every one of the distinct values of
    /// `placeholders`" (never empty).
    func containsAll(_ name: String, _ placeholders: [String]) -> String
    /// A predicate that is never true.
    var never: String { get }
}

/// The columns of a ``SecondaryIndex`` as its queries see them (their names, and which hold
/// several values per item), with the checks and the SQL of the conditions that every engine
/// shares.
package struct IndexColumnSet: Sendable, Hashable {
    /// The name of the index.
    package let indexName: String
    /// The collection of the indexed items.
    package let collection: String
    /// The names of the columns, in definition order.
    package let names: [String]
    /// The names of the multi-valued columns.
    package let multiValued: Set<String>

    /// The columns of an index named `indexName` of `collection`.
    package init(indexName: String, collection: String, names: [String], multiValued: Set<String>) {
        self.indexName = indexName
        self.collection = collection
        self.names = names
        self.multiValued = multiValued
    }

    /// The SQL predicates of `conditions` (all must hold), in `dialect`, each value bound by
    /// `placeholder`, which returns its parameter: values in the order of
    /// ``IndexQueryPlanner/values(of:)``. An empty ``IndexCondition/containsAll(_:_:)`` adds
    /// no predicate (it matches everything); an empty ``IndexCondition/column(_:in:)-(_,Sequence<Value>)``
    /// or ``IndexCondition/containsAny(_:_:)`` adds one that is never true.
    ///
    /// - Throws: ``TroveError/Code/extensionFailed`` for a column the index does not have, a
    ///   condition on a multi-valued column that is not one of `contains`, `containsAny` and
    ///   `containsAll`, or one of these on a single-valued column.
    package func predicates<Dialect: IndexSQLDialect>(
        of conditions: [IndexQueryClauses.Condition], dialect: Dialect, placeholder: (IndexValue) -> String
    ) throws -> [String] {
        var predicates: [String] = []
        for condition in conditions {
            try check(condition)
            let column = condition.predicate.isMultiValued ? condition.column : dialect.column(condition.column)
            switch condition.predicate {
            case .equals(let value):
                predicates.append("\(column) = \(placeholder(value))")
            case .oneOf(let values):
                predicates.append(
                    values.isEmpty
                        ? dialect.never : "\(column) IN (\(values.map { placeholder($0) }.joined(separator: ", ")))")
            case .range(let lower, let lowerIncluded, let upper, let upperIncluded):
                if let lower { predicates.append("\(column) \(lowerIncluded ? ">=" : ">") \(placeholder(lower))") }
                if let upper { predicates.append("\(column) \(upperIncluded ? "<=" : "<") \(placeholder(upper))") }
                if lower == nil && upper == nil { predicates.append("\(column) IS NOT NULL") }
            case .isNull:
                predicates.append("\(column) IS NULL")
            case .isNotNull:
                predicates.append("\(column) IS NOT NULL")
            case .containsAny(let values):
                predicates.append(
                    values.isEmpty ? dialect.never : dialect.containsAny(column, values.map { placeholder($0) }))
            case .containsAll(let values):
                if !values.isEmpty { predicates.append(dialect.containsAll(column, values.map { placeholder($0) })) }
            }
        }
        return predicates
    }

    /// The name of a column an ordering may use: a single-valued column of the index.
    ///
    /// - Throws: ``TroveError/Code/extensionFailed`` for a column the index does not have, or a
    ///   multi-valued one.
    package func orderingColumn(_ name: String) throws -> String {
        try checkExists(name)
        guard !multiValued.contains(name) else {
            throw TroveError(
                code: .extensionFailed,
                message:
                    "The column '\(name)' of the index '\(indexName)' holds several values per item: a query cannot be sorted by it; sort by a column with one value per item.",
                collection: collection, field: name, extensionName: indexName)
        }
        return name
    }

    /// Throws when `condition` names no column of the index, or does not fit its column.
    private func check(_ condition: IndexQueryClauses.Condition) throws {
        let name = condition.column
        try checkExists(name)
        let isMultiValued = multiValued.contains(name)
        guard isMultiValued != condition.predicate.isMultiValued else { return }
        throw TroveError(
            code: .extensionFailed,
            message: isMultiValued
                ? "The column '\(name)' of the index '\(indexName)' holds several values per item: filter it with contains, containsAny or containsAll."
                : "The column '\(name)' of the index '\(indexName)' holds one value per item: contains, containsAny and containsAll filter a multi-valued column (IndexColumn.values); filter this one with equals, in or isNil.",
            collection: collection, field: name, extensionName: indexName)
    }

    private func checkExists(_ name: String) throws {
        guard names.contains(name) else {
            throw TroveError(
                code: .extensionFailed,
                message:
                    "The index '\(indexName)' has no column '\(name)'; its columns are \(names.map { "'\($0)'" }.joined(separator: ", ")).",
                collection: collection, field: name, extensionName: indexName)
        }
    }
}
