import Foundation
import Testing
import TroveTestSupport

@testable import Trove

/// Inserted, updated and removed keys, against a brute-force model of what existed before and
/// after each transaction.
struct ChangesetClassificationTests {
    /// One operation of a random transaction.
    private enum Operation: CustomStringConvertible {
        case store(String, String)
        case storeTyped(String)
        case replaceData(String, String)
        case replaceMetadata(String, String)
        case touch(String, String)
        case remove(String, String)
        case removeCollection(String)

        var description: String {
            switch self {
            case .store(let c, let k): "store \(c)/\(k)"
            case .storeTyped(let k): "storeTyped notes/\(k)"
            case .replaceData(let c, let k): "replaceData \(c)/\(k)"
            case .replaceMetadata(let c, let k): "replaceMetadata \(c)/\(k)"
            case .touch(let c, let k): "touch \(c)/\(k)"
            case .remove(let c, let k): "remove \(c)/\(k)"
            case .removeCollection(let c): "removeCollection \(c)"
            }
        }
    }

    private static let collections = [Note.collection, "other"]
    private static let keys = ["a", "b", "c", "d"]

    private static func randomOperation(_ generator: inout SeededGenerator) -> Operation {
        let collection = collections.randomElement(using: &generator)!
        let key = keys.randomElement(using: &generator)!
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<28: return .store(collection, key)
        case 28..<40: return .storeTyped(key)
        case 40..<50: return .replaceData(collection, key)
        case 50..<58: return .replaceMetadata(collection, key)
        case 58..<66: return .touch(collection, key)
        case 66..<96: return .remove(collection, key)
        default: return .removeCollection(collection)
        }
    }

    /// Random transactions of one to eight operations over two collections of four keys; after
    /// each, the changeset's inserted, updated and removed keys are those of the model: for each
    /// key that an operation changed since its collection was last removed as a whole, inserted
    /// if it did not exist before (or its collection was removed in the transaction) and exists
    /// after, updated if it existed before and exists after, removed if it does not exist after.
    @Test(arguments: 0..<8)
    func classificationMatchesTheModel(seed: UInt64) async throws {
        let database = try makeTemporaryDatabase { $0.externalChangePollingInterval = nil }
        let connection = try database.newConnection()
        var changes = database.changes.makeAsyncIterator()
        var generator = SeededGenerator(seed: 0xC1A5 &+ seed)
        var existing: Set<String> = []  // "collection/key"
        for round in 0..<60 {
            let operations = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                Self.randomOperation(&generator)
            }
            let before = existing
            var after = existing
            var touched: Set<String> = []
            var removedCollections: Set<String> = []
            try syncReadWrite(connection) { tx in
                for operation in operations {
                    switch operation {
                    case .store(let collection, let key):
                        try tx.setData(Data([1]), forKey: key, in: collection)
                        after.insert("\(collection)/\(key)")
                        touched.insert("\(collection)/\(key)")
                    case .storeTyped(let key):
                        try tx.write(Note(id: key, text: "\(round)"))
                        after.insert("\(Note.collection)/\(key)")
                        touched.insert("\(Note.collection)/\(key)")
                    case .replaceData(let collection, let key):
                        let done = try tx.replaceData(Data([2]), forKey: key, in: collection)
                        #expect(done == after.contains("\(collection)/\(key)"))
                        if done { touched.insert("\(collection)/\(key)") }
                    case .replaceMetadata(let collection, let key):
                        let done = try tx.replaceMetadata(Data([3]), forKey: key, in: collection)
                        #expect(done == after.contains("\(collection)/\(key)"))
                        if done { touched.insert("\(collection)/\(key)") }
                    case .touch(let collection, let key):
                        try tx.touch(key: key, in: collection)
                        if after.contains("\(collection)/\(key)") { touched.insert("\(collection)/\(key)") }
                    case .remove(let collection, let key):
                        let done = try tx.removeItem(forKey: key, in: collection)
                        #expect(done == after.contains("\(collection)/\(key)"))
                        if done {
                            after.remove("\(collection)/\(key)")
                            touched.insert("\(collection)/\(key)")
                        }
                    case .removeCollection(let collection):
                        let count = try tx.removeAllItems(in: collection)
                        let present = after.filter { $0.hasPrefix(collection + "/") }
                        #expect(count == present.count)
                        if count > 0 {
                            after.subtract(present)
                            removedCollections.insert(collection)
                            touched = touched.filter { !$0.hasPrefix(collection + "/") }
                        }
                    }
                }
            }
            existing = after
            var inserted: [String: Set<String>] = [:]
            var updated: [String: Set<String>] = [:]
            var removed: [String: Set<String>] = [:]
            for path in touched {
                let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
                // What existed when the transaction began, or when its collection was removed.
                let existedBefore = before.contains(path) && !removedCollections.contains(parts[0])
                if !after.contains(path) {
                    removed[parts[0], default: []].insert(parts[1])
                } else if existedBefore {
                    updated[parts[0], default: []].insert(parts[1])
                } else {
                    inserted[parts[0], default: []].insert(parts[1])
                }
            }
            if touched.isEmpty && removedCollections.isEmpty { continue }  // no changeset
            let changeset = try #require(await changes.next())
            let context = "seed \(seed) round \(round): \(operations)"
            #expect(changeset.insertedKeys == inserted, "\(context)")
            #expect(changeset.updatedKeys == updated, "\(context)")
            #expect(changeset.removedKeys == removed, "\(context)")
            #expect(changeset.removedCollections == removedCollections, "\(context)")
            #expect(changeset.changedKeys == inserted.merging(updated) { $0.union($1) }, "\(context)")
            #expect(Set(changeset.insertedKeys(of: Note.self)) == inserted[Note.collection] ?? [], "\(context)")
            #expect(Set(changeset.updatedKeys(of: Note.self)) == updated[Note.collection] ?? [], "\(context)")
            #expect(
                Set(changeset.changedKeys(of: Note.self))
                    == (inserted[Note.collection] ?? []).union(updated[Note.collection] ?? []), "\(context)")
        }
    }

    /// The documented cases, one by one.
    @Test func multipleWritesOfOneKeyInOneTransaction() async throws {
        let database = try makeTemporaryDatabase { $0.externalChangePollingInterval = nil }
        let connection = try database.newConnection()
        try syncReadWrite(connection) { tx in
            try tx.write(Note(id: "old", text: "0"))
            try tx.write(Note(id: "old2", text: "0"))
        }
        var changes = database.changes.makeAsyncIterator()
        try syncReadWrite(connection) { tx in
            try tx.write(Note(id: "new", text: "1"))  // insert then update: inserted
            try tx.write(Note(id: "new", text: "2"))
            try tx.remove(Note.self, key: "old")  // remove then insert: updated
            try tx.write(Note(id: "old", text: "3"))
            try tx.write(Note(id: "gone", text: "4"))  // insert then remove: removed
            try tx.remove(Note.self, key: "gone")
            try tx.write(Note(id: "old2", text: "5"))  // update then remove: removed
            try tx.remove(Note.self, key: "old2")
        }
        let changeset = try #require(await changes.next())
        #expect(changeset.insertedKeys(of: Note.self) == ["new"])
        #expect(changeset.updatedKeys(of: Note.self) == ["old"])
        #expect(Set(changeset.removedKeys(of: Note.self)) == ["gone", "old2"])
        #expect(Set(changeset.changedKeys(of: Note.self)) == ["new", "old"])
        #expect(changeset.isComplete)
    }

    @Test func changedKeysSetterKeepsInsertedKeys() {
        var changeset = Changeset(snapshot: 1, insertedKeys: ["c": ["a", "b"]], updatedKeys: ["c": ["u"]])
        changeset.changedKeys = ["c": ["a", "x"]]
        #expect(changeset.insertedKeys == ["c": ["a"]])
        #expect(changeset.updatedKeys == ["c": ["x"]])
        let built = Changeset(snapshot: 2, changedKeys: ["c": ["a", "b"]], insertedKeys: ["c": ["a"]])
        #expect(built.updatedKeys == ["c": ["b"]])
        #expect(built.changedKeys == ["c": ["a", "b"]])
    }
}
