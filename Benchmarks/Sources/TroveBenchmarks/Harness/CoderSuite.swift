import CCallgrind
import Foundation
import Trove

/// The coders alone, no database: encode then decode N users with their metadata.
enum CoderKind: String, CaseIterable {
    case handWritten = "hand-written"
    case generated
    case json

    var title: String {
        switch self {
        case .handWritten: "hand-written compact (baseline)"
        case .generated: "Trove generated"
        case .json: "JSONEncoder/JSONDecoder"
        }
    }
}

enum CoderOperation: String, CaseIterable {
    case encode
    case decode

    func title(count: Int) -> String {
        switch self {
        case .encode: "encode \(Workload.format(count)) users + metadata"
        case .decode: "decode \(Workload.format(count)) users + metadata"
        }
    }
}

/// Times each coder on the same users, `runs` times, taking turns as the database suite does.
struct CoderSuite {
    let options: Options
    let users: [User]
    private(set) var samples: [CoderKind: [CoderOperation: Samples]] = [:]
    private(set) var otherSamples: [CoderKind: [CoderOperation: Samples]] = [:]
    /// The encoded size of the users with their metadata, in bytes, per coder.
    private(set) var sizes: [CoderKind: Int] = [:]

    init(options: Options, users: [User]) {
        self.options = options
        self.users = users
    }

    mutating func run() throws {
        let expected = users.reduce(into: Checksum()) { $0.add($1) }
        for run in 0..<options.runs {
            log("run \(run + 1)/\(options.runs): coders")
            for kind in CoderKind.allCases.rotated(by: run) {
                var checksum = Checksum()
                let encodeStart = Stopwatch()
                if options.profilesCoders { benchmark_callgrind_start() }
                let encoded: EncodedUsers
                switch kind {
                case .handWritten: encoded = try encodeHandWritten()
                case .generated: encoded = try encodeGenerated()
                case .json: encoded = try encodeJSON()
                }
                if options.profilesCoders { benchmark_callgrind_stop("coder-encode-\(kind.rawValue) \(users.count)") }
                let encodeTime = encodeStart.elapsed()
                let decodeStart = Stopwatch()
                if options.profilesCoders { benchmark_callgrind_start() }
                switch kind {
                case .handWritten: try decodeHandWritten(encoded, into: &checksum)
                case .generated: try decodeGenerated(encoded, into: &checksum)
                case .json: try decodeJSON(encoded, into: &checksum)
                }
                if options.profilesCoders { benchmark_callgrind_stop("coder-decode-\(kind.rawValue) \(users.count)") }
                let decodeTime = decodeStart.elapsed()
                guard checksum == expected else {
                    throw BenchmarkError("coder \(kind.rawValue): decoded \(checksum), expected \(expected)")
                }
                for (operation, time) in [(CoderOperation.encode, encodeTime), (.decode, decodeTime)] {
                    let (main, other) = options.clock == .cpu ? (time.cpu, time.wall) : (time.wall, time.cpu)
                    samples[kind, default: [:]][operation, default: Samples()].append(main)
                    otherSamples[kind, default: [:]][operation, default: Samples()].append(other)
                }
                sizes[kind] = encoded.byteCount
            }
        }
    }

    // Encoding writes each user into one reused buffer and copies the bytes out, as a database
    // write would hand them to SQLite; JSONEncoder returns a new `Data` for each value.

    @inline(never)
    private func encodeHandWritten() throws -> EncodedUsers {
        var encoded = EncodedUsers(capacity: users.count)
        var coder = HandWrittenItemCoder()
        for user in users {
            try coder.withEncoded(user) { data, metadata in encoded.append(data, metadata) }
        }
        return encoded
    }

    @inline(never)
    private func encodeGenerated() throws -> EncodedUsers {
        var encoded = EncodedUsers(capacity: users.count)
        var data = BinaryWriter(reservingCapacity: 512)
        var metadata = BinaryWriter(reservingCapacity: 64)
        for user in users {
            data.removeAll(keepingCapacity: true)
            try User.Coder.encode(user, to: &data)
            if let stats = user.metadata {
                metadata.removeAll(keepingCapacity: true)
                try User.MetadataCoder.encode(stats, to: &metadata)
                data.withUnsafeBytes { data in
                    metadata.withUnsafeBytes { metadata in encoded.append(data, metadata) }
                }
            } else {
                data.withUnsafeBytes { encoded.append($0, nil) }
            }
        }
        return encoded
    }

    @inline(never)
    private func encodeJSON() throws -> EncodedUsers {
        var encoded = EncodedUsers(capacity: users.count)
        var coder = JSONItemCoder()
        for user in users {
            try coder.withEncoded(user) { data, metadata in encoded.append(data, metadata) }
        }
        return encoded
    }

    @inline(never)
    private func decodeHandWritten(_ encoded: EncodedUsers, into checksum: inout Checksum) throws {
        var coder = HandWrittenItemCoder()
        try encoded.forEach { data, metadata in
            checksum.add(try coder.decode(data: data, metadata: metadata))
        }
    }

    @inline(never)
    private func decodeGenerated(_ encoded: EncodedUsers, into checksum: inout Checksum) throws {
        try encoded.forEach { data, metadata in
            var reader = BinaryReader(data)
            var user = try User.Coder.decode(from: &reader)
            if let metadata {
                var reader = BinaryReader(metadata)
                user.metadata = try User.MetadataCoder.decode(from: &reader)
            }
            checksum.add(user)
        }
    }

    @inline(never)
    private func decodeJSON(_ encoded: EncodedUsers, into checksum: inout Checksum) throws {
        var coder = JSONItemCoder()
        try encoded.forEach { data, metadata in
            checksum.add(try coder.decode(data: data, metadata: metadata))
        }
    }
}

/// The encoded users of one coder: every blob in one buffer, as rows in a database page.
struct EncodedUsers {
    private var bytes: [UInt8] = []
    /// For each user: where its data starts, where its metadata starts, where it ends
    /// (metadata start == end when it has none).
    private var bounds: [(data: Int, metadata: Int, end: Int)] = []
    private var hasMetadata: [Bool] = []

    init(capacity: Int) {
        bounds.reserveCapacity(capacity)
        hasMetadata.reserveCapacity(capacity)
    }

    var byteCount: Int { bytes.count }

    mutating func append(_ data: UnsafeRawBufferPointer, _ metadata: UnsafeRawBufferPointer?) {
        let start = bytes.count
        bytes.append(contentsOf: data)
        let metadataStart = bytes.count
        if let metadata { bytes.append(contentsOf: metadata) }
        bounds.append((start, metadataStart, bytes.count))
        hasMetadata.append(metadata != nil)
    }

    func forEach(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { buffer in
            for (index, bound) in bounds.enumerated() {
                let data = UnsafeRawBufferPointer(rebasing: buffer[bound.data..<bound.metadata])
                let metadata = hasMetadata[index] ? UnsafeRawBufferPointer(rebasing: buffer[bound.metadata..<bound.end]) : nil
                try body(data, metadata)
            }
        }
    }
}
