/// A row that changed in ``ViewSections`` (see ``ViewSectionChanges`` for the conventions).
public struct ViewSectionRowChange: Sendable, Hashable, CustomStringConvertible {
    /// What happened to the row: removed, inserted, moved or updated (see ``ViewRowChange/Kind``).
    public var kind: ViewRowChange.Kind
    /// The key of the row's item.
    public var key: String
    /// The position before the changes: `nil` for an inserted row.
    public var from: ViewSectionIndexPath?
    /// The position after the changes: `nil` for a removed row.
    public var to: ViewSectionIndexPath?
    /// What of the row's item changed between the two snapshots: never empty for an updated row;
    /// for a moved row, whether it also needs drawing again.
    public var changedParts: ViewRowChange.Parts

    /// Creates a row change.
    ///
    /// - Parameters:
    ///   - kind: What happened to the row.
    ///   - key: The key of the row's item.
    ///   - from: The position before the changes.
    ///   - to: The position after the changes.
    ///   - changedParts: What of the item changed.
    public init(
        kind: ViewRowChange.Kind, key: String, from: ViewSectionIndexPath?, to: ViewSectionIndexPath?,
        changedParts: ViewRowChange.Parts = []
    ) {
        self.kind = kind
        self.key = key
        self.from = from
        self.to = to
        self.changedParts = changedParts
    }

    /// `moved k1 [0, 3] -> [1, 0]`.
    public var description: String {
        "\(kind) \(key) \(from?.description ?? "-") -> \(to?.description ?? "-")"
    }
}
