// What another storage backend (TrovePostgres) needs of a secondary index descriptor and its
// conditions to run them on its own engine: the column values of an item and the predicate of a
// condition. Behind `@_spi(TroveBackends)`: not part of the API an app sees.

/// What an ``IndexCondition`` asks of its column, for a storage backend other than SQLite.
@_spi(TroveBackends)
public enum IndexBackendPredicate: Sendable, Hashable {
    /// The column equals the value.
    case equals(IndexValue)
    /// The column equals one of the values.
    case oneOf([IndexValue])
    /// The column is in the range; a missing bound is open.
    case range(lower: IndexValue?, lowerIncluded: Bool, upper: IndexValue?, upperIncluded: Bool)
    /// The column is null.
    case isNull
    /// The column is not null.
    case isNotNull
}

extension IndexCondition {
    /// The predicate of this condition, for a storage backend other than SQLite.
    @_spi(TroveBackends)
    public var backendPredicate: IndexBackendPredicate {
        switch predicate {
        case .equals(let value): .equals(value)
        case .oneOf(let values): .oneOf(values)
        case .range(let lower, let lowerIncluded, let upper, let upperIncluded):
            .range(lower: lower, lowerIncluded: lowerIncluded, upper: upper, upperIncluded: upperIncluded)
        case .isNull: .isNull
        case .isNotNull: .isNotNull
        }
    }
}

extension IndexColumn {
    /// The value of this column for `item`, for a storage backend other than SQLite.
    ///
    /// - Parameter item: The item to index.
    /// - Returns: The value the index stores for it.
    @_spi(TroveBackends)
    public func backendValue(of item: Item) -> IndexValue {
        value(item)
    }
}
