import Foundation
import Testing
import Trove
import TrovePostgres
import TroveTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Instances that die without a goodbye: two `trove-postgres-writer` processes commit to one
/// schema, racing for a shared total, and are killed with SIGKILL at a random moment. Every
/// commit a writer acknowledged (printed after `write` returned) is in the store afterwards,
/// and the total counts every commit that is there: no update lost between processes.
///
/// A writer may have committed one more transaction than it printed (killed between the commit
/// and the line), never more.
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct KilledInstanceTests {
    /// How long a writer may take to acknowledge its first commits: generous, for a loaded
    /// machine; only a broken writer or store reaches it.
    static let commitTimeout: Duration = .seconds(60)

    @Test func killedWritersLoseNothingTheyAcknowledged() async throws {
        let schema = TestServer.freshSchema()
        // The schema exists before the writers race to create it.
        let store = try await TestServer.openStore(schema: schema)
        var acknowledgedCommits = 0
        for round in 0..<3 {
            let names = ["a\(round)", "b\(round)"]
            let writers = try names.map { try WriterProcess(url: try #require(TestServer.url), schema: schema, name: $0) }
            // Each writer acknowledges a few commits, then both die at a random moment.
            for writer in writers {
                let started = writer.child.waitForLine(timeout: Self.commitTimeout) { $0 == "committed 4" }
                #expect(started, "writer \(writer.name) acknowledged no 5 commits in \(Self.commitTimeout): \(writer.child.errors)")
            }
            usleep(UInt32.random(in: 0...100_000))
            for writer in writers {
                if let problem = writer.child.sigkill() { Issue.record("\(writer.name): \(problem)") }
            }

            let stored = try await store.read { tx in try await tx.keys(in: KillTally.collection) }
            let storedSet = Set(stored)
            for writer in writers {
                let acknowledged = writer.child.lines.compactMap { line -> Int? in
                    line.hasPrefix("committed ") ? Int(line.dropFirst("committed ".count)) : nil
                }
                let last = try #require(acknowledged.max(), "writer \(writer.name) acknowledged nothing")
                #expect(acknowledged == Array(0...last), "writer \(writer.name) printed its commits out of order")
                acknowledgedCommits += acknowledged.count
                let lost = (0...last).filter { !storedSet.contains(KillTally.key(writer: writer.name, commit: $0)) }
                #expect(lost.isEmpty, "round \(round): acknowledged commits of \(writer.name) lost: \(lost)")
                // At most one commit more than acknowledged: the one killed before its line.
                let beyond = stored.filter {
                    $0.hasPrefix(writer.name + "-") && Int($0.dropFirst(writer.name.count + 1))! > last + 1
                }
                #expect(beyond.isEmpty, "round \(round): \(writer.name) committed more than it could have: \(beyond)")
            }
            // The shared total counts every commit stored, from both writers of every round.
            let total = try await store.read { tx in try await tx.read(KillTally.self, key: KillTally.totalKey) }
            #expect(total?.value == stored.count - 1, "round \(round): the total lost updates")
        }
        #expect(acknowledgedCommits >= 30)
        await TestServer.dispose(store)
    }
}

/// A running `trove-postgres-writer` (launched by TroveTestSupport's ``TroveTestSupport/ChildProcess``)
/// and its name.
struct WriterProcess {
    let name: String
    let child: ChildProcess

    /// Starts the writer `name` on `schema` of the server at `url`.
    init(url: String, schema: String, name: String) throws {
        self.name = name
        child = try ChildProcess(
            executable: ChildProcess.builtExecutable(named: "trove-postgres-writer"), arguments: [url, schema, name])
    }
}
