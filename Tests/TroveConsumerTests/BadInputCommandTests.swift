import Foundation
import Testing
@_spi(TroveGenerated) import Trove
import TroveTestSupport

/// A hand-written model stored as JSON by ``CodableCoder`` that does not describe itself, as a
/// user writes one from the README: the file records no schema for it.
private struct JSONNote: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<JSONNote>
    static let collection = "json-notes"
    var id: String
    var text: String
    var count: Int
}

/// A model that describes itself and is stored as JSON, with metadata that is a JSON string (not
/// an object: only the recorded format tells a tool it is JSON).
private struct Bookmark: Persistable, Codable, Equatable, SchemaDescribing {
    typealias Coder = CodableCoder<Bookmark>
    typealias MetadataCoder = CodableCoder<String>
    static let collection = "bookmarks"
    var id: String
    var url: String
    var metadata: String?

    enum CodingKeys: String, CodingKey {
        case id, url
    }

    static var troveSchema: ModelSchema {
        ModelSchema(
            typeName: "Bookmark", collection: collection, metadataType: "String",
            fields: [
                .init(number: 1, name: "id", type: "String", swiftType: String.self),
                .init(number: 2, name: "url", type: "String", swiftType: String.self),
            ])
    }
    static var troveSchemaReferences: [Any.Type] { [] }
}

/// Two versions of one model (one type name, one collection), stored as JSON: what `trove info`
/// lists after an app changed its model.
private struct Memo: Persistable, Codable, Equatable, SchemaDescribing {
    typealias Coder = CodableCoder<Memo>
    static let collection = "memos"
    var id: String
    var text: String

    static var troveSchema: ModelSchema {
        ModelSchema(
            typeName: "Memo", collection: collection,
            fields: [.init(number: 1, name: "id", type: "String"), .init(number: 2, name: "text", type: "String")])
    }
    static var troveSchemaReferences: [Any.Type] { [] }
}

/// The next version of ``Memo``: one more field.
private struct MemoV2: Persistable, Codable, Equatable, SchemaDescribing {
    typealias Coder = CodableCoder<MemoV2>
    static let collection = "memos"
    var id: String
    var text: String
    var isPinned: Bool

    static var troveSchema: ModelSchema {
        ModelSchema(
            typeName: "Memo", collection: collection,
            fields: [
                .init(number: 1, name: "id", type: "String"), .init(number: 2, name: "text", type: "String"),
                .init(number: 3, name: "isPinned", type: "Bool"),
            ])
    }
    static var troveSchemaReferences: [Any.Type] { [] }
}

/// The `trove` command given what goes wrong in the field: files of every coder Trove ships,
/// unknown collections, fields typed by typealiases, a model that changed, items that do not
/// decode, and paths that are not databases. Each runs the built executable as a user would and
/// checks its exit status and that its standard error names what is wrong in words, without
/// Trove's internals.
@Suite("Bad input: the trove command", .serialized)
struct BadInputCommandTests {
    typealias Run = TroveCommandTests.Run

    static func trove(_ arguments: String...) throws -> Run {
        try TroveCommandTests.trove(arguments)
    }

    static func jsonObject(_ text: String) throws -> [String: Any] {
        try TroveCommandTests.jsonObject(text)
    }

    /// Expects `run` to have failed with a message on the standard error that holds each of
    /// `names` and no internals.
    static func expectFailure(
        _ run: Run, status: Int32 = 1, naming names: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(run.status == status, "status \(run.status): \(run.error)", sourceLocation: sourceLocation)
        for name in names {
            #expect(run.error.contains(name), "\(name) is not named in: \(run.error)", sourceLocation: sourceLocation)
        }
        #expect(internalsShown(in: run.error).isEmpty, "\(run.error)", sourceLocation: sourceLocation)
    }

    /// A new database file in a new folder, written by `body`.
    static func makeFile(_ body: (ReadWriteTransaction) throws -> Void = { _ in }) throws -> String {
        let path = try makeTemporaryFolder() + "/app.trove"
        try Database(path: path).newConnection().write(body)
        return path
    }

