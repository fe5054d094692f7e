/// A section inserted into or removed from ``ViewSections``.
public struct ViewSectionChange: Sendable, Hashable, CustomStringConvertible {
    /// What happened to the section.
    public enum Kind: Int, Sendable, Hashable {
        /// The section appeared: ``ViewSectionChange/index`` is its index after the changes.
        case inserted
        /// The section went: ``ViewSectionChange/index`` is its index before the changes.
        case removed
    }

    /// What happened to the section.
    public var kind: Kind
    /// The index of the section: after the changes for an inserted section, before them for a
    /// removed one.
    public var index: Int
    /// The group of the section.
    public var group: String
    /// The keys of the rows of an inserted section, in order (a list reads them from its data
    /// source; ``ViewSectionChanges/applied(to:)`` from here); empty for a removed section.
    public var keys: [String]

    /// Creates a section change.
    ///
    /// - Parameters:
    ///   - kind: What happened to the section.
    ///   - index: Its index: after the changes when inserted, before them when removed.
    ///   - group: Its group.
    ///   - keys: The keys of an inserted section's rows.
    public init(kind: Kind, index: Int, group: String, keys: [String] = []) {
        self.kind = kind
        self.index = index
        self.group = group
        self.keys = keys
    }

    /// `inserted 2 (group)`.
    public var description: String {
        "\(kind) \(index) (\(group))"
    }
}
