@_spi(TroveGenerated) import Trove
import Testing
import TroveSync
import TroveTestSupport

/// The merge of sync (``ItemVersions``): replicas that make random offline changes (fields set
/// and left out, removals, writes after a removal) and exchange them in random order, partly,
/// repeatedly, converge to the same versions and the same bytes, which are those a brute-force
/// model of the rule gives.
@Suite struct FieldMergeTests {
    /// The fields the test's items have: numbers 1 to 5.
    static let fieldNumbers: [UInt32] = [1, 2, 3, 4, 5]
    static let keys = ["a", "b", "c", "d"]

    /// The bytes of the field `number` holding `value`, as a generated coder writes it.
    static func field(_ number: UInt32, _ value: String) throws -> [UInt8] {
        var writer = BinaryWriter()
        try writer.encode(value, field: number)
        return writer.bytes
    }

    /// One replica: its clock, its wall clock (skewed from the others'), and its items.
    struct Replica {
        var clock: HybridClock
        var wall: UInt64
        var items: [String: ItemVersions] = [:]
    }

    @Test(arguments: 0..<40)
    func replicasConvergeToTheModel(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = 2 + Int(random.next() % 4)
        var replicas = (0..<count).map { index in
            Replica(
                clock: HybridClock(replica: ReplicaID(rawValue: UInt64(index) * 7_919 + seed)),
                wall: 1_000_000 + random.next() % 50)
        }
        var model = SyncModel()
        for step in 0..<300 {
            let r = Int(random.next() % UInt64(count))
            // Wall clocks move on by 0 to 2 ms: many changes share a millisecond.
            replicas[r].wall += random.next() % 3
            let key = Self.keys[Int(random.next() % UInt64(Self.keys.count))]
            switch random.next() % 10 {
            case 0..<5:
                // A write: some fields set or left out, the others as the replica sees them.
                let before = replicas[r].items[key] ?? ItemVersions()
                let wasHidden = SyncModel.hidden(before)
                var values: [UInt32: [UInt8]] = [:]
                if !wasHidden {
                    for (number, field) in before.fields { values[number] = field.bytes }
                }
                for number in Self.fieldNumbers where random.next() % 3 == 0 {
                    values[number] = random.next() % 4 == 0 ? nil : try Self.field(number, "v\(random.next() % 4)")
                }
                let encoded = values.keys.sorted().flatMap { values[$0].flatMap { $0 } ?? [] }
                let stamp = try replicas[r].clock.tick(wallMilliseconds: replicas[r].wall)
                var after = before
                let changed = try after.recordWrite(of: encoded, at: stamp)
                replicas[r].items[key] = after
                // What the rule sets: every field that differs, or every field after a removal;
                // a field the write leaves out is absent.
                var expectedChanged: [UInt32] = []
                for number in Set(before.fields.keys).union(values.keys.compactMap { values[$0] == nil ? nil : $0 }) {
                    let new = values[number].flatMap { $0 }
                    let old = before.fields[number]?.bytes
                    if wasHidden ? (new != nil || old != nil || before.fields[number] != nil) : new != old {
                        expectedChanged.append(number)
                        model.sets[key, default: [:]][number, default: []].append((stamp, new))
                    }
                }
                #expect(changed == expectedChanged.sorted(), "seed \(seed) step \(step)")
            case 5, 6:
                let stamp = try replicas[r].clock.tick(wallMilliseconds: replicas[r].wall)
                replicas[r].items[key, default: ItemVersions()].recordRemoval(at: stamp)
                model.removals[key, default: []].append(stamp)
            default:
                // An exchange, from one replica to another, of some items: everything, or only the
                // changes after a time the receiver may or may not have (a cursor from any replica).
                let to = Int(random.next() % UInt64(count))
                for key in Self.keys where random.next() % 2 == 0 {
                    guard let versions = replicas[r].items[key] else { continue }
                    let cursor = random.next() % 2 == 0 ? nil : replicas[to].items[key]?.latestStamp
                    try Self.deliver(versions.changes(after: cursor), of: key, to: &replicas[to])
                }
            }
        }
        // Everyone sends everything to everyone, twice over, in a random order of pairs.
        for _ in 0..<2 {
            for from in (0..<count).shuffled(using: &random) {
                for to in 0..<count where to != from {
                    for (key, versions) in replicas[from].items {
                        try Self.deliver(versions.changes(after: nil), of: key, to: &replicas[to])
                    }
                }
            }
        }
        for key in Self.keys {
            // What a replica stores and sends reads back as the same versions.
            if let versions = replicas[0].items[key] {
                let bytes = try versions.serialized()
                #expect(try ItemVersions(serialized: bytes) == versions, "seed \(seed): item \(key) read back")
                try Self.checkDamaged(bytes, &random)
            }
            let expected = model.expected(key)
            for (index, replica) in replicas.enumerated() {
                let versions = replica.items[key] ?? ItemVersions()
                #expect(versions == expected, "seed \(seed): replica \(index), item \(key)")
                #expect(versions.encoded == replicas[0].items[key]?.encoded, "seed \(seed): replica \(index), item \(key)")
            }
        }
    }

