import Foundation
import Synchronization
import Trove
import TroveTestSupport

/// The workload of the load tests: transfers between accounts, each one transaction that moves
/// money from one account to another and bumps the ledger; and readers that check, in every
/// snapshot, that the money adds up and that every account, its metadata and the ledger come
/// from the same transaction.
enum Bank {
    static let accountCount = 24
    static let initialBalance = 1_000
    static let total = accountCount * initialBalance

    /// One transfer to make, drawn by the caller so that transaction bodies are `@Sendable`.
    struct Transfer: Sendable {
        var from: Int
        var to: Int
        var amount: Int
        /// Which write API the transfer uses.
        var style: Int
        /// Whether the transfer throws after writing, so that it must be rolled back.
        var rollsBack: Bool

        init(_ random: inout SeededGenerator) {
            from = Int(random.next() % UInt64(Bank.accountCount))
            to = (from + 1 + Int(random.next() % UInt64(Bank.accountCount - 1))) % Bank.accountCount
            amount = Int(random.next() % 200) - 50
            style = Int(random.next() % 3)
            rollsBack = random.next() % 8 == 0
        }
    }

    struct DeliberateRollback: Error {}

    struct Violation: Error, CustomStringConvertible {
        var description: String
    }

    static func open(_ connection: Connection) throws {
        try connection.write { tx in
            for id in 0..<accountCount {
                try tx.write(LoadAccount(id: id, balance: initialBalance, version: 0, metadata: LoadStamp(version: 0)))
            }
            try tx.write(
                LoadLedger(id: LoadLedger.key, sequence: 0, versions: Array(repeating: 0, count: accountCount)))
        }
    }

    /// Makes `transfer` in `tx`.
    ///
    /// - Returns: The sequence number of the transfer.
    /// - Throws: ``DeliberateRollback`` after writing everything, when the transfer rolls back.
    static func make(_ transfer: Transfer, in tx: ReadWriteTransaction) throws -> Int {
        guard var ledger = try tx.read(LoadLedger.self, key: LoadLedger.key),
            var from = try tx.read(LoadAccount.self, key: transfer.from),
            var to = try tx.read(LoadAccount.self, key: transfer.to)
        else {
            throw Violation(description: "a writer found the ledger or an account missing")
        }
        ledger.sequence += 1
        let sequence = ledger.sequence
        from.balance -= transfer.amount
        to.balance += transfer.amount
        from.version = sequence
        to.version = sequence
        ledger.versions[from.id] = sequence
        ledger.versions[to.id] = sequence
        switch transfer.style {
        case 0:
            from.metadata = LoadStamp(version: sequence)
            to.metadata = LoadStamp(version: sequence)
            try tx.write(from)
            try tx.write(to)
        case 1:
            from.metadata = LoadStamp(version: sequence)
            to.metadata = LoadStamp(version: sequence)
            try tx.write([from, to])
        default:
            // The item first with stale metadata, then the metadata alone.
            try tx.write(from)
            try tx.write(to)
            try tx.setMetadata(LoadStamp(version: sequence), for: LoadAccount.self, key: from.id)
            try tx.setMetadata(LoadStamp(version: sequence), for: LoadAccount.self, key: to.id)
        }
        try tx.write(ledger)
        if transfer.rollsBack { throw DeliberateRollback() }
        return sequence
    }

