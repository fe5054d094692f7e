#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a generator run leaves for the next one, so that the next run regenerates only the
/// outputs whose inputs changed.
///
/// For every input it keeps the input's exact text, the facts it tells other inputs
/// (``FileFacts``), every question its description asked about other inputs with the answer
/// (``Lookup``), and what its generated file was: its name, byte count and digest
/// (``OutputRecord``), not its text. The output folder holds the texts: a later run reuses a
/// generated file when its input's text is byte-for-byte the same, every recorded answer is still
/// the same, and the output folder still holds exactly that file (see ``keepingOutputs(where:)``),
/// which it then leaves as it is; see
/// ``GeneratorPipeline/runIncrementally(_:includeUnannotated:cache:generatorIdentity:)``.
///
/// A cache is only ever made by a run without errors, and it names the generator that made it
/// (``generatorIdentity``): a cache of another generator, of another format, or whose bytes are
/// damaged is not read (``init(serialized:generatorIdentity:includeUnannotated:)`` returns `nil`)
/// and the run is a cold one.
package struct GeneratorCache: Sendable {
    /// The version of the serialized format; a cache of another version is not read.
    ///
    /// Format 4 keeps a digest of each output instead of its text; format 5 records the declarations
    /// read from other inputs (``Lookup/Kind/declarationDigest``).
    package static let formatVersion: UInt32 = 5

    /// What the cache holds about one input.
    package struct Entry: Sendable, Hashable {
        /// The path diagnostics name.
        package var path: String { didSet { encoded = .none } }
        /// The path relative to the source root.
        package var relativePath: String { didSet { encoded = .none } }
        /// The input's text.
        package var contents: String { didSet { encoded = .none } }
        /// The facts of the input, or `nil` when it holds no annotation and was not parsed.
        package var facts: FileFacts? { didSet { encoded = .none } }
        /// Every question the input's description asked about other inputs, with its answer.
        package var lookups: [Lookup] { didSet { encoded = .none } }
        /// What the generated file was (its name, size and digest), or `nil` when the input has none.
        package var output: OutputRecord? { didSet { encoded = .none } }
        /// The bytes this entry was read from, written again as they are while the entry is not
        /// changed (every change above forgets them); none for an entry made in this run.
        fileprivate var encoded = EncodedBytes.none

        /// Creates an entry.
        package init(
            path: String, relativePath: String, contents: String, facts: FileFacts?, lookups: [Lookup],
            output: OutputRecord?
        ) {
            self.path = path
            self.relativePath = relativePath
            self.contents = contents
            self.facts = facts
            self.lookups = lookups
            self.output = output
        }
    }

    /// The serialized bytes of an entry read from a cache.
    ///
    /// A one-file run of a debug build of the tool spent a sixth of its time encoding the whole cache
    /// again (mostly the inputs' texts), where all but one entry were the ones it had read. Not part
    /// of the entry's value: equal and hashed alike whatever the bytes.
    fileprivate struct EncodedBytes: Sendable, Hashable {
        /// The entry's bytes; empty when there are none (an entry is never encoded as no bytes).
        let bytes: ArraySlice<UInt8>

        /// No bytes: the entry is encoded when it is written.
        static let none = EncodedBytes(bytes: [])

        static func == (lhs: Self, rhs: Self) -> Bool { true }
        func hash(into hasher: inout Hasher) {}
    }

    /// The generator that made the cache: a cache of another generator is not reused.
    package var generatorIdentity: String
    /// Whether the run gave every input an output (``GeneratorPipeline/run(_:includeUnannotated:)``).
    package var includeUnannotated: Bool
    /// One entry per input, in input order.
    package var entries: [Entry]

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - generatorIdentity: The generator that made it.
    ///   - includeUnannotated: Whether every input got an output.
    ///   - entries: One entry per input.
    package init(generatorIdentity: String, includeUnannotated: Bool, entries: [Entry]) {
        self.generatorIdentity = generatorIdentity
        self.includeUnannotated = includeUnannotated
        self.entries = entries
    }

    // MARK: Serialized form

    private static let magic = Array("trove-gen cache\n".utf8)

    /// The cache as bytes: a header, the entries (with the digests of the generated files, not their
    /// texts), then a checksum of everything before it.
    package func serialized() -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes.append(contentsOf: Self.magic)
        writer.u32(Self.formatVersion)
        writer.string(generatorIdentity)
        writer.u8(includeUnannotated ? 1 : 0)
        writer.u32(UInt32(entries.count))
        for entry in entries {
            if !entry.encoded.bytes.isEmpty {
                writer.bytes.append(contentsOf: entry.encoded.bytes)
                continue
            }
            writer.string(entry.path)
            writer.string(entry.relativePath)
            writer.string(entry.contents)
            if let facts = entry.facts {
                writer.u8(1)
                writer.strings(facts.declaredTypes)
                writer.u32(UInt32(facts.annotatedTypes.count))
                for type in facts.annotatedTypes {
                    writer.string(type.name)
                    writer.u8((type.hasMessageCoder ? 1 : 0) | (type.isIndexableEnum ? 2 : 0))
                    writer.strings(type.metadataTypes)
                    writer.u32(UInt32(type.relationshipQueries.count))
                    for claim in type.relationshipQueries {
                        writer.string(claim.owner)
                        writer.u8(claim.ownerIsWritten ? 1 : 0)
                        writer.string(claim.name)
                        writer.string(claim.claimant)
                    }
                }
            } else {
                writer.u8(0)
            }
            writer.u32(UInt32(entry.lookups.count))
            for lookup in entry.lookups {
                writer.u8(lookup.kind.rawValue)
                writer.string(lookup.argument)
                writer.string(lookup.owner)
                writer.string(lookup.answer)
            }
            if let output = entry.output {
                writer.u8(1)
                writer.string(output.name)
                writer.u64(UInt64(output.byteCount))
                writer.u64(output.digest.first)
                writer.u64(output.digest.second)
            } else {
                writer.u8(0)
            }
        }
        let checksum = writer.bytes.withUnsafeBytes(Checksum.of)
        writer.u64(checksum)
        return writer.bytes
    }

    /// Reads a serialized cache.
    ///
    /// - Parameters:
    ///   - bytes: What ``serialized()`` returned.
    ///   - generatorIdentity: The running generator: a cache made by another is not read.
    ///   - includeUnannotated: Whether this run gives every input an output: a cache of a run that
    ///     did otherwise is not read.
    /// - Returns: The cache, or `nil` when the bytes are damaged, of another format or generator,
    ///   or of a run with other options.
    package init?(serialized bytes: [UInt8], generatorIdentity: String, includeUnannotated: Bool) {
        guard
            var entries = bytes.withUnsafeBytes({
                Self.entries(serialized: $0, generatorIdentity: generatorIdentity, includeUnannotated: includeUnannotated)
            })
        else { return nil }
        for index in entries.indices {
            entries[index].entry.encoded = EncodedBytes(bytes: bytes[entries[index].encodedRange])
        }
        self.init(
            generatorIdentity: generatorIdentity, includeUnannotated: includeUnannotated, entries: entries.map(\.entry))
    }

    /// The entries of a serialized cache, or `nil` (see ``init(serialized:generatorIdentity:includeUnannotated:)``).
    ///
    /// Reads through one buffer pointer for the whole cache: a debug build of the tool decodes tens of
    /// thousands of small strings, and borrowing the array's bytes again for each cost it about twice as much.
    private static func entries(
        serialized bytes: UnsafeRawBufferPointer, generatorIdentity: String, includeUnannotated: Bool
    ) -> [(entry: Entry, encodedRange: Range<Int>)]? {
        guard bytes.count >= Self.magic.count + 8, bytes.starts(with: Self.magic) else { return nil }
        var reader = ByteReader(buffer: bytes, offset: Self.magic.count)
        guard reader.u32() == Self.formatVersion, reader.string() == generatorIdentity,
            reader.u8() == (includeUnannotated ? 1 : 0), let count = reader.u32()
        else { return nil }
        var entries: [(entry: Entry, encodedRange: Range<Int>)] = []
        entries.reserveCapacity(min(Int(count), bytes.count))
        for _ in 0..<count {
            let start = reader.offset
            guard let path = reader.string(), let relativePath = reader.string(), let contents = reader.string(),
                let hasFacts = reader.u8()
            else { return nil }
            var facts: FileFacts?
            if hasFacts == 1 {
                guard let declared = reader.strings(), let typeCount = reader.u32() else { return nil }
                var types: [AnnotatedTypeFacts] = []
                for _ in 0..<typeCount {
                    guard let name = reader.string(), let flags = reader.u8(), let metadata = reader.strings(),
                        let claimCount = reader.u32(), Int(claimCount) <= reader.remaining
                    else { return nil }
                    var claims: [RelationshipQueryClaim] = []
                    for _ in 0..<claimCount {
                        guard let owner = reader.string(), let isWritten = reader.u8(), let query = reader.string(),
                            let claimant = reader.string()
                        else { return nil }
                        claims.append(
                            RelationshipQueryClaim(owner: owner, isWritten: isWritten == 1, name: query, claimant: claimant))
                    }
                    types.append(
                        AnnotatedTypeFacts(
                            name: name, hasMessageCoder: flags & 1 != 0, isIndexableEnum: flags & 2 != 0,
                            metadataTypes: metadata, relationshipQueries: claims))
                }
                facts = FileFacts(declaredTypes: declared, annotatedTypes: types)
            }
            guard let lookupCount = reader.u32() else { return nil }
            var lookups: [Lookup] = []
            for _ in 0..<lookupCount {
                guard let rawKind = reader.u8(), let kind = Lookup.Kind(rawValue: rawKind),
                    let argument = reader.string(), let owner = reader.string(), let answer = reader.string()
                else { return nil }
                lookups.append(Lookup(kind: kind, argument: argument, owner: owner, answer: answer))
            }
            guard let hasOutput = reader.u8() else { return nil }
            var output: OutputRecord?
            if hasOutput == 1 {
                guard let name = reader.string(), let byteCount = reader.u64(), byteCount <= UInt64(Int.max),
                    let first = reader.u64(), let second = reader.u64()
                else { return nil }
                output = OutputRecord(
                    name: name, byteCount: Int(byteCount), digest: ContentDigest(first: first, second: second))
            }
            entries.append(
                (
                    Entry(
                        path: path, relativePath: relativePath, contents: contents, facts: facts, lookups: lookups,
                        output: output),
                    start..<reader.offset
                ))
        }
        let body = reader.offset
        guard bytes.count - body >= 8 else { return nil }
        let valid =
            Checksum.of(UnsafeRawBufferPointer(rebasing: bytes[..<body]))
            == UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: body, as: UInt64.self))
        guard valid else { return nil }
        reader.offset += 8
        guard reader.isAtEnd else { return nil }
        return entries
    }

    /// The cache without the entries whose generated file is not in the output folder: those inputs are
    /// generated again.
    ///
    /// Run this before reusing a cache whose outputs were written to a folder: a reused output is
    /// not written again (its text is not in the cache), so it is only ever reused when the folder
    /// already holds exactly its bytes; the folder's files may have been deleted or edited since.
    ///
    /// - Parameter isInFolder: Whether the output folder holds exactly this file: a file of this
    ///   name whose bytes have this count and digest (``OutputRecord/matches(_:)``), or one that
    ///   is known not to have changed since the run that recorded it wrote it.
    /// - Returns: The cache with every entry whose output is not in the folder removed.
    package func keepingOutputs(where isInFolder: (OutputRecord) -> Bool) -> GeneratorCache {
        var kept = self
        kept.entries.removeAll { entry in
            guard let output = entry.output else { return false }
            return !isInFolder(output)
        }
        return kept
    }
}

