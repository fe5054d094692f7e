import Foundation
import Testing
import Trove
import TroveTestSupport

/// A process killed between a commit that decided to remove files and their removal leaves the
/// removal to the next open: the files go then, but a file that an item names again, or a file
/// made again at the same path, stays.
@Suite(.serialized)
struct FileEdgeCrashTests {
    @Test func filesAKilledProcessLeftAreRemovedAtTheNextOpenButNeverANamedOne() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/files.trove"
        let blobs = FileEdgeWorkload.folder(ofDatabaseAt: path)
        func onDisk() -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: blobs)) ?? []) }

        let child = try CrashWriterProcess(mode: "files", path: path)
        let committed = child.waitForLine(timeout: .seconds(60)) { $0 == "committed" }
        // Between the commit and the removal: the three files are still there.
        let filesAtTheKill = onDisk()
        if let problem = child.sigkill() {
            Issue.record("\(problem)")
            return
        }
        try #require(committed, "the child never committed the removal: \(child.lines) \(child.errors)")
        #expect(child.lines == ["stored", "committed"])
        #expect(filesAtTheKill == ["a.bin", "b.bin", "c.bin"])

        do {
            // Without the relationships: the removal is in the file, and the files are left.
            let database = try Database(path: path)
            #expect(try database.integrityCheck().isOK)
            let connection = try database.newConnection()
            try connection.write { tx in
                #expect(try tx.keys(of: CrashItem.self).isEmpty)
                // An item names b.bin again (written without the relationships: they go stale and
                // are rebuilt at the next open that registers them).
                try tx.write(FileEdgeWorkload.item("d", file: "b.bin"))
            }
            #expect(onDisk() == ["a.bin", "b.bin", "c.bin"])
        }
        // c.bin is made again: another file at the same path, which nothing decided to remove.
        try FileManager.default.removeItem(atPath: blobs + "/c.bin")
        Thread.sleep(forTimeInterval: 0.05)
        #expect(FileManager.default.createFile(atPath: blobs + "/c.bin", contents: Data("new c".utf8)))

        let database = try Database(path: path, extensions: [FileEdgeWorkload.relationships.databaseExtension])
        #expect(onDisk() == ["b.bin", "c.bin"])
        let named = try database.newConnection().read { tx in
            try FileEdgeWorkload.relationships.sources(pointingTo: "b.bin", edge: "blob").keys(tx)
        }
        #expect(named == ["f-d"])
        // Settled once: opening again removes nothing more, and the record is gone.
        #expect(try database.register(FileEdgeWorkload.relationships.databaseExtension) == .unchanged)
        #expect(onDisk() == ["b.bin", "c.bin"])
        let raw = try RawDatabase(path: path)
        #expect(try raw.rows("SELECT count(*) FROM trove_ext_crash_files_files").first?.first ?? nil == "0")
    }
}
