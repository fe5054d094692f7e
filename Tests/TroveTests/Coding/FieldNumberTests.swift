import Testing
import Trove

struct FieldNumberTests {
    /// Values computed independently (FNV-1a 32-bit of the UTF-8 bytes, shifted right by 3).
    /// trove-gen emits these numbers as literals: they must never change.
    @Test(arguments: [
        ("", 0x1023_93B8 as UInt32),
        ("a", 0x1C81_8525),
        ("name", 0x11A7_37BC),
        ("id", 0x06E7_0D5C),
        ("userID", 0x063F_3347),
        ("email", 0x1150_EA78),
        ("foobar", 0x17F3_9F2D),
        ("café", 0x1505_6A09),
    ])
    func matchesFixedValues(name: String, expected: UInt32) {
        #expect(FieldNumber.of(name) == expected)
    }

    @Test func fitsIn29Bits() {
        for name in ["", "x", "a much longer field name than anyone would write", "🌍🌍🌍"] {
            #expect(FieldNumber.of(name) <= FieldNumber.maximum)
        }
        #expect(FieldNumber.maximum == 0x1FFF_FFFF)
    }

    @Test func tagCarriesNumberAndWireType() throws {
        var writer = BinaryWriter()
        writer.writeTag(number: FieldNumber.of("name"), wireType: .lengthDelimited)
        // 0x11A737BC << 3 | 2 = 0x8D39BDE2, little-endian.
        #expect(writer.bytes == [0xE2, 0xBD, 0x39, 0x8D])
        try writer.bytes.withUnsafeBytes { (buffer) throws in
            var reader = BinaryReader(buffer)
            #expect(try reader.nextField() == FieldHeader(number: 0x11A7_37BC, wireType: .lengthDelimited))
            #expect(try reader.nextField() == nil)
        }
    }
}
