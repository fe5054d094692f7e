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

    /// The section of `group`, or `nil` when it is not shown.
    ///
    /// - Parameter group: A group of the view.
    /// - Returns: The index of its section.
    public func section(ofGroup group: String) -> Int? {
        sections.firstIndex { $0.group == group }
    }
}

/// One section of ``ViewSections``: the rows of a group that the mappings show.
public struct ViewSection: Sendable, Hashable {
    /// The group.
    public let group: String
    /// The keys of the rows shown, in the order they are shown.
    public let keys: [String]
    /// The number of rows of the group in the view, shown or not.
    public let groupCount: Int
    /// Whether the rows are shown last to first.
    public let isReversed: Bool
    /// The indexes in the view's group of the rows shown (ascending, whatever the reversal).
    public let groupRange: Range<Int>

    /// Creates a section.
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - keys: The keys shown, in order.
    ///   - groupCount: The number of rows of the group in the view.
    ///   - isReversed: Whether the rows are shown last to first.
    ///   - groupRange: The indexes in the view's group of the rows shown.
    public init(group: String, keys: [String], groupCount: Int, isReversed: Bool, groupRange: Range<Int>) {
        self.group = group
        self.keys = keys
        self.groupCount = groupCount
        self.isReversed = isReversed
        self.groupRange = groupRange
    }

    /// The index in the view's group (as ``ViewReader/key(at:in:)`` takes it) of the shown row
    /// at `row`, or `nil` when the section has no such row: like ``row(ofGroupIndex:)``,
    /// ``ViewSections/key(at:)`` and ``ViewSections/section(ofGroup:)``, an index outside the
    /// section is an answer, not a trap.
    ///
    /// - Parameter row: A row of the section, from 0 to the number of rows shown
    ///   (`groupRange.count`), excluded.
    /// - Returns: Its index in the group, or `nil` when `row` is negative or past the last row.
    public func groupIndex(ofRow row: Int) -> Int? {
        guard row >= 0, row < groupRange.count else { return nil }
        return isReversed ? groupRange.upperBound - 1 - row : groupRange.lowerBound + row
    }

    /// The row of the section that shows the row at `index` of the view's group, or `nil` when
    /// that row is not shown.
    ///
    /// - Parameter index: An index in the view's group.
    /// - Returns: The row of the section.
    public func row(ofGroupIndex index: Int) -> Int? {
        guard groupRange.contains(index) else { return nil }
        return isReversed ? groupRange.upperBound - 1 - index : index - groupRange.lowerBound
    }
}

/// The keys of one section, in order: the content a list shows.
public struct ViewSectionContent: Sendable, Hashable {
    /// The group of the section.
    public var group: String
    /// The keys of its rows, in order.
    public var keys: [String]

    /// Creates a section's content.
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - keys: The keys, in order.
    public init(group: String, keys: [String]) {
        self.group = group
        self.keys = keys
    }
}

/// A digest of the stored bytes of an item and of its metadata: two snapshots of a row whose
/// digests are equal hold the same item and metadata, except with a probability of about 2⁻⁶⁴
/// (64-bit SipHash, seeded per process, over the exact bytes).
struct ViewRowFingerprint: Sendable, Hashable {
    var data: Int
    var metadata: Int

    /// The parts of an item that differ between `old` and `self`.
    func changedParts(since old: ViewRowFingerprint) -> ViewRowChange.Parts {
        if data != old.data { return .item }
        if metadata != old.metadata { return .metadata }
        return []
    }
}

extension ViewReader {
    /// The sections that `mappings` give of the view, from the transaction's snapshot.
    ///
    /// Reads the page list of each group shown and the pages that hold the rows shown, and each
    /// shown row's stored item and metadata (to fingerprint them): a range of 50 rows of a large
    /// group costs about 50 row reads, not the group's size.
    ///
    /// - Parameter mappings: Which groups and rows to show.
    /// - Returns: The sections.
    /// - Throws: ``TroveError`` when the view is not registered, or SQLite fails;
    ///   ``TroveError/Code/corruptDatabase`` when the view is damaged: it lists an item that its
    ///   collection does not have.
    public func sections(_ mappings: ViewMappings) throws -> ViewSections {
        let groups: [String]
        if let fixed = mappings.groups.fixedGroups {
            groups = fixed
        } else {
            groups = mappings.groups.select(from: try self.groups())
        }
        var sections: [ViewSection] = []
        var fingerprints: [String: ViewRowFingerprint] = [:]
        for group in groups {
            let rows = mappings.rows(of: group)
            let count = try count(in: group)
            let range = rows.groupRange(count: count)
            var keys = range.isEmpty ? [] : try rawKeys(in: group, range: range)
            guard !keys.isEmpty || mappings.showsEmptyGroups && mappings.groups.fixedGroups != nil else { continue }
            if rows.reversed { keys.reverse() }
            for key in keys {
                fingerprints[key] = try fingerprint(ofKey: key)
            }
            sections.append(
                ViewSection(group: group, keys: keys, groupCount: count, isReversed: rows.reversed, groupRange: range))
        }
        return ViewSections(mappings: mappings, sections: sections, fingerprints: fingerprints)
    }

