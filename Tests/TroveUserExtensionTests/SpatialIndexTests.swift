import Foundation
import Testing
import Trove
import TroveTestSupport

/// The spatial index (``SpatialIndex``, written on the public extension protocol), tested as a
/// user of Trove sees it: box and nearest-within-radius queries against a brute-force model
/// after random writes, after reopening and after a version change.
@Suite struct SpatialIndexTests {
    /// The box of an item of group `group` in version `version`: `nil`, a point or a box, on a
    /// coarse grid so that many items share a distance (ties are ordered by key).
    static func box(_ group: Int, version: Int = 1) -> SpatialBox? {
        if group % 11 == 0 { return nil }
        // Steps of 0.3, which 32-bit floats do not hold exactly (the R*Tree's own columns round
        // them outward), on the grid of the queries' coordinates (``gridX(_:)``, ``gridY(_:)``).
        let x = gridX(group % 41 + (version == 1 ? 0 : 7))
        let y = gridY((group / 41) % 37)
        if group % 3 == 0 { return .point(x: x, y: y) }
        return SpatialBox(minX: x, maxX: x + Double(group % 5) * 0.45, minY: y, maxY: y + Double(group % 7) * 0.3)
    }

    static func gridX(_ step: Int) -> Double {
        Double(step) * 0.3 - 9
    }

    static func gridY(_ step: Int) -> Double {
        Double(step) * 0.3 - 6
    }

    static func index(version: Int = 1) -> SpatialIndex<CrashItem> {
        SpatialIndex<CrashItem>("places", version: version) { box($0.group, version: version) }
    }

    /// The stored items' groups by key: what the queries are computed from by a scan.
    struct Model {
        var groups: [String: Int] = [:]

        func boxes(version: Int) -> [(key: String, box: SpatialBox)] {
            groups.compactMap { key, group in box(group, version: version).map { (key, $0) } }
        }

        func intersecting(_ query: SpatialBox, version: Int) -> [String] {
            boxes(version: version).filter { $0.box.intersects(query) }.map(\.key).sorted()
        }

        func within(_ query: SpatialBox, version: Int) -> [String] {
            boxes(version: version).filter { $0.box.isWithin(query) }.map(\.key).sorted()
        }

        func near(_ point: SpatialPoint, radius: Double, limit: Int?, version: Int) -> [String] {
            var found: [(key: String, d2: Double)] = []
            for (key, box) in boxes(version: version) {
                let d2 = box.squaredDistance(to: point)
                if radius >= 0 && d2 <= radius * radius { found.append((key, d2)) }
            }
            found.sort { $0.d2 != $1.d2 ? $0.d2 < $1.d2 : $0.key < $1.key }
            let keys = found.map(\.key)
            return limit.map { Array(keys.prefix($0)) } ?? keys
        }
    }

    static func randomBox(_ random: inout SeededGenerator) -> SpatialBox {
        let x = gridX(Int(random.next() % 60) - 10)
        let y = gridY(Int(random.next() % 50) - 8)
        return SpatialBox(
            minX: x, maxX: x + Double(random.next() % 20) * 0.3, minY: y, maxY: y + Double(random.next() % 20) * 0.3)
    }

