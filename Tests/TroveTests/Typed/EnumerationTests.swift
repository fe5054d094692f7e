import Foundation
import Testing
import Trove
import TroveTestSupport

struct EnumerationTests {
    /// More notes than one page (256 rows), so that every form crosses page boundaries.
    private static let noteCount = 700

    private static func key(_ index: Int) -> String { String(format: "n%04d", index) }

    private func seeded(count: Int = noteCount) throws -> Connection {
        let connection = try makeTemporaryDatabase().newConnection()
        try connection.write((0..<count).reversed().map { Note(id: Self.key($0), text: "text \($0)") })
        return connection
    }

    // MARK: Typed

    @Test func enumerateVisitsEveryItemInKeyOrder() throws {
        let connection = try seeded()
        let visited = try connection.read { tx in
            var ids: [String] = []
            try tx.enumerate(Note.self) { note, _ in ids.append(note.id) }
            return ids
        }
        #expect(visited == (0..<Self.noteCount).map(Self.key))
        #expect(try connection.readAll(Note.self).map(\.id) == visited)
    }

    @Test func enumerateStopsWhereAsked() throws {
        let connection = try seeded()
        for stopAt in [0, 255, 256, 257, 699] {
            let visited = try connection.read { tx in
                var ids: [String] = []
                try tx.enumerate(Note.self) { note, stop in
                    ids.append(note.id)
                    if ids.count == stopAt + 1 { stop = true }
                }
                return ids
            }
            #expect(visited == (0...stopAt).map(Self.key))
        }
    }

