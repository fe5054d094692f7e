import Dispatch
import Foundation
import Synchronization

/// The connections a ``Database`` runs its own transactions on (`Database.read(label:fileID:line:_:)`,
/// `Database.write(label:fileID:line:_:)`): ``Configuration/maximumReaderCount`` readers
/// and one writer, each opened at its first transaction, and the watch over transactions that
/// run too long.
final class ConnectionPool: Sendable {
    let readers: ConnectionLane
    let writer: ConnectionLane
    private let threshold: Duration?
    private let monitor = Protected(Monitor())

    struct Monitor: Sendable {
        var timer: Timer?
        var handler: (@Sendable (TransactionActivity) -> Void)?
    }

    /// The monitor's dispatch timer.
    struct Timer: @unchecked Sendable {
        // @unchecked because a dispatch source is thread-safe: its methods may be called from
        // any thread (libdispatch documents sources as safe to share), and it is only resumed
        // and cancelled here.
        let source: any DispatchSourceTimer
    }

    init(configuration: Configuration) {
        readers = ConnectionLane(kind: .read, capacity: configuration.maximumReaderCount, label: "Trove.Database.reader")
        writer = ConnectionLane(kind: .write, capacity: 1, label: "Trove.Database.writer")
        threshold = configuration.longTransactionThreshold
    }

    deinit {
        monitor.withLock { $0.timer?.source.cancel() }
    }

    /// Starts the watch over long transactions, once, at the first transaction of the pool.
    func startMonitoringIfNeeded() {
        guard let threshold, threshold > .zero else { return }
        monitor.withLock { monitor in
            guard monitor.timer == nil else { return }
            // Checked four times per threshold, between 10 ms and 1 s apart.
            let interval = min(max(threshold / 4, .milliseconds(10)), .seconds(1))
            let nanoseconds = Int(interval.components.seconds) * 1_000_000_000
                + Int(interval.components.attoseconds / 1_000_000_000)
            // A serial queue of its own, not a global one: a global queue has as many threads as
            // cores, and an app whose blocked work holds them (the very case worth reporting) would
            // starve the watch.
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Trove.Database.monitor"))
            timer.schedule(
                deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                leeway: .nanoseconds(nanoseconds / 4))
            timer.setEventHandler { [weak self] in
                self?.reportLongTransactions(threshold)
            }
            timer.resume()
            monitor.timer = Timer(source: timer)
        }
    }

    func setLongTransactionHandler(_ handler: (@Sendable (TransactionActivity) -> Void)?) {
        monitor.withLock { $0.handler = handler }
    }

    private func reportLongTransactions(_ threshold: Duration) {
        let long = writer.takeLongTransactions(olderThan: threshold) + readers.takeLongTransactions(olderThan: threshold)
        guard !long.isEmpty else { return }
        let handler = monitor.withLock { $0.handler }
        for activity in long {
            if let handler {
                handler(activity)
            } else {
                let message = "Trove: a transaction runs longer than \(threshold): \(activity)\n"
                FileHandle.standardError.write(Data(message.utf8))
            }
        }
    }

    /// Closes every connection, when the database goes: no transaction runs then.
    func close() {
        for connection in writer.connections + readers.connections {
            connection.close()
        }
    }

    /// Whether the current thread runs a transaction of this pool.
    var isRunningOnCurrentThread: Bool {
        writer.isRunningOnCurrentThread || readers.isRunningOnCurrentThread
    }
}
