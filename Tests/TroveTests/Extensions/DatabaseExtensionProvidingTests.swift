import Foundation
import Testing
@_spi(TroveGenerated) import Trove
import TroveTestSupport

/// `Member` provides extensions, as a generated model does: both of its indexes.
extension Member: DatabaseExtensionProviding {
    static var databaseExtensions: [DatabaseExtension] {
        [MemberIndexes.members.databaseExtension, MemberIndexes.byHandle.databaseExtension]
    }
}

/// A model with no extension that describes its schema, as a generated `@persistable` type
/// without `@indexed`, `@searchable` or `@relationship` fields does.
private struct Clipping: Persistable, Codable, Equatable, SchemaDescribing {
    typealias Coder = CodableCoder<Clipping>
    static let collection = "clippings"
    var id: String

    static var troveSchema: ModelSchema {
        ModelSchema(
            typeName: "Clipping", collection: collection, fields: [.init(number: 1, name: "id", type: "String")])
    }
    static var troveSchemaReferences: [Any.Type] { [] }
}

/// A model with no extension and no schema: a hand-written `Codable` one.
private struct Scribble: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<Scribble>
    static let collection = "scribbles"
    var id: String
}

/// One initializer registers the extensions of any models and extensions given beside them: at
/// open, on a temporary database, and on the fly.
struct DatabaseExtensionProvidingTests {
    @Test func temporaryDatabaseRegistersTheModelsExtensions() throws {
        let database = try Database.temporary(models: [Member.self])
        let connection = try database.newConnection()
        try connection.write { tx in
            try tx.write([Member(id: "a", age: 20, handle: "ann"), Member(id: "b", age: 40, handle: "bob")])
        }
        let keys = try connection.read { tx in
            try MemberIndexes.members.query.filter(.column("age", in: 30...)).keys(tx)
        }
        #expect(keys == ["b"])
        let byHandle = try connection.read { tx in
            try MemberIndexes.byHandle.query.filter(.column("handle", equals: "ann")).first(tx)
        }
        #expect(byHandle?.id == "a")
    }

    @Test func fileDatabaseRegistersAtOpenAndOnTheFly() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = (folder as NSString).appendingPathComponent("models.trove")
        do {
            let database = try Database(path: path, models: [Member.self])
            try database.newConnection().write(Member(id: "a", age: 20))
        }
        let database = try Database(path: path)
        #expect(try database.register(Member.self) == [.unchanged, .unchanged])
        let count = try database.newConnection().read { tx in try MemberIndexes.members.query.count(tx) }
        #expect(count == 1)
    }

    /// Models without extensions are accepted beside those with some, and extensions given by
    /// hand are registered with the models' ones, in one transaction at open.
    @Test(arguments: [false, true])
    func modelsWithoutExtensionsAndExtraExtensionsTogether(temporary: Bool) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let extra = SecondaryIndex<Scribble>("scribbles_by_id", columns: [.column("id") { $0.id }])
        let models: [any Persistable.Type] = [Scribble.self, Clipping.self, Member.self]
        let database =
            temporary
            ? try Database.temporary(models: models, extensions: [extra.databaseExtension])
            : try Database(path: folder + "/file.trove", models: models, extensions: [extra.databaseExtension])
        let connection = try database.newConnection()
        try connection.write { tx in
            try tx.write(Scribble(id: "s"))
            try tx.write(Member(id: "m", age: 30))
        }
        #expect(try connection.read { tx in try extra.query.keys(tx) } == ["s"])
        #expect(try connection.read { tx in try MemberIndexes.members.query.keys(tx) } == ["m"])
        // The model that describes itself has its schema recorded at open, before any write of it.
        #expect(try database.recordedSchemas().map(\.typeName) == ["Clipping"])
    }

    /// A model list is `[any Persistable.Type]`: a `static let` of one compiles in Swift 6 without a
    /// warning, since `Persistable` (and `DatabaseExtensionProviding`) refine `Sendable`.
    @Test func aStaticListOfModelsIsSendable() throws {
        let database = try Database.temporary(models: AppModels.models)
        #expect(try database.register(AppModels.providers[0]) == [.unchanged, .unchanged])
    }
}

/// The lists of models an app keeps, as the documentation shows them.
private enum AppModels {
    static let models: [any Persistable.Type] = [Member.self, Scribble.self]
    static let providers: [any DatabaseExtensionProviding.Type] = [Member.self]
}
