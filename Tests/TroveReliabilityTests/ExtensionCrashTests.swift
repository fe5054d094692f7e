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
            let connection = try Database(path: path, configuration: TestEncryption.configuration).newConnection()
            try connection.write { tx in
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
            let database = try Database(path: path, configuration: TestEncryption.configuration)
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
                try CrashIndex.byGroup.query.filter(.column("group", equals: 7)).count(tx)
            }
            #expect(perGroup == count / 100, "round \(round)")
            #expect(try connection.read { tx in try CrashIndex.byGroup.query.count(tx) } == count, "round \(round)")
            // Leave the file without the index for the next round.
            #expect(try database.unregister("crash_by_group"))
        }
        #expect(killedMidway >= 2, "the child finished before it was killed in \(3 - killedMidway) of 3 rounds")
        Soak.report("extension crash: \(killedMidway) of 3 registrations killed while populating \(count) items, none half-built")
    }

    /// A process killed while it (re)builds a view leaves the file with the view as it was
    /// before, complete (or with no view, the first time), never half-built: after every kill the
    /// view reads exactly what filter, group and sort compute over the items, and registering the
    /// new version then builds it whole. The kills fall while the child reads the items, and
    /// while it sorts and stores the groups one after the other (when the sort first sees the
    /// third or fifth group, the pages of the groups before are written).
    @Test func killedWhileAViewBuildsLeavesTheOldViewOrNone() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/view.trove"
        let count = 12_000
        do {
            let connection = try Database(path: path, configuration: TestEncryption.configuration).newConnection()
            try connection.write { tx in
                for n in 0..<count {
                    try tx.write(
                        CrashItem(id: "i\(n)", group: n % 100, payload: Data([UInt8((n * 37) & 0xFF)]), metadata: nil))
                }
            }
        }
        var killedMidway = 0
        // Round 0 builds the view the first time; the others rebuild it from version 1 to 2.
        let rounds: [(from: Int, killAt: String)] = [(0, "sorting 3"), (1, "populated 5000"), (1, "sorting 5")]
        for (round, plan) in rounds.enumerated() {
            if plan.from != 0 {
                // The file holds version 1, complete.
                let database = try Database(path: path, configuration: TestEncryption.configuration)
                _ = try database.register(CrashView.view(version: 1).databaseExtension)
                #expect(try contents(of: 1, in: database) == expected(version: 1, in: database), "round \(round)")
            }
            let newVersion = plan.from + 1
            let child = try CrashWriterProcess(mode: "view", path: path, extra: ["\(newVersion)"])
            let started = child.waitForLine(timeout: .seconds(60)) { $0 == plan.killAt }
            if let problem = child.sigkill() {
                Issue.record("round \(round): \(problem)")
                return
            }
            #expect(started, "round \(round): the child never reported progress: \(child.lines)")
            let finished = child.lines.contains("registered")
            if !finished { killedMidway += 1 }
            #expect(try integrityCheck(path: path) == ["ok"], "round \(round)")

            let survivor = finished ? newVersion : plan.from
            let database = try Database(path: path, configuration: TestEncryption.configuration)
            if survivor == 0 {
                // Nothing of the registration is in the file.
                #expect(database.orphanedExtensions.isEmpty, "round \(round)")
                let tables = try RawDatabase(path: path)
                    .rows("SELECT name FROM sqlite_master WHERE name GLOB 'trove_ext_*'")
                #expect(tables.isEmpty, "round \(round): \(tables)")
            } else {
                // The surviving version opens without work and reads exactly its contents.
                let registration = try database.register(CrashView.view(version: survivor).databaseExtension)
                #expect(registration == .unchanged, "round \(round): version \(survivor)")
                #expect(
                    try contents(of: survivor, in: database) == expected(version: survivor, in: database),
                    "round \(round): version \(survivor) is not what its definition computes")
            }
            // The new version registers whole.
            let registration = try database.register(CrashView.view(version: newVersion).databaseExtension)
            #expect(registration == (finished ? .unchanged : survivor == 0 ? .created : .rebuilt), "round \(round)")
            #expect(
                try contents(of: newVersion, in: database) == expected(version: newVersion, in: database),
                "round \(round): version \(newVersion) after registering it again")
            // The next round starts from version 1 again.
            _ = try database.register(CrashView.view(version: 1).databaseExtension)
        }
        #expect(
            killedMidway >= 2,
            "the child finished before it was killed in \(rounds.count - killedMidway) of \(rounds.count) rounds")
        Soak.report(
            "view crash: \(killedMidway) of \(rounds.count) view builds killed over \(count) items, none half-built")
    }

    private func contents(of version: Int, in database: Database) throws -> ViewContents {
        try database.newConnection().read { tx in try CrashView.view(version: version).read(tx).contents() }
    }

    private func expected(version: Int, in database: Database) throws -> ViewContents {
        let items = try database.newConnection().read { tx in try tx.readAll(CrashItem.self) }
        return CrashView.expectedContents(of: items, version: version)
    }
}