/// What a run remembers of one generated file instead of its text: its name, its size in bytes,
/// and a digest of its bytes, enough to tell whether the output folder still holds it.
package struct OutputRecord: Sendable, Hashable {
    /// The file name (see ``OutputNaming``).
    package var name: String
    /// The number of bytes of the file's UTF-8 text.
    package var byteCount: Int
    /// The digest of those bytes.
    package var digest: ContentDigest

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - name: The file name.
    ///   - byteCount: The number of bytes of its text.
    ///   - digest: The digest of those bytes.
    package init(name: String, byteCount: Int, digest: ContentDigest) {
        self.name = name
        self.byteCount = byteCount
        self.digest = digest
    }

    /// The record of `file`.
    package init(_ file: GeneratedFile) {
        var text = file.contents
        let (count, digest) = text.withUTF8 { ($0.count, ContentDigest(of: UnsafeRawBufferPointer($0))) }
        self.init(name: file.name, byteCount: count, digest: digest)
    }

    /// Whether `bytes` are the recorded file's bytes: the same count and digest.
    package func matches(_ bytes: [UInt8]) -> Bool {
        bytes.count == byteCount && bytes.withUnsafeBytes(ContentDigest.init(of:)) == digest
    }

    /// Whether `text` is the recorded file's text: its UTF-8 has the same count and digest.
    package func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.count == byteCount && ContentDigest(of: UnsafeRawBufferPointer($0)) == digest }
    }
}

