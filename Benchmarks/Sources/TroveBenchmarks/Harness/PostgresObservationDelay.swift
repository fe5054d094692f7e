#if Postgres
    import Foundation
    import Trove
    import TrovePostgres

    /// Observation across instances (issue 28): two `PostgresStore`s on one schema, two instances
    /// of an app. An observation in the first reads one user; the second writes that user, and
    /// the time from the second's `write` returning to the first's observation yielding the new
    /// value is measured, commit after commit.
    ///
    /// Each delay is the `NOTIFY` reaching the first instance's listener, the observation marked
    /// stale, and its closure run again (a read transaction: `BEGIN`, the point read with the
    /// snapshot's number, `COMMIT`). The next commit waits for the yield, so that no two coalesce.
    enum PostgresObservationDelay {
        /// The commits measured.
        static let commits = 200

        /// Measures, and returns the Markdown section that reports it.
        static func measure(url: String) throws -> [String] {
            let delays = try blocking { try await measuredDelays(url: url) }.sorted()
            func percentile(_ p: Double) -> Double {
                delays[min(delays.count - 1, Int((Double(delays.count) * p).rounded(.up)) - 1)]
            }
            let median = delays[delays.count / 2]
            log("postgres: observation across instances, median \(formatDuration(median)) over \(delays.count) commits")
            return [
                "", "## Observation across instances on PostgreSQL (issue 28)", "",
                "From the second instance's `write` returning to the first instance's observation yielding the value it wrote, "
                    + "\(delays.count) commits, one at a time, server on loopback.",
                "",
                "| Delay | median | p90 | p99 | max |",
                "|---|---:|---:|---:|---:|",
                "| commit of instance B → observation of instance A yields | \(formatDuration(median)) | "
                    + "\(formatDuration(percentile(0.90))) | \(formatDuration(percentile(0.99))) | "
                    + "\(formatDuration(delays.last ?? 0)) |",
            ]
        }

        /// The delays, in seconds, in commit order.
        private static func measuredDelays(url: String) async throws -> [Double] {
            let schema = "bench_observation"
            let first = try await PostgresStore.open(url: url, schema: schema)
            defer { first.close() }
            let second = try await PostgresStore.open(url: url, schema: schema)
            defer { second.close() }
            _ = try await second.write { tx in try await tx.removeAll(User.self) }
            var user = User(
                id: "observed", name: "Observed", email: "observed@example.com", age: 0, score: 0, tags: [],
                created: Date(timeIntervalSince1970: 0), metadata: nil)
            try await second.write(user)
            var values = first.observe { tx in try await tx.read(User.self, key: "observed")?.age }.makeAsyncIterator()
            // The first value, once the setup's commit is in the observation's snapshot.
            while try await values.next() != 0 {}
            var delays: [Double] = []
            delays.reserveCapacity(commits)
            for age in 1...commits {
                user.age = age
                try await second.write(user)
                let committed = ContinuousClock.now
                while true {
                    guard let value = try await values.next() else { throw BenchmarkError("the observation ended") }
                    if value == age { break }
                }
                delays.append(committed.duration(to: .now).seconds)
            }
            return delays
        }
    }
#endif
