import Foundation
import Testing
import Trove
import TroveTestSupport

/// Any read a caller makes inside an enumeration body works, and the enumeration goes on: a
/// statement that is being stepped is never reset or rebound by a nested use of the same SQL.
struct StatementReentryTests {
    private static let keys = ["a", "b", "c", "d", "e"]

    private func makeDatabase() throws -> (Database, Connection) {
        let database = try makeTemporaryDatabase()
        let connection = try database.newConnection()
        try connection.write { tx in
            for key in Self.keys {
                try tx.write(Note(id: key, text: "text of \(key)"))
                try tx.setData(Data([1]), forKey: key, in: "other")
            }
        }
        return (database, connection)
    }

    @Test func keysInsideEnumerateKeys() throws {
        let (_, connection) = try makeDatabase()
        var visited: [String] = []
        var inner: [[String]] = []
        try connection.read { tx in
            try tx.enumerateKeys(in: "notes") { key, _ throws in
                visited.append(key)
                inner.append(try tx.keys(in: "notes"))
            }
        }
        #expect(visited == Self.keys)
        #expect(inner == Array(repeating: Self.keys, count: Self.keys.count))
    }

    @Test func enumerateKeysInsideEnumerateKeys() throws {
        let (_, connection) = try makeDatabase()
        var pairs: [String] = []
        try connection.read { tx in
            try tx.enumerateKeys(in: "notes") { outer, _ throws in
                try tx.enumerateKeys(in: "other") { inner, stop throws in
                    pairs.append(outer + inner)
                    if inner == "b" { stop = true }
                }
            }
        }
        #expect(pairs == Self.keys.flatMap { [$0 + "a", $0 + "b"] })
    }

    /// Every other read of the runtime, untyped and typed, from inside an enumeration.
    @Test func everyReadInsideEnumerateKeys() throws {
        let (_, connection) = try makeDatabase()
        var visited = 0
        try connection.read { tx in
            try tx.enumerateKeys(in: "notes") { key, _ throws in
                visited += 1
                #expect(try tx.data(forKey: key, in: "other") == Data([1]))
                #expect(try tx.metadata(forKey: key, in: "notes") == nil)
                #expect(try tx.dataAndMetadata(forKey: key, in: "other")?.data == Data([1]))
                #expect(try tx.hasItem(forKey: key, in: "notes"))
                #expect(try tx.collections() == ["notes", "other"])
                #expect(try tx.count(in: "notes") == Self.keys.count)
                #expect(try tx.count() == 2 * Self.keys.count)
                #expect(try tx.read(Note.self, key: key)?.text == "text of \(key)")
                #expect(try tx.readAll(Note.self).count == Self.keys.count)
                #expect(try tx.keys(of: Note.self).count == Self.keys.count)
            }
        }
        #expect(visited == Self.keys.count)
    }

    /// Writes from inside an enumeration of the same transaction: the enumeration visits every
    /// key it started with, and the writes are stored.
    @Test func writesInsideEnumerateKeys() throws {
        let (_, connection) = try makeDatabase()
        var visited: [String] = []
        try connection.write { tx in
            try tx.enumerateKeys(in: "notes") { key, _ throws in
                visited.append(key)
                try tx.setData(Data([2]), forKey: key, in: "other")
                try tx.write(Note(id: key, text: "rewritten"))
                _ = try tx.replaceMetadata(Data([3]), forKey: key, in: "other")
            }
        }
        #expect(visited == Self.keys)
        try connection.read { tx throws in
            for key in Self.keys {
                #expect(try tx.data(forKey: key, in: "other") == Data([2]))
                #expect(try tx.metadata(forKey: key, in: "other") == Data([3]))
                #expect(try tx.read(Note.self, key: key)?.text == "rewritten")
            }
        }
    }

    /// An error thrown by a nested read does not end the outer enumeration.
    @Test func aCaughtNestedErrorLeavesTheEnumerationGoing() throws {
        let (_, connection) = try makeDatabase()
        var visited: [String] = []
        try connection.read { tx in
            try tx.enumerateKeys(in: "notes") { key, _ throws in
                visited.append(key)
                _ = try? tx.keys(in: "notes")
                _ = try? tx.read(Note.self, key: key)
            }
        }
        #expect(visited == Self.keys)
    }
}