/// A 128-bit digest of bytes, to tell without comparing them whether a file holds the bytes a
/// generator run wrote: two independent 64-bit lanes, each mixing every 8-byte word (the last,
/// shorter one padded with zeros) and then the length, then finished with a 64-bit mixer.
///
/// Not cryptographic: it tells accidental differences (an edited, truncated or replaced file) with
/// a chance of a miss near 2^-128, not files made on purpose to collide.
package struct ContentDigest: Sendable, Hashable {
    /// The first lane.
    package var first: UInt64
    /// The second lane.
    package var second: UInt64

    /// A digest of the given lanes (as serialized).
    package init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    /// The digest of `buffer`.
    ///
    /// Written for the debug build of the tool too (the build plugin's, in a debug build): one loop
    /// of integer operators, which the compiler inlines even without optimization, and no closure
    /// (a closure capturing the lanes made it about fifteen times slower there).
    package init(of buffer: UnsafeRawBufferPointer) {
        let count = buffer.count
        var first: UInt64 = 0x9e37_79b9_7f4a_7c15
        var second: UInt64 = 0xc2b2_ae3d_27d4_eb4f
        // Not `nil` when there are bytes to read (an empty buffer may have either).
        let base = buffer.baseAddress
        let wordsEnd = count & ~7
        var offset = 0
        var word: UInt64 = 0
        // One word more than the bytes fill: the length, last, which tells the padding of the last word
        // (mixed in first, it could cancel out against a change of the first word).
        var lengthMixed = false
        while !lengthMixed {
            if offset == count {
                word = UInt64(count)
                lengthMixed = true
            } else if offset < wordsEnd {
                word = UInt64(littleEndian: base!.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset &+= 8
            } else {
                // The last 1 to 7 bytes, padded with zeros.
                word = 0
                var shift: UInt64 = 0
                while offset < count {
                    word |= UInt64(base!.load(fromByteOffset: offset, as: UInt8.self)) &<< shift
                    shift &+= 8
                    offset &+= 1
                }
            }
            first = (first ^ word) &* 0xff51_afd7_ed55_8ccd
            first ^= first &>> 32
            second = (second &+ word) &* 0x9fb2_1c65_1e98_df25
            second = (second &<< 27) | (second &>> 37)
        }
        self.first = Self.finish(first ^ (second &>> 17))
        self.second = Self.finish(second &+ first)
    }

    /// The digest of `text`'s UTF-8.
    package init(of text: String) {
        var text = text
        self = text.withUTF8 { ContentDigest(of: UnsafeRawBufferPointer($0)) }
    }

    /// MurmurHash3's 64-bit finalizer: every input bit changes about half the output bits.
    private static func finish(_ value: UInt64) -> UInt64 {
        var value = value
        value ^= value >> 33
        value = value &* 0xff51_afd7_ed55_8ccd
        value ^= value >> 33
        value = value &* 0xc4ce_b9fe_1a85_ec53
        value ^= value >> 33
        return value
    }
}

/// Appends little-endian integers and length-prefixed UTF-8 strings.
private struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            u32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func strings(_ values: [String]) {
        u32(UInt32(values.count))
        for value in values { string(value) }
    }
}

