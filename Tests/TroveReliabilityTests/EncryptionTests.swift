import Foundation
import Testing
// `Database.connectionKey`: the key a passphrase derives, which later connections use.
@testable import Trove
import TroveTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Encrypted files (package trait `Encryption`): nothing readable in the file, its log or a
/// backup; wrong and missing keys refused before anything is written; keys changed and removed
/// atomically, even under SIGKILL. Without the trait, a key is refused, never ignored.
@Suite(.serialized)
struct EncryptionTests {
    static let key = EncryptionKey.passphrase("correct horse battery staple")

    /// Every place a value of an item reaches the file: its key, its fields, its metadata, an
    /// index's column, a full-text search's text.
    static let markers = ["MARKERKEYQ", "MARKERINDEXEDQ", "MARKERSEARCHEDQ", "MARKERRAWITEMQ", "MARKERMETADATAQ"]
    static let index = SecondaryIndex<CrashItem>(
        "markers_index", columns: [.column("first") { String(decoding: $0.payload, as: UTF8.self).split(separator: " ").first.map(String.init) ?? "" }])
    static let search = FullTextSearch<CrashItem>(
        "markers_search", columns: [.column("text") { String(decoding: $0.payload, as: UTF8.self).split(separator: " ").last.map(String.init) ?? "" }])

    static func configuration(_ key: EncryptionKey?) -> Configuration {
        var configuration = Configuration()
        configuration.encryptionKey = key
        return configuration
    }

    static func open(_ path: String, key: EncryptionKey?) throws -> Database {
        try Database(path: path, configuration: configuration(key), extensions: [index.databaseExtension, search.databaseExtension])
    }

