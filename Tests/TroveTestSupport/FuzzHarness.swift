import Foundation
import Trove

/// The decoders that `trove-fuzz` (libFuzzer) and the seeded mutation tests feed with bad
/// bytes. The first byte of an input picks the decoder; the rest is what it decodes.
///
/// The contract under test: whatever the bytes, a decoder returns a value (which then encodes
/// again) or throws a ``TroveError`` of code `corruptData`. Anything else stops the program,
/// which is how libFuzzer learns of a failure.
public enum FuzzHarness {
    private static let decoders: [(name: String, decode: @Sendable (UnsafeRawBufferPointer) throws -> Void)] = [
        ("Profile", { try roundTrip(MessageCoder<Profile>.self, $0) }),
        ("ProfileStats", { try roundTrip(MessageCoder<ProfileStats>.self, $0) }),
        ("PostalAddress", { try roundTrip(MessageCoder<PostalAddress>.self, $0) }),
        ("Outline", { try roundTrip(MessageCoder<Outline>.self, $0) }),
        ("CrashItem", { try roundTrip(MessageCoder<CrashItem>.self, $0) }),
        ("CrashStamp", { try roundTrip(MessageCoder<CrashStamp>.self, $0) }),
        ("Memo (Codable)", { try roundTrip(CodableCoder<Memo>.self, $0) }),
        (
            "[String: [Int?]] value form",
            { buffer in
                var reader = BinaryReader(buffer)
                _ = try [String: [Int?]].decodeValue(from: &reader)
            }
        ),
    ]

    /// The number of decoders: the first byte of an input, modulo this count, picks one.
    public static var decoderCount: Int { decoders.count }

    /// Decodes `input` with the decoder its first byte picks.
    ///
    /// - Returns: Whether the bytes decoded; `false` when they were rejected as corrupt.
    @discardableResult
    public static func run(_ input: UnsafeRawBufferPointer) -> Bool {
        guard let first = input.first else { return false }
        let decoder = decoders[Int(first) % decoders.count]
        do {
            try decoder.decode(UnsafeRawBufferPointer(rebasing: input.dropFirst()))
            return true
        } catch let error as TroveError where error.code == .corruptData {
            return false
        } catch {
            fatalError("\(decoder.name) threw \(type(of: error)), not a corruptData TroveError: \(error)")
        }
    }

    /// Real encodings of the test models, each prefixed by the byte of its decoder: the seeds
    /// that fuzzing mutates.
    public static func seedCorpus() throws -> [[UInt8]] {
        var random = SeededGenerator(seed: 1)
        var corpus: [[UInt8]] = []
        func add<C: ValueCoder>(_ coder: C.Type, _ value: C.Value, decoder: Int) throws {
            var writer = BinaryWriter()
            try C.encode(value, to: &writer)
            corpus.append([UInt8(decoder)] + writer.bytes)
        }
        for _ in 0..<8 {
            let profile = Profile.sample(&random)
            try add(MessageCoder<Profile>.self, profile, decoder: 0)
            try add(
                MessageCoder<ProfileStats>.self, profile.metadata ?? ProfileStats(visits: 1, history: [], last: nil),
                decoder: 1)
            try add(MessageCoder<PostalAddress>.self, profile.address, decoder: 2)
            try add(MessageCoder<Outline>.self, profile.shape, decoder: 3)
        }
        let item = CrashWorkload.groupItem(3, 1)
        try add(MessageCoder<CrashItem>.self, item, decoder: 4)
        try add(MessageCoder<CrashStamp>.self, item.metadata!, decoder: 5)
        try add(CodableCoder<Memo>.self, Memo(id: 7, lines: ["a", "é"], pinned: true), decoder: 6)
        var writer = BinaryWriter()
        try [String: [Int?]].encodeValue(["a": [1, nil, -3], "": []], to: &writer)
        corpus.append([7] + writer.bytes)
        return corpus
    }

    private static func roundTrip<C: ValueCoder>(_ coder: C.Type, _ buffer: UnsafeRawBufferPointer) throws {
        var reader = BinaryReader(buffer)
        let value = try C.decode(from: &reader)
        var writer = BinaryWriter()
        try C.encode(value, to: &writer)
    }
}
