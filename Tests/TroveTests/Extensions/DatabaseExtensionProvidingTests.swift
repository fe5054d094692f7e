import Foundation
import Testing
import Trove
import TroveTestSupport

/// A model that provides extensions, as a generated one does: both indexes of ``Member``.
enum MemberModel: DatabaseExtensionProviding {
    static var databaseExtensions: [DatabaseExtension] {
        [MemberIndexes.members.databaseExtension, MemberIndexes.byHandle.databaseExtension]
    }
}

/// One call registers every extension of a model: at open, on a temporary database, and on the fly.
struct DatabaseExtensionProvidingTests {
    @Test func temporaryDatabaseRegistersTheModelsExtensions() throws {
        let database = try Database.temporary(models: [MemberModel.self])
        let connection = try database.newConnection()
        try connection.readWrite { tx in
            try tx.write([Member(id: "a", age: 20, handle: "ann"), Member(id: "b", age: 40, handle: "bob")])
        }
        let keys = try connection.read { tx in
            try MemberIndexes.members.query(tx).filter(.column("age", in: 30...)).keys()
        }
        #expect(keys == ["b"])
        let byHandle = try connection.read { tx in
            try MemberIndexes.byHandle.query(tx).filter(.column("handle", equals: "ann")).first()
        }
        #expect(byHandle?.id == "a")
    }

    @Test func fileDatabaseRegistersAtOpenAndOnTheFly() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = (folder as NSString).appendingPathComponent("models.trove")
        do {
            let database = try Database(path: path, models: [MemberModel.self])
            try database.newConnection().write(Member(id: "a", age: 20))
        }
        let database = try Database(path: path)
        #expect(try database.register(MemberModel.self) == [.unchanged, .unchanged])
        let count = try database.newConnection().read { tx in try MemberIndexes.members.query(tx).count() }
        #expect(count == 1)
    }
}