    /// Which of `markers` appear in `bytes`, in any case (full-text search keeps its tokens in
    /// lower case).
    static func found(in bytes: Data) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        return markers.filter { text.contains($0.lowercased()) }
    }

    /// The items of the file whose key changes under SIGKILL: enough that a change takes long
    /// enough for kills to land in it.
    static let rekeyItems = 2_000

    #if Encryption
    /// Writes the markers, and returns the bytes of the write-ahead log while the database is
    /// open (the last connection to close folds it into the file and removes it) and the path
    /// of a backup; the database is closed on return.
    static func writeMarkers(at path: String, key: EncryptionKey?) throws -> (log: Data, backup: String) {
        let database = try open(path, key: key)
        try database.write { tx in
            for n in 0..<50 {
                try tx.write(CrashItem(id: "MARKERKEYQ-\(n)", group: n, payload: Data("MARKERINDEXEDQ MARKERSEARCHEDQ".utf8), metadata: nil))
            }
            try tx.setData(Data("MARKERRAWITEMQ".utf8), metadata: Data("MARKERMETADATAQ".utf8), forKey: "raw", in: "raw")
        }
        let log = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        let backup = path + ".backup"
        try database.backup(to: backup)
        return (log, backup)
    }

    /// The markers are in none of the bytes of an encrypted file, its log and its backup; the
    /// same writes without a key leave every one of them readable (so the check can fail).
    @Test(arguments: [true, false])
    func markersAreReadableOnlyWithoutEncryption(encrypted: Bool) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/markers.trove"
        let (log, backup) = try Self.writeMarkers(at: path, key: encrypted ? Self.key : nil)
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        let copy = try Data(contentsOf: URL(fileURLWithPath: backup))
        if encrypted {
            #expect(Self.found(in: file).isEmpty)
            #expect(Self.found(in: log).isEmpty)
            #expect(Self.found(in: copy).isEmpty)
            #expect(!file.starts(with: Data("SQLite format 3".utf8)))
            // And the items are all there, with the key.
            let reopened = try Self.open(path, key: Self.key)
            #expect(try reopened.read { try $0.count(of: CrashItem.self) } == 50)
            let searched = try reopened.read { try Self.search.query(for: .raw("markersearchedq")).keys($0) }
            #expect(searched.count == 50)
        } else {
            #expect(Self.found(in: file + log) == Self.markers)
            #expect(Self.found(in: copy) == Self.markers)
        }
    }

    /// A wrong key, no key, and a key for a plain file: each refused with a clear error before
    /// anything is written (the file's bytes do not change).
    @Test func wrongAndMissingKeysAreRefusedAndWriteNothing() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/locked.trove"
        _ = try Self.writeMarkers(at: path, key: Self.key)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let wrong = #expect(throws: TroveError.self) { _ = try Self.open(path, key: .passphrase("wrong")) }
        #expect(wrong?.code == .encryptionKey)
        #expect(wrong?.message.contains("does not open") == true)
        let missing = #expect(throws: TroveError.self) { _ = try Self.open(path, key: nil) }
        #expect(missing?.code == .encryptionKey)
        #expect(missing?.message.contains("open it with its key") == true)
        let changeWithout = #expect(throws: TroveError.self) {
            try Database.changeEncryptionKey(ofFileAt: path, from: nil, to: .passphrase("new"))
        }
        #expect(changeWithout?.code == .encryptionKey)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

        let plain = folder + "/plain.trove"
        _ = try Self.writeMarkers(at: plain, key: nil)
        let keyForPlain = #expect(throws: TroveError.self) { _ = try Self.open(plain, key: Self.key) }
        #expect(keyForPlain?.code == .encryptionKey)
    }

    /// Encrypt a plain file, change its key, decrypt it: after each step only the new key opens
    /// it, and the items, their index and their search are intact.
    @Test func keysChangeAndGo() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rekey.trove"
        _ = try Self.writeMarkers(at: path, key: nil)
        let other = EncryptionKey.passphrase("another")
        for (old, new) in [(nil, Self.key), (Self.key, other), (other, nil)] as [(EncryptionKey?, EncryptionKey?)] {
            try Database.changeEncryptionKey(ofFileAt: path, from: old, to: new)
            let refused = #expect(throws: TroveError.self) { _ = try Self.open(path, key: old) }
            #expect(refused?.code == .encryptionKey)
            let database = try Self.open(path, key: new)
            #expect(try database.read { try $0.count(of: CrashItem.self) } == 50)
            #expect(try database.read { try Self.search.query(for: .raw("markersearchedq")).keys($0) }.count == 50)
            #expect(try database.integrityCheck().isOK)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(Self.found(in: bytes).isEmpty == (new != nil))
        }
    }

    /// A key cannot change under an open database.
    @Test func aKeyDoesNotChangeUnderAnOpenDatabase() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/open.trove"
        _ = try Self.writeMarkers(at: path, key: Self.key)
        let database = try Self.open(path, key: Self.key)
        // Its connections hold the file open after a read.
        #expect(try database.read { try $0.count(of: CrashItem.self) } == 50)
        let error = #expect(throws: TroveError.self) {
            try Database.changeEncryptionKey(ofFileAt: path, from: Self.key, to: .passphrase("new"))
        }
        #expect(error?.message.contains("another connection or process has the file open") == true, "\(String(describing: error))")
        #expect(try database.read { try $0.count(of: CrashItem.self) } == 50)
    }

    /// A database derives a passphrase's key once (PBKDF2, a fifth of a second), with its first
    /// connection, and gives every later connection the result: the reader pool's connections,
    /// opened as readers are needed, and a connection of its own open the file without deriving
    /// it again, and read what the first wrote; another database opened with the passphrase
    /// reads it too. Run on a new file and on one that exists.
    @Test func aDatabaseDerivesAPassphrasesKeyOnce() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/derived.trove"
        for round in 0..<2 {
            let database = try Self.open(path, key: Self.key)
            let key = try #require(database.connectionKey)
            #expect(!key.isPassphrase && key != Self.key, "round \(round): later connections derive the key again")
            // A new file: its first connection derives the key, and makes the salt the database
            // derives it with again; a file with its salt: once, before the first connection.
            #expect(database.keyDerivationsAtOpen == (round == 0 ? 2 : 1), "round \(round)")
            try await database.write { tx in
                try tx.write(CrashItem(id: "round-\(round)", group: round, payload: Data("MARKERINDEXEDQ MARKERSEARCHEDQ".utf8), metadata: nil))
            }
            // Eight readers at once: the pool opens a connection for each.
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await database.read { tx in try tx.count(of: CrashItem.self) } }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts == Array(repeating: round + 1, count: 8), "round \(round)")
            #expect(try await database.newConnection().read { try $0.count(of: CrashItem.self) } == round + 1)
            let other = try Self.open(path, key: Self.key)
            #expect(try await other.read { try $0.count(of: CrashItem.self) } == round + 1)
        }
        #expect(Self.found(in: try Data(contentsOf: URL(fileURLWithPath: path))).isEmpty)
    }

    /// A backup keeps the database's key unless asked otherwise.
    @Test func backupsKeepTheKeyUnlessToldOtherwise() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/source.trove"
        _ = try Self.writeMarkers(at: path, key: Self.key)
        let database = try Self.open(path, key: Self.key)
        let other = EncryptionKey.passphrase("backup key")
        for (name, encryption, key) in [("same", BackupEncryption.sameKey, Self.key), ("other", .key(other), other), ("plain", .none, nil)]
            as [(String, BackupEncryption, EncryptionKey?)]
        {
            let copy = folder + "/\(name).trove"
            try database.backup(to: copy, encryption: encryption)
            let opened = try Self.open(copy, key: key)
            #expect(try opened.read { try $0.count(of: CrashItem.self) } == 50, "\(name)")
            #expect(Self.found(in: try Data(contentsOf: URL(fileURLWithPath: copy))).isEmpty == (key != nil), "\(name)")
        }
    }

    /// The `trove` command opens an encrypted file with the passphrase in `TROVE_ENCRYPTION_KEY`,
    /// or read from standard input when the variable is `-` (never from its arguments, which
    /// every user of the machine can see); without it, or with a wrong one, it fails with a
    /// message that says so and names the variable; its backup keeps the key.
    @Test func theTroveCommandTakesTheKeyFromTheEnvironmentOrStandardInput() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/command.trove"
        _ = try Self.writeMarkers(at: path, key: Self.key)
        let passphrase = "correct horse battery staple"
        let trove = try ChildProcess.builtExecutable(named: "trove")
        func run(_ arguments: [String], key: String?, input: String = "") throws -> (status: Int32?, output: [String], errors: String) {
            let child = try ChildProcess(
                executable: trove, arguments: arguments, environment: ["TROVE_ENCRYPTION_KEY": key], input: Data(input.utf8))
            let status = child.waitForExit()
            return (status, child.lines, child.errors)
        }

        let fromEnvironment = try run(["keys", path, "raw"], key: passphrase)
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.errors)")
        #expect(fromEnvironment.output == ["raw"])
        let fromInput = try run(["keys", path, "raw"], key: "-", input: passphrase + "\n")
        #expect(fromInput.status == 0, "\(fromInput.errors)")
        #expect(fromInput.output == ["raw"])

        let missing = try run(["keys", path, "raw"], key: nil)
        #expect(missing.status == 1)
        #expect(missing.errors.contains("open it with its key") && missing.errors.contains("TROVE_ENCRYPTION_KEY"), "\(missing.errors)")
        let wrong = try run(["keys", path, "raw"], key: "wrong")
        #expect(wrong.status == 1)
        #expect(wrong.errors.contains("does not open") && wrong.errors.contains("TROVE_ENCRYPTION_KEY"), "\(wrong.errors)")
        let noInput = try run(["keys", path, "raw"], key: "-")
        #expect(noInput.status == 1)
        #expect(noInput.errors.contains("standard input holds no passphrase"), "\(noInput.errors)")

        let copy = folder + "/command-copy.trove"
        let backup = try run(["backup", path, copy], key: passphrase)
        #expect(backup.status == 0, "\(backup.errors)")
        #expect(Self.found(in: try Data(contentsOf: URL(fileURLWithPath: copy))).isEmpty)
        #expect(try Self.open(copy, key: Self.key).read { try $0.count(of: CrashItem.self) } == 50)
    }

    /// `trove-crash-writer rekey` changes the key of a file again and again (encrypting,
    /// encrypting again, decrypting) and is killed at a random moment: the file opens with the
    /// last key it acknowledged or the next one, never neither, and holds every item, intact.
    @Test func killedWhileTheKeyChangesTheFileOpensWithTheOldOrTheNewKey() throws {
        let kills = Soak.integer("TROVE_REKEY_KILLS", default: 30)
        let seed = UInt64(Soak.integer("TROVE_CRASH_SEED", default: Int(UInt32.random(in: 0...UInt32.max))))
        var random = SeededGenerator(seed: seed)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rekey.trove"
        do {
            let database = try Self.open(path, key: CrashWorkload.rekeyKey(0))
            try database.write { tx in
                for n in 0..<Self.rekeyItems {
                    try tx.write(CrashWorkload.item(id: "item-\(n)", group: n, salt: 5))
                }
            }
        }
        var step = 0
        var changes = 0
        for round in 0..<kills {
            let child = try CrashWriterProcess(mode: "rekey", path: path, extra: [String(step)])
            // Odd rounds: after the first acknowledged change; even ones: at any moment.
            if round % 2 == 1 {
                _ = child.waitForLine(timeout: .seconds(60)) { $0.hasPrefix("rekeyed ") }
            }
            usleep(UInt32(random.next() % 600_000))
            if let problem = child.sigkill() {
                Issue.record("round \(round): \(problem)")
                return
            }
            let acknowledged = child.lines.compactMap { $0.hasPrefix("rekeyed ") ? Int($0.dropFirst(8)) : nil }
            changes += acknowledged.count
            step = acknowledged.last ?? step
            // The key of the last acknowledged step, or of the one under way.
            var opened: (Int, Database)?
            for candidate in [step, step + 1] {
                if let database = try? Self.open(path, key: CrashWorkload.rekeyKey(candidate)) {
                    opened = (candidate, database)
                    break
                }
            }
            guard let (now, database) = opened else {
                Issue.record("round \(round) (seed \(seed)): the file opens with neither the key of step \(step) nor of step \(step + 1)")
                return
            }
            #expect(try database.read { try $0.count(of: CrashItem.self) } == Self.rekeyItems, "round \(round)")
            #expect(try database.integrityCheck().isOK, "round \(round)")
            step = now
        }
        #expect(changes >= kills / 2, "only \(changes) key changes were acknowledged in \(kills) rounds")
        Soak.report("rekey: \(kills) SIGKILLs during key changes, \(changes) changes acknowledged, every file opened, seed \(seed)")
    }
    #else
    /// Without the trait, a key is refused: a file the user believes encrypted is never written
    /// in the clear.
    @Test func aKeyIsRefusedWithoutTheEncryptionTrait() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = #expect(throws: TroveError.self) { _ = try Self.open(folder + "/refused.trove", key: Self.key) }
        #expect(error?.code == .misuse)
        #expect(error?.message.contains("Encryption") == true)
        // The size from the file system: Foundation's Data(contentsOf:) leaks its buffer for an
        // empty file (LeakSanitizer).
        let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/refused.trove"))?[.size] as? Int
        #expect((size ?? 0) == 0)
    }
    #endif

    /// New database files, their log and shared memory, and backups are readable by their owner
    /// only, whatever the umask; a file shared on purpose keeps its mode, and its log follows it.
    @Test func newFilesAreTheOwnersOnly() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let previous = umask(0o022)
        defer { umask(previous) }
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
        }
        let path = folder + "/private.trove"
        let database = try Self.open(path, key: TestEncryption.key)
        try database.write { tx in try tx.setData(Data("x".utf8), forKey: "a", in: "c") }
        #expect(try mode(path) == 0o600)
        #expect(try mode(path + "-wal") == 0o600)
        #expect(try mode(path + "-shm") == 0o600)
        try database.backup(to: folder + "/copy.trove")
        #expect(try mode(folder + "/copy.trove") == 0o600)

        let shared = folder + "/shared.trove"
        _ = FileManager.default.createFile(atPath: shared, contents: nil, attributes: [.posixPermissions: 0o660])
        let sharedDatabase = try Self.open(shared, key: TestEncryption.key)
        try sharedDatabase.write { tx in try tx.setData(Data("x".utf8), forKey: "a", in: "c") }
        #expect(try mode(shared) == 0o660)
        #expect(try mode(shared + "-wal") == 0o660)
    }
}
