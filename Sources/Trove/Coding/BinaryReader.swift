/// A cursor that decodes an encoded value from borrowed memory: what a ``ValueCoder`` reads from.
///
/// A reader never copies the bytes it reads, never traps and never reads outside its buffer:
/// whatever the bytes, every method either returns a value or throws ``TroveError`` with code
/// ``TroveError/Code/corruptData``. Nesting (length-prefixed values inside length-prefixed
/// values) is limited to ``maximumNestingDepth`` levels, so that malicious input cannot
/// overflow the stack.
///
/// Generated decoders read Trove's tagged binary format from it, field by field; a coder of
/// another format takes its bytes with ``readRawBytes(count:)`` (see ``CodableCoder``). The
/// methods that read the tagged format (fields, varints, zigzag, fixed-width and length-delimited
/// values) exist for generated code and hand-written binary coders: they are SPI, visible with
/// `@_spi(TroveGenerated) import Trove`, which every generated file declares.
///
/// - Important: A reader borrows the memory it reads: it must not outlive the buffer it was
///   created with, and the buffers it returns (``readRawBytes(count:)``) are valid only as long
///   as that buffer.
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

    /// What the reader noticed while reading (``Flags/skippedTopLevelField``,
    /// ``Flags/skippedNestedField``) and how it reads (``Flags/probing``).
    @usableFromInline
    internal var flags: Flags

    /// Creates a reader of all the bytes of `buffer`.
    ///
    /// - Parameter buffer: The bytes to read. The reader must not outlive them.
    @inlinable
    public init(_ buffer: UnsafeRawBufferPointer) {
        self.init(buffer, depth: 0, flags: [])
    }

    /// Creates a reader at nesting depth `depth`.
    @inlinable
    internal init(_ buffer: UnsafeRawBufferPointer, depth: Int, flags: Flags) {
        self.buffer = buffer
        self.position = 0
        self.depth = depth
        self.flags = flags
    }

    /// Whether ``skip(_:)`` skipped a field of the outermost message: a field of the item (or
    /// metadata) that the decoder does not know, such as a field added by a newer version of the
    /// model.
    ///
    /// The typed read path reports it to the ``Database``, so that later writes to the same
    /// collection keep such fields (see <doc:SchemaEvolution>).
    @_spi(TroveGenerated)
    @inlinable
    public var hasSkippedTopLevelFields: Bool { flags.contains(.skippedTopLevelField) }

    /// Whether ``skip(_:)`` skipped any field, at any depth: what a read reports so that later
    /// writes to the collection keep the fields (for engines other than SQLite's).
    package var hasSkippedFields: Bool { !flags.isEmpty }

    /// Whether ``skip(_:)`` skipped a field of a nested message (a `@coded` value stored in a
    /// field), at any depth.
    ///
    /// A write cannot keep such fields: see ``TroveError/Code/nestedUnknownFields``.
    @_spi(TroveGenerated)
    @inlinable
    public var hasSkippedNestedFields: Bool { flags.contains(.skippedNestedField) }

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
    @_spi(TroveGenerated)
    @inlinable
    public func required<V>(_ value: V?, field name: String) throws -> V {
        guard let value else { throw TroveError.corruptData("required field is missing", field: name) }
        return value
    }
}

extension BinaryReader {
    /// The state bits of a reader: one byte, so that noticing a skipped field costs nothing on
    /// the paths that skip nothing.
    @usableFromInline
    internal struct Flags: OptionSet {
        @usableFromInline
        internal var rawValue: UInt8

        @inlinable
        internal init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// ``BinaryReader/skip(_:)`` skipped a field at depth 0.
        @inlinable
        internal static var skippedTopLevelField: Flags { Flags(rawValue: 1) }

        /// ``BinaryReader/skip(_:)`` skipped a field at a depth above 0 (here or in a nested
        /// reader, whose flags are merged into its parent's).
        @inlinable
        internal static var skippedNestedField: Flags { Flags(rawValue: 2) }

        /// The reader classifies stored fields for a write that keeps unknown fields: skipping a
        /// nested field throws ``TroveError/Code/nestedUnknownFields`` (see ``UnknownFields``).
        /// Nested readers inherit it.
        @inlinable
        internal static var probing: Flags { Flags(rawValue: 4) }
    }
}

// A reader points into memory that it does not own and that is valid only for the duration of
// a scope (a `withUnsafeBytes` closure, a SQLite column read). It must not cross to another
// task, which could read it after the scope ends.
@available(*, unavailable)
extension BinaryReader: Sendable {}
