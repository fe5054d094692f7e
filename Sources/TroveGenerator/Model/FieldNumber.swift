/// The field numbers of Trove's binary format: the generator's copy of the runtime's
/// `FieldNumber.of(_:)`, so that generated code carries the numbers as literals.
///
/// - Important: This must equal the runtime's function bit for bit; the consumer tests check
///   it against the runtime.
package enum FieldNumber {
    /// The FNV-1a 32-bit hash of the UTF-8 bytes of `name`, shifted right by 3 bits.
    ///
    /// - Parameter name: A field name.
    /// - Returns: Its 29-bit field number.
    package static func of(_ name: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in name.utf8 {
            hash ^= UInt32(byte)
            hash &*= 0x0100_0193
        }
        return hash >> 3
    }

    /// The number as a Swift hexadecimal literal with an underscore between its halves:
    /// `0x11A7_37BC`.
    ///
    /// - Parameter number: A field number.
    /// - Returns: Its literal.
    package static func literal(_ number: UInt32) -> String {
        var digits = String(number, radix: 16, uppercase: true)
        digits = String(repeating: "0", count: max(0, 8 - digits.count)) + digits
        return "0x\(digits.prefix(4))_\(digits.suffix(4))"
    }
}
