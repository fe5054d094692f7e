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
/// (``Lookup``), and its generated file. A later run reuses a generated file when its input's
/// text is byte-for-byte the same and every recorded answer is still the same; see
/// ``GeneratorPipeline/runIncrementally(_:includeUnannotated:cache:)``.
///
/// A cache is only ever made by a run without errors, and it names the generator that made it
/// (``generatorIdentity``): a cache of another generator, of another format, or whose bytes are
/// damaged is not read (``init(serialized:generatorIdentity:includeUnannotated:)`` returns `nil`)
/// and the run is a cold one.
package struct GeneratorCache: Sendable {
    /// The version of the serialized format; a cache of another version is not read.
    package static let formatVersion: UInt32 = 3

    /// What the cache holds about one input.
    package struct Entry: Sendable, Hashable {
        /// The path diagnostics name.
        package var path: String
        /// The path relative to the source root.
        package var relativePath: String
        /// The input's text.
        package var contents: String
        /// The facts of the input, or `nil` when it holds no annotation and was not parsed.
        package var facts: FileFacts?
        /// Every question the input's description asked about other inputs, with its answer.
        package var lookups: [Lookup]
        /// The generated file, or `nil` when the input has none.
        package var output: GeneratedFile?
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

    /// The cache as bytes: a header, the entries without their generated texts, a checksum of
    /// everything before it, then the generated texts.
    ///
    /// The generated texts are not checksummed (checksumming megabytes of them would cost a debug
    /// build of the tool most of a run): whoever reuses a cached output first checks that the
    /// output folder holds exactly its bytes (see ``GeneratorCache/keepingOutputs(matching:)``), so a
    /// damaged text is never written, it only makes its input generated again.
    package func serialized() -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes.append(contentsOf: Self.magic)
        writer.u32(Self.formatVersion)
        writer.string(generatorIdentity)
        writer.u8(includeUnannotated ? 1 : 0)
        writer.u32(UInt32(entries.count))
        for entry in entries {
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
            } else {
                writer.u8(0)
            }
        }
        let checksum = writer.bytes.withUnsafeBytes(Checksum.of)
        writer.u64(checksum)
        for entry in entries {
            if let output = entry.output { writer.string(output.contents) }
        }
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
        guard bytes.count >= Self.magic.count + 8, bytes.starts(with: Self.magic) else { return nil }
        var reader = ByteReader(bytes: bytes, offset: Self.magic.count, end: bytes.count)
        guard reader.u32() == Self.formatVersion, reader.string() == generatorIdentity,
            reader.u8() == (includeUnannotated ? 1 : 0), let count = reader.u32()
        else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(min(Int(count), bytes.count))
        for _ in 0..<count {
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
            var output: GeneratedFile?
            if hasOutput == 1 {
                guard let name = reader.string() else { return nil }
                output = GeneratedFile(name: name, contents: "")
            }
            entries.append(
                Entry(
                    path: path, relativePath: relativePath, contents: contents, facts: facts, lookups: lookups,
                    output: output))
        }
        let body = reader.offset
        guard bytes.count - body >= 8 else { return nil }
        let valid = bytes.withUnsafeBytes { buffer in
            Checksum.of(UnsafeRawBufferPointer(rebasing: buffer[..<body]))
                == UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: body, as: UInt64.self))
        }
        guard valid else { return nil }
        reader.offset += 8
        for index in entries.indices where entries[index].output != nil {
            guard let text = reader.string() else { return nil }
            entries[index].output?.contents = text
        }
        guard reader.isAtEnd else { return nil }
        self.init(generatorIdentity: generatorIdentity, includeUnannotated: includeUnannotated, entries: entries)
    }

    /// The cache without the entries whose generated file is not in the output folder: those inputs are
    /// generated again.
    ///
    /// Run this before reusing a cache whose outputs were written to a folder: the cached texts are
    /// not checksummed (see ``serialized()``), the folder's files may have been deleted or edited, and
    /// an output is only ever reused when the folder already holds its exact bytes.
    ///
    /// - Parameter isInFolder: Whether the output folder holds exactly this file (its name and text).
    /// - Returns: The cache with every entry whose output is not in the folder removed.
    package func keepingOutputs(where isInFolder: (GeneratedFile) -> Bool) -> GeneratorCache {
        var kept = self
        kept.entries.removeAll { entry in
            guard let output = entry.output else { return false }
            return !isInFolder(output)
        }
        return kept
    }

    /// Whether `text`'s UTF-8 is exactly `bytes`.
    package static func isText(_ text: String, exactly bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { sameBytes(text, $0) }
    }

    /// Whether two texts have the same UTF-8 bytes (not merely canonically equivalent, as `==` tells).
    package static func isText(_ text: String, sameAs other: String) -> Bool {
        sameBytes(text, other)
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
private struct ByteReader {
    let bytes: [UInt8]
    var offset: Int
    let end: Int

    var isAtEnd: Bool { offset == end }

    /// How many bytes are left to read.
    var remaining: Int { end - offset }

    mutating func u8() -> UInt8? {
        guard offset < end else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u32() -> UInt32? {
        guard end - offset >= 4 else { return nil }
        defer { offset += 4 }
        return bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }

    mutating func string() -> String? {
        guard let length = u32().map(Int.init), end - offset >= length else { return nil }
        defer { offset += length }
        return bytes.withUnsafeBytes { buffer in
            // Written from Strings, so valid UTF-8 unless damaged, which the checksum rules out.
            String(decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + length]), as: UTF8.self)
        }
    }

    mutating func strings() -> [String]? {
        guard let count = u32(), Int(count) <= end - offset else { return nil }
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