    /// The fingerprint of the stored item and metadata at `key`, read from SQLite.
    func fingerprint(ofKey key: String) throws -> ViewRowFingerprint {
        let sqlite = transaction.checkedCore.sqlite
        let statement = try sqlite.cachedStatement(FileLayout.selectItem)
        defer { statement.reset() }
        try statement.bind(Item.collection, at: 1)
        try statement.bind(key, at: 2)
        guard try statement.step() else {
            throw TroveError.viewRowWithoutItem(view: view.name, collections: [Item.collection], key: key)
        }
        var data = Hasher()
        data.combine(bytes: statement.bytes(at: 0))
        var metadata = Hasher()
        if statement.isNull(at: 1) {
            metadata.combine(0 as UInt8)
        } else {
            metadata.combine(1 as UInt8)
            metadata.combine(bytes: statement.bytes(at: 1))
        }
        return ViewRowFingerprint(data: data.finalize(), metadata: metadata.finalize())
    }
}

extension Database {
    /// Observes the sections that `mappings` give of `view`: an asynchronous sequence that yields
    /// them now (``ViewSectionsUpdate/changes`` is `nil`), then after each commit that changed
    /// them, with the changes since the sections yielded before.
    ///
    /// ```swift
    /// let mappings = ViewMappings(groups: .fixed([conversationID]), rows: .init(range: .last(50)))
    /// for try await update in database.observe(messages, mappings: mappings) {
    ///     if let changes = update.changes {
    ///         tableView.performBatchUpdates { apply(changes) }
    ///     } else {
    ///         tableView.reloadData()
    ///     }
    /// }
    /// ```
    ///
    /// It never skips a change: commits made while the consumer is busy coalesce into one
    /// element, whose changes are computed from the sections yielded before, so they contain
    /// every change of those commits (see ``ViewSections/changes(since:)``). Built on
    /// ``observe(_:)``: the same coalescing, cancellation and errors.
    ///
    /// - Parameters:
    ///   - view: The view, registered on this database.
    ///   - mappings: Which groups and rows to show.
    /// - Returns: The observation.
    public func observe<Item: Persistable>(_ view: View<Item>, mappings: ViewMappings) -> ViewSectionsObservation {
        ViewSectionsObservation(
            values: observe { tx in try view.read(tx).sections(mappings) }.removingDuplicates { $0.isIdentical(to: $1) }
        )
    }
}

/// An element of ``ViewSectionsObservation``: the sections now, and the changes since the
/// element before.
public struct ViewSectionsUpdate: Sendable, Hashable {
    /// The sections at the latest snapshot.
    public var sections: ViewSections
    /// The changes since the sections of the element before; `nil` for the first element (show
    /// the sections without animation).
    public var changes: ViewSectionChanges?

    /// Creates an update.
    ///
    /// - Parameters:
    ///   - sections: The sections.
    ///   - changes: The changes since the element before, `nil` for the first.
    public init(sections: ViewSections, changes: ViewSectionChanges?) {
        self.sections = sections
        self.changes = changes
    }
}

/// The sections of a view, following the database, with their changes: see
/// ``Database/observe(_:mappings:)``.
///
/// `Sendable`: it holds only the underlying observation. Each iteration is an observation of its
/// own; an iterator belongs to the loop that made it.
public struct ViewSectionsObservation: AsyncSequence, Sendable {
    /// The element: the sections and the changes since the element before.
    public typealias Element = ViewSectionsUpdate
    /// The error: a ``TroveError`` when reading fails.
    public typealias Failure = any Error

    let values: DatabaseObservation<ViewSections>

    /// Starts an observation.
    ///
    /// - Returns: An iterator that yields the sections now, then after each commit that changed
    ///   them.
    public func makeAsyncIterator() -> Iterator {
        Iterator(values: values.makeAsyncIterator())
    }

    /// The iterator of a ``ViewSectionsObservation``.
    public struct Iterator: AsyncIteratorProtocol {
        var values: DatabaseObservation<ViewSections>.Iterator
        var previous: ViewSections?

        /// The sections now on the first call; then the sections after the next commits that
        /// changed them, with the changes since the previous element.
        ///
        /// - Returns: The update, or `nil` when the iterating task is cancelled.
        /// - Throws: A ``TroveError`` when reading fails; the observation ends then.
        public mutating func next() async throws -> ViewSectionsUpdate? {
            try await next(isolation: nil)
        }

        /// The same as ``next()``, resuming on `actor`.
        ///
        /// - Parameter actor: The actor of the iterating context.
        /// - Returns: The update, or `nil` when the iterating task is cancelled.
        /// - Throws: A ``TroveError`` when reading fails.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> ViewSectionsUpdate?
        {
            guard let sections = try await values.next(isolation: actor) else { return nil }
            defer { previous = sections }
            return ViewSectionsUpdate(sections: sections, changes: previous.map { sections.changes(since: $0) })
        }
    }
}

// Explicit non-conformance to Sendable: an iterator belongs to the loop that made it.
@available(*, unavailable)
extension ViewSectionsObservation.Iterator: Sendable {}
