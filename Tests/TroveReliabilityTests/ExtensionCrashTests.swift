import Foundation
import Testing
import Trove
import TroveTestSupport

/// Registration of an extension is one transaction: a process killed while it fills an index
/// leaves no half-built index, and the next registration builds it whole.
@Suite(.serialized)
struct ExtensionCrashTests {
    @Test func killedWhileAnIndexPopulatesLeavesNoHalfBuiltIndex() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/index.trove"
        let count = 60_000
        do {
            let connection = try Database(path: path).newConnection()
            try connection.readWrite { tx in
                for n in 0..<count {
                    try tx.write(CrashItem(id: "i\(n)", group: n % 100, payload: Data([UInt8(n & 0xFF)]), metadata: nil))
                }
            }
        }
        var killedMidway = 0
        for round in 0..<3 {
            let child = try CrashWriterProcess(mode: "index", path: path)
            // Killed once it has filled a good part of the index, before it commits.
            let started = child.waitForLine(timeout: .seconds(60)) { $0 == "populated 20000" }
            if let problem = child.sigkill() {
                Issue.record("round \(round): \(problem)")
                return
            }
            #expect(started, "round \(round): the child never reported progress: \(child.lines)")
            if !child.lines.contains("registered") { killedMidway += 1 }

            #expect(try integrityCheck(path: path) == ["ok"], "round \(round)")
            let tables = try RawDatabase(path: path).rows("SELECT name FROM sqlite_master WHERE name GLOB 'trove_ext_*'")
            #expect(tables.isEmpty == !child.lines.contains("registered"), "round \(round): \(tables)")
            let database = try Database(path: path)
            if child.lines.contains("registered") {
                #expect(database.orphanedExtensions == ["crash_by_group"])
            } else {
                // Nothing of the registration is in the file.
                #expect(database.orphanedExtensions.isEmpty, "round \(round)")
            }
            let registration = try database.register(CrashIndex.byGroup.databaseExtension)
            #expect(registration == (child.lines.contains("registered") ? .unchanged : .created), "round \(round)")
            let connection = try database.newConnection()
            let perGroup = try connection.read { tx in
                try CrashIndex.byGroup.query(tx).filter(.column("group", equals: 7)).count()
            }
            #expect(perGroup == count / 100, "round \(round)")
            #expect(try connection.read { tx in try CrashIndex.byGroup.query(tx).count() } == count, "round \(round)")
            // Leave the file without the index for the next round.
            #expect(try database.unregister("crash_by_group"))
        }
        #expect(killedMidway >= 2, "the child finished before it was killed in \(3 - killedMidway) of 3 rounds")
        Soak.report("extension crash: \(killedMidway) of 3 registrations killed while populating \(count) items, none half-built")
    }
}
