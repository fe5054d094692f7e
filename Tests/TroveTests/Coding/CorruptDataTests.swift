import Foundation
import Testing
@_spi(TroveGenerated) import Trove

struct CorruptDataTests {
    @Test func truncatedAtEveryLengthThrows() throws {
        let bytes = try encodedMessage(Everything())
        for length in 0..<bytes.count {
            expectTroveError { _ = try decodedMessage(Everything.self, from: Array(bytes[..<length])) }
        }
    }

    @Test func truncatedValueFormsThrow() throws {
        try expectEveryPrefixThrows("hello")
        try expectEveryPrefixThrows([1, 2, 3] as [Int])
        try expectEveryPrefixThrows(UUID())
        try expectEveryPrefixThrows(Double.pi)
        try expectEveryPrefixThrows(Float.pi)
        try expectEveryPrefixThrows(Int64.min)
        try expectEveryPrefixThrows(Date())
        try expectEveryPrefixThrows(Decimal.pi)
        try expectEveryPrefixThrows(["a": [nil, 1]] as [String: [Int?]])
        try expectEveryPrefixThrows(Set([1.5, 2.5]))
        try expectEveryPrefixThrows(Address(street: "s", city: "c", zip: 9))
    }

    private func expectEveryPrefixThrows<V: BinaryCodable>(
        _ value: V, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let bytes = try encodedValue(value)
        for length in 0..<bytes.count {
            expectTroveError(sourceLocation: sourceLocation) {
                _ = try decodedValue(V.self, from: Array(bytes[..<length]))
            }
        }
    }

