import Testing
@_spi(TroveGenerated) import Trove

/// Encodes the value form of `value`, without a tag.
func encodedValue<V: BinaryCodable>(_ value: V) throws -> [UInt8] {
    var writer = BinaryWriter()
    try V.encodeValue(value, to: &writer)
    return writer.bytes
}

/// Decodes one value form from all of `bytes`; bytes left over are an error.
func decodedValue<V: BinaryCodable>(_ type: V.Type, from bytes: [UInt8]) throws -> V {
    try bytes.withUnsafeBytes { (buffer) throws in
        var reader = BinaryReader(buffer)
        let value = try V.decodeValue(from: &reader)
        guard reader.isAtEnd else { throw TroveError.corruptData("\(reader.remainingCount) bytes left over") }
        return value
    }
}

/// Encodes `value` as a top-level message.
func encodedMessage<V: BinaryMessage>(_ value: V) throws -> [UInt8] {
    var writer = BinaryWriter()
    try MessageCoder<V>.encode(value, to: &writer)
    return writer.bytes
}

/// Decodes a top-level message from all of `bytes`.
func decodedMessage<V: BinaryMessage>(_ type: V.Type, from bytes: [UInt8]) throws -> V {
    try bytes.withUnsafeBytes { (buffer) throws in
        var reader = BinaryReader(buffer)
        return try MessageCoder<V>.decode(from: &reader)
    }
}

/// Round-trips `value` both as a bare value form and as field 42 of a message, and checks that
/// both give back an equal value.
func expectRoundTrip<V: BinaryCodable & Equatable>(
    _ value: V, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let bytes = try encodedValue(value)
    #expect(try decodedValue(V.self, from: bytes) == value, sourceLocation: sourceLocation)

    var writer = BinaryWriter()
    try writer.encode(value, field: 42)
    let field = writer.bytes
    let decoded = try field.withUnsafeBytes { (buffer) throws in
        var reader = BinaryReader(buffer)
        let header = try #require(try reader.nextField(), sourceLocation: sourceLocation)
        #expect(header == FieldHeader(number: 42, wireType: V.wireType), sourceLocation: sourceLocation)
        let value = try reader.decode(V.self, from: header, field: "value")
        #expect(try reader.nextField() == nil, sourceLocation: sourceLocation)
        return value
    }
    #expect(decoded == value, sourceLocation: sourceLocation)
}

/// Runs `body` and returns the ``TroveError`` it throws, recording an issue when it throws
/// something else or nothing.
@discardableResult
func expectTroveError(
    _ code: TroveError.Code = .corruptData, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> TroveError? {
    do {
        try body()
        Issue.record("expected a TroveError with code \(code), nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as TroveError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a TroveError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A small, fast, seeded pseudo-random generator (SplitMix64), so that the fuzz loops are
/// reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
