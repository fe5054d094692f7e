/// A growable buffer that holds the bytes of an encoded value: what a ``ValueCoder`` appends to.
///
/// Generated coders write Trove's tagged binary format into it, one field per stored property;
/// a coder of another format appends its bytes with ``writeRawBytes(_:)`` (see
/// ``CodableCoder``). To get the bytes of a value, encode it and read them without copying:
///
/// ```swift
/// var writer = BinaryWriter()
/// try MessageCoder<User>.encode(user, to: &writer)
/// let blob = writer.withUnsafeBytes { Data($0) }
/// ```
///
/// The methods that write the tagged format (fields, tags, varints, zigzag, fixed-width and
/// length-delimited values) exist for generated code and hand-written binary coders: they are SPI,
/// visible with `@_spi(TroveGenerated) import Trove`, which every generated file declares.
///
/// One writer can encode many items: call ``removeAll(keepingCapacity:)`` between them so that
/// its storage is allocated once.
///
/// A writer is a value with copy-on-write storage: each write checks once that the storage is
/// not shared and has room for the value, then stores the bytes in place.
public struct BinaryWriter {
    /// The memory that holds the encoded bytes.
    @usableFromInline
    internal var storage: Storage

    /// The number of bytes of ``storage`` written so far.
    @usableFromInline
    internal var byteCount: Int

    /// Creates an empty writer.
    ///
    /// - Parameter reservingCapacity: The number of bytes to allocate up front.
    @inlinable
    public init(reservingCapacity: Int = 128) {
        storage = Storage(capacity: Swift.max(reservingCapacity, Storage.minimumCapacity))
        byteCount = 0
    }

    /// A copy of the bytes written so far.
    ///
    /// - Complexity: O(n) in the number of bytes: prefer ``withUnsafeBytes(_:)``, which does
    ///   not copy them.
    @inlinable
    public var bytes: [UInt8] {
        withUnsafeBytes { [UInt8]($0) }
    }

    /// The number of bytes written so far.
    @inlinable
    public var count: Int { byteCount }

    /// Calls `body` with the bytes written so far, without copying them.
    ///
    /// ```swift
    /// let blob = writer.withUnsafeBytes { Data($0) }
    /// ```
    ///
    /// - Parameter body: A closure that reads the bytes.
    /// - Returns: What `body` returns.
    /// - Throws: Whatever `body` throws.
    /// - Important: The buffer is valid only during the call: it must not escape `body`.
    @inlinable
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(storage) {
            try body(UnsafeRawBufferPointer(start: storage.base, count: byteCount))
        }
    }

    /// Removes every byte written, so that the writer can encode another value.
    ///
    /// - Parameter keepingCapacity: Whether to keep the allocated storage for the next value.
    @inlinable
    public mutating func removeAll(keepingCapacity: Bool = true) {
        if !keepingCapacity {
            storage = Storage(capacity: Storage.minimumCapacity)
        } else if !isKnownUniquelyReferenced(&storage) {
            // A copy still reads these bytes: leave them to it.
            storage = Storage(capacity: storage.capacity)
        }
        byteCount = 0
    }

    /// Makes the storage unique and gives it room for `count` more bytes, and returns the address
    /// where they go. The caller stores them and adds their number to ``byteCount``.
    ///
    /// This is the one check of a write, however many bytes it stores.
    @inlinable
    @inline(__always)
    internal mutating func reserve(_ count: Int) -> UnsafeMutableRawPointer {
        if _slowPath(!isKnownUniquelyReferenced(&storage) || count > storage.capacity &- byteCount) {
            reallocate(forAdditional: count)
        }
        return storage.base + byteCount
    }

    /// Moves the bytes to a new unique storage with room for `count` more bytes.
    @usableFromInline
    @inline(never)
    internal mutating func reallocate(forAdditional count: Int) {
        let (needed, overflow) = byteCount.addingReportingOverflow(count)
        precondition(!overflow, "BinaryWriter: \(count) more bytes do not fit in memory")
        var capacity = storage.capacity
        while capacity < needed {
            capacity = capacity > Int.max / 2 ? needed : capacity &* 2
        }
        let new = Storage(capacity: capacity)
        new.base.copyMemory(from: storage.base, byteCount: byteCount)
        storage = new
    }
}

extension BinaryWriter {
    /// One allocation of a fixed capacity that holds the bytes of a writer. A writer writes to
    /// it only while it holds the only reference (see ``BinaryWriter/reserve(_:)``); a writer
    /// that needs more room moves its bytes to a larger storage.
    @usableFromInline
    internal final class Storage {
        /// The smallest capacity allocated.
        @inlinable
        static var minimumCapacity: Int { 16 }

        /// The first byte.
        @usableFromInline
        let base: UnsafeMutableRawPointer

        /// The number of bytes allocated.
        @usableFromInline
        let capacity: Int

        @usableFromInline
        init(capacity: Int) {
            self.base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            self.capacity = capacity
        }

        deinit {
            base.deallocate()
        }
    }
}

// @unchecked because the bytes sit behind a pointer, which the compiler cannot check: a writer
// stores bytes only after `isKnownUniquelyReferenced` confirmed that it holds the only reference
// to its storage (copy-on-write), so a copy sent to another task shares nothing mutable.
extension BinaryWriter: @unchecked Sendable {}
