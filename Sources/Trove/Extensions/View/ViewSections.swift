/// The sections that ``ViewMappings`` give of a ``View`` at one snapshot: what a list shows, and
/// what a consumer keeps to compute the changes to a later snapshot (``changes(since:)``),
/// however many commits came between.
///
/// Besides the keys, the sections keep a fingerprint of the stored bytes of each shown row's
/// item and metadata, so that the changes between two snapshots also report the rows that stayed
/// but whose item or metadata changed (see ``changes(since:)``).
public struct ViewSections: Sendable, Hashable {
    /// The mappings the sections were read with.
    public let mappings: ViewMappings
    /// The sections, in order.
    public let sections: [ViewSection]
    /// The fingerprint of each shown row's stored item and metadata, by key.
    let fingerprints: [String: ViewRowFingerprint]

    /// Creates sections from their content, without fingerprints: the changes between such
    /// sections report no updates in place.
    ///
    /// - Parameters:
    ///   - mappings: The mappings.
    ///   - sections: The sections.
    public init(mappings: ViewMappings, sections: [ViewSection]) {
        self.init(mappings: mappings, sections: sections, fingerprints: [:])
    }

    init(mappings: ViewMappings, sections: [ViewSection], fingerprints: [String: ViewRowFingerprint]) {
        self.mappings = mappings
        self.sections = sections
        self.fingerprints = fingerprints
    }

    /// Equal when the mappings and the sections are: sections read at two snapshots can be equal
    /// while the items of some rows changed (``changes(since:)`` reports those as updates).
    public static func == (lhs: ViewSections, rhs: ViewSections) -> Bool {
        lhs.mappings == rhs.mappings && lhs.sections == rhs.sections
    }

    /// Hashes the mappings and the sections.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(mappings)
        hasher.combine(sections)
    }

    /// Whether the sections, and the stored item and metadata of every row shown, are the same.
    func isIdentical(to other: ViewSections) -> Bool {
        self == other && fingerprints == other.fingerprints
    }

    /// The number of sections.
    public var count: Int {
        sections.count
    }

    /// The groups of the sections, in order.
    public var groups: [String] {
        sections.map(\.group)
    }

    /// The keys of the rows of each section, in order (what ``ViewSectionChanges/applied(to:)``
    /// takes and returns).
    public var contents: [ViewSectionContent] {
        sections.map { ViewSectionContent(group: $0.group, keys: $0.keys) }
    }

    /// The key of the row at `indexPath`, or `nil` when there is no such row.
    ///
    /// - Parameter indexPath: A section and a row in it.
    /// - Returns: The key.
    public func key(at indexPath: ViewSectionIndexPath) -> String? {
        guard sections.indices.contains(indexPath.section) else { return nil }
        let keys = sections[indexPath.section].keys
        return keys.indices.contains(indexPath.row) ? keys[indexPath.row] : nil
    }

    /// The section and row of `key`, or `nil` when it is not shown.
    ///
    /// - Parameter key: The key of an item.
    /// - Returns: Its position.
    /// - Complexity: O(n) in the number of rows shown.
    public func indexPath(ofKey key: String) -> ViewSectionIndexPath? {
        for (section, content) in sections.enumerated() {
            if let row = content.keys.firstIndex(of: key) { return ViewSectionIndexPath(section: section, row: row) }
        }
        return nil
    }

    /// The keys shown of `group`, in its own section or in the one section of consolidated
    /// groups; `nil` when the group is not shown.
    func shownKeys(ofGroup group: String) -> [String]? {
        for section in sections {
            if section.consolidated.isEmpty {
                if section.group == group { return section.keys }
            } else if let part = section.consolidated.first(where: { $0.group == group }) {
                return part.keys
            }
        }
        return nil
    }

    /// The section of `group`, or `nil` when it is not shown: the one section of consolidated
    /// groups when it shows that group (``ViewMappings/Consolidation``).
    ///
    /// - Parameter group: A group of the view, or the name of the one section.
    /// - Returns: The index of its section.
    public func section(ofGroup group: String) -> Int? {
        sections.firstIndex { $0.group == group || $0.consolidated.contains { $0.group == group } }
    }
}
