import Foundation
import Synchronization
import Trove
import TroveSync
import TroveTestSupport
import TroveUserExtension

/// The child process of the crash tests (`TroveReliabilityTests/CrashDurabilityTests`).
///
/// ```
/// trove-crash-writer small <database path>   many small transactions, "committed <group>" after each
/// trove-crash-writer bulk <database path>    transactions of 400 items, "committed <group>" after each
/// trove-crash-writer long <database path>    one transaction that never ends, "writing <n>" as it grows
/// trove-crash-writer shared <database path> <name>   with other processes on the same file: item
///                                             <name>-<n> and the shared "total" (+1), "committed <n>"
/// trove-crash-writer index <database path>    registers `CrashIndex.byGroup` over the items there,
///                                             "populated <n>" as it fills it, "registered" at the end
/// trove-crash-writer view <database path> <version>   registers `CrashView.view(version:)` over the
///                                             items there, "populated <n>" as it reads them,
///                                             "sorting <n>" when its sort first sees an item of
///                                             an n-th group (a build sorts and stores one group
///                                             after the other), "registered" at the end
/// trove-crash-writer insert <database path> <n>   writes items insert-0 ... insert-<n-1> in one
///                                             transaction, "committed <n>", and exits (status 0)
/// trove-crash-writer sequence <database path>  one item per transaction in collection "sequence":
///                                             key `sequenceKey(n)` for n = 1, 2, 3 ..., data
///                                             `sequencePayload(n)`, "committed <n>" after each
/// trove-crash-writer cascade-build <database path> <spines> <fanout>   writes the graph of
///                                             `CascadeNode` in one transaction, "built <n>", exits
/// trove-crash-writer extensions <database path> <set>   opens the file with the indexes of
///                                             `CrashIndex.set(<set>)` and, until killed, writes
///                                             random items `x-<n>` and checks every index against
///                                             the items in a read transaction: "checked <n>
///                                             refused <m>" after each check, "wrong <what>" for
///                                             an index that answered without all its items
/// trove-crash-writer actions <database path> <log path>   runs the actions of
///                                             `ActionWorkload.schedule` with an `ActionRunner`: each
///                                             handler appends "<key> <attempt>" to the log file, then
///                                             prints "ran <key> <attempt>"; the first run of
///                                             `ActionWorkload.killedKey` then sleeps (the test kills
///                                             it there, before its completion is recorded);
///                                             "recorded <key>" once a completion is committed,
///                                             "done" when nothing is due, and exits
/// trove-crash-writer sync <database path>   with `SyncWorkload.ledger` registered: transactions
///                                             of random writes (some changing one field) and
///                                             removals of items `s-<n>`, "committed <n>" after each
/// trove-crash-writer cascade <database path>  removes `s0`, which cascades through the whole
///                                             graph in one transaction: "cascade <n>" as it goes,
///                                             "committed" after the commit
/// ```
///
/// It continues the workload from the counter stored in the database, and prints a line only
/// after the commit it reports has returned: every line is a promise the test holds Trove to
/// after it kills this process with SIGKILL.
@main
struct CrashWriter {
    static func main() {
        let arguments = CommandLine.arguments
        let takesAThirdArgument = ["shared", "insert", "view", "extensions", "actions", "rekey"].contains(arguments.count == 4 ? arguments[1] : "")
        let takesTwoMore = arguments.count == 5 && arguments[1] == "cascade-build"
        guard arguments.count == 3 || takesAThirdArgument || takesTwoMore else {
            fail(
                "usage: trove-crash-writer small|bulk|long|index|sequence|cascade|tally|files|sync|rekey <database path> | shared <database path> <name>"
                    + " | insert <database path> <n> | view <database path> <version> | rekey <database path> <step>"
                    + " | actions <database path> <log path>"
                    + " | cascade-build <database path> <spines> <fanout>"
            )
        }
        do {
            if arguments[1] == "cascade-build" || arguments[1] == "cascade" {
                try cascade(arguments)
                return
            }
            if arguments[1] == "insert" {
                guard let count = Int(arguments[3]), count >= 0 else { fail("insert: <n> is not a count") }
                try Database(path: arguments[2], configuration: TestEncryption.configuration).newConnection().write { tx in
                    for n in 0..<count {
                        try tx.write(CrashWorkload.item(id: "insert-\(n)", group: n, salt: 3))
                    }
                }
                say("committed \(count)")
                return
            }
            if arguments[1] == "extensions" {
                try checkExtensionSet(arguments[3], path: arguments[2])
            }
            if arguments[1] == "actions" {
                try runActions(path: arguments[2], log: arguments[3])
                return
            }
            if arguments[1] == "rekey" {
                guard arguments.count == 4, let step = Int(arguments[3]) else { fail("rekey: <step> is not a number") }
                try rekey(path: arguments[2], from: step)
                return
            }
            if arguments[1] == "files" {
                try files(path: arguments[2])
                return
            }
            if arguments[1] == "sync" {
                try sync(path: arguments[2])
            }
            if arguments[1] == "tally" {
                try tally(path: arguments[2])
            }
            if arguments[1] == "index" {
                try register(CrashIndex.byGroup.databaseExtension, path: arguments[2])
                return
            }
            if arguments[1] == "view" {
                guard let version = Int(arguments[3]) else { fail("view: <version> is not a number") }
                let groupsSeen = Mutex<Set<String>>([])
                let view = CrashView.view(version: version) { lhs, _ in
                    guard let group = CrashView.group(of: lhs, version: version) else { return }
                    let seen = groupsSeen.withLock { $0.insert(group).inserted ? $0.count : nil }
                    if let seen { say("sorting \(seen)") }
                }
                try register(view.databaseExtension, path: arguments[2])
                return
            }
            if arguments[1] == "sequence" {
                let connection = try Database(path: arguments[2], configuration: TestEncryption.configuration).newConnection()
                let stored = try connection.read { try $0.count(in: CrashWorkload.sequenceCollection) }
                for n in (stored + 1)... {
                    try connection.write { tx in
                        try tx.setData(
                            CrashWorkload.sequencePayload(n), forKey: CrashWorkload.sequenceKey(n),
                            in: CrashWorkload.sequenceCollection)
                    }
                    say("committed \(n)")
                }
            }
            let connection = try Database(path: arguments[2], configuration: TestEncryption.configuration).newConnection()
            let last = try connection.read(CrashItem.self, key: CrashWorkload.counterKey)?.group ?? -1
            switch arguments[1] {
            case "small":
                for group in (last + 1)... {
                    try connection.write { tx in try CrashWorkload.writeGroup(group, in: tx) }
                    say("committed \(group)")
                }
            case "bulk":
                for group in (last + 1)... {
                    try connection.write { tx in try CrashWorkload.writeBulk(group, in: tx) }
                    say("committed \(group)")
                }
            case "long":
                try connection.write { tx in
                    // Overwrite and remove what is stored, then grow the transaction until killed.
                    // None of it may ever be visible.
                    for key in try tx.keys(of: CrashItem.self) {
                        try tx.write(CrashItem(id: key, group: -1, payload: Data([1, 2, 3]), metadata: nil))
                    }
                    try tx.remove(CrashItem.self, key: CrashWorkload.counterKey)
                    let payload = Data(repeating: 0xA5, count: 2_000)
                    for n in 0... {
                        try tx.write(CrashItem(id: "long-\(n)", group: -1, payload: payload, metadata: nil))
                        if n % 100 == 0 { say("writing \(n)") }
                    }
                }
            case "shared":
                let name = arguments[3]
                for n in 0... {
                    try connection.write { tx in
                        // Read-modify-write of an item every process shares: a lost update
                        // between processes shows as a total that is not the number of items.
                        let total = try tx.read(CrashItem.self, key: CrashWorkload.totalKey)?.group ?? 0
                        try tx.write(CrashWorkload.item(id: "\(name)-\(n)", group: n, salt: 7))
                        try tx.write(CrashWorkload.item(id: CrashWorkload.totalKey, group: total + 1, salt: 8))
                    }
                    say("committed \(n)")
                }
            default:
                fail("unknown mode \(arguments[1])")
            }
        } catch {
            fail("error: \(error)")
        }
    }

