import Foundation
import Testing
// A field that no schema knows is written field by field, as a newer version's coder would.
@_spi(TroveGenerated) import Trove
import TroveTestSupport

/// End-to-end tests of the `trove` command: each runs the built executable on a database that the
/// test makes with the showcase models, as a user's app would.
@Suite(.serialized)
struct TroveCommandTests {
    // MARK: Fixture

    static let keys = [
        UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, UUID(uuidString: "00000000-0000-0000-0000-000000000002")!,
        UUID(uuidString: "00000000-0000-0000-0000-000000000003")!,
    ]

    /// A database with three users, their metadata, the index of `User` and its recorded schema.
    static func makeFixture() throws -> String {
        let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("trove-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = (folder as NSString).appendingPathComponent("app.trove")
        let database = try Database(path: path, models: [User.self])
        let connection = try database.newConnection()
        try connection.write { tx in
            for (offset, key) in keys.enumerated() {
                try tx.write(
                    User(
                        userID: key, name: "User \(offset + 1)", email: "user\(offset + 1)@example.com", age: 30 + offset,
                        address: offset == 0 ? Address(street: "1 Main St", city: "Springfield", zip: nil) : nil,
                        tags: ["a", "b"], roles: [.editor], scores: ["math": 90 + offset],
                        favoriteShape: offset == 0 ? .circle(radius: 2) : nil, bio: "Bio \(offset + 1)",
                        mainRole: offset == 2 ? .admin : .reader, isVerified: offset == 1, rating: 4.5,
                        stats: offset == 0 ? UserStats(logins: 7, lastSeen: Date(timeIntervalSinceReferenceDate: 0)) : nil))
            }
        }
        return path
    }

    // MARK: Running the command

    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    static func trove(_ arguments: String...) throws -> Run {
        try trove(arguments)
    }

    static func trove(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = try executableURL()
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData, as: UTF8.self))
    }

    /// The built `trove`, next to the test binary in the build products folder.
    static func executableURL() throws -> URL {
        try ChildProcess.builtExecutable(named: "trove")
    }

    static func jsonObject(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    // MARK: Verbs that read

    @Test func infoShowsCollectionsExtensionsAndSchemas() throws {
        let path = try Self.makeFixture()
        let run = try Self.trove("info", path, "--json")
        #expect(run.status == 0, "\(run.error)")
        let info = try Self.jsonObject(run.output)
        #expect(info["schemaVersion"] as? Int == 2)
        let collections = try #require(info["collections"] as? [[String: Any]])
        #expect(collections.map { $0["name"] as? String } == ["users"])
        #expect(collections.first?["count"] as? Int == 3)
        let extensions = try #require(info["extensions"] as? [[String: Any]])
        #expect(extensions.map { $0["kind"] as? String } == ["secondaryIndex", "fullTextSearch"])
        let schemas = try #require(info["schemas"] as? [[String: Any]])
        #expect(schemas.map { $0["typeName"] as? String } == ["User"])
        let nested = try #require(schemas.first?["types"] as? [[String: Any]]).compactMap { $0["typeName"] as? String }
        // `Point` is `Codable`, stored as JSON: it has no schema.
        #expect(nested == ["Address", "Role", "Shape", "UserStats"])
        // A field number has one spelling, the literal of generated code, in JSON as in the table.
        let fields = try #require(schemas.first?["fields"] as? [[String: Any]])
        #expect(fields.contains { $0["name"] as? String == "name" && $0["number"] as? String == "0x11A7_37BC" })
        let table = try Self.trove("info", path)
        #expect(table.status == 0)
        #expect(table.output.contains("users"))
        #expect(table.output.contains("  0x11A7_37BC  name: String\n"))
    }

    /// A model that no code registered (`Counter` has no extensions) is described in the file
    /// by its first write: `info` lists its schema and `get` shows its fields by name.
    @Test func aModelWrittenWithoutRegistrationIsDescribed() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/app.trove"
        try Database(path: path).newConnection().write { tx in try tx.write(Counter(id: 7, count: 3)) }
        let info = try Self.jsonObject(try Self.trove("info", path, "--json").output)
        let schemas = try #require(info["schemas"] as? [[String: Any]])
        #expect(schemas.map { $0["typeName"] as? String } == ["Counter"])
        let run = try Self.trove("get", path, Counter.collection, "7", "--json")
        #expect(run.status == 0, "\(run.error)")
        let item = try #require(try Self.jsonObject(run.output)["item"] as? [String: Any])
        #expect(item["id"] as? Int == 7)
        #expect(item["count"] as? Int == 3)
    }

    /// A field that no recorded schema knows (written by a newer version) shows by its number,
    /// spelled as generated code spells it, with its wire type.
    @Test func aFieldNoSchemaKnowsShowsByItsNumberLiteral() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/app.trove"
        var writer = BinaryWriter()
        try MessageCoder<Counter>.encode(Counter(id: 7, count: 3), to: &writer)
        try writer.encode(36, field: 0x0ABC_1234)
        let data = writer.withUnsafeBytes { Data($0) }
        try Database(path: path, models: [Counter.self]).newConnection().write { tx in
            try tx.setData(data, forKey: "7", in: Counter.collection)
        }
        let run = try Self.trove("get", path, Counter.collection, "7", "--json")
        #expect(run.status == 0, "\(run.error)")
        let item = try #require(try Self.jsonObject(run.output)["item"] as? [String: Any])
        #expect(item["count"] as? Int == 3)
        let unknown = try #require(item["#0x0ABC_1234"] as? [String: Any], "\(item.keys.sorted())")
        #expect(unknown["wireType"] as? String == "varint")
        #expect(unknown["value"] as? Int == 72)
    }

    @Test func keysListsInOrderWithPrefixAndLimit() throws {
        let path = try Self.makeFixture()
        let all = try Self.trove("keys", path, "users")
        #expect(all.output.split(separator: "\n").map(String.init) == Self.keys.map(\.uuidString))
        let limited = try Self.trove("keys", path, "users", "--limit", "2", "--json")
        #expect(limited.output == "[\"\(Self.keys[0].uuidString)\", \"\(Self.keys[1].uuidString)\"]\n")
        let prefixed = try Self.trove("keys", path, "users", "--prefix", "00000000-0000-0000-0000-000000000003")
        #expect(prefixed.output == Self.keys[2].uuidString + "\n")
    }

    @Test func getDecodesTheItemAndMetadataByFieldName() throws {
        let path = try Self.makeFixture()
        let run = try Self.trove("get", path, "users", Self.keys[0].uuidString)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == Self.goldenUser)
        let missing = try Self.trove("get", path, "users", "nobody")
        #expect(missing.status != 0)
        let raw = try Self.trove("get", path, "users", Self.keys[0].uuidString, "--raw", "--json")
        let rawObject = try Self.jsonObject(raw.output)
        #expect((rawObject["data"] as? String)?.allSatisfy(\.isHexDigit) == true)
    }

    @Test func dumpPrintsOneJSONLinePerItem() throws {
        let path = try Self.makeFixture()
        let run = try Self.trove("dump", path)
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let rows = try lines.map(Self.jsonObject)
        #expect(rows.map { $0["key"] as? String } == Self.keys.map(\.uuidString))
        #expect(rows.compactMap { ($0["item"] as? [String: Any])?["name"] as? String } == ["User 1", "User 2", "User 3"])
        #expect(run.error.isEmpty, "no progress bar when standard error is not a terminal")
    }

    @Test func queryUsesTheSecondaryIndexWhenOneCoversTheField() throws {
        let path = try Self.makeFixture()
        let indexed = try Self.trove("query", path, "users", "--where", "email=user2@example.com")
        #expect(indexed.error.contains("secondary index"))
        #expect(try indexed.output.split(separator: "\n").map { try Self.jsonObject(String($0))["key"] as? String } == [Self.keys[1].uuidString])
        let scanned = try Self.trove("query", path, "users", "--where", "name=User 3")
        #expect(scanned.error.contains("reading every item"))
        #expect(try scanned.output.split(separator: "\n").map { try Self.jsonObject(String($0))["key"] as? String } == [Self.keys[2].uuidString])
    }

    // MARK: check

    @Test func checkPassesOnAHealthyFile() throws {
        let path = try Self.makeFixture()
        let run = try Self.trove("check", path)
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("ok: integrity check passed, 3 items decoded"))
    }

    @Test func checkReportsTheKeyAndFieldOfACorruptItem() throws {
        let path = try Self.makeFixture()
        let key = Self.keys[1].uuidString
        let nameNumber = try #require(User.troveSchema.fields.first { $0.name == "name" }?.number)
        let database = try Database(path: path)
        try database.newConnection().write { tx in
            let data = try #require(try tx.data(forKey: key, in: "users"))
            try tx.replaceData(Self.corruptingLength(of: nameNumber, in: data), forKey: key, in: "users")
        }
        let run = try Self.trove("check", path)
        #expect(run.status == 1)
        #expect(run.output.contains("collection \"users\", key \"\(key)\", field name:"), "\(run.output)")
        let json = try Self.jsonObject(try Self.trove("check", path, "--json").output)
        let problems = try #require(json["problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["key"] as? String == key)
        #expect(problems.first?["field"] as? String == "name")
    }

    /// `data` with the length of field `number` (a short length-delimited field) made longer than
    /// the bytes that follow it.
    static func corruptingLength(of number: UInt32, in data: Data) throws -> Data {
        var bytes = [UInt8](data)
        var offset = 0
        while offset + 4 <= bytes.count {
            let tag = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
            if tag >> 3 == number {
                bytes.replaceSubrange((offset + 4)...(offset + 4), with: [0xFF, 0x7F])
                return Data(bytes)
            }
            offset += 4
            switch tag & 7 {
            case 0:
                while bytes[offset] & 0x80 != 0 { offset += 1 }
                offset += 1
            case 1: offset += 8
            case 5: offset += 4
            default:
                var length = 0
                var shift = 0
                while true {
                    let byte = bytes[offset]
                    offset += 1
                    length |= Int(byte & 0x7F) << shift
                    shift += 7
                    if byte & 0x80 == 0 { break }
                }
                offset += length
            }
        }
        Issue.record("field \(number) not found")
        return data
    }

    // MARK: Verbs that write

    /// `trove backup` while another process (`trove-crash-writer sequence`) commits numbered
    /// items, one per transaction, printing each number once its commit returned: the copy passes
    /// `integrity_check` and `trove check`, and holds exactly the items 1...k, with k at least the
    /// last number acknowledged before the backup began (a copy of the main file without its
    /// log misses those: the writer's last commits are only in the log).
    @Test func backupWhileAnotherProcessCommitsHoldsAPrefixOfItsCommits() throws {
        let path = try Self.makeFixture()
        let child = try CrashWriterProcess(mode: "sequence", path: path)
        var killed = false
        defer { if !killed { _ = child.sigkill() } }
        func lastAcknowledged() -> Int {
            child.lines.compactMap { $0.hasPrefix("committed ") ? Int($0.dropFirst(10)) : nil }.max() ?? 0
        }
        let started = child.waitForLine(timeout: .seconds(60)) { $0 == "committed 400" }
        try #require(started, "the writer acknowledged 400 commits in 60 s: \(child.errors)")
        let before = lastAcknowledged()
        let copy = path + ".backup"
        let run = try Self.trove("backup", path, copy)
        let after = lastAcknowledged()
        killed = true
        let problem = child.sigkill()
        #expect(problem == nil, "the writer: \(problem ?? "")")
        #expect(run.status == 0, "\(run.error)")
        #expect(after > before, "the writer committed while the backup ran")

        var configuration = Configuration()
        configuration.isReadOnly = true
        let backup = try Database(path: copy, configuration: configuration)
        #expect(try backup.integrityCheck().isOK)
        let rows = try backup.newConnection().read { tx in
            try tx.keys(in: CrashWorkload.sequenceCollection).map {
                ($0, try tx.data(forKey: $0, in: CrashWorkload.sequenceCollection))
            }
        }
        let k = rows.count
        #expect(rows.map(\.0) == (0..<k).map { CrashWorkload.sequenceKey($0 + 1) }, "the items 1...\(k), no gap")
        #expect(rows.allSatisfy { key, data in data == CrashWorkload.sequencePayload(Int(key) ?? -1) })
        #expect(k >= before, "the copy holds \(k) commits; \(before) were acknowledged before the backup began")
        #expect(k <= after + 1, "the copy holds \(k) commits; \(after) were acknowledged when it ended")
        #expect(try backup.newConnection().read { try $0.count(in: "users") } == 3)
        let check = try Self.trove("check", copy)
        #expect(check.status == 0, "\(check.output)")
    }

    @Test func vacuumShrinksAFileAfterALargeRemoval() throws {
        let path = try Self.makeFixture()
        let database = try Database(path: path)
        let connection = try database.newConnection()
        try connection.write { tx in
            for index in 0..<2_000 {
                try tx.setData(Data(repeating: 7, count: 1_000), forKey: "k\(index)", in: "bulk")
            }
        }
        _ = try connection.write { tx in try tx.removeAllItems(in: "bulk") }
        try database.checkpoint(.truncate)
        let before = try database.fileSizes()
        #expect(before.freePageCount > 400)
        let run = try Self.trove("vacuum", path)
        #expect(run.status == 0, "\(run.error)")
        let after = try database.fileSizes()
        #expect(after.fileBytes < before.fileBytes / 2, "\(before.fileBytes) -> \(after.fileBytes)")
        #expect(after.freePageCount == 0)
        #expect(try Self.trove("check", path).status == 0)
    }

    @Test func readingVerbsNeverModifyTheFile() throws {
        let path = try Self.makeFixture()
        _ = try Database(path: path).checkpoint(.truncate)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for arguments in [["info", path], ["keys", path, "users"], ["dump", path], ["check", path]] {
            #expect(try Self.trove(arguments).status == 0)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(wal == 0)
    }

    /// What `trove get` prints for the first user: fields by name, nested types decoded with their
    /// recorded schemas, the metadata beside the item.
    static let goldenUser = """
        {
          "collection": "users",
          "key": "00000000-0000-0000-0000-000000000001",
          "item": {
            "userID": "00000000-0000-0000-0000-000000000001",
            "name": "User 1",
            "email": "user1@example.com",
            "age": 30,
            "address": {
              "street": "1 Main St",
              "city": "Springfield"
            },
            "tags": [
              "a",
              "b"
            ],
            "roles": [
              "editor"
            ],
            "scores": {
              "math": 90
            },
            "favoriteShape": {
              "case": "circle",
              "values": {
                "radius": 2.0
              }
            },
            "bio": "Bio 1",
            "default": false,
            "mainRole": "reader",
            "isVerified": false,
            "rating": 4.5
          },
          "metadata": {
            "logins": 7,
            "lastSeen": "2001-01-01T00:00:00.000Z"
          }
        }

        """
}
