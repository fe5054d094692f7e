import Foundation
import Testing
import Trove
import TroveTestSupport

/// Several writers and many readers on several connections for a bounded time. Writers make
/// transfers (one in eight rolled back on purpose); readers check in every snapshot that the
/// money adds up, that each account and its metadata are at the version the ledger of the same
/// snapshot gives (a reader sees all of a transaction or none of it, and no cache serves a stale
/// item), that the snapshot includes every transfer committed before it began, and that
/// snapshots never go back. No error may reach a caller (SQLITE_BUSY included), and everything
/// must finish before a deadline that fails the test instead of hanging it.
///
/// Soak: `TROVE_LOAD_SECONDS=60 swift test --filter ConcurrencyLoadTests`.
@Suite(.serialized)
struct ConcurrencyLoadTests {
    /// Cache settings that take the different invalidation paths: exact eviction from the
    /// changeset history; a history so short that readers fall behind and empty their caches;
    /// caches so small that the LRU evicts all the time; no caches at all.
    enum CacheSetting: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case defaults, historyOfOne, tinyCaches, noCaches
        var testDescription: String { rawValue }

        func apply(to configuration: inout Configuration) {
            switch self {
            case .defaults: break
            case .historyOfOne: configuration.changesetHistoryLimit = 1
            case .tinyCaches:
                configuration.itemCacheLimit = 5
                configuration.metadataCacheLimit = 3
            case .noCaches:
                configuration.itemCacheLimit = 0
                configuration.metadataCacheLimit = 0
            }
        }
    }

    @Test(arguments: CacheSetting.allCases)
    func threadsKeepEverySnapshotConsistent(_ setting: CacheSetting) throws {
        let seconds = Soak.integer("TROVE_LOAD_SECONDS", default: 2)
        let database = try makeTemporaryDatabase { setting.apply(to: &$0) }
        let writers = 3
        let readers = 6
        // Readers share the writers' connections and have connections of their own.
        let connections = try (0..<(writers + 3)).map { _ in try database.newConnection() }
        try Bank.open(connections[0])
        let state = LoadState(duration: .seconds(seconds))
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))

        let finished = finishes(within: .seconds(seconds + 60) + LoadState.longestExtension) {
            let group = DispatchGroup()
            for index in 0..<(writers + readers) {
                group.enter()
                Thread {
                    defer { group.leave() }
                    var random = SeededGenerator(seed: seed &+ UInt64(index))
                    if index < writers {
                        runWriter(connections[index], state: state, random: &random)
                    } else {
                        runReader(connections[index % connections.count], state: state, random: &random)
                    }
                }.start()
            }
            group.wait()
        }
        #expect(finished, "deadlock: the threads did not finish within a minute of the end of the load")
        guard finished else { return }
        #expect(state.problems.isEmpty, "\(state.problems.prefix(5).joined(separator: "\n"))")
        let final = try database.newConnection().read { tx in try Bank.check(tx, floor: state.lastCommitted, style: 1) }
        #expect(final == state.lastCommitted)
        let figures = state.figures
        #expect(figures.commits > 0 && figures.snapshots > 0)
        if state.problems.isEmpty && final == state.lastCommitted && figures.commits > 0 && figures.snapshots > 0 {
            Soak.report(
                "load threads \(setting): \(writers) writers, \(readers) readers, \(connections.count) connections, \(seconds) s: \(figures.commits) transfers committed, \(figures.rollbacks) rolled back, \(figures.snapshots) snapshots checked"
            )
        }
    }

    /// Two `Database` instances on one file, each with writers and cached readers, as two
    /// processes would have: a commit of one reaches the other only through the file, and the
    /// other must see that it was not its own (the writer token in the file) and empty its
    /// caches. Both instances write, so each one's own token comes and goes in the file; a
    /// reader of either that kept a stale account, ledger or metadata breaks a check.
    @Test func twoDatabasesOnOneFileKeepEverySnapshotConsistent() throws {
        let seconds = Soak.integer("TROVE_LOAD_SECONDS", default: 2)
        let first = try makeTemporaryDatabase()
        let second = try Database(path: first.path)
        let databases = [first, second]
        // Per database: two writer connections and two reader connections.
        let connections = try databases.flatMap { database in try (0..<4).map { _ in try database.newConnection() } }
        try Bank.open(connections[0])
        let state = LoadState(duration: .seconds(seconds))
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))

        let finished = finishes(within: .seconds(seconds + 60) + LoadState.longestExtension) {
            let group = DispatchGroup()
            for (index, connection) in connections.enumerated() {
                group.enter()
                Thread {
                    defer { group.leave() }
                    var random = SeededGenerator(seed: seed &+ UInt64(index))
                    if index % 4 < 2 {
                        runWriter(connection, state: state, random: &random)
                    } else {
                        runReader(connection, state: state, random: &random)
                    }
                }.start()
            }
            group.wait()
        }
        #expect(finished, "deadlock: the threads did not finish within a minute of the end of the load")
        guard finished else { return }
        #expect(state.problems.isEmpty, "seed \(seed): \(state.problems.prefix(5).joined(separator: "\n"))")
        for connection in connections {
            let final = try connection.read { tx in try Bank.check(tx, floor: state.lastCommitted, style: 0) }
            #expect(final == state.lastCommitted)
        }
        let figures = state.figures
        #expect(figures.commits > 0 && figures.snapshots > 0)
        if state.problems.isEmpty && figures.commits > 0 && figures.snapshots > 0 {
            Soak.report(
                "load two databases: 2 instances on one file, each with 2 writer and 2 reader connections, \(seconds) s: \(figures.commits) transfers committed, \(figures.rollbacks) rolled back, \(figures.snapshots) snapshots checked"
            )
        }
    }

    @Test func manyTasksKeepEverySnapshotConsistent() async throws {
        let seconds = Soak.integer("TROVE_LOAD_SECONDS", default: 2)
        let database = try makeTemporaryDatabase()
        let connections = try (0..<4).map { _ in try database.newConnection() }
        try Bank.open(connections[0])
        let state = LoadState(duration: .seconds(seconds))
        let tasks = 64
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))

        let finished = await finishes(within: .seconds(seconds + 60) + LoadState.longestExtension) {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<tasks {
                    let connection = connections[index % connections.count]
                    group.addTask {
                        var random = SeededGenerator(seed: seed &+ UInt64(index))
                        var last = 0
                        while !state.isOver {
                            do {
                                if index % 4 == 0 {
                                    let transfer = Bank.Transfer(&random)
                                    do {
                                        let sequence = try await connection.write { tx in
                                            try Bank.make(transfer, in: tx)
                                        }
                                        state.committed(sequence)
                                    } catch is Bank.DeliberateRollback {
                                        state.rolledBack()
                                    }
                                } else {
                                    let floor = state.lastCommitted
                                    let style = Int(random.next() % 5)
                                    let sequence = try await connection.read { tx in
                                        try Bank.check(tx, floor: floor, style: style)
                                    }
                                    if sequence < last {
                                        throw Bank.Violation(
                                            description: "snapshot went back from \(last) to \(sequence)")
                                    }
                                    last = sequence
                                    state.checkedSnapshot()
                                }
                            } catch {
                                state.record(error, role: "task \(index)")
                            }
                        }
                    }
                }
            }
        }
        #expect(finished, "deadlock: the tasks did not finish within a minute of the end of the load")
        guard finished else { return }
        #expect(state.problems.isEmpty, "\(state.problems.prefix(5).joined(separator: "\n"))")
        let final = try await connections[1].read { tx in try Bank.check(tx, floor: 0, style: 0) }
        #expect(final == state.lastCommitted)
        let figures = state.figures
        #expect(figures.commits > 0 && figures.snapshots > 0)
        if state.problems.isEmpty && final == state.lastCommitted && figures.commits > 0 && figures.snapshots > 0 {
            Soak.report(
                "load tasks: \(tasks) tasks on \(connections.count) connections, \(seconds) s: \(figures.commits) transfers committed, \(figures.rollbacks) rolled back, \(figures.snapshots) snapshots checked"
            )
        }
    }
}

private func runWriter(_ connection: Connection, state: LoadState, random: inout SeededGenerator) {
    while !state.isOver {
        let transfer = Bank.Transfer(&random)
        do {
            let sequence = try connection.write { tx in try Bank.make(transfer, in: tx) }
            state.committed(sequence)
        } catch is Bank.DeliberateRollback {
            state.rolledBack()
        } catch {
            state.record(error, role: "writer")
        }
    }
}

private func runReader(_ connection: Connection, state: LoadState, random: inout SeededGenerator) {
    var last = 0
    while !state.isOver {
        let floor = state.lastCommitted
        let style = Int(random.next() % 5)
        do {
            let sequence = try connection.read { tx in try Bank.check(tx, floor: floor, style: style) }
            if sequence < last {
                throw Bank.Violation(description: "snapshot went back from \(last) to \(sequence)")
            }
            last = sequence
            state.checkedSnapshot()
        } catch {
            state.record(error, role: "reader")
        }
    }
}
