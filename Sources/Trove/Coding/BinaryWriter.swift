/// A growable buffer that encodes values in Trove's tagged binary format.
///
/// Generated coders call the field-level methods (``encode(_:field:)-(_,UInt32)``,
/// ``encodeIfPresent(_:field:)-(_,UInt32)``, ``encodeMessage(field:_:)``); the low-level methods
/// write the value forms that ``BinaryCodable`` conformances are made of:
///
/// - varint: base-128, least significant group first, at most 10 bytes;
/// - zigzag: a signed integer mapped to an unsigned one (`0, -1, 1, -2` become `0, 1, 2, 3`),
///   then written as a varint;
/// - fixed32 and fixed64: little-endian;
/// - length-delimited: a varint byte count, then the bytes.
///
/// ```swift
/// var writer = BinaryWriter()
/// try writer.encode("Ada", field: FieldNumber.of("name"))
/// try writer.encode(36, field: FieldNumber.of("age"))
/// let blob = writer.bytes
/// ```
///
/// One writer can encode many items: call ``removeAll(keepingCapacity:)`` between them so that
/// its storage is allocated once.
///
/// `BinaryWriter` is `Sendable`: it is a value that owns its bytes (an `[UInt8]`), so a copy
/// sent to another task shares nothing mutable with the original.
public struct BinaryWriter {
    /// The encoded bytes.
    @usableFromInline
    internal var storage: [UInt8]

    /// Creates an empty writer.
    ///
    /// - Parameter reservingCapacity: The number of bytes to allocate up front.
    @inlinable
    public init(reservingCapacity: Int = 128) {
        storage = []
        storage.reserveCapacity(reservingCapacity)
    }

    /// The bytes written so far.
    @inlinable
    public var bytes: [UInt8] { storage }

    /// The number of bytes written so far.
    @inlinable
    public var count: Int { storage.count }

    /// Removes every byte written, so that the writer can encode another value.
    ///
    /// - Parameter keepingCapacity: Whether to keep the allocated storage for the next value.
    @inlinable
    public mutating func removeAll(keepingCapacity: Bool = true) {
        storage.removeAll(keepingCapacity: keepingCapacity)
    }
}

// `BinaryWriter` owns an `[UInt8]` and nothing else: copies are independent values.
extension BinaryWriter: Sendable {}
