// A replica process of the sync convergence test (TroveSyncServerTests, ReplicaProcessConvergenceTests):
// opens its file (with a unique index of the payloads, `SyncWorkload.uniquePayload`), makes random
// offline edits of `CrashItem`s and syncs with the server from time to time, until its steps are
// done or the test kills it. An edit that would give a payload to a second item is refused here as
// anywhere; replicas that do it offline are settled by sync.
//
//     trove-sync-replica <file> <server URL> <seed> <steps>
//
// It prints, on standard output, one line per change its outbox holds, as soon as the change is
// committed (and, when it starts, every change still pending, whose line a kill may have cut):
//
//     change <replica> <outbox number> <key> <versions, in hexadecimal>
//
// and `synced` or `sync-failed <code>` after each sync, `done` at the end.
import Foundation
import Trove
import TroveSync
import TroveTestSupport

/// Writes `line` to standard output at once (unbuffered: a kill must not lose a printed line).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Prints the outbox's changes numbered after `printed`; returns the last number printed.
func printChanges(of ledger: SyncLedger, in database: Database, after printed: Int64) throws -> Int64 {
    let (replica, pending) = try database.read { tx in (try ledger.replica(in: tx), try ledger.pending(in: tx, limit: 1_000_000)) }
    var last = printed
    for change in pending where change.sequence > printed {
        let hex = try change.changes.serialized().map { String(format: "%02x", $0) }.joined()
        say("change \(replica) \(change.sequence) \(change.key) \(hex)")
        last = change.sequence
    }
    return last
}

/// One local edit of a random item: a removal, a change of one field, or a whole new value.
func edit(_ database: Database, random: inout SeededGenerator) throws {
    let key = "k\(random.next() % 6)"
    let choice = random.next() % 4
    let group = Int(random.next() % 5)
    let text = "p\(random.next() % 5)"
    do {
        try write(database, key: key, choice: choice, group: group, text: text)
    } catch let error as TroveError where error.code == .uniqueViolation {
        // Another item holds the payload here: the edit is refused, as it would be in an app.
    }
}

func write(_ database: Database, key: String, choice: UInt64, group: Int, text: String) throws {
    try database.write { tx in
        var item = try tx.read(CrashItem.self, key: key) ?? CrashItem(id: key, group: 0, payload: Data(), metadata: nil)
        switch choice {
        case 0: _ = try tx.remove(CrashItem.self, key: key)
        case 1: item.group = group; try tx.write(item)
        case 2: item.payload = Data(text.utf8); try tx.write(item)
        default: try tx.write(CrashItem(id: key, group: group, payload: Data("q\(text)".utf8), metadata: nil))
        }
    }
}

func main() async throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 5, let server = URL(string: arguments[2]), let seed = UInt64(arguments[3]),
        let steps = Int(arguments[4])
    else {
        FileHandle.standardError.write(Data("usage: trove-sync-replica <file> <server URL> <seed> <steps>\n".utf8))
        exit(2)
    }
    var configuration = TroveSync.Configuration()
    configuration.pushBatchSize = 10
    configuration.pullBatchSize = 10
    let database = try Database(path: arguments[1], extensions: [SyncWorkload.uniquePayload.databaseExtension])
    let sync = try TroveSync(
        database: database, server: server, credentials: .none, collections: [CrashItem.self], configuration: configuration)
    var printed = try printChanges(of: sync.ledger, in: database, after: 0)
    say("ready")
    var random = SeededGenerator(seed: seed)
    for _ in 0..<steps {
        if random.next() % 10 < 7 {
            try edit(database, random: &random)
            printed = try printChanges(of: sync.ledger, in: database, after: printed)
        } else {
            do {
                try await sync.sync()
                say("synced")
            } catch let error as TroveError {
                say("sync-failed \(error.code)")
            }
            // A pull that settled a conflict of payloads queued a removal.
            printed = try printChanges(of: sync.ledger, in: database, after: printed)
        }
    }
    say("done")
}

try await main()
