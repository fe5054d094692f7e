import Foundation
import PostgresNIO
import Synchronization
import Trove

/// Listens, on a connection of its own, for the notifications of every commit to the store's
/// schema, from this instance or any other: evicts what each changed from the cache and hands it
/// to ``PostgresStore/changes``. When the connection drops it flushes the cache (notifications may
/// be missed), and connects again, waiting longer after each failure, until the store closes.
final class PostgresChangeListener: Sendable {
    private weak let store: PostgresStore?
    private let configuration: PostgresConnection.Configuration
    private let channel: String
    // A Mutex around the first-listen signal: set once by the listening task, read by `open`.
    private let started = Mutex<CheckedContinuation<Void, any Error>?>(nil)
    private let startedOnce = Mutex(false)

    init(store: PostgresStore) {
        self.store = store
        configuration = store.endpoint.connection
        channel = store.names.channel
    }

    /// Returns once the first `LISTEN` is in place, so that no commit after `open` is missed.
    func waitUntilListening() async throws {
        try await withCheckedThrowingContinuation { continuation in
            let already = startedOnce.withLock { started in
                started
            }
            if already {
                continuation.resume()
            } else {
                self.started.withLock { $0 = continuation }
                // The listening task may have started between the two locks.
                if startedOnce.withLock({ $0 }) { signalStarted(nil) }
            }
        }
    }

    private func signalStarted(_ error: (any Error)?) {
        startedOnce.withLock { $0 = true }
        let continuation = started.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
        if let error { continuation?.resume(throwing: error) } else { continuation?.resume() }
    }

    /// Listens until the task is cancelled.
    func run() async {
        // Cancelled before the first LISTEN (the store closed while opening): `open` must not
        // wait for a signal that would never come.
        defer { if !startedOnce.withLock({ $0 }) { signalStarted(CancellationError()) } }
        var failures = 0
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: configuration, id: 1, logger: store?.logger ?? .init(label: "trove"))
                defer { Task { try? await connection.close() } }
                try await withTaskCancellationHandler {
                    try await connection.listen(on: channel) { notifications in
                        failures = 0
                        signalStarted(nil)
                        for try await notification in notifications {
                            await handle(notification.payload)
                        }
                    }
                } onCancel: {
                    connection.close().whenComplete { _ in }
                }
            } catch {
                if !startedOnce.withLock({ $0 }) {
                    signalStarted(error)
                    return
                }
            }
            guard let store, !Task.isCancelled else { return }
            // The connection dropped: notifications may be lost from here until the next LISTEN.
            store.cache.flush()
            store.hub.publish(.flush)
            failures += 1
            try? await Task.sleep(for: .milliseconds(min(1000, 20 * (1 << min(failures, 6)))))
        }
    }

    /// Applies one notification: `number` then ` {json}` with the keys, or ` *` when they did
    /// not fit (read from the log then).
    private func handle(_ payload: String) async {
        guard let store else { return }
        let parts = payload.split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let number = Int64(first) else {
            store.cache.flush()
            store.hub.publish(.flush)
            return
        }
        // The keys matter to the cache only when it is behind this change (another instance's
        // commit), and to the hub only when a loop over `changes` or an observation runs. This
        // instance's own commit, with neither, needs nothing more: its keys, when the payload
        // could not hold them, would be read from the log in a statement of one row per key,
        // run beside whatever this instance does next (issue 29: the read-all after an insert
        // of 5,000 items shared the two cores with it).
        if !store.cache.isBehind(number), !store.hub.hasReceivers { return }
        var change = CommittedChange(number: number, keys: [], clearedCollections: [], isFlush: false)
        struct Body: Decodable {
            var k: [[String]]
            var c: [String]
        }
        if parts.count == 2, parts[1] != "*", let body = try? JSONDecoder().decode(Body.self, from: Data(parts[1].utf8)) {
            change.keys = body.k.compactMap { $0.count == 2 ? CacheKey(collection: $0[0], key: $0[1]) : nil }
            change.clearedCollections = Set(body.c)
        } else if let logged = try? await readLog(number, store: store) {
            change = logged
        } else {
            store.cache.flush()
            store.hub.publish(.flush)
            return
        }
        store.cache.apply(change)
        store.hub.publish(change)
    }

    /// The change of `number`, from the log.
    private func readLog(_ number: Int64, store: PostgresStore) async throws -> CommittedChange {
        var bindings = PostgresBindings()
        bindings.append(number)
        var change = CommittedChange(number: number, keys: [], clearedCollections: [], isFlush: false)
        let rows = try await store.client.query(
            PostgresQuery(unsafeSQL: "SELECT collection, key FROM \(store.names.changes) WHERE seq = $1", binds: bindings))
        for try await (collection, key) in rows.decode((String?, String?).self) {
            guard let collection else { continue }
            if let key {
                change.keys.append(CacheKey(collection: collection, key: key))
            } else {
                change.clearedCollections.insert(collection)
            }
        }
        return change
    }
}
