import Foundation
import Testing
import Trove
import TrovePostgres

/// Moving from a Trove file to PostgreSQL.
@Suite(.enabled(if: TestServer.isConfigured, Comment(rawValue: TestServer.skipMessage)))
struct CopyTests {
    @Test func copiesEveryItemAndMetadataIdempotently() async throws {
        let database = try Database.temporary(models: [User.self])
        let users = makeUsers(45)
        let counters = (0..<7).map { Tally(id: "c\($0)", value: $0) }
        try await database.write { tx in
            try tx.write(users)
            try tx.write(counters)
        }
        let store = try await TestServer.openStore(extensions: [User.index.databaseExtension])
        var reports: [PostgresCopyProgress] = []
        let copied = try await store.copy(from: database, batchSize: 10) { reports.append($0) }
        #expect(copied == 52)
        #expect(reports.last?.copiedItems == 52)
        #expect(reports.allSatisfy { $0.totalItems == 52 })
        #expect(reports.map(\.copiedItems) == reports.map(\.copiedItems).sorted())

        let sorted = users.sorted { $0.userID.itemKey < $1.userID.itemKey }
        #expect(try await store.readAll(User.self) == sorted)
        #expect(try await store.readAll(Tally.self) == counters)
        // The index rows came along.
        let verified = try await User.query.filter(.isVerified(true)).count(in: store)
        #expect(verified == users.filter(\.isVerified).count)

        // Again, after a change on the PostgreSQL side: the file's items win, nothing doubles.
        try await store.write(Tally(id: "c0", value: 1000))
        #expect(try await store.copy(from: database) == 52)
        #expect(try await store.count(of: User.self) == 45)
        #expect(try await store.read(Tally.self, key: "c0") == counters[0])
        await TestServer.dispose(store)
    }
}
