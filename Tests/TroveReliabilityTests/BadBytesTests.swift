import Foundation
import Synchronization
import Testing
@_spi(TroveGenerated) import Trove
import TroveTestSupport

/// Seeded random mutations of real encodings of every test model: decoding them returns a value
/// or throws a `TroveError` of code `corruptData`, and never traps, never hangs, never throws
/// anything else. Through the database, the error also names the collection and the key.
///
/// The seed is printed first, so that a trap (which ends the test process) can be reproduced:
/// `TROVE_FUZZ_SEED=<seed> swift test --filter BadBytesTests`.
/// Soak: `TROVE_FUZZ_INPUTS=2000000 swift test --filter BadBytesTests`.
@Suite
struct BadBytesTests {
    /// One decoder under test and real encodings to mutate.
    struct Target {
        var name: String
        var samples: [[UInt8]]
        /// Decodes the bytes and, when that succeeds, encodes the value again.
        var decode: ([UInt8]) throws -> Void
    }

    static func targets(_ random: inout SeededGenerator) throws -> [Target] {
        func message<V: BinaryMessage>(_ values: [V]) throws -> Target {
            let samples = try values.map { value in
                var writer = BinaryWriter()
                try MessageCoder<V>.encode(value, to: &writer)
                return writer.bytes
            }
            return Target(name: "\(V.self)", samples: samples) { bytes in
                let value = try bytes.withUnsafeBytes { buffer in
                    var reader = BinaryReader(buffer)
                    return try MessageCoder<V>.decode(from: &reader)
                }
                var writer = BinaryWriter()
                try MessageCoder<V>.encode(value, to: &writer)
            }
        }
        func codable<V: Codable>(_ values: [V]) throws -> Target {
            let samples = try values.map { value in
                var writer = BinaryWriter()
                try CodableCoder<V>.encode(value, to: &writer)
                return writer.bytes
            }
            return Target(name: "\(V.self) (Codable)", samples: samples) { bytes in
                _ = try bytes.withUnsafeBytes { buffer in
                    var reader = BinaryReader(buffer)
                    return try CodableCoder<V>.decode(from: &reader)
                }
            }
        }
        func evolved<Old: BinaryMessage, New: BinaryMessage>(_ values: [Old], as new: New.Type) throws -> Target {
            var target = try message(values)
            target.name = "\(Old.self) read as \(New.self)"
            target.decode = { bytes in
                let value = try bytes.withUnsafeBytes { buffer in
                    var reader = BinaryReader(buffer)
                    return try MessageCoder<New>.decode(from: &reader)
                }
                var writer = BinaryWriter()
                try MessageCoder<New>.encode(value, to: &writer)
            }
            return target
        }
        let profiles = (0..<24).map { _ in Profile.sample(&random) }
        return [
            try message(profiles),
            try message(profiles.compactMap(\.metadata)),
            try message(profiles.map(\.address) + profiles.flatMap(\.previous)),
            try message(profiles.map(\.shape)),
            try message((0..<8).map { CrashWorkload.groupItem($0, 0) }),
            try message([LoadLedger(id: "ledger", sequence: 99, versions: Array(0..<24))]),
            try message([LoadAccount(id: 3, balance: -5, version: 7, metadata: nil)]),
            try codable([Memo(id: 1, lines: ["a", "b"], pinned: true), Memo(id: -9, lines: [], pinned: false)]),
            // Every coder that trove-gen generated for its showcase fixture.
            try message(ShowcaseSamples.users),
            try message(ShowcaseSamples.users.compactMap(\.stats)),
            try message(ShowcaseSamples.users.compactMap(\.address)),
            try message(ShowcaseSamples.shapes),
            try message(ShowcaseSamples.samples),
            try message(ShowcaseSamples.books),
            try message(ShowcaseSamples.books.map(\.author)),
            try message(ShowcaseSamples.orders),
            try codable(ShowcaseSamples.orders.compactMap(\.metadata)),
            try message(ShowcaseSamples.counters),
            try message(ShowcaseSamples.tags),
            try message(ShowcaseSamples.settings),
            try message(ShowcaseSamples.notesV1),
            try message(ShowcaseSamples.notesV2),
            // Data of one version of a model read by the other.
            try evolved(ShowcaseSamples.notesV1, as: NoteV2.self),
            try evolved(ShowcaseSamples.notesV2, as: NoteV1.self),
        ]
    }

    /// The longest one input may take to decode (the fastest of four tries, so that a thread
    /// descheduled on a busy machine is not taken for a slow decoder). Measured: 0.02 s for the
    /// slowest of 200,000 inputs in a debug build on 2 cores, SLOWEST_ASAN under AddressSanitizer.
    /// A decoder that trusted a count or a length read from the input and looped over it would
    /// loop up to 2^63 times on these inputs (runs of 0xFF make giant varints): far past this
    /// bound, which leaves a factor of 25 for slower machines and sanitizers.
    static let slowestDecodeBound: Duration = .milliseconds(500)