    @Test func garbageAfterTheMessageThrows() throws {
        let bytes = try encodedMessage(Address(street: "a", city: "b", zip: 1))
        expectTroveError { _ = try decodedMessage(Address.self, from: bytes + [0x01]) }
        expectTroveError { _ = try decodedMessage(Address.self, from: bytes + [0x01, 0x02, 0x03]) }
        let error = expectTroveError { _ = try decodedMessage(Address.self, from: bytes + [0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(error?.message.contains("unknown wire type 7") == true)
        // A value form followed by junk inside its length prefix.
        expectTroveError { _ = try decodedValue([Int].self, from: [3, 1, 2, 9]) }
        expectTroveError { _ = try decodedValue(Int?.self, from: [3, 0, 5, 5]) }
    }

    @Test func wrongWireTypeNamesTheFieldAndBothWireTypes() throws {
        var writer = BinaryWriter()
        try writer.encode("not a number", field: FieldNumber.of("zip"))
        try writer.encode("s", field: FieldNumber.of("street"))
        try writer.encode("c", field: FieldNumber.of("city"))
        let error = expectTroveError { _ = try decodedMessage(Address.self, from: writer.bytes) }
        #expect(error?.field == "zip")
        #expect(error?.message.contains("lengthDelimited") == true)
        #expect(error?.message.contains("varint") == true)
    }

    @Test func nestedErrorsNameThePath() throws {
        var writer = BinaryWriter()
        try writer.encodeMessage(field: FieldNumber.of("address")) { writer in
            try writer.encode("s", field: FieldNumber.of("street"))
            try writer.encode(Int32(1), field: FieldNumber.of("zip"))
        }
        let bytes = writer.bytes
        let error = expectTroveError {
            _ = try bytes.withUnsafeBytes { (buffer) throws in
                var reader = BinaryReader(buffer)
                let header = try #require(try reader.nextField())
                return try reader.decode(Address.self, from: header, field: "address")
            }
        }
        #expect(error?.field == "address.city")

        let shapes: [UInt8] = try {
            var writer = BinaryWriter()
            try writer.encode([Shape.empty, .circle(radius: 1)], field: 9)
            return writer.bytes
        }()
        var corrupted = shapes
        // Turn the radius's fixed64 wire type into varint: the last 8 bytes are the radius.
        corrupted[corrupted.count - 12] = (corrupted[corrupted.count - 12] & ~7)
        let shapesError = expectTroveError {
            _ = try corrupted.withUnsafeBytes { (buffer) throws in
                var reader = BinaryReader(buffer)
                let header = try #require(try reader.nextField())
                return try reader.decode([Shape].self, from: header, field: "shapes")
            }
        }
        #expect(shapesError?.field?.hasPrefix("shapes[1].circle") == true)
    }

    @Test func rawValueNotInTheEnumerationThrows() throws {
        let error = expectTroveError { _ = try decodedValue(Color.self, from: encodedValue(7)) }
        #expect(error?.message.contains("7 is not a raw value of Color") == true)
        let moodError = expectTroveError { _ = try decodedValue(Mood.self, from: encodedValue("sleepy")) }
        #expect(moodError?.message.contains("\"sleepy\" is not a raw value of Mood") == true)
    }

    @Test func overlongVarintThrows() {
        expectTroveError { _ = try decodedValue(UInt64.self, from: [UInt8](repeating: 0x80, count: 10) + [0x00]) }
        expectTroveError { _ = try decodedValue(UInt64.self, from: [UInt8](repeating: 0xFF, count: 9) + [0x02]) }
        expectTroveError { _ = try decodedValue(UInt64.self, from: [UInt8](repeating: 0xFF, count: 20)) }
        expectTroveError { _ = try decodedValue(Bool.self, from: [2]) }
    }

    @Test func hugeCountsThrowBeforeAllocating() {
        let maxVarint: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        // A length prefix larger than the buffer.
        expectTroveError { _ = try decodedValue([Int].self, from: maxVarint) }
        expectTroveError { _ = try decodedValue(String.self, from: maxVarint + [0x61]) }
        // A valid length prefix around an element count larger than the remaining bytes.
        let hugeCount: [UInt8] = [UInt8(maxVarint.count + 1)] + maxVarint + [0x01]
        expectTroveError { _ = try decodedValue([Int].self, from: hugeCount) }
        expectTroveError { _ = try decodedValue(Set<Int>.self, from: hugeCount) }
        expectTroveError { _ = try decodedValue([Int: Int].self, from: hugeCount) }
        // Three Doubles need 24 bytes, not 3.
        expectTroveError { _ = try decodedValue([Double].self, from: [4, 3, 0, 0, 0]) }
        expectTroveError { _ = try decodedValue([Int: Int].self, from: [3, 2, 0, 0]) }
    }

    @Test func duplicatesInSetsAndDictionariesThrow() {
        expectTroveError { _ = try decodedValue(Set<Int>.self, from: [3, 2, 2, 2]) }
        expectTroveError { _ = try decodedValue([Int: Int].self, from: [5, 2, 2, 0, 2, 4]) }
    }

    @Test func invalidUTF8Throws() throws {
        for bytes: [UInt8] in [[0xC3, 0x28], [0xFF], [0xED, 0xA0, 0x80], [0x61, 0xE2, 0x82]] {
            let error = expectTroveError { _ = try decodedValue(String.self, from: [UInt8(bytes.count)] + bytes) }
            #expect(error?.message.contains("UTF-8") == true)
        }
    }

    @Test func invalidFoundationValuesThrow() throws {
        expectTroveError { _ = try decodedValue(UUID.self, from: [2, 1, 2]) }
        expectTroveError { _ = try decodedValue(URL.self, from: encodedValue("")) }
        for string in ["1.5abc", "", "1,5", " 1", "--1", "1e5", "nan"] {
            expectTroveError { _ = try decodedValue(Decimal.self, from: encodedValue(string)) }
        }
    }

    @Test func nestingBeyondTheLimitThrows() throws {
        // Each node nests two length-delimited values: its children array and the child itself.
        let shallow = Node.chain(depth: BinaryReader.maximumNestingDepth / 2 - 1)
        #expect(try decodedMessage(Node.self, from: encodedMessage(shallow)) == shallow)

        let deep = Node.chain(depth: BinaryReader.maximumNestingDepth)
        let error = expectTroveError { _ = try decodedMessage(Node.self, from: encodedMessage(deep)) }
        #expect(error?.message.contains("nested more than") == true)

        // Hand-made bytes: a million nested optionals must throw, not overflow the stack.
        var bytes: [UInt8] = [0]
        for _ in 0..<1000 {
            var writer = BinaryWriter()
            writer.writeVarint(UInt64(bytes.count + 1))
            bytes = writer.bytes + [1] + bytes
        }
        expectTroveError { _ = try decodedValue(Int??.self, from: bytes) }
    }

    /// Flips bits, drops, inserts and overwrites bytes of real encodings: decoding must throw
    /// only TroveError (or succeed), and never trap.
    @Test func randomCorruptionNeverTraps() throws {
        var random = SplitMix64(seed: 0x7207E)
        let samples: [[UInt8]] = try [
            encodedMessage(Everything()),
            encodedMessage(Node.chain(depth: 5)),
            encodedMessage(Shape.rectangle(width: 1, height: 2)),
        ]
        var failures = 0
        var successes = 0
        for iteration in 0..<6000 {
            var bytes = samples[iteration % samples.count]
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch random.next() % 4 {
                case 0: bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
                case 1: bytes[index] = UInt8.random(in: 0...255, using: &random)
                case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
                default: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...4, using: &random)))
                }
                if bytes.isEmpty { bytes = [0] }
            }
            do {
                switch iteration % samples.count {
                case 0: _ = try decodedMessage(Everything.self, from: bytes)
                case 1: _ = try decodedMessage(Node.self, from: bytes)
                default: _ = try decodedMessage(Shape.self, from: bytes)
                }
                successes += 1
            } catch is TroveError {
                failures += 1
            } catch {
                Issue.record("iteration \(iteration) threw \(type(of: error)): \(error)")
            }
        }
        #expect(failures > 5000)
        #expect(failures + successes == 6000)
    }
}