    /// Writes and removes items with the sync ledger registered, until killed.
    static func sync(path: String) throws -> Never {
        let database = try Database(path: path, configuration: TestEncryption.configuration, extensions: [SyncWorkload.ledger.databaseExtension])
        let connection = try database.newConnection()
        var random = SystemRandomNumberGenerator()
        for n in 1... {
            try connection.write { tx in
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    let key = "s-\(Int.random(in: 0..<40, using: &random))"
                    switch Int.random(in: 0..<5, using: &random) {
                    case 0:
                        _ = try tx.remove(CrashItem.self, key: key)
                    case 1:
                        // One field changes: the group.
                        if var item = try tx.read(CrashItem.self, key: key) {
                            item.group += 1
                            try tx.write(item)
                        }
                    default:
                        try tx.write(CrashWorkload.item(id: key, group: Int.random(in: 0..<20, using: &random), salt: 13))
                    }
                }
            }
            say("committed \(n)")
        }
        fatalError("unreachable")
    }

    /// Builds the graph of `CascadeNode`, or removes it in one cascade.
    static func cascade(_ arguments: [String]) throws {
        let database = try Database(path: arguments[2], configuration: TestEncryption.configuration, extensions: [CascadeNode.edges.databaseExtension])
        let connection = try database.newConnection()
        if arguments[1] == "cascade-build" {
            guard let spines = Int(arguments[3]), let fanout = Int(arguments[4]), spines > 0, fanout >= 0 else {
                fail("cascade-build: <spines> and <fanout> are not counts")
            }
            try connection.write { tx in try CascadeNode.build(spines: spines, fanout: fanout, in: tx) }
            say("built \(spines * (fanout + 1))")
            return
        }
        try connection.write { tx in
            _ = try tx.remove(CascadeNode.self, key: "s0")
        }
        say("committed")
    }

    /// Writes random items and checks the indexes of `set` against them, until killed.
    static func checkExtensionSet(_ set: String, path: String) throws -> Never {
        let database = try Database(path: path, configuration: TestEncryption.configuration, extensions: CrashIndex.set(set).map(\.index.databaseExtension))
        let connection = try database.newConnection()
        var random = SystemRandomNumberGenerator()
        var checked = 0
        var refused = 0
        while true {
            try connection.write { tx in
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    let key = "x-\(Int.random(in: 0..<200, using: &random))"
                    if Int.random(in: 0..<4, using: &random) == 0 {
                        _ = try tx.remove(CrashItem.self, key: key)
                    } else {
                        try tx.write(CrashWorkload.item(id: key, group: Int.random(in: 0..<20, using: &random), salt: 11))
                    }
                }
            }
            let outcome = try connection.read { tx in try CrashIndex.check(set: set, in: tx) }
            checked += outcome.checked
            refused += outcome.refused
            for wrong in outcome.wrong { say("wrong \(wrong)") }
            say("checked \(checked) refused \(refused)")
        }
    }

    /// Registers `definition`, reporting its progress, in a transaction the test kills.
    /// Writes, with the user-defined ``Tally`` registered, commit after commit until killed: each
    /// commit `n` writes the item `t-n`, and some also update or remove earlier ones
    /// (`TallyWorkload.commit(_:in:)`). Starts after the last commit the file holds.
    static func tally(path: String) throws {
        let database = try Database(
            path: path, extensions: [TallyWorkload.tally.databaseExtension(name: TallyWorkload.name)])
        let connection = try database.newConnection()
        let last = try connection.read { tx in try tx.keys(of: CrashItem.self) }
            .compactMap { $0.hasPrefix("t-") ? Int($0.dropFirst(2)) : nil }.max() ?? -1
        for n in (last + 1)... {
            try connection.write { tx in try TallyWorkload.commit(n, in: tx) }
            say("committed \(n)")
        }
    }

    /// Stores the items `f-a`, `f-b` and `f-c` pointing at the files `a.bin`, `b.bin` and `c.bin`
    /// (`FileEdgeWorkload`), then removes them in one transaction, whose commit decides to remove
    /// the three files; after the commit, before the files go, prints `committed` and sleeps for
    /// the test to kill it.
    static func files(path: String) throws {
        let database = try Database(
            path: path,
            extensions: [
                FileEdgeWorkload.relationships.databaseExtension,
                FileEdgeWorkload.pause {
                    say("committed")
                    Thread.sleep(forTimeInterval: 600)
                },
            ])
        let folder = FileEdgeWorkload.folder(ofDatabaseAt: path)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let names = ["a", "b", "c"]
        for name in names {
            guard FileManager.default.createFile(atPath: folder + "/\(name).bin", contents: Data(name.utf8)) else {
                fail("files: cannot create \(name).bin")
            }
        }
        let connection = try database.newConnection()
        try connection.write { tx in
            for name in names { try tx.write(FileEdgeWorkload.item(name, file: "\(name).bin")) }
        }
        say("stored")
        try connection.write { tx in
            for name in names { _ = try tx.remove(CrashItem.self, key: "f-\(name)") }
        }
        say("removed")
    }

    /// Runs the due actions of `ActionWorkload.schedule`, logging each run to the file at `log`
    /// before it prints it; the first run of `ActionWorkload.killedKey` then sleeps, for the test to
    /// kill the process between the action's work and its record.
    static func runActions(path: String, log: String) throws {
        let database = try Database(path: path, configuration: TestEncryption.configuration, extensions: [ActionWorkload.schedule.databaseExtension])
        try ActionWorkload.seed(database)
        if !FileManager.default.fileExists(atPath: log) {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
        }
        let runner = ActionRunner(
            database: database, schedule: ActionWorkload.name,
            handlers: [
                "send": { action in
                    let file = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
                    try file.seekToEnd()
                    try file.write(contentsOf: Data("\(action.key) \(action.attempt)\n".utf8))
                    try file.synchronize()
                    try file.close()
                    say("ran \(action.key) \(action.attempt)")
                    if action.key == ActionWorkload.killedKey, action.attempt == 1 {
                        try await Task.sleep(for: .seconds(600))
                    }
                }
            ],
            onEvent: { event in
                if case .ran(let action, _) = event { say("recorded \(action.key)") }
            })
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<(any Error)?>(nil)
        Task {
            do {
                try await runner.runDue()
            } catch {
                result.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = result.withLock({ $0 }) { throw error }
        say("done")
    }

    static func register(_ definition: DatabaseExtension, path: String) throws {
        let database = try Database(path: path, configuration: TestEncryption.configuration)
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<ExtensionRegistration, any Error>?>(nil)
        Task {
            let outcome: Result<ExtensionRegistration, any Error>
            do {
                outcome = .success(
                    try await database.register(definition) { say("populated \($0)") })
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        _ = try result.withLock { $0 }!.get()
        say("registered")
    }

    /// Writes a line to standard output without buffering: one write(2) of less than PIPE_BUF
    /// bytes, so the test reads either the whole line or none of it.
    /// Changes the key of the file at `path` for ever, through the keys of
    /// ``CrashWorkload/rekeyKey(_:)`` from step `step` (encrypting, encrypting again,
    /// decrypting); prints `rekeyed N` after each change to the key of step N returned.
    static func rekey(path: String, from step: Int) throws {
        for next in step... {
            try Database.changeEncryptionKey(ofFileAt: path, from: CrashWorkload.rekeyKey(next), to: CrashWorkload.rekeyKey(next + 1))
            say("rekeyed \(next + 1)")
        }
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
