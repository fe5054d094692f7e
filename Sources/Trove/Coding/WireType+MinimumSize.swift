extension WireType {
    /// The fewest bytes a value form of this wire type takes: 1 for a varint or a
    /// length-delimited value (its count), 4 and 8 for the fixed widths.
    ///
    /// Collections use it to reject an element count that the remaining bytes cannot hold
    /// before they allocate anything.
    @_spi(TroveGenerated)
    @inlinable
    public var minimumSize: Int {
        switch self {
        case .varint, .lengthDelimited: 1
        case .fixed32: 4
        case .fixed64: 8
        }
    }
}
