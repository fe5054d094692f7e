/// The wire type of an encoded field: how many bytes follow its tag, so that a decoder can skip
/// a field it does not know.
///
/// Trove's binary format is a sequence of fields. Each field starts with a 4-byte little-endian
/// tag, `fieldNumber << 3 | wireType`, followed by the value in its self-delimiting form.
public enum WireType: UInt8, Sendable, Hashable {
    /// A base-128 varint: booleans, unsigned integers, and zigzag-encoded signed integers.
    case varint = 0
    /// Eight little-endian bytes: `Double`, `Date`.
    case fixed64 = 1
    /// A varint byte count followed by that many bytes: strings, data, nested messages, collections.
    case lengthDelimited = 2
    /// Four little-endian bytes: `Float`.
    case fixed32 = 5
}
