/// The numbers of fields in Trove's binary format, derived from the fields' names.
///
/// A field is identified on disk by a 29-bit number: the FNV-1a 32-bit hash of the UTF-8 bytes
/// of its name, shifted right by 3 bits. Nobody writes field numbers by hand: trove-gen computes
/// them from the property names and emits them as hexadecimal literals, and a renamed property
/// keeps reading its old data through `@renamed(from:)`, which adds the number of the old name.
///
/// ```swift
/// FieldNumber.of("name")  // 0x11A7_37BC, the same on every platform and in every version
/// ```
///
/// - Important: The function is part of the stored format. Changing it makes every stored item
///   unreadable. Two names of one type whose numbers collide must be rejected by the generator.
///
/// `FieldNumber` has no values (a namespace), so it declares no `Sendable` conformance.
@_spi(TroveGenerated)
public enum FieldNumber {
    /// The largest field number: numbers have 29 bits, because the tag keeps 3 bits for the
    /// wire type.
    public static let maximum: UInt32 = (1 << 29) - 1

    /// Returns the field number of a field name.
    ///
    /// - Parameter name: The name of the field, as declared in Swift.
    /// - Returns: The FNV-1a 32-bit hash of the UTF-8 bytes of `name`, shifted right by 3 bits;
    ///   always at most ``maximum``.
    ///
    /// Complexity: O(*n*), where *n* is the number of UTF-8 bytes of `name`.
    public static func of(_ name: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in name.utf8 {
            hash ^= UInt32(byte)
            hash &*= 0x0100_0193
        }
        return hash >> 3
    }

    /// The one spelling of a field number wherever Trove shows one: a Swift hexadecimal literal
    /// with an underscore between its halves, `0x11A7_37BC`, as generated code writes it (the
    /// generator has its own copy of this function), so that a number shown by the `trove`
    /// command can be found in the generated code.
    ///
    /// - Parameter number: A field number.
    /// - Returns: Its literal.
    package static func literal(_ number: UInt32) -> String {
        var digits = String(number, radix: 16, uppercase: true)
        digits = String(repeating: "0", count: max(0, 8 - digits.count)) + digits
        return "0x\(digits.prefix(4))_\(digits.suffix(4))"
    }
}
