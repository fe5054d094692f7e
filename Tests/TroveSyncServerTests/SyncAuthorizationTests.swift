import Foundation
import Synchronization
import Testing
@_spi(TroveGenerated) import Trove
import TrovePostgres
import TroveSync
import TroveSyncServer
import TroveTestSupport

/// A replica with a token for partition A cannot read, write, or learn the existence of anything
/// in partition B, through any endpoint, with a forged cursor, a replayed push or a borrowed
/// replica identity; a token revoked while its pull waits gets nothing more; and what is not a
/// sync request (damaged, oversized, unkeepable, stamped far ahead) is refused with 4xx, never 500.
///
/// Every test runs a real server (PostgreSQL, Hummingbird on loopback) whose `authorize` grants
/// bearer tokens: `token-a` is alice in `team-a`, `token-c` carol also in `team-a`, `token-b` bob
/// in `team-b` (and `token-l` lee in the partition of the longest name). What a partition holds is
/// read behind the server's back, in its tables.
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct SyncAuthorizationTests {
    /// Who each token is, and the one partition it grants.
    static let grants: [String: (principal: String, partition: String)] = [
        "token-a": ("alice", "team-a"),
        "token-b": ("bob", "team-b"),
        "token-c": ("carol", "team-a"),
        "token-l": ("lee", longestPartition),
    ]

    /// A partition whose name is as long as names go.
    static let longestPartition = String(repeating: "l", count: 128)

    /// What an app's `authorize` does: an unknown or missing token is 401, a known one reaches
    /// its partition only.
    static let authorize: TroveSyncServer.Authorize = { request in
        guard let token = request.bearerToken, let grant = grants[token] else { return .unauthenticated }
        return request.partition == grant.partition ? .granted(principal: grant.principal) : .denied
    }

    static let alice = ReplicaID(rawValue: 0xA11CE)
    static let bob = ReplicaID(rawValue: 0xB0B)
    static let carol = ReplicaID(rawValue: 0xCA201)
    static let collection = "notes"

    static func bearer(_ token: String) -> [String: String] { ["Authorization": "Bearer \(token)"] }

    static func start(_ configure: (inout TroveSyncServer) -> Void = { _ in }) async throws -> LoopbackSyncServer {
        try await LoopbackSyncServer.start(authorize: authorize, configure: configure)
    }

    /// A change of outbox number `sequence` setting field 1 of `key` to `value`, stamped at
    /// `time` (milliseconds after a fixed instant) by `replica`.
    static func change(
        _ sequence: Int64, _ key: String, _ value: String, at time: UInt64, by replica: ReplicaID,
        collection: String = collection
    ) throws -> SyncWire.Change {
        var field = BinaryWriter()
        try field.encode(value, field: 1)
        let stamp = HybridTimestamp(wallMilliseconds: 1_700_000_000_000 + time, counter: 0, replica: replica)
        return SyncWire.Change(
            sequence: sequence, collection: collection, key: key,
            changes: ItemVersions(fields: [1: ItemVersions.Field(bytes: field.bytes, stamp: stamp)], removal: nil))
    }

    /// A push body of `replica`'s `changes`.
    static func push(_ replica: ReplicaID, _ changes: [SyncWire.Change]) throws -> [UInt8] {
        try SyncWire.encode(SyncWire.Push(replica: replica, changes: changes))
    }

    /// A partition as the server keeps it: its items and its whole log.
    struct Snapshot: Equatable {
        var items: [ItemAddress: ItemVersions]
        var log: [SyncWire.Change]
    }

    static func snapshot(_ server: LoopbackSyncServer, _ partition: String) async throws -> Snapshot {
        let storage = server.server.storage
        return Snapshot(
            items: try await storage.items(of: partition),
            log: try await storage.pull(partition: partition, after: 0, limit: 1_000_000).changes)
    }

    /// The value of field 1 of each item of `partition`, by key (the tests' keys are not reused
    /// across collections).
    static func values(_ server: LoopbackSyncServer, _ partition: String) async throws -> [String: String] {
        var values: [String: String] = [:]
        for (address, versions) in try await server.server.storage.items(of: partition) {
            guard let bytes = versions.fields[1]?.bytes else { continue }
            values[address.key] = Self.text(ofField: bytes)
        }
        return values
    }

    /// The string of a field written by ``change(_:_:_:at:by:collection:)``.
    static func text(ofField bytes: [UInt8]) -> String {
        let text = try? bytes.withUnsafeBytes { buffer -> String? in
            var reader = BinaryReader(buffer)
            guard let header = try reader.nextField() else { return nil }
            return try reader.decode(String.self, from: header, field: "value")
        }
        return (text ?? nil) ?? "<not a string field>"
    }

    static func pulled(_ answer: LoopbackSyncServer.Answer) throws -> SyncWire.Pulled {
        try SyncWire.decodePulled(answer.body)
    }

    /// Seeds `team-a` (alice) and `team-b` (bob) with a few notes each; returns their snapshots.
    @discardableResult
    static func seed(_ server: LoopbackSyncServer) async throws -> (a: Snapshot, b: Snapshot) {
        let a = try await server.exchange(
            "POST", "team-a/push",
            body: push(alice, [change(1, "a-note", "alice's", at: 1, by: alice), change(2, "shared", "alice's shared", at: 2, by: alice)]),
            headers: bearer("token-a"))
        #expect(a.status == 200, "\(a)")
        let b = try await server.exchange(
            "POST", "team-b/push",
            body: push(bob, [change(1, "b-secret", "bob's secret", at: 3, by: bob), change(2, "shared", "bob's shared", at: 4, by: bob)]),
            headers: bearer("token-b"))
        #expect(b.status == 200, "\(b)")
        return (try await snapshot(server, "team-a"), try await snapshot(server, "team-b"))
    }

    // MARK: 401

    /// No `Authorization`, a malformed one, an unknown token: 401 on push and on pull, on every
    /// partition alike, and nothing applied.
    @Test func missingMalformedOrUnknownCredentialsAreAnswered401() async throws {
        let server = try await Self.start()
        defer { Task { await server.dispose() } }
        let before = try await Self.seed(server)

        let credentials: [(String, [String: String])] = [
            ("no header", [:]),
            ("an empty header", ["Authorization": ""]),
            ("the scheme alone", ["Authorization": "Bearer"]),
            ("the scheme and spaces", ["Authorization": "Bearer    "]),
            ("another scheme", ["Authorization": "Basic dG9rZW4tYTp4"]),
            ("a token without its scheme", ["Authorization": "token-a"]),
            ("a token glued to its scheme", ["Authorization": "Bearertoken-a"]),
            ("an unknown token", ["Authorization": "Bearer token-x"]),
            ("a known token in another case", ["Authorization": "Bearer TOKEN-A"]),
            ("two tokens", ["Authorization": "Bearer token-a token-b"]),
        ]
        let forged = try Self.push(Self.alice, [Self.change(3, "a-note", "forged", at: 10, by: Self.alice)])
        var refusals: [LoopbackSyncServer.Answer] = []
        for (what, headers) in credentials {
            for partition in ["team-a", "team-b", "team-z"] {
                let pushed = try await server.exchange("POST", "\(partition)/push", body: forged, headers: headers)
                #expect(pushed.status == 401, "push to \(partition) with \(what): \(pushed)")
                let pulled = try await server.exchange("GET", "\(partition)/pull?after=0", headers: headers)
                #expect(pulled.status == 401, "pull of \(partition) with \(what): \(pulled)")
                // RFC 9110: a 401 says which scheme the server takes.
                #expect(pulled.headers.first { $0.key.lowercased() == "www-authenticate" }?.value == "Bearer realm=\"trove-sync\"", "\(pulled)")
                refusals += [pushed, pulled]
            }
        }
        // One refusal for everything: it tells nothing about the partition or the token.
        #expect(Set(refusals.map(\.description)).count == 1, "\(Set(refusals.map(\.description)))")
        #expect(try await Self.snapshot(server, "team-a") == before.a)
        #expect(try await Self.snapshot(server, "team-b") == before.b)
        #expect(try await Self.snapshot(server, "team-z") == Snapshot(items: [:], log: []))
    }

    // MARK: 403, the same whether the partition exists or not

    /// alice's and carol's tokens reach `team-b` (which holds bob's notes) and `team-z` (which
    /// does not exist) with every kind of request: each is answered 403 with the same status,
    /// headers and body for both, at once (a pull's wait is not held), and `team-b` is unchanged.
    @Test func aPartitionNotGrantedIsRefusedAlikeWhetherItExistsOrNot() async throws {
        let server = try await Self.start { $0.maximumPushBytes = 4_096 }
        defer { Task { await server.dispose() } }
        let before = try await Self.seed(server)
        let bobsPush = try Self.push(Self.bob, [Self.change(1, "b-secret", "bob's secret", at: 3, by: Self.bob)])

        let requests: [(method: String, path: String, body: [UInt8]?)] = [
            ("POST", "push", try Self.push(Self.alice, [Self.change(1, "b-secret", "overwritten", at: 99, by: Self.alice)])),
            ("POST", "push", try Self.push(Self.bob, [Self.change(3, "b-secret", "overwritten", at: 99, by: Self.bob)])),
            ("POST", "push", bobsPush),
            ("POST", "push", []),
            ("POST", "push", Array("not a push".utf8)),
            ("POST", "push", [UInt8](repeating: 0xFF, count: 10_000)),
            ("POST", "push", try Self.push(Self.alice, [Self.change(2, "x", "", at: 1, by: Self.alice), Self.change(1, "y", "", at: 1, by: Self.alice)])),
            ("GET", "pull?after=0", nil),
            ("GET", "pull?after=0&limit=1", nil),
            ("GET", "pull?after=1", nil),
            ("GET", "pull?after=-1", nil),
            ("GET", "pull?after=abc", nil),
            ("GET", "pull", nil),
            ("GET", "pull?after=9223372036854775807", nil),
            ("GET", "pull?after=0&wait=30", nil),
        ]
        var refusals: Set<String> = []
        for token in ["token-a", "token-c"] {
            for request in requests {
                let started = ContinuousClock.now
                let existing = try await server.exchange(request.method, "team-b/" + request.path, body: request.body, headers: Self.bearer(token))
                let missing = try await server.exchange(request.method, "team-z/" + request.path, body: request.body, headers: Self.bearer(token))
                let what = "\(request.method) \(request.path) with \(token)"
                #expect(existing.status == 403, "\(what) on team-b: \(existing)")
                #expect(existing == missing, "\(what): team-b answered \(existing), team-z \(missing)")
                #expect(ContinuousClock.now - started < .seconds(5), "\(what): the refusal waited")
                refusals.insert(existing.description)
            }
        }
        #expect(refusals.count == 1, "\(refusals)")

        // Routes that are not the sync routes answer the same for both too.
        for (method, path) in [("GET", "push"), ("POST", "pull"), ("DELETE", "pull"), ("GET", ""), ("GET", "pull/extra")] {
            let existing = try await server.exchange(method, "team-b/" + path, headers: Self.bearer("token-a"))
            let missing = try await server.exchange(method, "team-z/" + path, headers: Self.bearer("token-a"))
            #expect(existing == missing, "\(method) \(path): team-b answered \(existing), team-z \(missing)")
            #expect((400..<500).contains(existing.status), "\(method) \(path): \(existing)")
        }

        #expect(try await Self.snapshot(server, "team-b") == before.b)
        #expect(try await Self.snapshot(server, "team-a") == before.a)
        #expect(try await Self.snapshot(server, "team-z") == Snapshot(items: [:], log: []))
    }

    // MARK: Cursors

    /// Forged cursors: negative, not a number, missing or out of range are refused with 400; one
    /// past the end gets nothing. Pushes to `team-a` and `team-b` interleaved: `team-a`'s log is
    /// numbered 1...n without a gap, whatever `team-b` does, and no cursor reaches `team-b`'s keys.
    @Test func cursorsReachTheirOwnPartitionOnly() async throws {
        let server = try await Self.start()
        defer { Task { await server.dispose() } }
        var random = SeededGenerator(seed: 33)
        var (sequenceA, sequenceB, time, loggedA, loggedB): (Int64, Int64, UInt64, Int, Int) = (0, 0, 0, 0, 0)
        for round in 0..<12 {
            // Each change sets a value at a later time: each is logged.
            for partition in ["team-a", "team-b"].shuffled(using: &random) {
                let count = Int.random(in: 1...4, using: &random)
                var changes: [SyncWire.Change] = []
                for _ in 0..<count {
                    time += 1
                    let index = Int.random(in: 0..<6, using: &random)
                    if partition == "team-a" {
                        sequenceA += 1
                        changes.append(try Self.change(sequenceA, "a-\(index)", "a \(round)", at: time, by: Self.alice))
                    } else {
                        sequenceB += 1
                        changes.append(try Self.change(sequenceB, "b-\(index)", "b \(round)", at: time, by: Self.bob))
                    }
                }
                let replica = partition == "team-a" ? Self.alice : Self.bob
                let token = partition == "team-a" ? "token-a" : "token-b"
                let answer = try await server.exchange("POST", "\(partition)/push", body: Self.push(replica, changes), headers: Self.bearer(token))
                #expect(answer.status == 200, "\(answer)")
                if partition == "team-a" { loggedA += count } else { loggedB += count }
            }
        }
        let headers = Self.bearer("token-a")
        let whole = try Self.pulled(try await server.exchange("GET", "team-a/pull?after=0&limit=1000", headers: headers))
        #expect(whole.changes.map(\.sequence) == Array(1...Int64(loggedA)))
        #expect(whole.changes.allSatisfy { $0.key.hasPrefix("a-") }, "\(whole.changes.map(\.key))")
        #expect(whole.cursor == Int64(loggedA))
        #expect(!whole.more)
        let logB = try await Self.snapshot(server, "team-b").log
        #expect(logB.map(\.sequence) == Array(1...Int64(loggedB)))

        // Page by page, from every cursor: the same changes, never one of team-b's.
        for start in 0...loggedA + 2 {
            var cursor = Int64(start)
            var paged: [SyncWire.Change] = []
            while true {
                let page = try Self.pulled(try await server.exchange("GET", "team-a/pull?after=\(cursor)&limit=3", headers: headers))
                paged += page.changes
                #expect(page.cursor >= cursor)
                cursor = page.cursor
                if !page.more { break }
            }
            #expect(paged == Array(whole.changes.dropFirst(start)), "from \(start)")
        }

        // Past the end, however far: nothing, and the cursor sent back.
        for after in [Int64(loggedA) + 1, Int64(loggedB) + 5, 1 << 40, Int64.max] {
            let answer = try await server.exchange("GET", "team-a/pull?after=\(after)&limit=1000", headers: headers)
            #expect(answer.status == 200, "after \(after): \(answer)")
            let pulled = try Self.pulled(answer)
            #expect(pulled == SyncWire.Pulled(cursor: after, more: false, changes: []), "after \(after)")
        }

        // Cursors that are not cursors.
        for query in [
            "after=-1", "after=-9223372036854775808", "after=abc", "after=", "after=1.5", "after=0x10", "after=1e3",
            "after=9223372036854775808", "after=99999999999999999999", "limit=10", "",
        ] {
            let answer = try await server.exchange("GET", "team-a/pull?\(query)", headers: headers)
            #expect(answer.status == 400, "pull?\(query): \(answer)")
        }

        // Limits and waits out of range are brought into range, not obeyed or refused.
        for query in ["limit=0", "limit=-5", "limit=abc", "limit=99999999999999999999", "wait=-1", "wait=abc", "wait=9223372036854775807"] {
            let answer = try await server.exchange("GET", "team-a/pull?after=0&\(query)", headers: headers)
            #expect(answer.status == 200, "pull?after=0&\(query): \(answer)")
            let pulled = try Self.pulled(answer)
            #expect(!pulled.changes.isEmpty && pulled.changes.allSatisfy { $0.key.hasPrefix("a-") }, "pull?after=0&\(query)")
        }
    }

    /// Pushes to `team-a` and `team-b` at once, from several replicas each: each partition's log
    /// is still numbered 1...n, without a gap or a number twice, and holds its own keys only.
    @Test func concurrentPushesToTwoPartitionsNumberEachLogOnItsOwn() async throws {
        let server = try await Self.start()
        defer { Task { await server.dispose() } }
        var writers: [(partition: String, token: String, replica: ReplicaID)] = []
        for index in UInt64(1)...3 {
            writers.append(("team-a", index == 2 ? "token-c" : "token-a", ReplicaID(rawValue: 0xA00 + index)))
            writers.append(("team-b", "token-b", ReplicaID(rawValue: 0xB00 + index)))
        }
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for (index, writer) in writers.enumerated() {
                let writer = writer
                group.addTask {
                    var statuses: [Int] = []
                    for sequence in Int64(1)...5 {
                        let prefix = writer.partition == "team-a" ? "a" : "b"
                        let body = try Self.push(
                            writer.replica,
                            [try Self.change(2 * sequence - 1, "\(prefix)-\(index)-\(sequence)", "v", at: UInt64(sequence), by: writer.replica),
                             try Self.change(2 * sequence, "\(prefix)-shared", "\(index) \(sequence)", at: UInt64(sequence) * 10 + UInt64(index), by: writer.replica)])
                        statuses.append(try await server.exchange("POST", "\(writer.partition)/push", body: body, headers: Self.bearer(writer.token)).status)
                    }
                    return statuses
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        for (partition, prefix) in [("team-a", "a-"), ("team-b", "b-")] {
            let log = try await Self.snapshot(server, partition).log
            #expect(log.map(\.sequence) == Array(1...Int64(max(1, log.count))), "\(partition)")
            #expect(log.count >= 15, "\(partition): \(log.count) changes logged")
            #expect(log.allSatisfy { $0.key.hasPrefix(prefix) }, "\(partition)")
        }
    }

    // MARK: Replay

    /// An old push of alice sent again after later pushes changes nothing, nor does a forged push
    /// reusing her acknowledged outbox numbers with other values; a push overlapping the applied
    /// numbers applies only the new ones.
    @Test func aReplayedPushChangesNothing() async throws {
        let server = try await Self.start()
        defer { Task { await server.dispose() } }
        let headers = Self.bearer("token-a")
        let old = try Self.push(Self.alice, [Self.change(1, "n", "first", at: 1, by: Self.alice), Self.change(2, "m", "first", at: 2, by: Self.alice)])
        let firstAnswer = try await server.exchange("POST", "team-a/push", body: old, headers: headers)
        #expect(try SyncWire.decodeAcknowledged(firstAnswer.body) == 2)
        let later = try Self.push(Self.alice, [Self.change(3, "n", "second", at: 3, by: Self.alice), Self.change(4, "m", "second", at: 4, by: Self.alice)])
        #expect(try SyncWire.decodeAcknowledged(try await server.exchange("POST", "team-a/push", body: later, headers: headers).body) == 4)
        let before = try await Self.snapshot(server, "team-a")
        #expect(before.log.count == 4)

        // The old one again, and a forgery of numbers already applied with values stamped later
        // than everything (they would win a merge).
        let forged = try Self.push(
            Self.alice, [Self.change(3, "n", "forged", at: 1_000, by: Self.alice), Self.change(4, "evil", "forged", at: 1_000, by: Self.alice)])
        for body in [old, later, forged, old] {
            let answer = try await server.exchange("POST", "team-a/push", body: body, headers: headers)
            #expect(answer.status == 200, "\(answer)")
            #expect(try SyncWire.decodeAcknowledged(answer.body) >= 2)
            #expect(try await Self.snapshot(server, "team-a") == before)
        }
        #expect(try await Self.values(server, "team-a") == ["n": "second", "m": "second"])

        // Overlapping: 3 and 4 again, then 5; only 5 is applied.
        let overlapping = try Self.push(
            Self.alice,
            [Self.change(3, "n", "forged", at: 1_000, by: Self.alice), Self.change(4, "evil", "forged", at: 1_000, by: Self.alice),
             Self.change(5, "m", "third", at: 5, by: Self.alice)])
        let answer = try await server.exchange("POST", "team-a/push", body: overlapping, headers: headers)
        #expect(try SyncWire.decodeAcknowledged(answer.body) == 5)
        let after = try await Self.snapshot(server, "team-a")
        #expect(after.log.count == 5)
        #expect(after.log.last?.key == "m")
        #expect(try await Self.values(server, "team-a") == ["n": "second", "m": "third"])
    }

    // MARK: Replica identity

    /// carol, granted `team-a` too, pushes with alice's replica identity: 403, nothing applied,
    /// and alice's next pushes are still applied. A replica identity is checked within its
    /// partition only: alice may use one that bob uses in `team-b` (a refusal would tell her bob's
    /// replica exists), and her acknowledgements never reflect his outbox.
    @Test func aReplicaIdentityBelongsToItsPrincipal() async throws {
        let server = try await Self.start()
        defer { Task { await server.dispose() } }
        let before = try await Self.seed(server)

        let stolen = try Self.push(Self.alice, [Self.change(3, "a-note", "carol as alice", at: 50, by: Self.alice)])
        let refused = try await server.exchange("POST", "team-a/push", body: stolen, headers: Self.bearer("token-c"))
        #expect(refused.status == 403, "\(refused)")
        // Sent again with numbers alice has applied, or past them: refused all the same.
        let replay = try Self.push(Self.alice, [Self.change(1, "a-note", "carol as alice", at: 50, by: Self.alice)])
        #expect(try await server.exchange("POST", "team-a/push", body: replay, headers: Self.bearer("token-c")).status == 403)
        let empty = try Self.push(Self.alice, [])
        #expect(try await server.exchange("POST", "team-a/push", body: empty, headers: Self.bearer("token-c")).status != 200)
        #expect(try await Self.snapshot(server, "team-a") == before.a)

        let next = try Self.push(Self.alice, [Self.change(3, "a-note", "alice again", at: 60, by: Self.alice)])
        let applied = try await server.exchange("POST", "team-a/push", body: next, headers: Self.bearer("token-a"))
        #expect(applied.status == 200, "\(applied)")
        #expect(try SyncWire.decodeAcknowledged(applied.body) == 3)
        #expect(try await Self.values(server, "team-a")["a-note"] == "alice again")

        // carol's own identity works; alice cannot take it over once carol used it.
        let carols = try Self.push(Self.carol, [Self.change(1, "c-note", "carol's", at: 70, by: Self.carol)])
        #expect(try await server.exchange("POST", "team-a/push", body: carols, headers: Self.bearer("token-c")).status == 200)
        let takeover = try Self.push(Self.carol, [Self.change(2, "c-note", "alice as carol", at: 80, by: Self.carol)])
        #expect(try await server.exchange("POST", "team-a/push", body: takeover, headers: Self.bearer("token-a")).status == 403)
        #expect(try await Self.values(server, "team-a")["c-note"] == "carol's")

        // bob's identity in team-a is alice's to use there: nothing of team-b is consulted. The
        // acknowledgement is of her numbers (bob's outbox in team-b is at 2).
        let borrowed = try Self.push(Self.bob, [Self.change(1, "a-borrowed", "alice with bob's id", at: 90, by: Self.bob)])
        let answer = try await server.exchange("POST", "team-a/push", body: borrowed, headers: Self.bearer("token-a"))
        #expect(answer.status == 200, "\(answer)")
        #expect(try SyncWire.decodeAcknowledged(answer.body) == 1)
        #expect(try await Self.snapshot(server, "team-b") == before.b)
    }

    // MARK: Same key, two partitions

    /// One key written in two partitions, by raw pushes and by replicas syncing: each partition
    /// keeps its own value, each log its own change, each replica its partition's item.
    @Test func oneKeyInTwoPartitionsNeverMeets() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try await Self.start()
        defer { Task { await server.dispose() } }
        try await Self.seed(server)
        #expect(try await Self.values(server, "team-a") == ["a-note": "alice's", "shared": "alice's shared"])
        #expect(try await Self.values(server, "team-b") == ["b-secret": "bob's secret", "shared": "bob's shared"])
        let pulledA = try Self.pulled(try await server.exchange("GET", "team-a/pull?after=0", headers: Self.bearer("token-a")))
        #expect(pulledA.changes.map(\.key) == ["a-note", "shared"])
        #expect(pulledA.changes.compactMap { $0.changes.fields[1]?.bytes.map(Self.text(ofField:)) } == ["alice's", "alice's shared"])

        // A later write of the key in team-b does not reach team-a.
        let later = try Self.push(Self.bob, [Self.change(3, "shared", "bob's later", at: 500, by: Self.bob)])
        #expect(try await server.exchange("POST", "team-b/push", body: later, headers: Self.bearer("token-b")).status == 200)
        #expect(try await Self.values(server, "team-a")["shared"] == "alice's shared")
        let again = try Self.pulled(try await server.exchange("GET", "team-a/pull?after=\(pulledA.cursor)", headers: Self.bearer("token-a")))
        #expect(again.changes.isEmpty)

        // Replicas on files, one per partition, writing one key.
        let alice = try TestReplica("alice", in: folder, server: server, partition: "team-a", credentials: .bearer("token-a"))
        let bob = try TestReplica("bob", in: folder, server: server, partition: "team-b", credentials: .bearer("token-b"))
        let carol = try TestReplica("carol", in: folder, server: server, partition: "team-a", credentials: .bearer("token-c"))
        try await alice.database.write { tx in try tx.write(CrashItem(id: "k", group: 1, payload: Data("alice".utf8), metadata: nil)) }
        try await bob.database.write { tx in try tx.write(CrashItem(id: "k", group: 2, payload: Data("bob".utf8), metadata: nil)) }
        for replica in [alice, bob, carol, alice, bob] { try await replica.sync.sync() }
        let onCarol = try await carol.database.read { tx in try tx.read(CrashItem.self, key: "k") }
        let onBob = try await bob.database.read { tx in try tx.read(CrashItem.self, key: "k") }
        #expect(onCarol?.payload == Data("alice".utf8))
        #expect(onBob?.payload == Data("bob".utf8))
        #expect(try alice.items() == carol.items())
        #expect(try bob.items().keys.sorted() == ["k"])
        #expect(try await server.server.storage.items(of: "team-b").presentItems(of: CrashItem.collection) == (try bob.items()))
    }

    // MARK: Bad input

    /// Every strict prefix of a push, random bytes and randomly damaged pushes (several seeds):
    /// 400 and nothing applied when the bytes are not a push, never a 500.
    @Test func damagedPushesAreRefusedWith400() async throws {
        let server = try await Self.start()
        defer { Task { await server.dispose() } }
        let headers = Self.bearer("token-a")
        try await Self.seed(server)
        let before = try await Self.snapshot(server, "team-a")
        let body = try Self.push(Self.alice, [Self.change(3, "a-fresh", "a value of some length", at: 100, by: Self.alice)])
        let replicaOnly = try Self.push(Self.alice, [])

        // Truncated: each prefix is not a push, but the replica's field alone (an empty push).
        for length in 0..<body.count {
            let prefix = Array(body.prefix(length))
            let answer = try await server.exchange("POST", "team-a/push", body: prefix, headers: headers)
            if prefix == replicaOnly {
                #expect(answer.status == 200, "the replica's field alone: \(answer)")
            } else {
                #expect(answer.status == 400, "the first \(length) of \(body.count) bytes: \(answer)")
            }
        }
        #expect(try await Self.snapshot(server, "team-a") == before)

        for seed in UInt64(1)...6 {
            var random = SeededGenerator(seed: seed)
            let before = try await Self.snapshot(server, "team-a")
            // Random bytes: refused, but the rare ones that read as a push (of no change, such
            // as a replica's field and fields a newer client might add).
            var readAsChanges = false
            for _ in 0..<20 {
                let noise = (0..<Int.random(in: 1...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                let read = try? SyncWire.decodePush(noise)
                readAsChanges = readAsChanges || read?.changes.isEmpty == false
                let answer = try await server.exchange("POST", "team-a/push", body: noise, headers: headers)
                #expect(answer.status == (read == nil ? 400 : 200), "seed \(seed): \(noise): \(answer)")
            }
            if !readAsChanges {
                #expect(try await Self.snapshot(server, "team-a") == before, "seed \(seed)")
            }

            // A push with a few bytes changed, each from a replica of its own so that a damaged
            // push that still reads is not taken for a replay. What does not read is refused.
            for round in 0..<20 {
                let replica = ReplicaID(rawValue: seed << 32 | UInt64(round) + 1)
                var damaged = try Self.push(
                    replica,
                    [Self.change(1, "d-\(round)", "a value of some length", at: 200, by: replica),
                     Self.change(2, "e-\(round)", "another value", at: 201, by: replica)])
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    damaged[Int.random(in: damaged.indices, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                let reads = (try? SyncWire.decodePush(damaged)) != nil
                let snapshot = try await Self.snapshot(server, "team-a")
                let answer = try await server.exchange("POST", "team-a/push", body: damaged, headers: headers)
                #expect(answer.status == 200 || answer.status == 400 || answer.status == 403, "seed \(seed), round \(round): \(answer)")
                if !reads {
                    #expect(answer.status == 400, "seed \(seed), round \(round): \(damaged): \(answer)")
                    #expect(try await Self.snapshot(server, "team-a") == snapshot, "seed \(seed), round \(round)")
                }
            }
        }
        #expect(try await Self.values(server, "team-a")["a-note"] == "alice's")
    }

    /// Keys and collections PostgreSQL cannot keep (a NUL character, thousands of bytes), a
    /// zero or negative outbox number, changes out of outbox order: 400, nothing applied.
    @Test func pushesTheServerCannotKeepAreRefusedWith400() async throws {
        let server = try await Self.start()
        defer { Task { await server.dispose() } }
        let headers = Self.bearer("token-a")
        let before = try await Self.seed(server)
        var random = SeededGenerator(seed: 7)
        let long = String((0..<10_000).map { _ in Character(UnicodeScalar(UInt8.random(in: 0x61...0x7A, using: &random))) })

        let refused: [(String, [SyncWire.Change])] = [
            ("a key with NUL", [try Self.change(3, "a\u{0}b", "x", at: 10, by: Self.alice)]),
            ("a collection with NUL", [try Self.change(3, "k", "x", at: 10, by: Self.alice, collection: "no\u{0}tes")]),
            ("a key of 10,000 bytes", [try Self.change(3, long, "x", at: 10, by: Self.alice)]),
            ("a collection of 10,000 bytes", [try Self.change(3, "k", "x", at: 10, by: Self.alice, collection: long)]),
            ("outbox number 0", [try Self.change(0, "k", "x", at: 10, by: Self.alice)]),
            ("a negative outbox number", [try Self.change(-3, "k", "x", at: 10, by: Self.alice)]),
            ("descending numbers", [try Self.change(4, "k", "x", at: 10, by: Self.alice), try Self.change(3, "l", "x", at: 11, by: Self.alice)]),
            ("a number twice", [try Self.change(3, "k", "x", at: 10, by: Self.alice), try Self.change(3, "l", "x", at: 11, by: Self.alice)]),
            ("a good change before a key with NUL", [try Self.change(3, "k", "x", at: 10, by: Self.alice), try Self.change(4, "\u{0}", "x", at: 11, by: Self.alice)]),
        ]
        for (what, changes) in refused {
            let answer = try await server.exchange("POST", "team-a/push", body: Self.push(Self.alice, changes), headers: headers)
            #expect(answer.status == 400, "\(what): \(answer)")
            #expect(try await Self.snapshot(server, "team-a") == before.a, "\(what)")
        }
        // alice's outbox goes on from where it was.
        let next = try await server.exchange(
            "POST", "team-a/push", body: Self.push(Self.alice, [Self.change(3, "k", "x", at: 10, by: Self.alice)]), headers: headers)
        #expect(try SyncWire.decodeAcknowledged(next.body) == 3)

        // The longest collection and key the server takes, in the partition of the longest name,
        // are kept (random letters: PostgreSQL cannot compress them into its index).
        let limit = SyncWire.maximumAddressBytes
        let longest = try await server.exchange(
            "POST", "\(Self.longestPartition)/push",
            body: Self.push(
                Self.alice,
                [try Self.change(1, String(long.prefix(limit - 1_000)), "x", at: 10, by: Self.alice, collection: String(long.suffix(1_000)))]),
            headers: Self.bearer("token-l"))
        #expect(longest.status == 200, "\(longest)")
        let overLimit = try await server.exchange(
            "POST", "\(Self.longestPartition)/push",
            body: Self.push(Self.alice, [try Self.change(2, String(long.prefix(limit - 999)), "x", at: 10, by: Self.alice, collection: String(long.suffix(1_000)))]),
            headers: Self.bearer("token-l"))
        #expect(overLimit.status == 400, "\(overLimit)")
        #expect(try await Self.snapshot(server, Self.longestPartition).log.count == 1)
    }

    /// A partition's name that is not one is refused with 400 before anything else (with any
    /// token, or none); a push over `maximumPushBytes` is refused with 413 and nothing applied,
    /// and one to a partition not granted with 403, as any other.
    @Test func badNamesAndOversizedPushesAreRefused() async throws {
        let server = try await Self.start { $0.maximumPushBytes = 2_048 }
        defer { Task { await server.dispose() } }
        let before = try await Self.seed(server)
        let small = try Self.push(Self.alice, [Self.change(3, "k", "x", at: 10, by: Self.alice)])

        for name in ["team%20a", "team*a", "t%C3%A9am", "team%00a", String(repeating: "a", count: 129), "%2E", "team%2Fa"] {
            for headers in [Self.bearer("token-a"), Self.bearer("token-x"), [:]] {
                let pushed = try await server.exchange("POST", "\(name)/push", body: small, headers: headers)
                #expect(pushed.status == 400 || pushed.status == 404, "push to \(name): \(pushed)")
                let pulled = try await server.exchange("GET", "\(name)/pull?after=0", headers: headers)
                #expect(pulled.status == 400 || pulled.status == 404, "pull of \(name): \(pulled)")
            }
        }
        let longest = String(repeating: "a", count: 128)
        #expect(try await server.exchange("GET", "\(longest)/pull?after=0", headers: Self.bearer("token-a")).status == 403)

        let large = try Self.push(Self.alice, [Self.change(3, "big", String(repeating: "x", count: 4_000), at: 10, by: Self.alice)])
        let tooLarge = try await server.exchange("POST", "team-a/push", body: large, headers: Self.bearer("token-a"))
        #expect(tooLarge.status == 413, "\(tooLarge)")
        let elsewhere = try await server.exchange("POST", "team-b/push", body: large, headers: Self.bearer("token-a"))
        #expect(elsewhere.status == 403, "\(elsewhere)")
        #expect(try await Self.snapshot(server, "team-a") == before.a)
        #expect(try await Self.snapshot(server, "team-b") == before.b)
        let fits = try await server.exchange("POST", "team-a/push", body: small, headers: Self.bearer("token-a"))
        #expect(fits.status == 200, "\(fits)")
    }

    // MARK: Stamps from the future

    /// A change stamped further ahead of the server's clock than a replica takes in
    /// (``HybridClock/maximumDrift``): refused with 400, so that one member of a partition (or a
    /// device whose clock is wrong) cannot push what every other replica's pull then refuses,
    /// stalling them. A change a minute ahead is taken, and pulled.
    @Test func aChangeStampedFarAheadIsRefusedAndCannotStallAPartition() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try await Self.start()
        defer { Task { await server.dispose() } }
        let now = UInt64(Date().timeIntervalSince1970 * 1_000) - 1_700_000_000_000
        #expect(try await server.exchange("GET", "team-a/pull?after=0", headers: Self.bearer("token-a")).status == 200)
        let before = try await Self.snapshot(server, "team-a")
        for (sequence, ahead) in [(Int64(1), UInt64(3_600_000)), (1, HybridClock.maximumDrift + 60_000), (1, HybridTimestamp.maximumWallTime)] {
            let far = try Self.push(
                Self.alice, [try Self.change(sequence, "future", "from the future", at: min(now + ahead, HybridTimestamp.maximumWallTime - 1_700_000_000_000), by: Self.alice, collection: CrashItem.collection)])
            let answer = try await server.exchange("POST", "team-a/push", body: far, headers: Self.bearer("token-a"))
            #expect(answer.status == 400, "a change \(ahead) ms ahead: \(answer)")
        }
        #expect(try await Self.snapshot(server, "team-a") == before)
        let near = try Self.push(
            Self.alice, [try Self.change(1, "near", "a minute ahead", at: now + 60_000, by: Self.alice, collection: CrashItem.collection)])
        #expect(try await server.exchange("POST", "team-a/push", body: near, headers: Self.bearer("token-a")).status == 200)

        let carol = try TestReplica("carol", in: folder, server: server, partition: "team-a", credentials: .bearer("token-c"))
        try await carol.sync.sync()
        #expect(try carol.items().keys.sorted() == ["near"])
    }

    // MARK: Revoked tokens

    /// A token revoked while its pull waits on the server (long polling): the change pushed after
    /// the revocation is not sent to it; the pull is answered 401, and so is the next request.
    @Test func aTokenRevokedDuringALongPullGetsNothingMore() async throws {
        let revoked = Mutex<Set<String>>([])
        let server = try await LoopbackSyncServer.start(authorize: { request in
            if let token = request.bearerToken, revoked.withLock({ $0.contains(token) }) { return .unauthenticated }
            return try await Self.authorize(request)
        })
        defer { Task { await server.dispose() } }
        try await Self.seed(server)
        let cursor = try Self.pulled(try await server.exchange("GET", "team-a/pull?after=0", headers: Self.bearer("token-c"))).cursor

        let waiting = Task { try await server.exchange("GET", "team-a/pull?after=\(cursor)&wait=20", headers: Self.bearer("token-c")) }
        try await Task.sleep(for: .milliseconds(500))
        revoked.withLock { _ = $0.insert("token-c") }
        let after = try Self.push(Self.alice, [Self.change(3, "a-after", "after carol left", at: 100, by: Self.alice)])
        #expect(try await server.exchange("POST", "team-a/push", body: after, headers: Self.bearer("token-a")).status == 200)
        let answer = try await waiting.value
        #expect(answer.status == 401, "the waiting pull of a revoked token: \(answer)")
        #expect(!String(decoding: answer.body, as: UTF8.self).contains("a-after"))
        #expect(try await server.exchange("GET", "team-a/pull?after=\(cursor)", headers: Self.bearer("token-c")).status == 401)
    }

    // MARK: The client

    /// A client with alice's token on `team-b`, and one without a token: `sync()` throws
    /// ``TroveError/Code/unauthorized`` (saying 403 or 401), the state keeps the error, the local
    /// change stays pending, and `team-b` is unchanged.
    @Test func aClientRefusedSaysWhy() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try await Self.start()
        defer { Task { await server.dispose() } }
        let before = try await Self.seed(server)

        let cases: [(name: String, credentials: SyncCredentials, status: String)] = [
            ("alice", .bearer("token-a"), "403"), ("anonymous", .none, "401"), ("stranger", .bearer("token-x"), "401"),
        ]
        for (name, credentials, status) in cases {
            let replica = try TestReplica(name, in: folder, server: server, partition: "team-b", credentials: credentials)
            try await replica.database.write { tx in try tx.write(CrashItem(id: "b-secret", group: 9, payload: Data(), metadata: nil)) }
            var caught: TroveError?
            do {
                try await replica.sync.sync()
            } catch let error as TroveError {
                caught = error
            }
            #expect(caught?.code == .unauthorized, "\(name): \(String(describing: caught))")
            #expect(caught?.message.contains("HTTP \(status)") == true, "\(name): \(String(describing: caught?.message))")
            #expect(replica.sync.state.lastError?.code == .unauthorized, "\(name)")
            #expect(replica.sync.state.pendingChanges == 1, "\(name)")
            #expect(try replica.items().keys.sorted() == ["b-secret"], "\(name): only its own write")
        }
        #expect(try await Self.snapshot(server, "team-b") == before.b)
    }
}
