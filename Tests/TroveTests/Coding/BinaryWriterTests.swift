import Foundation
import Testing
@_spi(TroveGenerated) import Trove

struct BinaryWriterTests {
    @Test(arguments: [
        (0, [0x00]),
        (1, [0x01]),
        (127, [0x7F]),
        (128, [0x80, 0x01]),
        (300, [0xAC, 0x02]),
        (16_384, [0x80, 0x80, 0x01]),
        (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ] as [(UInt64, [UInt8])])
    func writesVarints(value: UInt64, expected: [UInt8]) throws {
        var writer = BinaryWriter()
        writer.writeVarint(value)
        #expect(writer.bytes == expected)
        try writer.bytes.withUnsafeBytes { (buffer) throws in
            var reader = BinaryReader(buffer)
            #expect(try reader.readVarint() == value)
            #expect(reader.isAtEnd)
        }
    }

    @Test(arguments: [
        (0, [0x00]),
        (-1, [0x01]),
        (1, [0x02]),
        (-2, [0x03]),
        (63, [0x7E]),
        (-64, [0x7F]),
        (64, [0x80, 0x01]),
        (Int64.max, [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
        (Int64.min, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ] as [(Int64, [UInt8])])
    func writesZigZag(value: Int64, expected: [UInt8]) throws {
        var writer = BinaryWriter()
        writer.writeZigZag(value)
        #expect(writer.bytes == expected)
        try writer.bytes.withUnsafeBytes { (buffer) throws in
            var reader = BinaryReader(buffer)
            #expect(try reader.readZigZag() == value)
        }
    }

    @Test func writesFixedWidthsLittleEndian() {
        var writer = BinaryWriter()
        writer.writeFixed32(0x0102_0304)
        writer.writeFixed64(0x0102_0304_0506_0708)
        #expect(writer.bytes == [4, 3, 2, 1, 8, 7, 6, 5, 4, 3, 2, 1])
    }

    @Test func writesStringsAndBytesLengthDelimited() {
        var writer = BinaryWriter()
        writer.writeString("hé")
        writer.writeString("")
        [UInt8]([9, 8]).withUnsafeBytes { writer.writeLengthDelimited($0) }
        [UInt8]([7]).withUnsafeBytes { writer.writeRawBytes($0) }
        #expect(writer.bytes == [3, 0x68, 0xC3, 0xA9, 0, 2, 9, 8, 7])
    }

    @Test func writesBridgedAndSubstringBackedStrings() throws {
        let original = "prefix-ünïcødé-suffix"
        let fromSubstring = String(original.dropFirst(7).dropLast(7))
        let fromNSString = NSString(string: original).description
        for string in [fromSubstring, fromNSString] {
            var writer = BinaryWriter()
            writer.writeString(string)
            #expect(try decodedValue(String.self, from: writer.bytes) == string)
        }
    }

    /// The length is reserved as one byte and moved when the body turns out longer.
    @Test(arguments: [0, 1, 127, 128, 16_383, 16_384, 100_000])
    func backpatchesLengthPrefix(bodyCount: Int) throws {
        var writer = BinaryWriter()
        writer.writeFixed32(0xDEAD_BEEF)
        writer.writeLengthPrefixed { writer in
            for index in 0..<bodyCount {
                withUnsafeBytes(of: UInt8(truncatingIfNeeded: index)) { writer.writeRawBytes($0) }
            }
        }
        var expected = BinaryWriter()
        expected.writeFixed32(0xDEAD_BEEF)
        expected.writeVarint(UInt64(bodyCount))
        let body = (0..<bodyCount).map { UInt8(truncatingIfNeeded: $0) }
        body.withUnsafeBytes { expected.writeRawBytes($0) }
        #expect(writer.bytes == expected.bytes)

        try writer.bytes.withUnsafeBytes { (buffer) throws in
            var reader = BinaryReader(buffer)
            #expect(try reader.readFixed32() == 0xDEAD_BEEF)
            let read = try reader.readLengthPrefixed { reader in
                try Array(reader.readRawBytes(count: reader.remainingCount))
            }
            #expect(read == body)
            #expect(reader.isAtEnd)
        }
    }

    @Test func nestedLengthPrefixesBackpatchIndependently() throws {
        let long = String(repeating: "x", count: 300)
        let value: [[String]] = [[long, "short"], [], [long]]
        try expectRoundTrip(value)
    }

    @Test func encodeIfPresentWritesNothingForNil() throws {
        var writer = BinaryWriter()
        try writer.encodeIfPresent(String?.none, field: 1)
        try writer.encodeIfPresent(LegacySettings?.none, field: 2)
        #expect(writer.bytes.isEmpty)
        try writer.encodeIfPresent("a" as String?, field: 1)
        #expect(writer.bytes == [0x0A, 0, 0, 0, 1, 0x61])
    }

    @Test func removeAllReusesTheWriter() throws {
        var writer = BinaryWriter(reservingCapacity: 16)
        try writer.encode("first", field: 1)
        #expect(writer.count == 10)
        writer.removeAll()
        #expect(writer.bytes.isEmpty)
        try writer.encode(7, field: 2)
        #expect(writer.bytes == [0x10, 0, 0, 0, 14])
    }

    @Test func writerIsSendable() async throws {
        var writer = BinaryWriter()
        try writer.encode("sent", field: 1)
        let copy = writer
        let bytes = await Task.detached { copy.bytes }.value
        #expect(bytes == writer.bytes)
    }

    // MARK: Storage

    @Test func copiesAreIndependent() {
        var original = BinaryWriter(reservingCapacity: 16)
        original.writeFixed32(0x0A0A_0A0A)
        var copy = original
        copy.writeVarint(0xB)
        original.writeVarint(0xC)
        var emptied = original
        emptied.removeAll()
        emptied.writeVarint(0xD)
        #expect(original.bytes == [0x0A, 0x0A, 0x0A, 0x0A, 0x0C])
        #expect(copy.bytes == [0x0A, 0x0A, 0x0A, 0x0A, 0x0B])
        #expect(emptied.bytes == [0x0D])
    }

    /// A copy taken while a length prefix is reserved keeps the reserved byte: the patch, short
    /// or long (which moves the body), goes to the writer only.
    @Test(arguments: [4, 200])
    func aCopyTakenInsideALengthPrefixIsLeftAlone(bodyCount: Int) {
        var writer = BinaryWriter()
        var copy = BinaryWriter()
        let body = [UInt8](repeating: 0xEE, count: bodyCount)
        writer.writeLengthPrefixed { writer in
            body.withUnsafeBytes { writer.writeRawBytes($0) }
            copy = writer
        }
        #expect(copy.bytes == [0] + body)
        var expected = BinaryWriter()
        expected.writeVarint(UInt64(bodyCount))
        body.withUnsafeBytes { expected.writeRawBytes($0) }
        #expect(writer.bytes == expected.bytes)
    }

    /// Many values of every form, from the smallest storage: each write may move the bytes.
    @Test func writesAcrossManyReallocations() throws {
        var writer = BinaryWriter(reservingCapacity: 0)
        for index in 0..<2_000 {
            writer.writeVarint(UInt64(index) &* 0x9E37_79B9)
            writer.writeFixed32(UInt32(index))
            writer.writeString(String(repeating: "é", count: index % 70))
            writer.writeLengthPrefixed { $0.writeFixed64(UInt64(index)) }
        }
        #expect(writer.withUnsafeBytes { Array($0) } == writer.bytes)
        try writer.withUnsafeBytes { (buffer) throws in
            var reader = BinaryReader(buffer)
            for index in 0..<2_000 {
                #expect(try reader.readVarint() == UInt64(index) &* 0x9E37_79B9)
                #expect(try reader.readFixed32() == UInt32(index))
                #expect(try reader.readString() == String(repeating: "é", count: index % 70))
                #expect(try reader.readLengthPrefixed { try $0.readFixed64() } == UInt64(index))
            }
            #expect(reader.isAtEnd)
        }
    }
}
