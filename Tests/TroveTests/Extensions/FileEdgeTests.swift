import Foundation
import Testing
import Trove
import TroveTestSupport

/// A note with attachments: files named by its properties.
struct RAttachmentNote: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<RAttachmentNote>
    static let collection = "r_attachment_notes"
    var id: String
    /// Files that go when no note names them any more.
    var files: [String] = []
    /// Files that go with any note that names them (unless another still does).
    var thumbnails: [String] = []
}

/// Edges to files: the rules remove a file after the commit of the transaction that removed its
/// source, never before it, never on a rollback, and never while an edge still names it.
@Suite struct FileEdgeTests {
    static let attachments = Relationships<RAttachmentNote>(
        "note_files",
        edges: [
            .toFiles("files", in: "attachments", rules: .deleteDestinationWhenAllSourcesDeleted) { $0.files },
            .toFiles("thumbnails", in: "attachments", rules: .deleteDestinationWhenSourceDeleted) { $0.thumbnails },
            .manualFiles("extras", in: "attachments", rules: .deleteDestinationWhenAllSourcesDeleted),
        ])

    /// A database with the attachments' edges (and `extensions`), and its folder of files.
    private static func makeDatabase(extensions: [DatabaseExtension] = []) throws -> (Database, folder: String) {
        let database = try Database.temporary(extensions: [attachments.databaseExtension] + extensions)
        let folder = (try attachments.fullPath(ofFile: "x", edge: "files", in: database) as NSString)
            .deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return (database, folder)
    }

