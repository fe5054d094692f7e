import Synchronization

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
        try sections(mappings, following: nil)
    }

    /// The sections that `mappings` give of the view, from the transaction's snapshot, after
    /// `previous`: the sections read before, which a flexible range (``ViewMappings/Range/flexible(_:)``)
    /// grows or shrinks from. ``Database/observe(_:mappings:)-(View<Item>,_)`` reads the sections this way.
    ///
    /// - Parameters:
    ///   - mappings: Which groups and rows to show.
    ///   - previous: The sections read before with the same mappings, or `nil`.
    /// - Returns: The sections.
    /// - Throws: What ``sections(_:)`` throws.
    public func sections(_ mappings: ViewMappings, following previous: ViewSections?) throws -> ViewSections {
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
            var before: (groupIndexes: [Int], length: Int)?
            if case .flexible = rows.range, let shown = previous?.shownKeys(ofGroup: group) {
                let source = try view.pageSource(in: transaction)
                let sqlite = transaction.checkedCore.sqlite
                let indexes = try shown.compactMap { key in
                    try source.indexPath(ofKey: key, in: Item.collection, sqlite: sqlite).flatMap {
                        $0.group == group ? $0.index : nil
                    }
                }
                before = (indexes, shown.count)
            }
            let range = rows.groupRange(count: count, previous: before)
            var keys = range.isEmpty ? [] : try rawKeys(in: group, range: range)
            guard !keys.isEmpty || mappings.showsEmptyGroups && mappings.groups.fixedGroups != nil else { continue }
            if rows.reversed { keys.reverse() }
            for key in keys {
                fingerprints[key] = try fingerprint(ofKey: key)
            }
            sections.append(
                ViewSection(group: group, keys: keys, groupCount: count, isReversed: rows.reversed, groupRange: range))
        }
        if let consolidation = mappings.consolidation, !sections.isEmpty,
            sections.reduce(0, { $0 + $1.keys.count }) < consolidation.threshold
        {
            sections = [ViewSection(group: consolidation.group, consolidating: sections)]
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
        // The sections read last, which flexible ranges follow.
        let last = Mutex<ViewSections?>(nil)
        return ViewSectionsObservation(
            values: observe { tx in
                let sections = try view.read(tx).sections(mappings, following: last.withLock { $0 })
                last.withLock { $0 = sections }
                return sections
            }.removingDuplicates { $0.isIdentical(to: $1) }
        )
    }
}
