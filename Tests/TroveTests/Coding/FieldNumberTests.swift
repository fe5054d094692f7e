import Testing
@_spi(TroveGenerated) import Trove

struct FieldNumberTests {
    /// The numbers of `KnownFieldNumbers.swift`, the table the generator's tests hold the
    /// generator to as well. trove-gen emits these numbers as literals: they must never change.
    @Test func matchesTheKnownNumbers() {
        for (name, number) in knownFieldNumbers {
            #expect(FieldNumber.literal(FieldNumber.of(name)) == FieldNumber.literal(number), "field \"\(name)\"")
        }
    }

    @Test func fitsIn29Bits() {
        for name in ["", "x", "a much longer field name than anyone would write", "🌍🌍🌍"] {
            #expect(FieldNumber.of(name) <= FieldNumber.maximum)
        }
        #expect(FieldNumber.maximum == 0x1FFF_FFFF)
    }

    /// The one spelling of a field number, which the `trove` command shows: the literal that
    /// generated code carries (the generator's tests hold its copy to the same strings).
    @Test func literalIsTheGeneratedSpelling() {
        #expect(FieldNumber.literal(0x11A7_37BC) == "0x11A7_37BC")
        #expect(FieldNumber.literal(0x5) == "0x0000_0005")
        #expect(FieldNumber.literal(FieldNumber.maximum) == "0x1FFF_FFFF")
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