/// Reads what ``ByteWriter`` wrote; every read returns `nil` past the end.
///
/// Holds a pointer to bytes borrowed for the time of one decoding: it must not outlive it.
private struct ByteReader {
    let buffer: UnsafeRawBufferPointer
    var offset: Int

    var isAtEnd: Bool { offset == buffer.count }

    /// How many bytes are left to read.
    var remaining: Int { buffer.count - offset }

    mutating func u8() -> UInt8? {
        guard offset < buffer.count else { return nil }
        let value = buffer[offset]
        offset &+= 1
        return value
    }

    mutating func u32() -> UInt32? {
        guard buffer.count - offset >= 4 else { return nil }
        let value = UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        offset &+= 4
        return value
    }

    mutating func u64() -> UInt64? {
        guard buffer.count - offset >= 8 else { return nil }
        let value = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        offset &+= 8
        return value
    }

    mutating func string() -> String? {
        guard let length = u32(), buffer.count - offset >= Int(length) else { return nil }
        // Written from Strings, so valid UTF-8 unless damaged, which the checksum rules out.
        let value = String(
            decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + Int(length)]), as: UTF8.self)
        offset &+= Int(length)
        return value
    }

    mutating func strings() -> [String]? {
        guard let count = u32(), Int(count) <= buffer.count - offset else { return nil }
        var values: [String] = []
        for _ in 0..<count {
            guard let value = string() else { return nil }
            values.append(value)
        }
        return values
    }
}

/// A fast checksum of bytes (64-bit, word at a time), to tell a damaged cache from a good one.
/// Not cryptographic: it guards against accidents, not against someone forging a cache.
package enum Checksum {
    /// The checksum of `buffer`.
    package static func of(_ buffer: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(buffer.count)
        let words = buffer.count / 8
        var offset = 0
        for _ in 0..<words {
            let word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            hash = (hash ^ word) &* 0x0000_0100_0000_01b3
            hash ^= hash >> 29
            offset += 8
        }
        while offset < buffer.count {
            hash = (hash ^ UInt64(buffer[offset])) &* 0x0000_0100_0000_01b3
            offset += 1
        }
        return hash ^ (hash >> 32)
    }
}

/// Whether `text`'s UTF-8 is exactly `bytes`.
func sameBytes(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var text = text
    return text.withUTF8 { utf8 in
        utf8.count == bytes.count && (utf8.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, utf8.count) == 0)
    }
}

/// Whether two strings hold the same bytes (not merely canonically equivalent text, as `==`
/// tells): a generated file embeds its input's bytes, so only identical bytes may reuse it.
func sameBytes(_ first: String, _ second: String) -> Bool {
    var second = second
    return second.withUTF8 { sameBytes(first, UnsafeRawBufferPointer($0)) }
}
