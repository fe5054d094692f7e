import Foundation
import Testing
import Trove

struct BinaryCodableRoundTripTests {
    @Test func booleans() throws {
        try expectRoundTrip(true)
        try expectRoundTrip(false)
        #expect(try encodedValue(true) == [1])
    }

    @Test func signedIntegers() throws {
        for value in [Int.min, -1, 0, 1, Int.max] { try expectRoundTrip(value) }
        for value in [Int8.min, -1, 0, Int8.max] { try expectRoundTrip(value) }
        for value in [Int16.min, -1, 0, Int16.max] { try expectRoundTrip(value) }
        for value in [Int32.min, -1, 0, Int32.max] { try expectRoundTrip(value) }
        for value in [Int64.min, -1, 0, 1, Int64.max] { try expectRoundTrip(value) }
    }

    @Test func unsignedIntegers() throws {
        for value in [UInt.min, 1, UInt.max] { try expectRoundTrip(value) }
        for value in [UInt8.min, 128, UInt8.max] { try expectRoundTrip(value) }
        for value in [UInt16.min, 300, UInt16.max] { try expectRoundTrip(value) }
        for value in [UInt32.min, 1 << 31, UInt32.max] { try expectRoundTrip(value) }
        for value in [UInt64.min, 1 << 63, UInt64.max] { try expectRoundTrip(value) }
    }

    @Test func integersWidenWithoutLoss() throws {
        #expect(try decodedValue(Int.self, from: encodedValue(Int32.min)) == Int(Int32.min))
        #expect(try decodedValue(UInt64.self, from: encodedValue(UInt8.max)) == 255)
        let error = expectTroveError { _ = try decodedValue(Int8.self, from: encodedValue(Int16(128))) }
        #expect(error?.message.contains("128 is out of range for Int8") == true)
        expectTroveError { _ = try decodedValue(UInt32.self, from: encodedValue(UInt64.max)) }
    }

    @Test func floatingPointBitPatterns() throws {
        for value in [0.0, -0.0, 1.5, -.pi, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude] {
            try expectRoundTrip(value)
        }
        for value: Float in [0, -0.0, 3.25, .infinity, .leastNonzeroMagnitude] { try expectRoundTrip(value) }
        #expect(try decodedValue(Double.self, from: encodedValue(-0.0)).sign == .minus)

        let payloadNaN = Double(nan: 0x1234, signaling: true)
        let decoded = try decodedValue(Double.self, from: encodedValue(payloadNaN))
        #expect(decoded.bitPattern == payloadNaN.bitPattern)
        let floatNaN = -Float(nan: 7, signaling: false)
        #expect(try decodedValue(Float.self, from: encodedValue(floatNaN)).bitPattern == floatNaN.bitPattern)
    }

    @Test func strings() throws {
        for value in ["", "a", "grüße", "世界", "🌍👩‍👩‍👧", "nul\u{0}inside", String(repeating: "long ", count: 1000)] {
            try expectRoundTrip(value)
        }
    }

    @Test func foundationValues() throws {
        try expectRoundTrip(Data())
        try expectRoundTrip(Data((0...255).map { UInt8($0) }))
        try expectRoundTrip(UUID())
        #expect(try encodedValue(UUID()).count == 17)
        for interval in [0, -1e12, 1e12, 0.000_001, 755_566_400.123_456_789] {
            try expectRoundTrip(Date(timeIntervalSinceReferenceDate: interval))
        }
        try expectRoundTrip(Date.distantPast)
        try expectRoundTrip(Date.distantFuture)
        for string in ["https://example.com/", "file:///tmp/a%20b", "mailto:a@b.c", "urn:isbn:0451450523"] {
            try expectRoundTrip(try #require(URL(string: string)))
        }
    }

    @Test func relativeURLsAreStoredResolved() throws {
        let base = try #require(URL(string: "https://example.com/dir/"))
        let relative = try #require(URL(string: "page?x=1", relativeTo: base))
        let decoded = try decodedValue(URL.self, from: encodedValue(relative))
        #expect(decoded.absoluteString == "https://example.com/dir/page?x=1")
    }

    @Test(arguments: [
        "0", "1", "-1", "1.5", "-0.00003", "123456789012345678901234567890.12345678",
        "3402823669209384634633746074317682114550000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
    ])
    func decimals(string: String) throws {
        try expectRoundTrip(try #require(Decimal(string: string, locale: nil)))
    }

    @Test func decimalExtremes() throws {
        for value in [Decimal.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastFiniteMagnitude] {
            try expectRoundTrip(value)
        }
        #expect(try decodedValue(Decimal.self, from: encodedValue(Decimal.nan)).isNaN)
        // Trailing zeros are not kept, but the value is equal.
        try expectRoundTrip(try #require(Decimal(string: "1.500", locale: nil)))
    }

    @Test func optionalsInsideCollections() throws {
        try expectRoundTrip([1, nil, 3, nil] as [Int?])
        try expectRoundTrip([nil] as [String?])
        try expectRoundTrip(["a": nil, "b": Date(timeIntervalSinceReferenceDate: 1)] as [String: Date?])
        try expectRoundTrip([[nil], nil, [1]] as [[Int?]?])
        try expectRoundTrip(Int??.some(.none))
        #expect(try encodedValue(Int?.none) == [1, 0])
        #expect(try encodedValue(Int?.some(-1)) == [2, 1, 1])
    }

    @Test func collections() throws {
        try expectRoundTrip([Int]())
        try expectRoundTrip([Int64.min, 0, Int64.max])
        try expectRoundTrip([[1.5], [], [2, 3]] as [[Double]])
        try expectRoundTrip(Set(["a", "b", "c"]))
        try expectRoundTrip(Set<UUID>())
        try expectRoundTrip(["": 0, "one": 1] as [String: Int])
        try expectRoundTrip([1: ["x": [true]]] as [Int: [String: [Bool]]])
        try expectRoundTrip([UInt8](repeating: 200, count: 1000))
        #expect(try encodedValue([1, 2] as [Int]) == [3, 2, 2, 4])
    }

    @Test func rawValueEnumerations() throws {
        try expectRoundTrip(Color.red)
        try expectRoundTrip(Mood.grumpy)
        #expect(try encodedValue(Color.green) == [4])
        #expect(Color.wireType == .varint && Mood.wireType == .lengthDelimited)
    }

    @Test func messagesAndEnumerationsWithAssociatedValues() throws {
        try expectRoundTrip(Address(street: "", city: "Zürich", zip: -1))
        for shape: Shape in [.circle(radius: .pi), .rectangle(width: 0, height: -1), .empty] {
            try expectRoundTrip(shape)
            #expect(try decodedMessage(Shape.self, from: encodedMessage(shape)) == shape)
        }
        try expectRoundTrip(Node.chain(depth: 10))
    }

    @Test func everythingTogether() throws {
        let value = Everything()
        let bytes = try encodedMessage(value)
        #expect(try decodedMessage(Everything.self, from: bytes) == value)
        try expectRoundTrip(value)

        var sparse = Everything()
        sparse.nickname = nil
        #expect(try decodedMessage(Everything.self, from: encodedMessage(sparse)) == sparse)
    }

    @Test func encodingIsDeterministicForOrderedValues() throws {
        let address = Address(street: "a", city: "b", zip: 3)
        #expect(try encodedMessage(address) == encodedMessage(address))
    }
}
