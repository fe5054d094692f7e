import Trove

/// The implementations under test, in the order of the table's columns.
enum Implementation: String, CaseIterable {
    case baseline
    case trove
    case grdb
    case json
    #if Encryption
    /// Trove on a file encrypted with a passphrase (the trait `Encryption`): the cost of
    /// encryption, against the column "Trove" of the same run.
    case troveEncrypted
    /// The same, with a SQLite page cache of 64 MiB per connection (the default is 2,000 KiB), which
    /// holds the whole database of the core workloads: what a larger cache saves on decryption.
    case troveEncryptedLargeCache
    #endif

    #if Encryption
    /// The passphrase of the encrypted column.
    static let encryptionKey = EncryptionKey.passphrase(encryptionPassphrase)
    /// The passphrase itself, for raw SQLite connections to an encrypted file (`PRAGMA key`).
    static let encryptionPassphrase = "benchmark passphrase"
    #endif

    /// The passphrase of the implementation's files: `nil`, except for the encrypted column.
    var passphrase: String? {
        #if Encryption
            if self == .troveEncrypted || self == .troveEncryptedLargeCache { return Self.encryptionPassphrase }
        #endif
        return nil
    }

    /// How a Trove implementation opens its database: the default configuration, or with the key
    /// (and the page cache) of an encrypted column.
    var troveConfiguration: Trove.Configuration {
        #if Encryption
            switch self {
            case .troveEncrypted: return .benchmark(key: Self.encryptionKey)
            case .troveEncryptedLargeCache: return .benchmark(key: Self.encryptionKey, sqliteCacheSizeKiB: 65_536)
            default: break
            }
        #endif
        return .benchmark(key: nil)
    }

    /// The column title.
    var title: String {
        switch self {
        case .baseline: "SQLite + hand-written (baseline)"
        case .trove: "Trove (generated coder)"
        case .grdb: "GRDB 7.10 Codable records"
        case .json: "SQLite + Codable JSON"
        #if Encryption
        case .troveEncrypted: "Trove, encrypted (SQLCipher 4 scheme)"
        case .troveEncryptedLargeCache: "Trove, encrypted, 64 MiB page cache"
        #endif
        }
    }

    /// A short column title.
    var shortTitle: String {
        switch self {
        case .baseline: "baseline"
        case .trove: "Trove"
        case .grdb: "GRDB"
        case .json: "JSON"
        #if Encryption
        case .troveEncrypted: "Trove enc."
        case .troveEncryptedLargeCache: "Trove enc. 64M"
        #endif
        }
    }

    /// Opens the implementation's store in `directory`.
    func open(directory: String) throws -> any BenchmarkStore {
        switch self {
        case .baseline: try BaselineStore(directory: directory)
        case .trove: try TroveStore(directory: directory, configuration: troveConfiguration)
        case .grdb: try GRDBStore(directory: directory)
        case .json: try JSONStore(directory: directory)
        #if Encryption
        case .troveEncrypted, .troveEncryptedLargeCache: try TroveStore(directory: directory, configuration: troveConfiguration)
        #endif
        }
    }

    /// Opens the implementation's store with the index of the index workloads in `directory`.
    func openIndexed(directory: String) throws -> any IndexedBenchmarkStore {
        switch self {
        case .baseline: try BaselineIndexedStore(directory: directory)
        case .trove: try TroveIndexedStore(directory: directory, configuration: troveConfiguration)
        case .grdb: try GRDBIndexedStore(directory: directory)
        case .json: try JSONIndexedStore(directory: directory)
        #if Encryption
        case .troveEncrypted, .troveEncryptedLargeCache:
            try TroveIndexedStore(directory: directory, configuration: troveConfiguration)
        #endif
        }
    }
}

extension Trove.Configuration {
    /// The default configuration, with `key` (`nil`: a plain file) and SQLite's page cache of
    /// `sqliteCacheSizeKiB` per connection (`nil`: SQLite's default): how every Trove store of the
    /// benchmarks opens, so that the encrypted pass (``Options/troveKey``) reaches all of them.
    static func benchmark(key: EncryptionKey?, sqliteCacheSizeKiB: Int? = nil) -> Trove.Configuration {
        var configuration = Trove.Configuration()
        configuration.encryptionKey = key
        configuration.sqliteCacheSizeKiB = sqliteCacheSizeKiB
        return configuration
    }
}