    /// Random box, containment and nearest queries (with and without limits) give what a scan of
    /// the model gives, keys and items, in `database`.
    static func checkQueries(
        _ index: SpatialIndex<CrashItem>, in database: Database, model: Model, version: Int,
        random: inout SeededGenerator, context: String
    ) throws {
        for query in 0..<12 {
            let box = randomBox(&random)
            let intersecting = try index.query(intersecting: box).keys(in: database)
            #expect(
                intersecting == model.intersecting(box, version: version),
                "\(context) query \(query) intersecting \(box)")
            let within = try index.query(within: box).keys(in: database)
            #expect(within == model.within(box, version: version), "\(context) query \(query) within \(box)")
            // A box query with a limit runs its own statement (with a LIMIT).
            let boxLimit = Int(random.next() % 6)
            let limitedKeys = try index.query(intersecting: box).limit(boxLimit).keys(in: database)
            #expect(
                limitedKeys == Array(model.intersecting(box, version: version).prefix(boxLimit)),
                "\(context) query \(query) intersecting \(box), limit \(boxLimit)")
            let firstWithin = try index.query(within: box).first(in: database)?.id
            #expect(firstWithin == model.within(box, version: version).first, "\(context) query \(query) first within")
            let point = SpatialPoint(x: gridX(Int(random.next() % 50) - 5), y: gridY(Int(random.next() % 40) - 2))
            let radius = [0, 0.3, 0.9, 1.25, 3, 8, .infinity][Int(random.next() % 7)]
            let limit: Int? = random.next() % 3 == 0 ? nil : Int(random.next() % 15)
            var near = index.query(near: point, within: radius)
            if let limit { near = near.limit(limit) }
            let expected = model.near(point, radius: radius, limit: limit, version: version)
            #expect(
                try near.keys(in: database) == expected,
                "\(context) query \(query) near \(point) \(radius) \(String(describing: limit))")
            #expect(try near.count(in: database) == expected.count, "\(context) query \(query)")
            // Items through the cache, as a read of their keys gives them (an untyped copy under
            // another key holds the fields of the item it was copied from).
            let items = try near.items(in: database)
            let expectedItems = try database.read { tx in try tx.read(CrashItem.self, keys: expected) }
            #expect(items == expectedItems, "\(context) query \(query) items")
            #expect(try near.first(in: database) == expectedItems.first, "\(context) query \(query) first")
        }
    }

    /// Random transactions (inserts, updates that move a box or take it away, metadata writes,
    /// touches, removals of keys and of the whole collection, rollbacks, untyped writes) leave
    /// every query equal to a scan of the model; so do a reopened file and a new version (rebuilt).
    @Test(arguments: [1, 2, 3, 4])
    func queriesMatchAScanOfTheModel(seed: UInt64) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/spatial.trove"
        var random = SeededGenerator(seed: seed)
        var model = Model()
        do {
            let database = try Database(path: path, extensions: [Self.index().databaseExtension])
            // Enough items for an R*Tree of more than one node.
            try database.write { tx in
                for number in 0..<800 {
                    let group = Int(random.next() % 5000)
                    try tx.write(CrashWorkload.item(id: "b\(number)", group: group, salt: 1))
                    model.groups["b\(number)"] = group
                }
            }
            for step in 0..<40 {
                var next = model
                let rollsBack = random.next() % 8 == 0
                do {
                    try database.write { tx in
                        for _ in 0..<(1 + Int(random.next() % 6)) {
                            let key = random.next() % 3 == 0 ? "b\(random.next() % 800)" : "k\(random.next() % 30)"
                            let group = Int(random.next() % 5000)
                            switch random.next() % 10 {
                            case 0, 1, 2, 3:
                                try tx.write(CrashWorkload.item(id: key, group: group, salt: 1))
                                next.groups[key] = group
                            case 4:
                                // Untyped: the index decodes the bytes.
                                try tx.write(CrashWorkload.item(id: key, group: group, salt: 2))
                                if let data = try tx.data(forKey: key, in: CrashItem.collection) {
                                    try tx.setData(data, forKey: key + "u", in: CrashItem.collection)
                                    next.groups[key + "u"] = group
                                }
                                next.groups[key] = group
                            case 5:
                                _ = try tx.setMetadata(
                                    CrashStamp(group: group, checksum: 0), for: CrashItem.self, key: key)
                            case 6:
                                try tx.touch(key: key, in: CrashItem.collection)
                            case 7, 8:
                                _ = try tx.remove(CrashItem.self, keys: [key, key + "u"])
                                next.groups[key] = nil
                                next.groups[key + "u"] = nil
                            default:
                                if random.next() % 3 == 0 {
                                    _ = try tx.removeAll(CrashItem.self)
                                    next.groups.removeAll()
                                }
                            }
                        }
                        if rollsBack { throw RolledBack() }
                    }
                } catch is RolledBack {
                    next = model
                }
                model = next
                if step % 4 == 3 {
                    try Self.checkQueries(
                        Self.index(), in: database, model: model, version: 1, random: &random,
                        context: "seed \(seed) step \(step)")
                }
            }
        }
        // Reopened: the index is in the file.
        do {
            let database = try Database(path: path, extensions: [Self.index().databaseExtension])
            try Self.checkQueries(
                Self.index(), in: database, model: model, version: 1, random: &random, context: "seed \(seed) reopened")
        }
        // A new version with other boxes: rebuilt from the items.
        do {
            let database = try Database(path: path, extensions: [Self.index(version: 2).databaseExtension])
            try Self.checkQueries(
                Self.index(version: 2), in: database, model: model, version: 2, random: &random,
                context: "seed \(seed) version 2")
        }
    }

    /// Queries run inside a transaction see its own writes; a box that cannot be stored fails the
    /// write, naming the index and the item.
    @Test func readsInTransactionAndRefusesInvalidBoxes() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let index = SpatialIndex<CrashItem>("odd") { item in
            item.group >= 1000 ? SpatialBox(minX: 1, maxX: 0, minY: 0, maxY: 0) : .point(x: Double(item.group), y: 0)
        }
        let database = try Database(path: folder + "/odd.trove", extensions: [index.databaseExtension])
        try database.write { tx in
            try tx.write(CrashWorkload.item(id: "a", group: 3, salt: 1))
            #expect(try index.query(near: SpatialPoint(x: 0, y: 0), within: 3).keys(tx) == ["a"])
            #expect(try index.query(near: SpatialPoint(x: 0, y: 0), within: 2.5).count(tx) == 0)
        }
        var refusal: TroveError?
        do {
            try database.write { tx in try tx.write(CrashWorkload.item(id: "b", group: 1000, salt: 1)) }
        } catch let error as TroveError {
            refusal = error
        }
        #expect(refusal?.code == .extensionFailed)
        #expect(refusal?.extensionName == "odd" && refusal?.key == "b", "\(String(describing: refusal))")
        #expect(
            try index.query(intersecting: SpatialBox(minX: -10, maxX: 10, minY: -1, maxY: 1)).keys(in: database) == [
                "a"
            ])
        // The R*Tree writes its shadow tables itself; a read of the extension's tables may not.
        var writeInRead: TroveError?
        do {
            try database.read { tx in
                try tx.extensionTables(named: "odd").select("DELETE FROM trove_ext_odd_rowid") { _ in }
            }
        } catch let error as TroveError {
            writeInRead = error
        }
        #expect(writeInRead?.code == .misuse, "\(String(describing: writeInRead))")
        #expect(
            try index.query(intersecting: SpatialBox(minX: -10, maxX: 10, minY: -1, maxY: 1)).count(in: database) == 1)
    }

    /// An observation of a spatial query runs again when its collection changes.
    @Test func anObservationFollowsTheIndex() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let index = SpatialIndex<CrashItem>("watched") { .point(x: Double($0.group), y: 0) }
        let database = try Database(path: folder + "/watched.trove", extensions: [index.databaseExtension])
        let query = index.query(intersecting: SpatialBox(minX: 0, maxX: 10, minY: 0, maxY: 0))
        var values = database.observe { tx in try query.keys(tx) }.makeAsyncIterator()
        #expect(try await values.next() == [])
        try await database.write { tx in try tx.write(CrashWorkload.item(id: "a", group: 4, salt: 1)) }
        #expect(try await values.next() == ["a"])
    }
}
