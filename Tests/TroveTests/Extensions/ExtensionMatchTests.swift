import Foundation
import Testing
import Trove
import TroveTestSupport

/// A query of an extension that finds row ids (``QueryPlan/init(extension:matches:)``): its items
/// come in the order of its matches, read by row id, and a row id without an item is an error that
/// names the extension.
@Suite struct ExtensionMatchTests {
    /// The plan of a query that selects the rows it is given, as an extension's table would.
    struct GivenRows: ItemQuery {
        typealias Item = CrashItem
        var rowIDs: [Int64]
        var plan: QueryPlan<CrashItem> {
            QueryPlan(extension: "given_rows") { [rowIDs] (_: ReadTransaction, limit: Int?) in
                rowIDs.prefix(limit ?? .max).map { ExtensionMatch(rowID: $0, key: "r\($0)") }
            }
        }
    }

    @Test func itemsComeByRowIDInTheOrderOfTheMatches() throws {
        let database = try Database.temporary()
        let connection = try database.newConnection()
        // A new file's first rows get the row ids 1, 2, 3.
        let items = (1...3).map { CrashWorkload.item(id: "r\($0)", group: $0, salt: 7) }
        try connection.write { tx in for item in items { try tx.write(item) } }
        let (read, keys, count, first) = try connection.read { tx in
            let query = GivenRows(rowIDs: [3, 1, 2])
            return (try query.items(tx), try query.keys(tx), try query.count(tx), try query.first(tx))
        }
        #expect(read == [items[2], items[0], items[1]])
        #expect(keys == ["r3", "r1", "r2"])
        #expect(count == 3)
        #expect(first == items[2])
        // Read again, through the connection's cache.
        let again = try connection.read { tx in try GivenRows(rowIDs: [2, 3]).items(tx) }
        #expect(again == [items[1], items[2]])
    }

    @Test func aRowIDWithoutAnItemIsAnErrorNamingTheExtension() throws {
        let database = try Database.temporary()
        let connection = try database.newConnection()
        try connection.write { tx in try tx.write(CrashWorkload.item(id: "r1", group: 1, salt: 7)) }
        let error = #expect(throws: TroveError.self) {
            try connection.read { tx in _ = try GivenRows(rowIDs: [1, 99]).items(tx) }
        }
        #expect(error?.code == .corruptDatabase)
        #expect(error?.extensionName == "given_rows")
        #expect(error?.message.contains("result 2") == true, "\(String(describing: error))")
    }
}
