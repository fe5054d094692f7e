import Foundation
import Testing
import Trove
import TroveTestSupport

/// Several processes write the same file at once, each incrementing a shared total in the
/// transaction that adds one of its items, while this process reads it: no process gets
/// SQLITE_BUSY (a child that fails exits, which fails the test), no update is lost, every
/// snapshot this process reads has exactly as many items as the total says (a cache that kept
/// the total of an older commit of another process would break it), and every acknowledged
/// item survives the final SIGKILLs.
@Suite(.serialized)
struct MultiProcessTests {
    @Test func processesSharingAFileLoseNoUpdateAndReadersSeeNoStaleCache() throws {
        let seconds = Soak.integer("TROVE_LOAD_SECONDS", default: 2)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/shared.trove"
        let database = try Database(path: path)
        let reader = try database.newConnection()
        let names = ["p0", "p1", "p2"]
        let children = try names.map { try CrashWriterProcess(mode: "shared", path: path, extra: [$0]) }

        var snapshots = 0
        var problems: [String] = []
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline && problems.count < 5 {
            let (total, count) = try reader.read { tx in
                (try tx.read(CrashItem.self, key: CrashWorkload.totalKey)?.group ?? 0, try tx.count(of: CrashItem.self))
            }
            let items = total == 0 ? count : count - 1
            if items != total {
                problems.append("a snapshot has \(items) items but a total of \(total)")
            }
            snapshots += 1
        }
        var checks = Checks()
        var acknowledged: [String: Int] = [:]
        // On a loaded machine a child may still be starting when the reading loop ends: each gets
        // up to 30 s to acknowledge its first commit before it is killed.
        for child in children {
            _ = child.waitForLine(timeout: .seconds(30)) { $0.hasPrefix("committed ") }
        }
        for (name, child) in zip(names, children) {
            if let problem = child.sigkill() {
                checks.expect(false, "\(name): \(problem)")
            }
            acknowledged[name] =
                child.lines.compactMap { $0.hasPrefix("committed ") ? Int($0.dropFirst(10)) : nil }.max() ?? -1
        }
        checks.expect(problems.isEmpty, "\(problems)")

        let (total, keys) = try database.newConnection().read { tx in
            (try tx.read(CrashItem.self, key: CrashWorkload.totalKey)?.group ?? 0, Set(try tx.keys(of: CrashItem.self)))
        }
        checks.expect(total == keys.count - 1, "the total is \(total) for \(keys.count - 1) items: an update was lost")
        for (name, last) in acknowledged.sorted(by: { $0.key < $1.key }) {
            // Every child must have acknowledged commits (about 2,400 each in 2 s on 2 cores):
            // children that wrote nothing would pass every other check.
            checks.expect(last > 0, "\(name) acknowledged \(last + 1) commits in \(seconds) s")
            let missing = (0...max(last, 0)).filter { last >= 0 && !keys.contains("\(name)-\($0)") }
            checks.expect(missing.isEmpty, "\(name): acknowledged items \(missing.prefix(10)) are missing")
        }
        let integrity = try integrityCheck(path: path)
        checks.expect(integrity == ["ok"], "integrity_check says \(integrity)")
        if checks.passed {
            Soak.report(
                "multi-process: \(names.count) writer processes on one file for \(seconds) s: \(total) transactions, no update lost, \(snapshots) snapshots read in this process all consistent"
            )
        }
    }

    /// Two processes with different extension sets write one file at once (the second registers
    /// an index the first never heard of, after the first opened and began writing) and check
    /// every index against the items after each commit: an index answers with exactly the items
    /// its query matches, or refuses as stale; it never answers without some of them. A third
    /// instance that opens the file with both sets at the end gets complete answers.
    @Test func processesWithDifferentExtensionsNeverReadAnIncompleteIndex() throws {
        let seconds = Soak.integer("TROVE_LOAD_SECONDS", default: 2)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/extensions.trove"
        let first = try CrashWriterProcess(mode: "extensions", path: path, extra: ["a"])
        #expect(first.waitForLine(timeout: .seconds(30)) { $0.hasPrefix("checked ") }, "\(first.errors)")
        let second = try CrashWriterProcess(mode: "extensions", path: path, extra: ["b"])
        #expect(second.waitForLine(timeout: .seconds(30)) { $0.hasPrefix("checked ") }, "\(second.errors)")
        Thread.sleep(forTimeInterval: Double(seconds))

        var checks = Checks()
        var figures: [String] = []
        for (name, child) in [("a", first), ("b", second)] {
            if let problem = child.sigkill() {
                checks.expect(false, "\(name): \(problem)")
            }
            let wrong = child.lines.filter { $0.hasPrefix("wrong ") }
            checks.expect(wrong.isEmpty, "process \(name) read incomplete indexes: \(wrong.prefix(5))")
            let last = child.lines.last { $0.hasPrefix("checked ") } ?? "checked 0 refused 0"
            let numbers = last.split(separator: " ").compactMap { Int($0) }
            // Both must have checked answers while the other wrote: a run where one process
            // only ever refused, or never ran, proves nothing.
            checks.expect(numbers.count == 2 && numbers[0] > 20, "process \(name): \(last)")
            figures.append("\(name): \(last)")
        }
        let third = try Database(path: path, extensions: CrashIndex.set("b").map(\.index.databaseExtension))
        let outcome = try third.newConnection().read { tx in try CrashIndex.check(set: "b", in: tx) }
        checks.expect(outcome.wrong.isEmpty && outcome.refused == 0, "a third instance: \(outcome)")
        if checks.passed {
            Soak.report("extension sets: two processes for \(seconds) s, \(figures.joined(separator: ", ")), no index incomplete")
        }
    }
}