    @Test func mutatedEncodingsOfEveryModelThrowOnlyCorruptDataErrors() throws {
        let inputs = Soak.integer("TROVE_FUZZ_INPUTS", default: 200_000)
        let seed = UInt64(Soak.integer("TROVE_FUZZ_SEED", default: Int(UInt32.random(in: 0...UInt32.max))))
        Soak.report("fuzz decoders: seed \(seed)")
        let outcome = Mutex<(decoded: Int, rejected: Int, slowest: Duration, problems: [String], targets: Int)>(
            (0, 0, .zero, [], 0))
        let start = ContinuousClock.now
        let finished = finishes(within: .seconds(300)) {
            var random = SeededGenerator(seed: seed)
            let targets: [Target]
            do {
                targets = try Self.targets(&random)
            } catch {
                outcome.withLock { $0.problems.append("encoding the samples failed: \(error)") }
                return
            }
            var decoded = 0
            var rejected = 0
            var slowest = Duration.zero
            var problems: [String] = []
            for input in 0..<inputs {
                let target = targets[input % targets.count]
                let original = target.samples[Int(random.next() % UInt64(target.samples.count))]
                let bytes = Mutator.mutate(original, &random)
                let clock = ContinuousClock.now
                do {
                    try target.decode(bytes)
                    decoded += 1
                } catch let error as TroveError where error.code == .corruptData {
                    rejected += 1
                } catch {
                    problems.append("\(target.name), input \(input), bytes \(bytes): \(type(of: error)) \(error)")
                }
                var elapsed = ContinuousClock.now - clock
                if elapsed >= Self.slowestDecodeBound {
                    // Descheduled, or slow? The fastest of three more decodes of the same bytes.
                    for _ in 0..<3 {
                        let again = ContinuousClock.now
                        try? target.decode(bytes)
                        elapsed = min(elapsed, ContinuousClock.now - again)
                    }
                }
                slowest = max(slowest, elapsed)
                if elapsed >= Self.slowestDecodeBound {
                    problems.append("\(target.name), input \(input), took \(elapsed) to decode: bytes \(bytes)")
                    break
                }
            }
            outcome.withLock { $0 = (decoded, rejected, slowest, problems, targets.count) }
        }
        #expect(finished, "a decoder hung: the inputs were not done in 5 minutes (seed \(seed))")
        let (decoded, rejected, slowest, problems, targetCount) = outcome.withLock { $0 }
        var checks = Checks()
        checks.expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5).joined(separator: "\n"))")
        checks.expect(decoded + rejected == inputs, "\(decoded) decoded and \(rejected) rejected of \(inputs) inputs")
        // Most mutations must be caught: a decoder that accepted anything would pass the rest.
        checks.expect(rejected > inputs / 2, "only \(rejected) of \(inputs) inputs were rejected")
        checks.expect(slowest < Self.slowestDecodeBound, "one input took \(slowest) to decode (seed \(seed))")
        guard checks.passed else { return }
        Soak.report(
            "fuzz decoders: \(inputs) mutated inputs of \(targetCount) coders in \(ContinuousClock.now - start): \(rejected) rejected with corruptData, \(decoded) decoded, slowest \(slowest), seed \(seed)"
        )
    }

    /// The harness of the libFuzzer target `trove-fuzz` (not run in CI) keeps working, with the
    /// showcase's coders added as trove-fuzz adds them: its seeds decode, and mutations of them
    /// decode or are rejected without stopping the program.
    @Test func theLibFuzzerHarnessDecodesItsSeedsAndSurvivesMutations() throws {
        let harness = try FuzzHarness(adding: [
            .coder(MessageCoder<User>.self, name: "User", values: ShowcaseSamples.users),
            .coder(MessageCoder<Sample>.self, name: "Sample", values: ShowcaseSamples.samples),
        ])
        let corpus = harness.seedCorpus
        #expect(Set(corpus.map { Int($0[0]) }).count == harness.decoders.count)
        for seed in corpus {
            #expect(seed.withUnsafeBytes { harness.run($0) }, "seed for decoder \(seed[0]) does not decode")
        }
        var random = SeededGenerator(seed: 0xF022)
        var rejected = 0
        for index in 0..<5_000 {
            let seed = corpus[index % corpus.count]
            let input = [seed[0]] + Mutator.mutate(Array(seed.dropFirst()), &random)
            if !input.withUnsafeBytes({ harness.run($0) }) { rejected += 1 }
        }
        #expect(rejected > 2_500)
    }

    @Test func aBadFieldInsideTheMetadataIsNamedAsAPathFromTheMetadata() throws {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        var random = SeededGenerator(seed: 7)
        let profile = Profile.sample(&random)
        var data = BinaryWriter()
        try Profile.Coder.encode(profile, to: &data)
        // Metadata whose `history` field holds a string instead of an array of integers.
        var metadata = BinaryWriter()
        try metadata.encode(3, field: FieldNumber.of("visits"))
        try metadata.encode("not a history", field: FieldNumber.of("history"))
        try connection.write { tx in
            try tx.setData(
                Data(data.bytes), metadata: Data(metadata.bytes), forKey: profile.id.itemKey, in: Profile.collection)
        }
        for read in 0..<2 {
            #expect {
                try connection.read { tx in
                    read == 0
                        ? try tx.read(Profile.self, key: profile.id)?.metadata
                        : try tx.metadata(for: Profile.self, key: profile.id)
                }
            } throws: { error in
                // "history" alone would send the reader looking for a field of Profile.
                (error as? TroveError)?.field == "metadata.history"
            }
        }
    }

    @Test func aFieldOfTheMetadataThatFailsToEncodeIsNamedAsAPathFromTheMetadata() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        #expect {
            try connection.write(Parcel(id: "p", metadata: Parcel.Label(text: "unencodable")))
        } throws: { error in
            guard let error = error as? TroveError else { return false }
            return error.code == .encodingFailed && error.field == "metadata.text" && error.key == "p"
        }
        #expect(try connection.read { try $0.count(in: Parcel.collection) } == 0)
    }

    @Test func mutatedBytesInTheDatabaseThrowErrorsNamingTheItem() throws {
        let batches = Soak.integer("TROVE_FUZZ_DATABASE_BATCHES", default: 40)
        let seed = UInt64(Soak.integer("TROVE_FUZZ_SEED", default: Int(UInt32.random(in: 0...UInt32.max))))
        Soak.report("fuzz database: seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let database = try makeTemporaryDatabase()
        let writer = try database.newConnection()
        let reader = try database.newConnection()
        let samples = (0..<16).map { _ in Profile.sample(&random) }
        let encoded = try samples.map { profile in
            var data = BinaryWriter()
            try Profile.Coder.encode(profile, to: &data)
            var metadata = BinaryWriter()
            try ProfileStats.encodeMessage(
                profile.metadata ?? ProfileStats(visits: 1, history: [2], last: nil), to: &metadata)
            return (data.bytes, metadata.bytes)
        }
        var inputs = 0
        var rejected = 0
        for batch in 0..<batches {
            var keys: [UUID] = []
            try writer.write { tx in
                try tx.removeAll(Profile.self)
                for _ in 0..<50 {
                    let (data, metadata) = encoded[Int(random.next() % UInt64(encoded.count))]
                    let key = UUID()
                    keys.append(key)
                    // Mutate the item, its metadata, or both.
                    let which = random.next() % 3
                    try tx.setData(
                        Data(which == 1 ? data : Mutator.mutate(data, &random)),
                        metadata: Data(which == 0 ? metadata : Mutator.mutate(metadata, &random)),
                        forKey: key.itemKey, in: Profile.collection)
                }
            }
            try reader.read { tx in
                for key in keys {
                    inputs += 1
                    var failed = false
                    for read in 0..<2 {
                        do {
                            if read == 0 {
                                _ = try tx.read(Profile.self, key: key)
                            } else {
                                _ = try tx.metadata(for: Profile.self, key: key)
                            }
                        } catch let error as TroveError {
                            failed = true
                            #expect(
                                error.code == .corruptData && error.collection == Profile.collection
                                    && error.key == key.itemKey,
                                "batch \(batch), seed \(seed): \(error)")
                            if read == 1 {
                                #expect(error.field?.hasPrefix("metadata") == true, "\(error)")
                            }
                        }
                    }
                    if failed { rejected += 1 }
                }
                // Reading the whole collection stops at the first bad row and names it.
                do {
                    _ = try tx.readAll(Profile.self)
                } catch let error as TroveError {
                    #expect(error.code == .corruptData && keys.map(\.itemKey).contains(error.key ?? ""), "\(error)")
                }
            }
        }
        // Keys that are not UUIDs: the typed key listing says so.
        try writer.write { tx in try tx.setData(Data(encoded[0].0), forKey: "not-a-uuid", in: Profile.collection) }
        #expect {
            try reader.read { tx in try tx.keys(of: Profile.self) }
        } throws: { error in
            (error as? TroveError)?.code == .invalidKey && (error as? TroveError)?.key == "not-a-uuid"
        }
        #expect(rejected > inputs / 2)
        Soak.report(
            "fuzz database: \(inputs) stored items with mutated data or metadata read back, \(rejected) rejected naming collection and key, seed \(seed)"
        )
    }
}

/// An item whose metadata coder refuses some values, naming the field, as a generated coder of a
/// field with a `Codable` fallback does.
private struct Parcel: Persistable {
    struct Label: Sendable {
        var text: String
    }

    enum LabelCoder: ValueCoder {
        static func encode(_ value: Label, to writer: inout BinaryWriter) throws {
            guard value.text != "unencodable" else { throw TroveError.encodingFailed("refused", field: "text") }
            try writer.encode(value.text, field: FieldNumber.of("text"))
        }

        static func decode(from reader: inout BinaryReader) throws -> Label {
            Label(text: "")
        }
    }

    enum ParcelCoder: ValueCoder {
        static func encode(_ value: Parcel, to writer: inout BinaryWriter) throws {
            try writer.encode(value.id, field: FieldNumber.of("id"))
        }

        static func decode(from reader: inout BinaryReader) throws -> Parcel {
            Parcel(id: "", metadata: nil)
        }
    }

    typealias Coder = ParcelCoder
    typealias MetadataCoder = LabelCoder
    static let collection = "parcels"
    var id: String
    var metadata: Label?
}