    // MARK: Files of every coder Trove ships

    /// 5,000 items of a hand-written `CodableCoder` model (no schema), JSON items with JSON
    /// metadata that is a string (a schema says so), and generated items with JSON metadata and a
    /// JSON field: `check` passes and `get` shows each by field name.
    @Test func checkPassesAFileOfCodableCoderItems() throws {
        let path = try Self.makeFile { tx in
            for index in 0..<5_000 {
                try tx.write(JSONNote(id: String(format: "n%05d", index), text: "note \(index)", count: index))
            }
            try tx.write(Bookmark(id: "b1", url: "https://example.com", metadata: "read later"))
            try tx.write(Order(number: OrderNumber(7), total: 12.5, metadata: OrderNote(text: "gift")))
        }
        let check = try Self.trove("check", path)
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("ok: integrity check passed, 5,002 items decoded"), "\(check.output)")

        let note = try Self.jsonObject(try Self.trove("get", path, JSONNote.collection, "n00042", "--json").output)
        let noteItem = try #require(note["item"] as? [String: Any])
        #expect(noteItem["text"] as? String == "note 42")
        #expect(noteItem["count"] as? Int == 42)
        let bookmark = try Self.jsonObject(try Self.trove("get", path, Bookmark.collection, "b1", "--json").output)
        #expect((bookmark["item"] as? [String: Any])?["url"] as? String == "https://example.com")
        #expect(bookmark["metadata"] as? String == "read later")
        let order = try Self.jsonObject(try Self.trove("get", path, "orders", "ORD-7", "--json").output)
        #expect((order["metadata"] as? [String: Any])?["text"] as? String == "gift")
        #expect(((order["item"] as? [String: Any])?["number"] as? [String: Any])?["value"] as? Int == 7)
    }

    /// A `CodableCoder` item whose bytes are not JSON is still reported, by collection, key and
    /// field, and `check` goes on to the others.
    @Test func checkReportsAJSONItemThatIsNotJSON() throws {
        let path = try Self.makeFile { tx in
            for index in 0..<10 {
                try tx.write(JSONNote(id: "n\(index)", text: "note \(index)", count: index))
            }
            try tx.write(Bookmark(id: "b1", url: "https://example.com", metadata: "read later"))
            try tx.replaceData(Data(#"{"id": "n3", "text": "#.utf8), forKey: "n3", in: JSONNote.collection)
            _ = try tx.replaceMetadata(Data("read later".utf8), forKey: "b1", in: Bookmark.collection)
        }
        let run = try Self.trove("check", path)
        #expect(run.status == 1)
        #expect(run.output.contains(#"collection "json-notes", key "n3", field (item): the bytes are not valid JSON"#))
        #expect(run.output.contains(#"collection "bookmarks", key "b1", field metadata: the bytes are not valid JSON"#))
        #expect(run.output.contains("2 problems in 11 items"), "\(run.output)")
    }

    // MARK: Unknown collections

    /// Every verb that takes a collection fails on one the file does not know, naming it and the
    /// collections the file has.
    @Test(arguments: [
        ["keys", "no_such_collection"], ["get", "no_such_collection", "k"], ["dump", "no_such_collection"],
        ["query", "no_such_collection", "--where", "name=x"], ["remove", "no_such_collection", "k"],
    ])
    func anUnknownCollectionIsAnErrorThatListsTheKnownOnes(_ arguments: [String]) throws {
        let path = try TroveCommandTests.makeFixture()
        let run = try TroveCommandTests.trove([arguments[0], path] + arguments.dropFirst())
        Self.expectFailure(run, naming: [#""no_such_collection""#, #"its collection is "users""#, path])
        #expect(run.output.isEmpty)
    }

    /// A file with no collection says so.
    @Test func anUnknownCollectionOfAnEmptyFileSaysItHasNone() throws {
        let path = try Self.makeFile()
        let run = try Self.trove("keys", path, "todos")
        Self.expectFailure(run, naming: [#"no collection "todos""#, "it has no collections"])
    }

    /// A collection that the file knows (by a recorded schema or an extension) but that holds no
    /// item is not an error: it is empty.
    @Test func aKnownEmptyCollectionIsNotAnError() throws {
        let path = try TroveCommandTests.makeFixture()
        try Database(path: path).newConnection().write { tx in _ = try tx.removeAllItems(in: "users") }
        let keys = try Self.trove("keys", path, "users")
        #expect(keys.status == 0, "\(keys.error)")
        #expect(keys.output.isEmpty)
        let dump = try Self.trove("dump", path, "users")
        #expect(dump.status == 0, "\(dump.error)")
        #expect(dump.output.isEmpty)
    }

    /// A query of a field that the collection's schema does not have can match nothing: it fails,
    /// naming the field and listing the fields there are (of the items, or of the metadata).
    @Test func aQueryOfAFieldTheItemsDoNotHave() throws {
        let path = try TroveCommandTests.makeFixture()
        let run = try Self.trove("query", path, "users", "--where", "nmae=User 1")
        Self.expectFailure(run, naming: [#"No field "nmae""#, #"collection "users""#, #""name""#, #""email""#])
        #expect(run.output.isEmpty)
        let metadata = try Self.trove("query", path, "users", "--where", "metadata.login=7")
        Self.expectFailure(metadata, naming: [#"No field "login" in the metadata"#, #""logins""#])
        let known = try Self.trove("query", path, "users", "--where", "metadata.logins=7")
        #expect(known.status == 0, "\(known.error)")
        #expect(known.output.split(separator: "\n").count == 1)
    }

    // MARK: Typealiases

    /// Fields whose types are typealiases (declared, or inferred as `Photo.ID` is) are decoded by
    /// the types they stand for, never shown as raw wire values.
    @Test func fieldsTypedByTypealiasesAreDecoded() throws {
        let due = Date(timeIntervalSinceReferenceDate: 86_400)
        let path = try Self.makeFile { tx in
            try tx.write(
                Project(
                    id: "p1", tags: ["red", "blue"], milestones: [Milestone(title: "Beta", due: due)], due: due,
                    related: ["p2": 3]))
            try tx.write(ProjectTask(id: 1, project: "p1", labels: ["urgent"]))
            try tx.write(Photo(id: "ph1", caption: "Sea"))
            try tx.write(Album(id: "a1", photoIDs: ["ph1"], coverID: "ph1", ownerID: TroveCommandTests.keys[0]))
        }
        let dump = try Self.trove("dump", path)
        #expect(dump.status == 0, "\(dump.error)")
        #expect(!dump.output.contains("wireType"), "\(dump.output)")
        let project = try Self.jsonObject(try Self.trove("get", path, "projects", "p1", "--json").output)
        let item = try #require(project["item"] as? [String: Any])
        #expect(item["id"] as? String == "p1")
        #expect(item["tags"] as? [String] == ["red", "blue"])
        #expect((item["milestones"] as? [[String: Any]])?.first?["title"] as? String == "Beta")
        #expect((item["milestones"] as? [[String: Any]])?.first?["due"] as? String == "2001-01-02T00:00:00.000Z")
        #expect(item["due"] as? String == "2001-01-02T00:00:00.000Z")
        #expect(item["related"] as? [String: Int] == ["p2": 3])
        let task = try Self.jsonObject(try Self.trove("get", path, "tasks", "1", "--json").output)
        #expect((task["item"] as? [String: Any])?["project"] as? String == "p1")
        #expect((task["item"] as? [String: Any])?["labels"] as? [String] == ["urgent"])
        let album = try Self.jsonObject(try Self.trove("get", path, "albums", "a1", "--json").output)
        #expect((album["item"] as? [String: Any])?["photoIDs"] as? [String] == ["ph1"])
        #expect((album["item"] as? [String: Any])?["ownerID"] as? String == TroveCommandTests.keys[0].uuidString)
    }

    // MARK: A model that changed

    /// After the model changed and was registered again, `info` lists it once (its newest version)
    /// and `get` reads with the newest field names; an app that goes back to the old version makes
    /// it the newest again.
    @Test func theNewestRecordedSchemaOfAModelIsFollowed() throws {
        let path = try Self.makeFile { tx in
            try tx.write(NoteV1(id: "n1", title: "Title", body: "Body", legacyFlag: true, subtitle: "Sub"))
            try tx.write(Memo(id: "m1", text: "old"))
        }
        // The app, upgraded: `NoteV2` renamed `body` to `text`, and `Memo` has a new field.
        try Database(path: path).newConnection().write { tx in
            try tx.write(NoteV2(subtitle: "Sub", pinned: true, title: "Other", text: "Text", id: "n2"))
            try tx.write(MemoV2(id: "m2", text: "new", isPinned: true))
        }
        let info = try Self.jsonObject(try Self.trove("info", path, "--json").output)
        let schemas = try #require(info["schemas"] as? [[String: Any]])
        #expect(schemas.compactMap { $0["typeName"] as? String } == ["Memo", "NoteV1", "NoteV2"])
        let memo = try #require(schemas.first)
        #expect(memo["recordedVersions"] as? Int == 2)
        let fields = (memo["fields"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(fields == ["id", "text", "isPinned"])
        let table = try Self.trove("info", path)
        #expect(table.output.components(separatedBy: "Model Memo ").count == 2, "\(table.output)")

        let old = try Self.jsonObject(try Self.trove("get", path, "notes", "n1", "--json").output)
        let oldItem = try #require(old["item"] as? [String: Any])
        #expect(oldItem["text"] as? String == "Body", "the newest name of the field")
        #expect(oldItem["body"] == nil)
        #expect(oldItem["legacyFlag"] as? Bool == true, "a field only the older version knows keeps its name")

        // An older app writes again: its version is the newest.
        try Database(path: path).newConnection().write { tx in
            try tx.write(NoteV1(id: "n3", title: "T", body: "B", legacyFlag: false, subtitle: nil))
        }
        let again = try Self.jsonObject(try Self.trove("get", path, "notes", "n2", "--json").output)
        #expect((again["item"] as? [String: Any])?["body"] as? String == "Text")
    }

    // MARK: Items that do not decode

    /// `get` shows an item that does not decode with its bytes in hexadecimal and the problem
    /// naming the collection, the key and the field, and exits with status 1.
    @Test func getShowsAnUndecodableItemWithItsBytes() throws {
        let (path, key) = try Self.makeFixtureWithCorruptUser()
        let run = try Self.trove("get", path, "users", key, "--json")
        Self.expectFailure(run, naming: [key, #""users""#, "name"])
        let row = try Self.jsonObject(run.output)
        let item = try #require(row["item"] as? [String: Any])
        let message = try #require(item["error"] as? String)
        #expect(message.contains(#"key "\#(key)" in collection "users""#), "\(message)")
        #expect(message.contains("field name"), "\(message)")
        #expect(item["field"] as? String == "name")
        #expect((item["hex"] as? String).map { !$0.isEmpty && $0.allSatisfy(\.isHexDigit) } == true)
        #expect(internalsShown(in: message).isEmpty)
    }

    /// `dump` prints every item, an undecodable one with its bytes and problem, and exits with
    /// status 1 saying on the standard error which item did not decode.
    @Test func dumpPrintsEveryItemAndFailsAtTheEndForAnUndecodableOne() throws {
        let (path, key) = try Self.makeFixtureWithCorruptUser()
        let run = try Self.trove("dump", path)
        Self.expectFailure(run, naming: ["1 item did not decode", key, #""users""#])
        let rows = try run.output.split(separator: "\n").map { try Self.jsonObject(String($0)) }
        #expect(rows.compactMap { $0["key"] as? String } == TroveCommandTests.keys.map(\.uuidString))
        let marked = rows.filter { ($0["item"] as? [String: Any])?["error"] != nil }
        #expect(marked.compactMap { $0["key"] as? String } == [key])
    }

    /// `check` reports every item that does not decode and goes on.
    @Test func checkReportsEveryUndecodableItem() throws {
        let (path, key) = try Self.makeFixtureWithCorruptUser()
        let other = TroveCommandTests.keys[2].uuidString
        try Self.corruptName(ofUser: other, in: path)
        let run = try Self.trove("check", path)
        #expect(run.status == 1)
        #expect(run.output.contains(#"collection "users", key "\#(key)", field name"#))
        #expect(run.output.contains(#"collection "users", key "\#(other)", field name"#))
        #expect(run.output.contains("2 problems in 3 items"), "\(run.output)")
    }

    /// An item the recorded schema reads (its fields are unknown to it, not wrong) but the app's
    /// coder rejects (a required field is missing): the app's index left it out, and `check`
    /// names it with the extension, from the runtime's list of unreadable items.
    @Test func checkNamesAnItemTheAppsExtensionsLeftOut() throws {
        let path = try makeTemporaryFolder() + "/app.trove"
        let key = TroveCommandTests.keys[0].uuidString
        do {
            var writer = BinaryWriter()
            try MessageCoder<Address>.encode(Address(street: "1 Main St", city: "Springfield"), to: &writer)
            let bytes = Data(writer.bytes)
            try Database(path: path).newConnection().write { tx in
                try tx.setData(bytes, forKey: key, in: User.collection)
            }
            let database = try Database(path: path, models: [User.self])
            #expect(try database.newConnection().read { try $0.unreadableItems() }.map(\.key) == [key])
        }
        let run = try Self.trove("check", path)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains(#"collection "users", key "\#(key)""#), "\(run.output)")
        #expect(run.output.contains("left out of User_index"), "\(run.output)")
        #expect(internalsShown(in: run.output).isEmpty, "\(run.output)")
    }

    /// Random damage to stored items (bytes flipped, cut off or added), seeded: `dump` never
    /// crashes, prints every item, marks exactly the items that `check` reports, and exits with
    /// status 1 exactly when there is one.
    @Test func randomDamageNeverStopsADump() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("randomDamageNeverStopsADump seed: \(seed)")
        var random = SeededGenerator(seed: seed)
        let path = try TroveCommandTests.makeFixture()
        try Database(path: path).newConnection().write { tx in
            for index in 0..<6 {
                try tx.write(JSONNote(id: "n\(index)", text: "note \(index)", count: index))
                let labels: [String]? = index.isMultiple(of: 2) ? ["x"] : nil
                try tx.write(ProjectTask(id: index, project: "p\(index)", labels: labels))
            }
        }
        for round in 0..<4 {
            try Database(path: path).newConnection().write { tx in
                for collection in try tx.collections() {
                    for key in try tx.keys(in: collection) where Int.random(in: 0..<3, using: &random) == 0 {
                        guard let data = try tx.data(forKey: key, in: collection) else { continue }
                        try tx.replaceData(Self.damaged(data, using: &random), forKey: key, in: collection)
                    }
                }
            }
            let dump = try Self.trove("dump", path)
            #expect(dump.status == 0 || dump.status == 1, "seed \(seed), round \(round): status \(dump.status)")
            let rows = try dump.output.split(separator: "\n").map { try Self.jsonObject(String($0)) }
            #expect(rows.count == 3 + 12, "seed \(seed), round \(round): \(dump.error)")
            func failed(_ row: [String: Any]) -> Bool {
                (row["item"] as? [String: Any])?["error"] != nil || (row["metadata"] as? [String: Any])?["error"] != nil
            }
            let marked = Set(rows.filter(failed).compactMap { "\($0["collection"] ?? "") \($0["key"] ?? "")" })
            let check = try Self.jsonObject(try Self.trove("check", path, "--json").output)
            let problems = try #require(check["problems"] as? [[String: Any]])
            let reported = Set(problems.compactMap { "\($0["collection"] ?? "") \($0["key"] ?? "")" })
            #expect(marked == reported, "seed \(seed), round \(round)")
            #expect((dump.status == 1) == !marked.isEmpty, "seed \(seed), round \(round)")
            #expect(internalsShown(in: dump.error).isEmpty)
        }
    }

    /// `data` with a few bytes flipped, cut off or added.
    static func damaged(_ data: Data, using random: inout SeededGenerator) -> Data {
        var bytes = [UInt8](data)
        switch Int.random(in: 0..<3, using: &random) {
        case 0 where !bytes.isEmpty:
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        case 1 where !bytes.isEmpty:
            bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
        default:
            let count = Int.random(in: 1...6, using: &random)
            let added = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes.insert(contentsOf: added, at: Int.random(in: 0...bytes.count, using: &random))
        }
        return Data(bytes)
    }

    /// The command's fixture with the `name` of the second user made longer than its item.
    static func makeFixtureWithCorruptUser() throws -> (path: String, key: String) {
        let path = try TroveCommandTests.makeFixture()
        let key = TroveCommandTests.keys[1].uuidString
        try corruptName(ofUser: key, in: path)
        return (path, key)
    }

    static func corruptName(ofUser key: String, in path: String) throws {
        let nameNumber = try #require(User.troveSchema.fields.first { $0.name == "name" }?.number)
        try Database(path: path).newConnection().write { tx in
            let data = try #require(try tx.data(forKey: key, in: "users"))
            try tx.replaceData(TroveCommandTests.corruptingLength(of: nameNumber, in: data), forKey: key, in: "users")
        }
    }

    // MARK: remove

    /// `trove remove` removes the items that are there in one transaction, prints them, and exits
    /// with status 1 naming the key that was not there; the app then opens the file with its
    /// index, which is in step with the items.
    @Test func removeTakesOutAnUndecodableItemAndNamesAMissingKey() throws {
        let (path, key) = try Self.makeFixtureWithCorruptUser()
        let run = try Self.trove("remove", path, "users", key, "nobody")
        Self.expectFailure(run, naming: [#""nobody""#, #""users""#, path])
        #expect(run.output == "removed \"\(key)\" from \"users\"\n")
        #expect(try Self.trove("check", path).status == 0)
        let remaining = [TroveCommandTests.keys[0], TroveCommandTests.keys[2]]
        let database = try Database(path: path, models: [User.self])
        let indexed = try database.newConnection().read { tx in try User.query.keys(tx) }
        #expect(indexed == remaining)
        let verified = try database.newConnection().read { tx in try User.query.filter(.isVerified(true)).count(tx) }
        #expect(verified == 0, "the removed user was the verified one")
        let again = try Self.trove("remove", path, "users", TroveCommandTests.keys[0].uuidString)
        #expect(again.status == 0, "\(again.error)")
    }

    // MARK: Paths that are not databases

    /// Every verb, given `path`, fails with a message that names it.
    static func expectEveryVerbFails(
        on path: String, naming names: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let copy = try makeTemporaryFolder() + "/copy.trove"
        let verbs: [[String]] = [
            ["info", path], ["keys", path, "users"], ["get", path, "users", "k"], ["dump", path],
            ["query", path, "users", "--where", "name=x"], ["check", path], ["remove", path, "users", "k"],
            ["backup", path, copy], ["vacuum", path], ["checkpoint", path],
        ]
        for arguments in verbs {
            let run = try TroveCommandTests.trove(arguments)
            #expect(run.status == 1, "\(arguments[0]): status \(run.status)", sourceLocation: sourceLocation)
            for name in names {
                #expect(run.error.contains(name), "\(arguments[0]): \(run.error)", sourceLocation: sourceLocation)
            }
            #expect(
                internalsShown(in: run.error).isEmpty, "\(arguments[0]): \(run.error)", sourceLocation: sourceLocation)
            #expect(run.output.isEmpty, "\(arguments[0]): \(run.output)", sourceLocation: sourceLocation)
        }
        #expect(!FileManager.default.fileExists(atPath: copy), "no copy of what is not a database")
    }

    @Test func aPathWhereThereIsNoFile() throws {
        let path = try makeTemporaryFolder() + "/absent.trove"
        try Self.expectEveryVerbFails(on: path, naming: ["No database file at \(path)"])
        #expect(!FileManager.default.fileExists(atPath: path), "nothing was created")
    }

    @Test func aPathInAFolderThatDoesNotExist() throws {
        let folder = try makeTemporaryFolder() + "/missing"
        try Self.expectEveryVerbFails(
            on: folder + "/app.trove", naming: [folder + "/app.trove", "the folder \(folder) does not exist"])
    }

    @Test func aPathThatIsAFolder() throws {
        let folder = try makeTemporaryFolder()
        try Self.expectEveryVerbFails(on: folder, naming: ["\(folder) is a folder"])
    }

    @Test func aFileThatIsNotADatabase() throws {
        let path = try makeTemporaryFolder() + "/notes.txt"
        let text = String(repeating: "Not a database, only some text.\n", count: 200)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try Self.expectEveryVerbFails(on: path, naming: ["\(path) is not a Trove database"])
    }

    @Test func anEmptyFile() throws {
        let path = try makeTemporaryFolder() + "/empty.trove"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        try Self.expectEveryVerbFails(on: path, naming: ["\(path) is not a Trove database (the file is empty)"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty, "the file is left as it was")
    }

    /// The bytes of the command's fixture, whole in the main file (its log checkpointed), changed
    /// by `change` and written to a new file, whose path is returned.
    static func fixtureBytes(changedBy change: (inout [UInt8]) -> Void) throws -> String {
        let path = try TroveCommandTests.makeFixture()
        try Database(path: path).checkpoint(.truncate)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        change(&bytes)
        let changed = try makeTemporaryFolder() + "/changed.trove"
        try Data(bytes).write(to: URL(fileURLWithPath: changed))
        return changed
    }

    /// A file of a newer Trove (its schema version, in the header, is 99).
    @Test func aFileOfANewerSchemaVersion() throws {
        let path = try Self.fixtureBytes { bytes in bytes.replaceSubrange(60..<64, with: [0, 0, 0, 99]) }
        try Self.expectEveryVerbFails(on: path, naming: ["Cannot open \(path) with this version of Trove", "99"])
    }

    /// A Trove file whose table of extensions is gone (renamed in its first page): SQLite's
    /// message names the table, the command's does not.
    @Test func aTroveFileWithATableMissing() throws {
        let path = try Self.fixtureBytes { bytes in
            let name = Array("trove_extensions".utf8)
            var offset = 0
            while offset + name.count <= 4_096 {
                if Array(bytes[offset..<offset + name.count]) == name {
                    bytes[offset + name.count - 1] = UInt8(ascii: "z")
                }
                offset += 1
            }
        }
        try Self.expectEveryVerbFails(
            on: path, naming: ["'\(path)'", "does not hold what this version of Trove expects"])
    }

    /// A file whose first page (the list of its tables) is overwritten.
    @Test func aFileWithItsFirstPageOverwritten() throws {
        let path = try Self.fixtureBytes { bytes in
            for offset in 100..<4_096 { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 7) }
        }
        try Self.expectEveryVerbFails(on: path, naming: ["'\(path)' is damaged"])
    }

    /// An option that the verb does not have: the usage error of the argument parser (status 64),
    /// naming the option.
    @Test func anUnknownOptionOfAVerb() throws {
        let path = try TroveCommandTests.makeFixture()
        Self.expectFailure(try Self.trove("keys", path, "users", "--bogus"), status: 64, naming: ["'--bogus'"])
        Self.expectFailure(try Self.trove("frobnicate", path), status: 64, naming: ["'frobnicate'"])
    }

    /// `backup` into a folder that does not exist fails, naming the path and the folder.
    @Test func aBackupIntoAFolderThatDoesNotExist() throws {
        let path = try TroveCommandTests.makeFixture()
        let folder = try makeTemporaryFolder() + "/missing"
        let run = try Self.trove("backup", path, folder + "/copy.trove")
        Self.expectFailure(run, naming: [folder + "/copy.trove", "the folder \(folder) does not exist"])
    }

    /// `backup` to a path where something is already refuses, naming it, and leaves it alone.
    @Test func aBackupOverAnExistingFile() throws {
        let path = try TroveCommandTests.makeFixture()
        let destination = try makeTemporaryFolder() + "/taken.trove"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: destination))
        Self.expectFailure(try Self.trove("backup", path, destination), naming: [destination])
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data("keep me".utf8))
    }
}
