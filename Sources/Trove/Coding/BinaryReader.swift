/// A cursor that decodes Trove's tagged binary format from borrowed memory.
///
/// A reader never copies the bytes it reads, never traps and never reads outside its buffer:
/// whatever the bytes, every method either returns a value or throws ``TroveError`` with code
/// ``TroveError/Code/corruptData``. Nesting (length-prefixed values inside length-prefixed
/// values) is limited to ``maximumNestingDepth`` levels, so that malicious input cannot
/// overflow the stack.
///
/// Generated decoders loop over the fields:
///
/// ```swift
/// var name: String?
/// while let header = try reader.nextField() {
///     switch header.number {
///     case 0x11A7_37BC: name = try reader.decode(String.self, from: header, field: "name")
///     default: try reader.skip(header)
///     }
/// }
/// return User(name: try reader.required(name, field: "name"))
/// ```
///
/// - Important: A reader borrows the memory it reads: it must not outlive the buffer it was
///   created with, and the buffers it returns (``readRawBytes(count:)``,
///   ``readLengthDelimited()``) are valid only as long as that buffer.
public struct BinaryReader {
    /// The number of length-prefixed values that can be nested inside one another.
    public static let maximumNestingDepth = 64

    /// The bytes this reader reads: exactly the value or message being decoded.
    @usableFromInline
    internal let buffer: UnsafeRawBufferPointer

    /// The offset in ``buffer`` of the next byte to read.
    @usableFromInline
    internal var position: Int

    /// How many length-prefixed values enclose ``buffer``.
    @usableFromInline
    internal let depth: Int

    /// Creates a reader of all the bytes of `buffer`.
    ///
    /// - Parameter buffer: The bytes to read. The reader must not outlive them.
    @inlinable
    public init(_ buffer: UnsafeRawBufferPointer) {
        self.init(buffer, depth: 0)
    }

    /// Creates a reader at nesting depth `depth`.
    @inlinable
    internal init(_ buffer: UnsafeRawBufferPointer, depth: Int) {
        self.buffer = buffer
        self.position = 0
        self.depth = depth
    }

    /// Whether every byte has been read.
    @inlinable
    public var isAtEnd: Bool { position >= buffer.count }

    /// The number of bytes not read yet.
    @inlinable
    public var remainingCount: Int { buffer.count - position }

    /// Returns `value`, or throws if a required field was missing from the message.
    ///
    /// - Parameters:
    ///   - value: The decoded value of the field, or `nil` if the message did not contain it.
    ///   - name: The name of the field, for the error.
    /// - Returns: `value`, unwrapped.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/corruptData`` naming the field when
    ///   `value` is `nil`.
    @inlinable
    public func required<V>(_ value: V?, field name: String) throws -> V {
        guard let value else { throw TroveError.corruptData("required field is missing", field: name) }
        return value
    }
}

// A reader points into memory that it does not own and that is valid only for the duration of
// a scope (a `withUnsafeBytes` closure, a SQLite column read). It must not cross to another
// task, which could read it after the scope ends.
@available(*, unavailable)
extension BinaryReader: Sendable {}
