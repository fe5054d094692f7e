/// The tag of one encoded field: which field it is, and how its value is delimited.
///
/// ``BinaryReader/nextField()`` returns one header per field. Generated decoders switch on
/// ``number`` and hand the header to `BinaryReader.decode(_:from:field:)` or
/// ``BinaryReader/skip(_:)``.
///
/// `FieldHeader` is `Sendable`: it holds two plain values.
@_spi(TroveGenerated)
public struct FieldHeader: Sendable, Hashable {
    /// The number of the field (see ``FieldNumber/of(_:)``).
    public let number: UInt32
    /// How the value that follows the tag is delimited.
    public let wireType: WireType

    /// Creates a header.
    ///
    /// - Parameters:
    ///   - number: The number of the field, at most ``FieldNumber/maximum``.
    ///   - wireType: How the value that follows the tag is delimited.
    @inlinable
    public init(number: UInt32, wireType: WireType) {
        self.number = number
        self.wireType = wireType
    }
}
