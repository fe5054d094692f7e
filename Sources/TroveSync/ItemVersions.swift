import Trove

/// One item of a synced collection as the merge sees it: each top-level field of its encoding
/// (by the field numbers of Trove's coder) with the time it was last set, and the time it was
/// last removed.
///
/// Replicas exchange these and ``merge(_:)`` them. The merge keeps, field by field, the value set
/// at the later time, and the later removal; it is commutative, associative and idempotent, so
/// every replica that has received the same changes holds the same versions, and the same
/// ``encoded`` bytes, whatever the order in which they arrived and however often:
///
/// - Two replicas that changed different fields of one item while offline both keep their change.
/// - For one field, the later timestamp wins (``HybridTimestamp`` orders them all; the replica
///   breaks ties).
/// - A removal hides the item while it is later than every field's time: it wins over older
///   edits and loses to newer ones. An item written after its removal on this replica comes back
///   with the fields of that write alone (the write records the others as absent).
/// - A field that a write leaves out (an optional set to `nil`) is recorded as absent at that time,
///   so that an older value received later does not bring it back.
/// - Fields a replica's coder does not know (a newer app version's) are merged like the others:
///   the merge never decodes the item.
public struct ItemVersions: Sendable, Hashable {
    /// One field's latest value and when it was set.
    public struct Field: Sendable, Hashable {
        /// The field's bytes as the coder wrote them, tag included, or `nil` when the field was
        /// left out (absent).
        public var bytes: [UInt8]?
        /// When the value was set.
        public var stamp: HybridTimestamp

        /// A field from its value and time.
        ///
        /// - Parameters:
        ///   - bytes: The field's bytes, tag included, or `nil` for an absent field.
        ///   - stamp: When the value was set.
        public init(bytes: [UInt8]?, stamp: HybridTimestamp) {
            self.bytes = bytes
            self.stamp = stamp
        }
    }

    /// The fields, by number.
    public private(set) var fields: [UInt32: Field]
    /// When the item was last removed, or `nil`.
    public private(set) var removal: HybridTimestamp?

    /// An item that was never written.
    public init() {
        fields = [:]
        removal = nil
    }

    /// Versions from their parts, as another replica sent them.
    ///
    /// - Parameters:
    ///   - fields: The fields, by number.
    ///   - removal: When the item was last removed, or `nil`.
    public init(fields: [UInt32: Field], removal: HybridTimestamp?) {
        self.fields = fields
        self.removal = removal
    }

    /// The latest time of a field.
    public var latestFieldStamp: HybridTimestamp? {
        fields.values.lazy.map(\.stamp).max()
    }

    /// The latest time of any change: a field set, or the removal.
    public var latestStamp: HybridTimestamp? {
        [latestFieldStamp, removal].compactMap { $0 }.max()
    }

    /// Whether the item is removed: it was never written, or its latest removal is later than
    /// every field's time.
    public var isRemoved: Bool {
        guard let latestField = latestFieldStamp else { return true }
        guard let removal else { return false }
        return removal > latestField
    }

    /// The item's encoding, or `nil` when it is removed: the present fields in the order of their
    /// numbers (decoders read fields in any order), so that replicas with the same versions hold
    /// the same bytes.
    public var encoded: [UInt8]? {
        guard !isRemoved else { return nil }
        var bytes: [UInt8] = []
        for number in fields.keys.sorted() {
            if let field = fields[number]?.bytes { bytes += field }
        }
        return bytes
    }

    /// Records a write of the item on this replica at `stamp`: each field whose bytes differ from
    /// what the versions hold is set at `stamp`, and each field the encoding leaves out is recorded
    /// as absent at `stamp`. A write of a removed item sets every field at `stamp`, so that it
    /// brings the item back.
    ///
    /// - Parameters:
    ///   - encoded: The item's new encoding, as its coder wrote it.
    ///   - stamp: When the write was made: later than every time the versions hold (from the
    ///     replica's ``HybridClock``).
    /// - Returns: The numbers of the fields the write changed, in order.
    /// - Throws: ``/Trove/TroveError`` with code ``/Trove/TroveError/Code/corruptData`` when `encoded` is not a
    ///   sequence of fields.
    @discardableResult
    public mutating func recordWrite(of encoded: [UInt8], at stamp: HybridTimestamp) throws -> [UInt32] {
        var written: [UInt32: [UInt8]] = [:]
        let wellFormed = encoded.withUnsafeBytes { bytes in
            TopLevelFields.forEach(in: bytes) { number, field in
                // A field written twice: the last one is the value, as decoders read it.
                written[number] = Array(field)
            }
        }
        guard wellFormed else {
            throw TroveError(
                code: .corruptData,
                message: "A synced item's encoding is not a sequence of fields: its coder did not write Trove's format.")
        }
        let everything = isRemoved
        var changed: [UInt32] = []
        for (number, bytes) in written where everything || fields[number]?.bytes != bytes {
            fields[number] = Field(bytes: bytes, stamp: stamp)
            changed.append(number)
        }
        for (number, field) in fields where written[number] == nil && (everything || field.bytes != nil) {
            fields[number] = Field(bytes: nil, stamp: stamp)
            changed.append(number)
        }
        return changed.sorted()
    }

    /// Records a removal of the item on this replica at `stamp`.
    ///
    /// - Parameter stamp: When the removal was made: later than every time the versions hold.
    public mutating func recordRemoval(at stamp: HybridTimestamp) {
        if removal.map({ $0 < stamp }) ?? true {
            removal = stamp
        }
    }

    /// Merges the versions of another replica into these: each field takes the value set at the
    /// later time, and the removal the later time.
    ///
    /// - Parameter other: The other replica's versions of the same item (all of them, or only
    ///   the changes after some time, as ``changes(after:)`` gives them).
    public mutating func merge(_ other: ItemVersions) {
        for (number, theirs) in other.fields {
            if let ours = fields[number], ours.stamp >= theirs.stamp { continue }
            fields[number] = theirs
        }
        if let theirs = other.removal {
            recordRemoval(at: theirs)
        }
    }

    /// Whether `other` sets a field these versions set, or both remove the item.
    package func overlaps(_ other: ItemVersions) -> Bool {
        (removal != nil && other.removal != nil) || fields.keys.contains { other.fields[$0] != nil }
    }

    /// The encoding of these versions with each field `other` sets taking its value, whatever the
    /// times: the item as it would be had `other`'s changes been made last, or `nil` when it has no
    /// field.
    func encoded(overriddenBy other: ItemVersions) -> [UInt8]? {
        var overridden = fields
        for (number, field) in other.fields { overridden[number] = field }
        return ItemVersions(fields: overridden, removal: nil).encoded
    }

    /// The changes made after `time` (every one when `time` is `nil`): the fields set and the
    /// removal made later, what a replica sends another that has the rest. A change of one field
    /// sends that field alone.
    ///
    /// - Parameter time: The latest time the receiver has, or `nil`.
    /// - Returns: The later changes; merging them into versions that hold everything up to `time`
    ///   gives these versions.
    public func changes(after time: HybridTimestamp?) -> ItemVersions {
        guard let time else { return self }
        return ItemVersions(
            fields: fields.filter { $0.value.stamp > time }, removal: removal.flatMap { $0 > time ? $0 : nil })
    }
}