    @Test func keyFilterRunsBeforeDecodingSoRejectedRowsAreNeverDecoded() throws {
        let connection = try seeded(count: 10)
        // Bytes no coder can read, under a key the filter rejects.
        try connection.write { tx in
            try tx.setData(Data([0xFF, 0xFF, 0xFF]), forKey: "n0005", in: Note.collection)
        }
        let visited = try connection.read { tx in
            var ids: [String] = []
            try tx.enumerate(Note.self, where: { $0 != "n0005" && $0 != "n0007" }) { note, _ in ids.append(note.id) }
            return ids
        }
        #expect(visited == ["n0000", "n0001", "n0002", "n0003", "n0004", "n0006", "n0008", "n0009"])
        // Without the filter the corrupt row is decoded, and the error names it.
        let error = #expect(throws: TroveError.self) {
            try connection.read { tx in try tx.enumerate(Note.self) { _, _ in } }
        }
        #expect(error?.code == .corruptData)
        #expect(error?.key == "n0005")
        #expect(error?.collection == Note.collection)
        // The cursor skips it the same way.
        let cursorIDs = try connection.read { tx in
            var ids: [String] = []
            try tx.cursor(Note.self, where: { $0 != "n0005" }).forEach { ids.append($0.id) }
            return ids
        }
        #expect(cursorIDs.count == 9 && !cursorIDs.contains("n0005"))
    }

    @Test func enumerateMetadataReadsNoItemAndItemsCarryTheirMetadata() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let people = (0..<300).map { index in
            Person(
                id: UUID(), name: "p\(index)", age: index,
                metadata: index % 3 == 0 ? nil : Stats(visits: index, lastSeen: nil))
        }
        try connection.write(people)
        let sorted = people.sorted { $0.id.itemKey < $1.id.itemKey }
        // Corrupt the data of one person: metadata enumeration never decodes the item.
        try connection.write { tx in
            _ = try tx.replaceData(Data([0xFF, 0xFF]), forKey: sorted[10].id.itemKey, in: Person.collection)
        }
        let metadata = try connection.read { tx in
            var result: [(UUID, Stats?)] = []
            try tx.enumerateMetadata(of: Person.self) { id, stats, _ in result.append((id, stats)) }
            return result
        }
        #expect(metadata.map(\.0) == sorted.map(\.id))
        #expect(metadata.map(\.1) == sorted.map(\.metadata))
        // Items and metadata pairs, skipping the corrupt one by key.
        let pairs = try connection.read { tx in
            var result: [(Person, Stats?)] = []
            try tx.enumerate(Person.self, where: { $0 != sorted[10].id }) { person, _ in
                result.append((person, person.metadata))
            }
            return result
        }
        var expected = sorted
        expected.remove(at: 10)
        #expect(pairs.map(\.0) == expected)
        #expect(pairs.map(\.1) == expected.map(\.metadata))
    }

    @Test func aStoredKeyThatIsNotAValidIDIsAnInvalidKeyError() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        try connection.write(Bookmark(id: 1, url: URL(string: "https://example.com")!, metadata: nil))
        try connection.write { tx in
            let bytes = try #require(try tx.data(forKey: "1", in: Bookmark.collection))
            try tx.setData(bytes, forKey: "not-a-number", in: Bookmark.collection)
        }
        for form in 0..<3 {
            let error = #expect(throws: TroveError.self) {
                try connection.read { tx in
                    switch form {
                    case 0: try tx.enumerate(Bookmark.self, where: { _ in true }) { _, _ in }
                    case 1: try tx.enumerateKeys(of: Bookmark.self) { _, _ in }
                    default: try tx.enumerateMetadata(of: Bookmark.self) { _, _, _ in }
                    }
                }
            }
            #expect(error?.code == .invalidKey)
            #expect(error?.key == "not-a-number")
        }
    }

    @Test func enumerateKeysOfAType() throws {
        let connection = try seeded(count: 300)
        let keys = try connection.read { tx in
            var keys: [String] = []
            try tx.enumerateKeys(of: Note.self) { key, stop in
                keys.append(key)
                if keys.count == 260 { stop = true }
            }
            return keys
        }
        #expect(keys == (0..<260).map(Self.key))
    }

    @Test func enumerateKeysInOrderOrUnorderedWithMissingKeys() throws {
        let connection = try seeded(count: 20)
        let keys = ["n0010", "missing", "n0002", "n0015", "n0002"]
        let ordered = try connection.read { tx in
            var result: [(String, String?)] = []
            try tx.enumerate(Note.self, keys: keys) { key, note, _ in result.append((key, note?.text)) }
            return result
        }
        #expect(ordered.map(\.0) == keys)
        #expect(ordered.map(\.1) == ["text 10", nil, "text 2", "text 15", "text 2"])

        // Unordered: cache hits first (after the flush, only n0015, cached by the read below),
        // then the rest in key order.
        connection.flushCaches()
        let unordered = try connection.read { tx in
            _ = try tx.read(Note.self, key: "n0015")
            var result: [(String, String?)] = []
            try tx.enumerate(Note.self, keys: keys, unordered: true) { key, note, _ in result.append((key, note?.text)) }
            return result
        }
        #expect(unordered.map(\.0) == ["n0015", "missing", "n0002", "n0002", "n0010"])
        #expect(unordered.map(\.1) == ["text 15", nil, "text 2", "text 2", "text 10"])
        // Every key is visited exactly as often as given.
        #expect(unordered.map(\.0).sorted() == keys.sorted())
        // Stop.
        let first = try connection.read { tx in
            var count = 0
            try tx.enumerate(Note.self, keys: keys, unordered: true) { _, _, stop in
                count += 1
                stop = true
            }
            return count
        }
        #expect(first == 1)
    }

    @Test func readsAndEnumerationsNestedInsideTheBodyOfEveryForm() throws {
        let connection = try seeded(count: 300)
        try connection.read { tx in
            var count = 0
            try tx.enumerate(Note.self) { note, _ in
                // The same statements as the outer enumeration, and a point read.
                #expect(try tx.read(Note.self, key: note.id) == note)
                if count % 100 == 0 {
                    var inner = 0
                    try tx.enumerate(Note.self) { _, _ in inner += 1 }
                    #expect(inner == 300)
                }
                count += 1
            }
            #expect(count == 300)

            var metadataCount = 0
            try tx.enumerateMetadata(of: Note.self) { id, _, _ throws in
                #expect(try tx.hasItem(forKey: id, in: Note.collection))
                metadataCount += 1
            }
            #expect(metadataCount == 300)

            var keysCount = 0
            try tx.enumerateKeysInAllCollections { collection, key, _ in
                var rows = 0
                try tx.enumerateRows(in: collection, where: { $0 == key }) { _, _, _, _ in rows += 1 }
                #expect(rows == 1)
                keysCount += 1
            }
            #expect(keysCount == 300)

            var rowsCount = 0
            try tx.enumerateRowsInAllCollections { collection, key, data, _, _ throws in
                #expect(try tx.data(forKey: key, in: collection) == data)
                rowsCount += 1
            }
            #expect(rowsCount == 300)

            let cursor = tx.cursor(Note.self)
            var cursorCount = 0
            while let note = try cursor.next() {
                #expect(try tx.read(Note.self, key: note.id)?.text == note.text)
                cursorCount += 1
            }
            #expect(cursorCount == 300)
        }
    }

    @Test func readsNestedInsideTheRemainingForms() throws {
        let connection = try seeded(count: 300)
        try connection.read { tx in
            var counts: [Int] = Array(repeating: 0, count: 6)
            try tx.enumerate(Note.self) { note, _ throws in
                #expect(try tx.read(Note.self, key: note.id) == note)
                counts[0] += 1
            }
            try tx.enumerateKeys(of: Note.self) { key, _ throws in
                #expect(try tx.read(Note.self, key: key) != nil)
                counts[1] += 1
            }
            try tx.enumerate(Note.self, keys: (0..<300).map(Self.key), unordered: true) { key, note, _ throws in
                #expect(try tx.data(forKey: key, in: Note.collection) != nil && note != nil)
                counts[2] += 1
            }
            try tx.enumerateData(in: Note.collection) { key, data, _ throws in
                #expect(try tx.data(forKey: key, in: Note.collection) == data)
                counts[3] += 1
            }
            try tx.enumerateMetadata(in: Note.collection) { key, _, _ throws in
                #expect(try tx.keys(in: Note.collection).count == 300)
                counts[4] += key.isEmpty ? 0 : 1
            }
            try tx.enumerateKeys(in: Note.collection) { key, _ in
                var inner = 0
                try tx.enumerateKeys(in: Note.collection) { _, stop in
                    inner += 1
                    stop = inner == 2
                }
                #expect(inner == 2)
                counts[5] += 1
            }
            #expect(counts == Array(repeating: 300, count: 6))
        }
    }

    @Test func cursorDecodesLazilyAndCannotBeUsedAfterItsTransaction() throws {
        let connection = try seeded()
        var escaped: ItemCursor<Note>?
        let firstThree = try connection.read { tx in
            let cursor = tx.cursor(Note.self)
            escaped = cursor
            return [try cursor.next(), try cursor.next(), try cursor.next()].compactMap { $0?.id }
        }
        #expect(firstThree == ["n0000", "n0001", "n0002"])
        let error = #expect(throws: TroveError.self) { _ = try escaped?.next() }
        #expect(error?.code == .misuse)
        // Also inside a later transaction of the same connection.
        let later = #expect(throws: TroveError.self) {
            try connection.read { _ in _ = try escaped?.next() }
        }
        #expect(later?.code == .misuse)
    }

    @Test func enumerationServesCachedItemsAsTheyAreCached() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let gadgets = (0..<5).map { Gadget(id: UUID(), label: "g\($0)") }
        try connection.write(gadgets)
        try connection.read { tx in
            let cached = try #require(try tx.read(Gadget.self, key: gadgets[2].id))
            var found: Gadget?
            try tx.enumerate(Gadget.self) { gadget, _ in
                if gadget.id == gadgets[2].id { found = gadget }
            }
            #expect(found === cached)
        }
    }

    // MARK: Untyped

    @Test func untypedFormsInOneCollectionAndAcrossCollections() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        var expected: [(String, String, Data, Data?)] = []
        try connection.write { tx in
            for collection in ["b", "a", "c"] {
                for index in (0..<270).reversed() {
                    let key = String(format: "k%03d", index)
                    let data = Data("\(collection)/\(key)".utf8)
                    let metadata = index % 2 == 0 ? Data([UInt8(index % 256)]) : nil
                    try tx.setData(data, metadata: metadata, forKey: key, in: collection)
                }
            }
        }
        for collection in ["a", "b", "c"] {
            for index in 0..<270 {
                let key = String(format: "k%03d", index)
                expected.append(
                    (collection, key, Data("\(collection)/\(key)".utf8), index % 2 == 0 ? Data([UInt8(index % 256)]) : nil))
            }
        }
        try connection.read { tx in
            var keys: [String] = []
            try tx.enumerateKeysInAllCollections { collection, key, _ in keys.append("\(collection)/\(key)") }
            #expect(keys == expected.map { "\($0.0)/\($0.1)" })

            var rows: [(String, String, Data, Data?)] = []
            try tx.enumerateRowsInAllCollections { collection, key, data, metadata, _ in
                rows.append((collection, key, data, metadata))
            }
            #expect(rows.map(\.0) == expected.map(\.0))
            #expect(rows.map(\.1) == expected.map(\.1))
            #expect(rows.map(\.2) == expected.map(\.2))
            #expect(rows.map(\.3) == expected.map(\.3))

            var filtered: [String] = []
            try tx.enumerateRowsInAllCollections(where: { collection, key in collection == "b" && key.hasSuffix("7") }) {
                _, key, _, _, stop in
                filtered.append(key)
                if filtered.count == 20 { stop = true }
            }
            #expect(filtered == (0..<270).map { String(format: "k%03d", $0) }.filter { $0.hasSuffix("7") }.prefix(20).map { $0 })

            let inB = expected.filter { $0.0 == "b" }
            var data: [Data] = []
            try tx.enumerateData(in: "b") { _, value, _ in data.append(value) }
            #expect(data == inB.map(\.2))
            var metadata: [Data?] = []
            try tx.enumerateMetadata(in: "b", where: { $0 < "k100" }) { _, value, _ in metadata.append(value) }
            #expect(metadata == inB.prefix(100).map(\.3))
            var rowsB: [String] = []
            try tx.enumerateRows(in: "b") { key, _, _, stop in
                rowsB.append(key)
                stop = rowsB.count == 257
            }
            #expect(rowsB == inB.prefix(257).map(\.1))
            #expect(try tx.keys(in: "missing").isEmpty)

            var byKeys: [(Int, String, Data?)] = []
            try tx.enumerateRows(forKeys: ["k005", "nope", "k001"], in: "c") { index, key, row, _ in
                byKeys.append((index, key, row?.data))
            }
            #expect(byKeys.map(\.0) == [0, 1, 2])
            #expect(byKeys.map(\.2) == [Data("c/k005".utf8), nil, Data("c/k001".utf8)])
        }
    }

    // MARK: Writes during an enumeration

    /// The promise: every row is visited as it is when it is reached. A key written after the
    /// current position is visited (with its latest value), a key removed before it is reached is
    /// not, and nothing is visited twice. Checked against a model under random writes, with
    /// "write then stop" and "write then continue", across page boundaries.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func writesDuringAnEnumerationFollowTheModel(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let connection = try makeTemporaryDatabase().newConnection()
        var model: [String: String] = [:]
        let keySpace = 900
        for _ in 0..<600 {
            let key = Self.key(Int.random(in: 0..<keySpace, using: &random))
            model[key] = "initial \(key)"
        }
        try connection.write(model.map { Note(id: $0.key, text: $0.value) })
        let useCursor = seed % 2 == 0
        try connection.write { tx in
            var last: String?
            var visited: [(String, String)] = []
            var stopAfter = Int.random(in: 1...700, using: &random)
            func visit(_ note: Note) throws -> Bool {
                // The model's next key after the last one visited, with its current value.
                let expected = model.keys.filter { last == nil || $0 > last! }.min()
                #expect(note.id == expected, "seed \(seed)")
                #expect(note.text == model[note.id], "seed \(seed)")
                visited.append((note.id, note.text))
                last = note.id
                // Random writes: before and after the position, in and beyond the page.
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    let key = Self.key(Int.random(in: 0..<keySpace, using: &random))
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0:
                        let text = "written \(visited.count) \(key)"
                        try tx.write(Note(id: key, text: text))
                        model[key] = text
                    case 1:
                        _ = try tx.remove(Note.self, key: key)
                        model[key] = nil
                    default:
                        _ = try tx.replaceData(
                            Data(try encodedMessage(Note(id: key, text: "replaced \(key)"))), forKey: key,
                            in: Note.collection)
                        if model[key] != nil { model[key] = "replaced \(key)" }
                    }
                }
                stopAfter -= 1
                return stopAfter == 0
            }
            if useCursor {
                let cursor = tx.cursor(Note.self)
                while let note = try cursor.next() {
                    if try visit(note) { break }
                }
            } else {
                try tx.enumerate(Note.self) { note, stop in stop = try visit(note) }
            }
            if stopAfter > 0 {
                // Ran to the end: nothing was left after the last key.
                #expect(model.keys.filter { last == nil || $0 > last! }.isEmpty, "seed \(seed)")
            }
            #expect(Set(visited.map(\.0)).count == visited.count, "seed \(seed): a key was visited twice")
        }
        // What the transaction wrote is stored.
        let stored = try connection.read { tx in try tx.readAll(Note.self) }
        #expect(stored.map(\.id) == model.keys.sorted())
        #expect(stored.map(\.text) == model.keys.sorted().map { model[$0]! })
    }

    @Test func writeThenStopAndWriteThenContinue() throws {
        let connection = try seeded(count: 10)
        // Write then stop: the write is kept, the enumeration ends.
        try connection.write { tx in
            var visited: [String] = []
            try tx.enumerate(Note.self) { note, stop in
                visited.append(note.id)
                try tx.write(Note(id: "n0000a", text: "inserted"))
                stop = true
            }
            #expect(visited == ["n0000"])
        }
        #expect(try connection.read(Note.self, key: "n0000a")?.text == "inserted")
        // Write then continue: a key inserted ahead is visited, one removed ahead is not, one
        // changed ahead is visited with its new value; one inserted behind is not.
        try connection.write { tx in
            var visited: [String] = []
            try tx.enumerate(Note.self) { note, _ in
                visited.append("\(note.id)=\(note.text)")
                if note.id == "n0002" {
                    try tx.write(Note(id: "n0001z", text: "behind"))
                    try tx.write(Note(id: "n0005a", text: "ahead"))
                    _ = try tx.remove(Note.self, key: "n0007")
                    try tx.write(Note(id: "n0008", text: "changed"))
                }
            }
            #expect(
                visited == [
                    "n0000=text 0", "n0000a=inserted", "n0001=text 1", "n0002=text 2", "n0003=text 3", "n0004=text 4",
                    "n0005=text 5", "n0005a=ahead", "n0006=text 6", "n0008=changed", "n0009=text 9",
                ])
        }
    }
}
