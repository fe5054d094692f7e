import Testing
@_spi(TroveGenerated) import Trove

struct BinaryReaderTests {
    @Test func emptyBufferReadsNothing() throws {
        var reader = BinaryReader(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(reader.isAtEnd && reader.remainingCount == 0)
        #expect(try reader.nextField() == nil)
        #expect(try reader.readRawBytes(count: 0).isEmpty)
        let error = expectTroveError { _ = try reader.readVarint() }
        #expect(error?.message.contains("truncated") == true)
        expectTroveError { _ = try reader.readFixed32() }
        expectTroveError { _ = try reader.readFixed64() }
        expectTroveError { _ = try reader.readString() }
        expectTroveError { _ = try reader.readLengthPrefixed { _ in 0 } }
    }

    @Test(arguments: [3, 4, 6, 7] as [UInt8])
    func unknownWireTypesThrow(rawWireType: UInt8) throws {
        let bytes: [UInt8] = [0x08 | rawWireType, 0, 0, 0, 0]
        let error = expectTroveError {
            try bytes.withUnsafeBytes { (buffer) throws in
                var reader = BinaryReader(buffer)
                _ = try reader.nextField()
            }
        }
        #expect(error?.message.contains("unknown wire type \(rawWireType)") == true)
    }

    @Test func partialTagThrows() throws {
        for count in 1...3 {
            expectTroveError {
                try [UInt8](repeating: 0, count: count).withUnsafeBytes { (buffer) throws in
                    var reader = BinaryReader(buffer)
                    _ = try reader.nextField()
                }
            }
        }
    }

    @Test func skipChecksBounds() throws {
        let headers: [(FieldHeader, [UInt8])] = [
            (FieldHeader(number: 1, wireType: .varint), [0x80]),
            (FieldHeader(number: 1, wireType: .fixed32), [1, 2, 3]),
            (FieldHeader(number: 1, wireType: .fixed64), [1, 2, 3, 4, 5, 6, 7]),
            (FieldHeader(number: 1, wireType: .lengthDelimited), [5, 1, 2]),
        ]
        for (header, bytes) in headers {
            expectTroveError {
                try bytes.withUnsafeBytes { (buffer) throws in
                    var reader = BinaryReader(buffer)
                    try reader.skip(header)
                }
            }
        }
    }

    @Test func rawReadsRejectBadCounts() throws {
        try [UInt8]([1, 2, 3]).withUnsafeBytes { (buffer) throws in
            var reader = BinaryReader(buffer)
            expectTroveError { _ = try reader.readRawBytes(count: -1) }
            expectTroveError { _ = try reader.readRawBytes(count: 4) }
            #expect(Array(try reader.readRawBytes(count: 2)) == [1, 2])
            #expect(reader.remainingCount == 1)
        }
        try [UInt8]([200, 1, 0]).withUnsafeBytes { (buffer) throws in
            var reader = BinaryReader(buffer)
            // A minimum element size below 1 counts as 1 instead of dividing by zero.
            expectTroveError { _ = try reader.readCount(bytesPerElement: 0) }
        }
    }

    @Test func lengthPrefixedBodyMustReadEverything() throws {
        try [UInt8]([2, 7, 8]).withUnsafeBytes { (buffer) throws in
            var reader = BinaryReader(buffer)
            let error = expectTroveError { _ = try reader.readLengthPrefixed { try $0.readVarint() } }
            #expect(error?.message.contains("1 bytes left unread") == true)
        }
    }

    @Test func decodeMessageChecksTheWireType() throws {
        try [UInt8]([5]).withUnsafeBytes { (buffer) throws in
            var reader = BinaryReader(buffer)
            let header = FieldHeader(number: 3, wireType: .varint)
            let error = expectTroveError { _ = try reader.decodeMessage(from: header, field: "shape") { _ in 0 } }
            #expect(error?.field == "shape")
        }
    }

    @Test func requiredNamesTheMissingField() throws {
        let reader = BinaryReader(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(try reader.required(3, field: "x") == 3)
        let error = expectTroveError { _ = try reader.required(Int?.none, field: "userID") }
        #expect(error?.field == "userID")
        #expect(error?.message.contains("required field is missing") == true)
    }

    @Test func minimumSizesOfWireTypes() {
        #expect(WireType.varint.minimumSize == 1)
        #expect(WireType.lengthDelimited.minimumSize == 1)
        #expect(WireType.fixed32.minimumSize == 4)
        #expect(WireType.fixed64.minimumSize == 8)
    }

    /// Strings are checked 8, 4 or 1 bytes at a time depending on their length: a bad byte is
    /// found at every position of every length, and valid non-ASCII is read back.
    @Test func stringsAreValidatedAtEveryPositionOfEveryLength() throws {
        func read(_ utf8: [UInt8]) throws -> String {
            var writer = BinaryWriter()
            utf8.withUnsafeBytes { writer.writeLengthDelimited($0) }
            return try writer.withUnsafeBytes { (buffer) throws in
                var reader = BinaryReader(buffer)
                return try reader.readString()
            }
        }
        for length in 0...40 {
            let ascii = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(try read(ascii) == String(repeating: "a", count: length))
            for position in 0..<length {
                var invalid = ascii
                invalid[position] = 0xFF
                expectTroveError { _ = try read(invalid) }
                if position + 1 < length {
                    var valid = ascii
                    valid[position] = 0xC3  // é
                    valid[position + 1] = 0xA9
                    #expect(try read(valid) == String(decoding: valid, as: UTF8.self))
                }
            }
        }
    }
}