    /// Damaged copies of serialized versions (cut short, a byte changed) read back as versions or
    /// fail with ``TroveError/Code/corruptData``; they never trap.
    static func checkDamaged(_ bytes: [UInt8], _ random: inout SeededGenerator) throws {
        guard !bytes.isEmpty else { return }
        for _ in 0..<8 {
            var damaged = bytes
            if random.next() % 2 == 0 {
                damaged.removeLast(1 + Int(random.next() % UInt64(bytes.count)))
            } else {
                damaged[Int(random.next() % UInt64(bytes.count))] ^= UInt8(1 + random.next() % 255)
            }
            do {
                _ = try ItemVersions(serialized: damaged)
            } catch let error as TroveError {
                #expect(error.code == .corruptData, "\(error)")
            }
        }
    }

    /// Bytes of a field that are not one field of its number are refused when versions are read.
    @Test func versionsWithForeignFieldBytesAreRefused() throws {
        let stamp = HybridTimestamp(wallMilliseconds: 1, counter: 0, replica: ReplicaID(rawValue: 1))
        let wrongNumber = ItemVersions(fields: [1: .init(bytes: try Self.field(2, "x"), stamp: stamp)], removal: nil)
        let twoFields = ItemVersions(fields: [1: .init(bytes: try Self.field(1, "x") + Self.field(1, "y"), stamp: stamp)], removal: nil)
        for versions in [wrongNumber, twoFields] {
            var caught: TroveError?
            do {
                _ = try ItemVersions(serialized: versions.serialized())
            } catch let error as TroveError {
                caught = error
            }
            #expect(caught?.code == .corruptData, "\(String(describing: caught))")
        }
        let absent = ItemVersions(fields: [3: .init(bytes: nil, stamp: stamp)], removal: stamp)
        #expect(try ItemVersions(serialized: absent.serialized()) == absent)
    }

    /// Merges `changes` of the item `key` into `replica`, whose clock takes in their time.
    static func deliver(_ changes: ItemVersions, of key: String, to replica: inout Replica) throws {
        replica.items[key, default: ItemVersions()].merge(changes)
        if let latest = changes.latestStamp {
            try replica.clock.receive(latest, wallMilliseconds: replica.wall)
        }
    }

    /// A change of one field sends that field alone; the merge applies a change once, however
    /// often it arrives.
    @Test func aOneFieldChangeSendsOneField() throws {
        var clock = HybridClock(replica: ReplicaID(rawValue: 1))
        var versions = ItemVersions()
        let first = try Self.field(1, "Ada") + Self.field(2, "ada@example.com") + Self.field(3, "London")
        try versions.recordWrite(of: first, at: clock.tick(wallMilliseconds: 10))
        let sent = versions.latestStamp
        let second = try Self.field(1, "Ada") + Self.field(2, "ada@example.org") + Self.field(3, "London")
        let changed = try versions.recordWrite(of: second, at: clock.tick(wallMilliseconds: 10))
        #expect(changed == [2])
        let delta = versions.changes(after: sent)
        #expect(Array(delta.fields.keys) == [2])
        let newMail = try Self.field(2, "ada@example.org")
        #expect(delta.fields[2]?.bytes == newMail)

        var other = ItemVersions()
        other.merge(versions.changes(after: nil))
        other.merge(delta)
        other.merge(delta)
        #expect(other == versions && other.encoded == second)
    }

