#if Postgres
    import Foundation
    import HTTPTypes
    import Hummingbird
    import Logging
    import NIOCore
    import PostgresNIO
    import Synchronization
    import Trove
    import TrovePostgres
    import TroveSync
    import TroveSyncServer

    /// The sync suite (issue 33), built only with the package trait `Postgres`: `TroveSync`
    /// replicas (each a file of its own) against a `TroveSyncServer` on a `PostgresStore`, over
    /// real HTTP on loopback (Hummingbird, URLSession), one partition per workload.
    ///
    /// - Throughput: a replica writes N users (whole items) and pushes them (`sync()`); a fresh
    ///   replica pulls them; the first changes one field (`age`) of each and pushes; the second
    ///   pulls. The limit by hand: the same number of rows (key and bytes) written to PostgreSQL
    ///   with one `INSERT … SELECT FROM unnest` by raw postgres-nio, and read back in batches of
    ///   1,000 into raw SQLite (`INSERT OR REPLACE`, one transaction per batch): no clock, no
    ///   merge, no outbox.
    /// - Bytes on the wire: the server's own middleware counts the bodies of every push request
    ///   and pull response, against the item's encoded size.
    /// - Commit → observation: two replicas running `run()`; the time from a `write` on one
    ///   returning to the other's `database.changes` yielding the pulled commit.
    /// - Memory: a replica pushes M changes (in batches of 50,000), then a fresh replica pulls
    ///   them while the process's resident memory is sampled at each state the client reports
    ///   (once per pulled batch).
    enum SyncSuite {
        /// Runs the suite and prints its table when `TROVE_POSTGRES_URL` names a server.
        static func runIfConfigured(options: Options, fixtures: Fixtures) throws {
            guard let url = ProcessInfo.processInfo.environment["TROVE_POSTGRES_URL"], !url.isEmpty else {
                log("sync: skipped, TROVE_POSTGRES_URL is not set (eval \"$(Scripts/postgres-test-server.sh start)\")")
                return
            }
            let users = Array(fixtures.users.prefix(options.count))
            let lines = try blocking { try await measure(url: url, users: users, options: options) }
            print(lines.joined(separator: "\n"))
        }

        private static func measure(url: String, users: [User], options: Options) async throws -> [String] {
            let directory = options.directory + "/trove-sync-bench-\(getpid())"
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let raw = try await RawSync(url: url)
            defer { raw.close() }
            try await raw.client.query("DROP SCHEMA IF EXISTS bench_sync CASCADE")
            let server = try await BenchSyncServer.start(url: url, schema: "bench_sync")
            defer { server.stop() }
            let n = users.count
            let f = Workload.format(n)

            // Throughput and bytes.
            log("sync: push and pull of \(f) users")
            let a = try Replica(directory, "a", server: server, partition: "throughput")
            let b = try Replica(directory, "b", server: server, partition: "throughput")
            try await a.database.write { tx in try tx.write(users) }
            let itemBytes = try await a.database.read { tx in
                try users.reduce(0) { $0 + (try tx.data(forKey: $1.id, in: User.collection)?.count ?? 0) }
            }
            server.counter.reset()
            let (pushWhole, syncWhole) = try await pushTimed(a.sync, through: n)
            let pushWholeBytes = server.counter.take()
            let pullWhole = try await timed { try await b.sync.sync() }
            let pullWholeBytes = server.counter.take()
            try await a.database.write { tx in
                for var user in users {
                    user.age += 1
                    try tx.write(user)
                }
            }
            let (pushField, syncField) = try await pushTimed(a.sync, through: 2 * n)
            let pushFieldBytes = server.counter.take()
            let pullField = try await timed { try await b.sync.sync() }
            let pullFieldBytes = server.counter.take()
            let converged = try await b.database.read { tx in try tx.readAll(User.self) }.count
            guard converged == n else { throw BenchmarkError("sync: the second replica has \(converged) users, not \(n)") }

            let whole = users.map { user -> [UInt8] in
                let writer = CompactWriter()
                HandWrittenCoder.encode(user, to: writer)
                return writer.withUnsafeBytes { Array($0) }
            }
            let field = users.map { user -> [UInt8] in withUnsafeBytes(of: Int64(user.age + 1).littleEndian) { Array($0) } }
            let rawDB = try RawSQLite(path: directory + "/raw.sqlite")
            try rawDB.execute("CREATE TABLE items (key TEXT PRIMARY KEY, data BLOB NOT NULL)")
            let rawPushWhole = try await timed { try await raw.push(keys: users.map(\.id), values: whole) }
            let rawPullWhole = try await timed { try await raw.pull(into: rawDB) }
            let rawPushField = try await timed { try await raw.push(keys: users.map(\.id), values: field) }
            let rawPullField = try await timed { try await raw.pull(into: rawDB) }

            // Commit → observation.
            let commits = options.isSmoke ? 10 : 200
            log("sync: commit → observation, \(commits) commits")
            let delays = try await observationDelays(directory: directory, server: server, commits: commits).sorted()

            // Memory while pulling.
            let m = options.syncPullCount
            log("sync: filling the server's log with \(Workload.format(m)) changes")
            let fill = try await fillLog(directory: directory, server: server, count: m)
            log("sync: pulling \(Workload.format(m)) changes into a fresh replica")
            let memory = try await pullSampled(directory: directory, server: server, count: m)

            func rate(_ seconds: Double) -> String { Workload.format(Int((Double(n) / seconds).rounded())) + "/s" }
            func row(_ title: String, _ trove: Double, _ limit: Double) -> String {
                "| \(title) | \(formatDuration(trove)) (\(rate(trove))) | \(formatDuration(limit)) (\(rate(limit))) | "
                    + String(format: "%.1f×", trove / limit) + " |"
            }
            func perChange(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / Double(n)) }
            func percentile(_ p: Double) -> Double {
                delays[min(delays.count - 1, Int((Double(delays.count) * p).rounded(.up)) - 1)]
            }
            func mb(_ kilobytes: Int) -> String { String(format: "%.1f MB", Double(kilobytes) / 1024) }
            return [
                "", "## Sync (issue 33)", "",
                "TroveSync replicas against TroveSyncServer on PostgreSQL, HTTP on loopback; \(f) users of 7 synced fields "
                    + "(the metadata is not synced). Elapsed time of `sync()` (push all, then pull until none is left), one run. "
                    + "By hand: the same number of rows written with one `INSERT … unnest` by raw postgres-nio, read back into "
                    + "raw SQLite in batches of 1,000 (no clock, no merge, no outbox).",
                "",
                "| Workload | Trove (changes/s) | by hand | ratio |",
                "|---|---:|---:|---:|",
                row("push \(f) new items (until the outbox is empty)", pushWhole, rawPushWhole),
                row("`sync()` of the pushing replica (push, then pull its own \(f) back)", syncWhole, rawPushWhole + rawPullWhole),
                row("pull \(f) new items into a fresh replica", pullWhole, rawPullWhole),
                row("push \(f) one-field changes (until the outbox is empty)", pushField, rawPushField),
                row("`sync()` of the pushing replica (push, then pull its own \(f) back)", syncField, rawPushField + rawPullField),
                row("pull \(f) one-field changes", pullField, rawPullField),
                "",
                "| Bodies on the wire, bytes per change | push request | pull response (other replica) | pull response (pushing replica's own `sync()`) |",
                "|---|---:|---:|---:|",
                "| item's encoded size (stored) | \(perChange(itemBytes)) | | |",
                "| a new item (every field) | \(perChange(pushWholeBytes.push)) | \(perChange(pullWholeBytes.pull)) | \(perChange(pushWholeBytes.pull)) |",
                "| a one-field change (`age`) | \(perChange(pushFieldBytes.push)) | \(perChange(pullFieldBytes.pull)) | \(perChange(pushFieldBytes.pull)) |",
                "",
                "| Commit → observation (\(delays.count) commits, two replicas in `run()`) | median | p90 | p99 | max |",
                "|---|---:|---:|---:|---:|",
                "| `write` on A returns → A's push → B's held pull answers → B's `changes` yields the pulled commit | "
                    + "\(formatDuration(delays[delays.count / 2])) | \(formatDuration(percentile(0.90))) | "
                    + "\(formatDuration(percentile(0.99))) | \(formatDuration(delays.last ?? 0)) |",
                "",
                "| Memory while pulling \(Workload.format(m)) changes into a fresh replica (resident, whole process) | value |",
                "|---|---:|",
                "| filling the log (\(Workload.format(m)) new items pushed by another replica) | \(formatDuration(fill)) "
                    + "(\(Workload.format(Int(Double(m) / fill)))/s) |",
                "| pull: elapsed | \(formatDuration(memory.seconds)) (\(Workload.format(Int(Double(m) / memory.seconds)))/s) |",
                "| RSS before the pull | \(mb(memory.start)) |",
                "| RSS after the first batch | \(mb(memory.samples.first ?? memory.start)) |",
                "| RSS at 25%, 50%, 75% of the batches | "
                    + [0.25, 0.5, 0.75].map { memory.samples.isEmpty ? "-" : mb(memory.samples[Int(Double(memory.samples.count - 1) * $0)]) }
                    .joined(separator: ", ") + " |",
                "| RSS peak (\(memory.samples.count) samples, one per batch) | \(mb(memory.peak)) |",
                "| RSS after the pull | \(mb(memory.end)) |",
            ]
        }

        /// The time `sync()` takes to empty the outbox (the client's state says the changes
        /// through `pushed` are acknowledged and none is pending), and the time of the whole
        /// `sync()`: the push, then the pull, which brings back the replica's own changes.
        private static func pushTimed(_ sync: TroveSync, through pushed: Int) async throws -> (push: Double, sync: Double) {
            let states = sync.states
            let start = ContinuousClock.now
            let emptied = Task { () -> ContinuousClock.Instant in
                for await state in states where state.pushedChanges >= pushed && state.pendingChanges == 0 { return .now }
                return .now
            }
            try await sync.sync()
            let end = ContinuousClock.now
            return (start.duration(to: await emptied.value).seconds, start.duration(to: end).seconds)
        }

        private static func timed(_ work: () async throws -> Void) async throws -> Double {
            let start = ContinuousClock.now
            try await work()
            return start.duration(to: .now).seconds
        }

        /// Two replicas in `run()`: the delay from a write on the first to the second's changes
        /// yielding the commit that pulled it, one commit at a time.
        private static func observationDelays(directory: String, server: BenchSyncServer, commits: Int) async throws -> [Double] {
            let a = try Replica(directory, "latency-a", server: server, partition: "latency")
            let b = try Replica(directory, "latency-b", server: server, partition: "latency")
            let runningA = Task { await a.sync.run() }
            let runningB = Task { await b.sync.run() }
            defer {
                runningA.cancel()
                runningB.cancel()
            }
            var changes = b.database.changes.makeAsyncIterator()
            var user = User(
                id: "observed", name: "Observed", email: "observed@example.com", age: 0, score: 0, tags: [],
                created: Date(timeIntervalSince1970: 0), metadata: nil)
            var delays: [Double] = []
            // Commit 0 is the warm-up: the first request of each replica prepares the server.
            for age in 0...commits {
                user.age = age
                let written = user
                try await a.database.write { tx in try tx.write(written) }
                let committed = ContinuousClock.now
                while true {
                    guard let changeset = await changes.next() else { throw BenchmarkError("sync: the changes ended") }
                    if b.sync.ledger.isPulled(changeset), changeset.containsChange(forKey: "observed", in: User.collection) {
                        break
                    }
                }
                if age > 0 { delays.append(committed.duration(to: .now).seconds) }
            }
            let seen = try await b.database.read { tx in try tx.read(User.self, key: "observed")?.age }
            guard seen == commits else { throw BenchmarkError("sync: the observing replica has age \(seen ?? -1), not \(commits)") }
            return delays
        }

        /// Pushes `count` new users in batches of 50,000 from a replica of partition `memory`.
        private static func fillLog(directory: String, server: BenchSyncServer, count: Int) async throws -> Double {
            let writer = try Replica(directory, "fill", server: server, partition: "memory")
            var random = SplitMix64(seed: 33)
            let start = ContinuousClock.now
            var written = 0
            while written < count {
                let batch = (written..<min(count, written + 50_000)).map { Fixtures.makeUser(index: $0, random: &random) }
                try await writer.database.write { tx in try tx.write(batch) }
                try await writer.sync.sync()
                written += batch.count
                log("sync: \(Workload.format(written)) pushed, RSS \(residentKilobytes() / 1024) MB")
            }
            return start.duration(to: .now).seconds
        }

        struct MemorySamples: Sendable {
            var start = 0
            var samples: [Int] = []
            var peak = 0
            var end = 0
            var seconds = 0.0
        }

        /// Pulls `count` changes into a fresh replica and samples the resident memory at every
        /// state the client reports (each pulled batch).
        private static func pullSampled(directory: String, server: BenchSyncServer, count: Int) async throws -> MemorySamples {
            let reader = try Replica(directory, "pull", server: server, partition: "memory")
            let start = residentKilobytes()
            let sampler = Task { () -> [Int] in
                var samples: [Int] = []
                var last = 0
                for await state in reader.sync.states {
                    if state.pulledChanges != last {
                        last = state.pulledChanges
                        samples.append(residentKilobytes())
                    }
                    if state.pulledChanges >= count { break }
                }
                return samples
            }
            let seconds = try await timed { try await reader.sync.sync() }
            let end = residentKilobytes()
            let samples = await sampler.value
            let pulled = try await reader.database.read { tx in try tx.count(in: User.collection) }
            guard pulled == count else { throw BenchmarkError("sync: the fresh replica pulled \(pulled) users, not \(count)") }
            return MemorySamples(start: start, samples: samples, peak: max(samples.max() ?? 0, end), end: end, seconds: seconds)
        }

        /// The process's resident memory (`VmRSS` of /proc/self/status), in kilobytes; 0 where
        /// there is no such file.
        static func residentKilobytes() -> Int {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
            for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
            }
            return 0
        }
    }

    /// A replica: a database file of its own with a sync client of `User`s.
    private struct Replica: Sendable {
        let database: Database
        let sync: TroveSync

        init(_ directory: String, _ name: String, server: BenchSyncServer, partition: String) throws {
            database = try Database(path: "\(directory)/\(name).trove")
            sync = try TroveSync(
                database: database, server: server.url, credentials: .none, partition: partition, collections: [User.self])
        }
    }

    /// The bytes of the bodies the server received (pushes) and sent (pulls).
    final class WireCounter: Sendable {
        private let bytes = Mutex<(push: Int, pull: Int)>((0, 0))

        func add(push: Int, pull: Int) {
            bytes.withLock {
                $0.push += push
                $0.pull += pull
            }
        }

        func reset() { _ = take() }

        /// The bytes counted since the last take, and starts again from zero.
        func take() -> (push: Int, pull: Int) {
            bytes.withLock { bytes in
                defer { bytes = (0, 0) }
                return bytes
            }
        }
    }

    /// Counts the body of each push request and of each pull response.
    struct CountingMiddleware<Context: RequestContext>: RouterMiddleware {
        let counter: WireCounter

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            var request = request
            let pushed = request.method == .post ? try await request.collectBody(upTo: 64 << 20).readableBytes : 0
            let response = try await next(request, context)
            counter.add(push: pushed, pull: request.method == .get ? response.body.contentLength ?? 0 : 0)
            return response
        }
    }

    /// The sync routes of a `PostgresStore` on `schema`, in a Hummingbird app on 127.0.0.1.
    final class BenchSyncServer: Sendable {
        let store: PostgresStore
        let url: URL
        let counter: WireCounter
        private let running: Task<Void, any Error>

        private init(store: PostgresStore, url: URL, counter: WireCounter, running: Task<Void, any Error>) {
            self.store = store
            self.url = url
            self.counter = counter
            self.running = running
        }

        static func start(url: String, schema: String) async throws -> BenchSyncServer {
            let store = try await PostgresStore.open(url: url, schema: schema)
            let server = TroveSyncServer(store: store, authorize: { _ in .granted(principal: "bench") })
            let counter = WireCounter()
            let router = Router()
            router.add(middleware: CountingMiddleware(counter: counter))
            router.addRoutes(server.routes(), atPath: "/sync")
            var logger = Logger(label: "trove.sync.bench")
            logger.logLevel = .critical
            let (ports, port) = AsyncStream.makeStream(of: Int.self)
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in port.yield(channel.localAddress?.port ?? 0) }, logger: logger)
            let running = Task { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            guard let bound = await iterator.next() else { throw BenchmarkError("sync: the server did not start") }
            return BenchSyncServer(
                store: store, url: URL(string: "http://127.0.0.1:\(bound)/sync")!, counter: counter, running: running)
        }

        func stop() {
            running.cancel()
            store.close()
        }
    }

    /// The limit by hand: rows written with one `INSERT … unnest`, read back into raw SQLite.
    private final class RawSync: Sendable {
        let client: PostgresClient
        private let task: Task<Void, Never>
        private let pulled = Mutex<Int64>(0)
        let logger = Logger(label: "bench.raw.sync")

        init(url: String) async throws {
            let configuration = try PostgresStore.Configuration(url: url)
            let client = PostgresClient(
                configuration: .init(
                    host: configuration.host, port: configuration.port, username: configuration.username,
                    password: configuration.password, database: configuration.database, tls: .disable))
            self.client = client
            task = Task { await client.run() }
            try await client.query("DROP SCHEMA IF EXISTS bench_sync_raw CASCADE")
            try await client.query("CREATE SCHEMA bench_sync_raw")
            try await client.query(
                "CREATE TABLE bench_sync_raw.log (sequence bigserial PRIMARY KEY, key text NOT NULL, data bytea NOT NULL)")
        }

        func push(keys: [String], values: [[UInt8]]) async throws {
            let buffers = values.map { ByteBuffer(bytes: $0) }
            try await client.query(
                "INSERT INTO bench_sync_raw.log (key, data) SELECT * FROM unnest(\(keys)::text[], \(buffers)::bytea[])",
                logger: logger)
        }

        /// Reads the rows after the last pulled, 1,000 at a time, into `database`'s `items`.
        func pull(into database: RawSQLite) async throws {
            let insert = try database.prepare("INSERT OR REPLACE INTO items (key, data) VALUES (?, ?)")
            while true {
                let after = pulled.withLock { $0 }
                var rows: [(Int64, String, ByteBuffer)] = []
                for try await row in try await client.query(
                    "SELECT sequence, key, data FROM bench_sync_raw.log WHERE sequence > \(after) ORDER BY sequence LIMIT 1000",
                    logger: logger
                ).decode((Int64, String, ByteBuffer).self) {
                    rows.append(row)
                }
                guard let last = rows.last else { return }
                try database.execute("BEGIN")
                for (_, key, data) in rows {
                    var key = key
                    key.withUTF8 { insert.bindText($0, at: 1) }
                    data.withUnsafeReadableBytes { insert.bindBlob($0, at: 2) }
                    try insert.run()
                }
                try database.execute("COMMIT")
                pulled.withLock { $0 = last.0 }
            }
        }

        func close() { task.cancel() }
    }
#endif