    private static func create(_ names: [String], in folder: String) {
        for name in names {
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(name.utf8))
        }
    }

    private static func files(in folder: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    }

    @Test func aFileGoesAfterTheCommitThatRemovedItsLastSource() throws {
        let (database, folder) = try Self.makeDatabase()
        Self.create(["x.txt", "y.txt"], in: folder)
        let connection = try database.newConnection()
        try connection.write { tx in
            try tx.write(RAttachmentNote(id: "a", files: ["x.txt", "y.txt"]))
            try tx.write(RAttachmentNote(id: "b", files: ["y.txt"]))
        }
        try connection.write { tx in
            _ = try tx.remove(RAttachmentNote.self, key: "a")
            // Inside the transaction, the file is still there: a rollback could not bring it back.
            #expect(Self.files(in: folder) == ["x.txt", "y.txt"])
        }
        // "y.txt" is still named by "b".
        #expect(Self.files(in: folder) == ["y.txt"])
        try connection.write { tx in _ = try tx.remove(RAttachmentNote.self, key: "b") }
        #expect(Self.files(in: folder).isEmpty)
    }

    @Test func aRollbackRemovesNoFile() throws {
        let (database, folder) = try Self.makeDatabase()
        Self.create(["x.txt"], in: folder)
        let connection = try database.newConnection()
        try connection.write { tx in try tx.write(RAttachmentNote(id: "a", files: ["x.txt"])) }
        struct Abandon: Error {}
        #expect(throws: Abandon.self) {
            try connection.write { tx in
                _ = try tx.remove(RAttachmentNote.self, key: "a")
                throw Abandon()
            }
        }
        #expect(Self.files(in: folder) == ["x.txt"])
        // Nothing of the rolled-back decision is left to be settled later either.
        try connection.write { tx in try tx.write(RAttachmentNote(id: "b", thumbnails: [])) }
        try connection.write { tx in _ = try tx.remove(RAttachmentNote.self, key: "b") }
        #expect(Self.files(in: folder) == ["x.txt"])
        #expect(try database.register(Self.attachments.databaseExtension) == .unchanged)
        #expect(Self.files(in: folder) == ["x.txt"])
    }

    /// A commit that fails after the relationships decided (another extension's will-commit step,
    /// after theirs, throws) removes no file: files go after the commit, not at the decision.
    @Test func aCommitThatFailsAfterTheDecisionRemovesNoFile() throws {
        struct Refused: Error {}
        // Its name sorts after the relationships': its will-commit step runs after theirs.
        let failing = CommitSteps.databaseExtension(
            name: "zz_fail_at_commit", collection: RAttachmentNote.collection, willCommit: { throw Refused() })
        let (database, folder) = try Self.makeDatabase(extensions: [failing])
        Self.create(["x.txt"], in: folder)
        let connection = try database.newConnection()
        try connection.write { tx in try tx.write(RAttachmentNote(id: "a", files: ["x.txt"])) }
        let error = #expect(throws: TroveError.self) {
            try connection.write { tx in _ = try tx.remove(RAttachmentNote.self, key: "a") }
        }
        #expect(error?.extensionName == "zz_fail_at_commit", "\(String(describing: error))")
        #expect(Self.files(in: folder) == ["x.txt"])
        #expect(try connection.read { tx in try tx.read(RAttachmentNote.self, key: "a") } != nil)
    }

    @Test func aFileStillNamedStaysWhateverTheRule() throws {
        let (database, folder) = try Self.makeDatabase()
        Self.create(["shared.png", "moved.png"], in: folder)
        let connection = try database.newConnection()
        try connection.write { tx in
            try tx.write(RAttachmentNote(id: "a", thumbnails: ["shared.png", "moved.png"]))
            try tx.write(RAttachmentNote(id: "b", thumbnails: ["shared.png"]))
        }
        try connection.write { tx in
            _ = try tx.remove(RAttachmentNote.self, key: "a")
            // Named again, by another edge in the same folder, in the same transaction.
            try tx.write(RAttachmentNote(id: "c", files: ["moved.png"]))
        }
        #expect(Self.files(in: folder) == ["shared.png", "moved.png"])
        let (thumbnails, files, sources) = try connection.read { tx in
            (
                try Self.attachments.filePaths(of: "b", edge: "thumbnails", in: tx),
                try Self.attachments.filePaths(of: "c", edge: "files", in: tx),
                try Self.attachments.sources(pointingTo: "shared.png", edge: "thumbnails").keys(tx)
            )
        }
        #expect(thumbnails == ["shared.png"])
        #expect(files == ["moved.png"])
        #expect(sources == ["b"])
        // A write that changes the path moves the edge and leaves the old file.
        try connection.write { tx in try tx.write(RAttachmentNote(id: "b", thumbnails: [])) }
        #expect(Self.files(in: folder) == ["shared.png", "moved.png"])
    }

    @Test func aManualEdgeRemovedAsIfItsSourceWentRemovesTheFile() throws {
        let (database, folder) = try Self.makeDatabase()
        Self.create(["one.bin", "two.bin"], in: folder)
        let connection = try database.newConnection()
        try connection.write { tx in
            try tx.write(RAttachmentNote(id: "a"))
            try Self.attachments.addEdge("extras", from: "a", to: "one.bin", in: tx)
            try Self.attachments.addEdge("extras", from: "a", to: "two.bin", in: tx)
        }
        try connection.write { tx in
            try Self.attachments.removeEdge("extras", from: "a", to: "one.bin", in: tx)
            try Self.attachments.removeEdge(
                "extras", from: "a", to: "two.bin", applyingRulesAsIfRemoved: .source, in: tx)
        }
        // Without a rule asked for, the file stays.
        #expect(Self.files(in: folder) == ["one.bin"])
    }

    @Test func removingEveryItemRemovesTheirFiles() throws {
        let (database, folder) = try Self.makeDatabase()
        let connection = try database.newConnection()
        for everything in [false, true] {
            Self.create(["1", "2", "3"], in: folder)
            try connection.write { tx in
                try tx.write(RAttachmentNote(id: "a", files: ["1"], thumbnails: ["2"]))
                try tx.write(RAttachmentNote(id: "b"))
                try Self.attachments.addEdge("extras", from: "b", to: "3", in: tx)
            }
            try connection.write { tx in
                _ = everything ? try tx.removeAllItems() : try tx.removeAll(RAttachmentNote.self)
            }
            #expect(Self.files(in: folder).isEmpty, "everything: \(everything)")
        }
    }

    @Test func aPathOutsideTheFolderIsRefusedInWords() throws {
        let (database, _) = try Self.makeDatabase()
        let connection = try database.newConnection()
        for path in ["../escape.txt", "/etc/passwd", "", "a//b", "sub/../../x"] {
            let error = #expect(throws: TroveError.self) {
                try connection.write { tx in try tx.write(RAttachmentNote(id: "a", files: [path])) }
            }
            #expect(error?.code == .extensionFailed, "\(path)")
            #expect(error?.message.contains("'files'") == true, "\(path): \(String(describing: error))")
            #expect(error?.key == "a", "\(path)")
        }
        let manual = #expect(throws: TroveError.self) {
            try connection.write { tx in
                try tx.write(RAttachmentNote(id: "b"))
                try Self.attachments.addEdge("extras", from: "b", to: "../up", in: tx)
            }
        }
        #expect(manual?.message.contains("leaves its folder") == true, "\(String(describing: manual))")
        // A path inside a subfolder is a path.
        try connection.write { tx in try tx.write(RAttachmentNote(id: "c", files: ["sub/inner.txt"])) }
    }

    @Test func rulesThatActOnItemsAreRefusedForFiles() throws {
        let wrong = Relationships<RAttachmentNote>(
            "wrong_files",
            edges: [.toFile("file", in: "f", rules: .deleteSourceWhenDestinationDeleted) { $0.files.first }])
        let error = #expect(throws: TroveError.self) {
            _ = try Database.temporary(extensions: [wrong.databaseExtension])
        }
        #expect(error?.message.contains("deleteSourceWhenDestinationDeleted") == true, "\(String(describing: error))")
    }

    /// Random transactions of writes and removals of notes naming a few files, some rolled back:
    /// after each, the files on disk are those a brute-force model of the rules leaves.
    @Test(arguments: 0..<12) func filesMatchABruteForceModel(seed: Int) throws {
        let (database, folder) = try Self.makeDatabase()
        let connection = try database.newConnection()
        var random = SeededGenerator(seed: UInt64(seed) &+ 101)
        let keys = ["k0", "k1", "k2", "k3", "k4"]
        let paths = ["p0", "p1", "p2", "p3", "p4", "p5"]
        // The model: the notes stored, and the files on disk.
        var notes: [String: RAttachmentNote] = [:]
        var onDisk: Set<String> = []
        func subset() -> [String] { paths.filter { _ in Int.random(in: 0..<4, using: &random) == 0 } }
        struct Abandon: Error {}
        for round in 0..<40 {
            var staged = notes
            var decided: Set<String> = []
            var operations: [(ReadWriteTransaction) throws -> Void] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let key = keys.randomElement(using: &random)!
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5:
                    let note = RAttachmentNote(id: key, files: subset(), thumbnails: subset())
                    // The app writes a note's files before the note.
                    for path in note.files + note.thumbnails where !onDisk.contains(path) {
                        Self.create([path], in: folder)
                        onDisk.insert(path)
                    }
                    staged[key] = note
                    operations.append { try $0.write(note) }
                case 5..<9:
                    if let gone = staged.removeValue(forKey: key) {
                        for path in gone.files where !staged.values.contains(where: { $0.files.contains(path) }) {
                            decided.insert(path)
                        }
                        decided.formUnion(gone.thumbnails)
                    }
                    operations.append { _ = try $0.remove(RAttachmentNote.self, key: key) }
                default:
                    for gone in staged.values { decided.formUnion(gone.files + gone.thumbnails) }
                    staged.removeAll()
                    operations.append { _ = try $0.removeAll(RAttachmentNote.self) }
                }
            }
            let rollback = Int.random(in: 0..<5, using: &random) == 0
            do {
                try connection.write { tx in
                    for operation in operations { try operation(tx) }
                    if rollback { throw Abandon() }
                }
            } catch is Abandon {}
            if !rollback {
                notes = staged
                let named = Set(notes.values.flatMap { $0.files + $0.thumbnails })
                onDisk.subtract(decided.subtracting(named))
            }
            #expect(Self.files(in: folder) == onDisk, "seed \(seed), round \(round), rolled back: \(rollback)")
        }
    }
}