    /// Two replicas change different fields offline: both changes stay. A removal wins over an
    /// older edit and loses to a newer one.
    @Test func differentFieldsBothStayAndRemovalsOrderByTime() throws {
        var ada = HybridClock(replica: ReplicaID(rawValue: 1))
        var bob = HybridClock(replica: ReplicaID(rawValue: 2))
        var base = ItemVersions()
        try base.recordWrite(of: Self.field(1, "name") + Self.field(2, "mail"), at: ada.tick(wallMilliseconds: 5))
        var onAda = base
        var onBob = base
        try onAda.recordWrite(of: Self.field(1, "NAME") + Self.field(2, "mail"), at: ada.tick(wallMilliseconds: 7))
        try onBob.recordWrite(of: Self.field(1, "name") + Self.field(2, "MAIL"), at: bob.tick(wallMilliseconds: 6))
        var merged = onAda
        merged.merge(onBob)
        let both = try Self.field(1, "NAME") + Self.field(2, "MAIL")
        #expect(merged.encoded == both)

        var removed = merged
        removed.recordRemoval(at: try bob.tick(wallMilliseconds: 8))
        #expect(removed.isRemoved && removed.encoded == nil)
        var olderEdit = onAda
        olderEdit.merge(removed)
        #expect(olderEdit.isRemoved)
        // A write after the removal brings the item back with what it wrote.
        try removed.recordWrite(of: Self.field(1, "back"), at: ada.tick(wallMilliseconds: 9))
        let back = try Self.field(1, "back")
        #expect(!removed.isRemoved && removed.encoded == back)
    }

    /// Bytes that are no sequence of fields are refused, not merged.
    @Test func anEncodingThatIsNoFieldsIsRefused() throws {
        var versions = ItemVersions()
        var caught: TroveError?
        do {
            try versions.recordWrite(of: [0x01, 0x02], at: HybridTimestamp(wallMilliseconds: 1, counter: 0, replica: ReplicaID(rawValue: 1)))
        } catch let error as TroveError {
            caught = error
        }
        #expect(caught?.code == .corruptData)
        #expect(versions == ItemVersions())
    }

    /// The clock: every stamp above every earlier one, given or received; a received time too far
    /// ahead is refused; the counter orders changes within one millisecond.
    @Test func theClockNeverGoesBack() throws {
        var clock = HybridClock(replica: ReplicaID(rawValue: 3))
        let first = try clock.tick(wallMilliseconds: 100)
        let second = try clock.tick(wallMilliseconds: 100)
        let third = try clock.tick(wallMilliseconds: 90)
        #expect(first < second && second < third)
        #expect(second.wallMilliseconds == 100 && second.counter == 1 && third.counter == 2)

        let remote = HybridTimestamp(wallMilliseconds: 5_000, counter: 7, replica: ReplicaID(rawValue: 9))
        try clock.receive(remote, wallMilliseconds: 200)
        let afterRemote = try clock.tick(wallMilliseconds: 200)
        #expect(afterRemote > remote && afterRemote.replica == ReplicaID(rawValue: 3))

        var refused: TroveError?
        do {
            try clock.receive(
                HybridTimestamp(wallMilliseconds: 200 + HybridClock.maximumDrift + 1, counter: 0, replica: ReplicaID(rawValue: 9)),
                wallMilliseconds: 200)
        } catch let error as TroveError {
            refused = error
        }
        #expect(refused?.code == .corruptData)

        var restarted = HybridClock(replica: ReplicaID(rawValue: 3), after: afterRemote)
        let afterRestart = try restarted.tick(wallMilliseconds: 1)
        #expect(afterRestart > afterRemote)
    }
}
