import Foundation
import Testing
import Trove
import TroveTestSupport

/// A spatial index kept in the layout before issue 29's fourth round (the key and the exact box
/// as auxiliary columns of the R*Tree) is rebuilt in the current layout (a table beside the
/// R*Tree) when the file opens with the same definition: the fingerprint says so.
@Suite struct SpatialIndexUpgradeTests {
    @Test func anIndexInTheLayoutWithAuxiliaryColumnsIsRebuiltOnOpen() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/spatial.trove"
        let index = SpatialIndex<CrashItem>("places") { .point(x: Double($0.group), y: 0) }
        let items = (0..<10).map { CrashWorkload.item(id: "p\($0)", group: $0, salt: 1) }
        do {
            let database = try Database(path: path, extensions: [index.databaseExtension])
            try database.write { tx in try tx.write(items) }
        }
        // The old layout, holding only the even items (answers from it, had it been kept, would
        // miss the odd ones), and the old fingerprint and tables.
        try executeRawSQL(
            path: path,
            """
            DROP TABLE trove_ext_places;
            DROP TABLE trove_ext_places_exact;
            CREATE VIRTUAL TABLE trove_ext_places USING rtree(id, minX, maxX, minY, maxY, +key, +x0, +x1, +y0, +y1);
            INSERT INTO trove_ext_places (id, minX, maxX, minY, maxY, key, x0, x1, y0, y1)
                SELECT rowid, 0, 0, 0, 0, key, 0, 0, 0, 0 FROM trove_items WHERE collection = '\(CrashItem.collection)' AND rowid % 2 = 0;
            UPDATE trove_extensions SET fingerprint = 'spatial 2d v1', tables = 'trove_ext_places' WHERE name = 'places';
            """)
        let database = try Database(path: path, extensions: [index.databaseExtension])
        let near = try index.query(near: SpatialPoint(x: 4.2, y: 0), within: 2).keys(in: database)
        #expect(near == ["p4", "p5", "p3", "p6"])
        let all = try index.query(intersecting: SpatialBox(minX: -1, maxX: 100, minY: -1, maxY: 1)).count(in: database)
        #expect(all == items.count)
        #expect(try rawQuery(path, "SELECT count(*) FROM trove_ext_places_exact") == ["10"])
    }
}
