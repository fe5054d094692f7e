import Foundation
import Trove

/// The decoders that `trove-fuzz` (libFuzzer) and the seeded mutation tests feed with bad
/// bytes. The first byte of an input picks the decoder; the rest is what it decodes.
///
/// The contract under test: whatever the bytes, a decoder returns a value (which then encodes
/// again) or throws a ``TroveError`` of code `corruptData`. Anything else stops the program,
/// which is how libFuzzer learns of a failure.
public struct FuzzHarness: Sendable {
    /// Decodes bytes, and encodes the value again when that succeeds.
    public typealias Decode = @Sendable (UnsafeRawBufferPointer) throws -> Void

    /// A decoder under test and real encodings of its type, the seeds that fuzzing mutates.
    public struct Decoder: Sendable {
        /// What is decoded, for failure messages.
        public var name: String
        /// The decoding.
        public var decode: Decode
        /// Real encodings of values of the type.
        public var seeds: [[UInt8]]

        /// Creates a decoder under test.
        public init(name: String, seeds: [[UInt8]], decode: @escaping Decode) {
            self.name = name
            self.seeds = seeds
            self.decode = decode
        }

        /// A decoder of `coder` with the encodings of `values` as seeds.
        public static func coder<C: ValueCoder & SendableMetatype>(_ coder: C.Type, name: String, values: [C.Value])
            throws
            -> Decoder
        {
            let seeds = try values.map { value in
                var writer = BinaryWriter()
                try C.encode(value, to: &writer)
                return writer.bytes
            }
            return Decoder(name: name, seeds: seeds) { buffer in
                var reader = BinaryReader(buffer)
                let value = try C.decode(from: &reader)
                var writer = BinaryWriter()
                try C.encode(value, to: &writer)
            }
        }
    }

    /// Every decoder, in the order of the first byte of inputs.
    public let decoders: [Decoder]

    /// The decoders of the runtime's value forms and of the models of TroveTestSupport, then
    /// `additional` ones (trove-fuzz adds the coders trove-gen generated for its showcase).
    public init(adding additional: [Decoder] = []) throws {
        var random = SeededGenerator(seed: 1)
        let profiles = (0..<8).map { _ in Profile.sample(&random) }
        let item = CrashWorkload.groupItem(3, 1)
        var dictionary = BinaryWriter()
        try [String: [Int?]].encodeValue(["a": [1, nil, -3], "": []], to: &dictionary)
        decoders =
            [
                try .coder(MessageCoder<Profile>.self, name: "Profile", values: profiles),
                try .coder(
                    MessageCoder<ProfileStats>.self, name: "ProfileStats",
                    values: profiles.compactMap(\.metadata) + [ProfileStats(visits: 1, history: [], last: nil)]),
                try .coder(MessageCoder<PostalAddress>.self, name: "PostalAddress", values: profiles.map(\.address)),
                try .coder(MessageCoder<Outline>.self, name: "Outline", values: profiles.map(\.shape)),
                try .coder(MessageCoder<CrashItem>.self, name: "CrashItem", values: [item]),
                try .coder(MessageCoder<CrashStamp>.self, name: "CrashStamp", values: [item.metadata!]),
                try .coder(
                    CodableCoder<Memo>.self, name: "Memo (Codable)",
                    values: [Memo(id: 7, lines: ["a", "é"], pinned: true)]),
                Decoder(name: "[String: [Int?]] value form", seeds: [dictionary.bytes]) { buffer in
                    var reader = BinaryReader(buffer)
                    _ = try [String: [Int?]].decodeValue(from: &reader)
                },
            ] + additional
    }

    /// Decodes `input` with the decoder its first byte picks.
    ///
    /// - Parameter input: The byte of the decoder, then the bytes to decode.
    /// - Returns: Whether the bytes decoded; `false` when they were rejected as corrupt.
    @discardableResult
    public func run(_ input: UnsafeRawBufferPointer) -> Bool {
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

    /// Every seed, prefixed by the byte of its decoder.
    public var seedCorpus: [[UInt8]] {
        decoders.indices.flatMap { index in decoders[index].seeds.map { [UInt8(index)] + $0 } }
    }
}
