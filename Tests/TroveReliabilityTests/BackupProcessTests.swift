import Foundation
import Synchronization
import Testing
import Trove
import TroveTestSupport

/// `database.backup(to:)` while another process commits (`trove-crash-writer sequence`, one
/// numbered item per transaction, each acknowledged on its standard output after it returned).
///
/// The copy must be one snapshot taken when the backup began: it passes `integrity_check`, holds
/// exactly the items 1...k for some k, each with its data, with k at least the last number
/// acknowledged before the backup started (a copy of the main file without its write-ahead log
/// misses those) and at most one more than the last acknowledged when the copy's first pages
/// were written (a backup that started over because of the writer, or read without a
/// snapshot, holds later ones). The backup waits, after its first step, until the writer has
/// committed more, so that commits always land while it copies. About a second.
///
/// With the default auto-checkpoint (1,000 pages) the writer's log is copied into the main file
/// about every 370 commits of this workload; the backup starts after 400, so the last ones
/// acknowledged are only in the log.
@Suite(.serialized)
struct BackupProcessTests {
    /// The numbers the writer acknowledged so far.
    static func lastAcknowledged(_ child: CrashWriterProcess) -> Int {
        child.lines.compactMap { line in line.hasPrefix("committed ") ? Int(line.dropFirst(10)) : nil }.max() ?? 0
    }

    @Test func backupWhileAnotherProcessCommitsHoldsAPrefixOfItsAcknowledgedCommits() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/source.trove"
        let copy = folder + "/copy.trove"
        let database = try Database(path: path)
        let child = try CrashWriterProcess(mode: "sequence", path: path)
        var killed = false
        defer { if !killed { _ = child.sigkill() } }

        // Enough commits for a file of a few hundred pages, part of them only in the log.
        let started = child.waitForLine(timeout: .seconds(60)) { $0 == "committed 400" }
        try #require(
            started, "the writer acknowledged 400 commits in 60 s: \(child.lines.last ?? "none") \(child.errors)")
        let before = Self.lastAcknowledged(child)
        var steps = 0
        var atFirstStep = 0
        var committedDuringBackup = false
        try database.backup(to: copy, pagesPerStep: 16) { _ in
            steps += 1
            guard steps == 1 else { return }
            // Every line the writer printed before the copy's snapshot began is read by now.
            usleep(100_000)
            atFirstStep = Self.lastAcknowledged(child)
            // The copy has begun: let the writer commit a few more before it goes on.
            committedDuringBackup = child.waitForLine(timeout: .seconds(30)) { line in
                line.hasPrefix("committed ") && (Int(line.dropFirst(10)) ?? 0) >= atFirstStep + 20
            }
        }
        let after = Self.lastAcknowledged(child)
        killed = true
        if let problem = child.sigkill() {
            Issue.record("the writer: \(problem)")
        }
        #expect(steps > 1, "the backup copied in several steps")
        #expect(committedDuringBackup, "the writer committed while the backup ran (\(atFirstStep) -> \(after))")

        var configuration = Configuration()
        configuration.isReadOnly = true
        let backup = try Database(path: copy, configuration: configuration)
        let problems = try backup.integrityCheck().problems
        #expect(problems == [])
        let rows = try backup.newConnection().read { tx in
            try tx.keys(in: CrashWorkload.sequenceCollection).map {
                ($0, try tx.data(forKey: $0, in: CrashWorkload.sequenceCollection))
            }
        }
        let k = rows.count
        let isPrefix = rows.map(\.0) == (0..<k).map { CrashWorkload.sequenceKey($0 + 1) }
        let isIntact = rows.allSatisfy { key, data in data == CrashWorkload.sequencePayload(Int(key) ?? -1) }
        #expect(isPrefix, "the items 1...\(k), no gap")
        #expect(isIntact, "each item holds its data")
        #expect(k >= before, "the copy holds \(k) commits; \(before) were acknowledged before the backup began")
        #expect(
            k <= atFirstStep + 1,
            "the copy holds \(k) commits; only \(atFirstStep) were acknowledged when it began copying")
        #expect(after > k, "later commits are not in the copy")
        if steps > 1, committedDuringBackup, problems.isEmpty, isPrefix, isIntact, k >= before, k <= atFirstStep + 1 {
            Soak.report(
                "backup: copy holds commits 1...\(k) (\(before) acknowledged before it began, \(atFirstStep) when it began copying, \(after) when it ended), \(steps) steps"
            )
        }
    }
}