    /// Checks one snapshot.
    ///
    /// - Parameters:
    ///   - tx: The transaction whose snapshot to check.
    ///   - floor: The sequence number of a transfer whose commit returned before this
    ///     transaction began: the snapshot must include it.
    ///   - style: Which read API to use: cached reads by key, in different orders, uncached
    ///     `readAll`, metadata alone.
    /// - Returns: The sequence number of the snapshot.
    /// - Throws: ``Violation`` naming the broken invariant, or what Trove throws.
    static func check(_ tx: ReadTransaction, floor: Int, style: Int) throws -> Int {
        func violation(_ text: String) -> Violation { Violation(description: "style \(style): \(text)") }
        var stamps: [Int: LoadStamp] = [:]
        if style == 4 {
            // Metadata first, so that it comes from the metadata cache, not from reading the item.
            for id in 0..<accountCount {
                stamps[id] = try tx.metadata(for: LoadAccount.self, key: id)
            }
        }
        guard let ledger = try tx.read(LoadLedger.self, key: LoadLedger.key) else {
            throw violation("the ledger is missing")
        }
        if ledger.sequence < floor {
            throw violation(
                "stale snapshot: the ledger is at \(ledger.sequence), but \(floor) had committed before the transaction began"
            )
        }
        let accounts: [LoadAccount]
        switch style {
        case 0: accounts = try tx.read(LoadAccount.self, keys: 0..<accountCount)
        case 1: accounts = try tx.readAll(LoadAccount.self)
        case 2: accounts = try tx.read(LoadAccount.self, keys: (0..<accountCount).reversed())
        default: accounts = try tx.read(LoadAccount.self, keys: Array(0..<accountCount))
        }
        guard accounts.count == accountCount else {
            throw violation("\(accounts.count) accounts instead of \(accountCount)")
        }
        let sum = accounts.reduce(0) { $0 + $1.balance }
        if sum != total {
            throw violation(
                "the balances add up to \(sum), not \(total), at ledger \(ledger.sequence): a transfer is half visible")
        }
        for account in accounts {
            let expected = ledger.versions[account.id]
            if account.version != expected {
                throw violation(
                    "account \(account.id) is at version \(account.version), the ledger \(ledger.sequence) says \(expected)"
                )
            }
            if account.metadata?.version != expected {
                throw violation(
                    "account \(account.id) has metadata \(String(describing: account.metadata)), the ledger says \(expected)"
                )
            }
            if style == 4, stamps[account.id]?.version != expected {
                throw violation(
                    "account \(account.id) has cached metadata \(String(describing: stamps[account.id])), the ledger says \(expected)"
                )
            }
        }
        return ledger.sequence
    }
}

/// What the threads or tasks of a load test share: the last committed transfer, the figures,
/// and what went wrong.
final class LoadState: Sendable {
    private struct State {
        var lastCommitted = 0
        var commits = 0
        var rollbacks = 0
        var snapshots = 0
        var problems: [String] = []
    }

    private let state = Mutex(State())
    let deadline: ContinuousClock.Instant

    /// How long past its duration a load goes on while it has not yet committed a transfer and
    /// checked a snapshot (a sanitizer run on a loaded machine can starve it for its first
    /// seconds): the tests' deadlock deadlines allow for it.
    static let longestExtension: Duration = .seconds(30)

    init(duration: Duration) {
        deadline = .now + duration
    }

    /// Whether the load ends: its duration is over and it committed and checked something (or it
    /// ran ``longestExtension`` more without), or it found enough problems.
    var isOver: Bool {
        let now = ContinuousClock.now
        return state.withLock { state in
            if state.problems.count >= 20 { return true }
            guard now >= deadline else { return false }
            return (state.commits > 0 && state.snapshots > 0) || now >= deadline + Self.longestExtension
        }
    }

    var lastCommitted: Int { state.withLock { $0.lastCommitted } }

    func committed(_ sequence: Int) {
        state.withLock {
            $0.lastCommitted = max($0.lastCommitted, sequence)
            $0.commits += 1
        }
    }

    func rolledBack() { state.withLock { $0.rollbacks += 1 } }

    func checkedSnapshot() { state.withLock { $0.snapshots += 1 } }

    /// Records an error thrown by Trove or a violated invariant.
    func record(_ error: any Error, role: String) {
        let text: String
        if let error = error as? TroveError, let code = error.sqliteResultCode, [5, 6].contains(code & 0xFF) {
            text = "\(role): SQLITE_BUSY or SQLITE_LOCKED reached the caller: \(error)"
        } else {
            text = "\(role): \(error)"
        }
        state.withLock { $0.problems.append(text) }
    }

    var figures: (commits: Int, rollbacks: Int, snapshots: Int, lastCommitted: Int) {
        state.withLock { ($0.commits, $0.rollbacks, $0.snapshots, $0.lastCommitted) }
    }

    var problems: [String] { state.withLock { $0.problems } }
}

/// Runs `body` on a thread of its own and waits for it at most `timeout`.
///
/// - Returns: `false` when `body` did not return in time: it is left running, deadlocked or
///   live-locked, and the caller fails the test instead of hanging.
func finishes(within timeout: Duration, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    return done.wait(timeout: .now() + seconds) == .success
}

/// Runs the asynchronous `body` in a detached task and waits for it at most `timeout`, without
/// blocking the cooperative thread pool.
///
/// - Returns: `false` when `body` did not return in time; it is left running.
func finishes(within timeout: Duration, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await body()
        done.signal()
    }
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    return await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(returning: done.wait(timeout: .now() + seconds) == .success)
        }
    }
}
