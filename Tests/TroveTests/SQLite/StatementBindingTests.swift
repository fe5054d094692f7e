import Foundation
import Testing
import Trove
import TroveTestSupport

/// SQLite reads bound strings and blobs in place, without copying them: these tests store and
/// read back many distinct values, of every kind of storage, through statements that are reused
/// from one value to the next. Run them under `--sanitize=address` too: a bound value read after
/// its memory was freed or reused fails there even when the bytes happen to match.
struct StatementBindingTests {
    /// Strings of every storage: small (stored inline in the `String`), large, non-ASCII, empty,
    /// longer than a statement's text buffer, made by Foundation, and sliced from other strings.
    static func distinctStrings(_ prefix: String) -> [String] {
        let long = String(repeating: "long-\(prefix)-é", count: 40)  // 320+ bytes
        let wide = "\(prefix)-日本語のキー-👩‍👩‍👧-Ünïcödé-\(String(repeating: "∑", count: 30))"
        var strings = [prefix, "", "\(prefix)-\(String(repeating: "x", count: 40))", "é\(prefix)", wide, long]
        strings.append(String(NSString(string: "ns-\(prefix)-\(String(repeating: "n", count: 20))")))
        strings.append(NSString(format: "fmt-%@-%d", prefix, 42).description)
        strings.append(String(data: Data("data-\(prefix)-ü".utf8), encoding: .utf8)!)
        strings.append(String(wide.dropFirst(2)))  // from a Substring
        strings.append(String(long.prefix(200)))  // fits the text buffer alone, not with a long collection
        return strings
    }

    /// Blobs of every storage: empty, small (stored inline in `Data`), large, and slices that do
    /// not start at index 0.
    static func blob(_ seed: Int) -> Data {
        let large = Data((0..<(4096 + seed)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) })
        switch seed % 4 {
        case 0: return Data()
        case 1: return Data([UInt8(truncatingIfNeeded: seed), 1, 2])
        case 2: return large
        default: return large[7..<(100 + seed)]
        }
    }

    @Test func everyBoundStringAndBlobReadsBackExactly() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let collections = Self.distinctStrings("c")
        let keys = Self.distinctStrings("k")
        var expected: [String: [String: (data: Data, metadata: Data?)]] = [:]
        var seed = 0
        try connection.write { tx throws in
            for collection in collections {
                for key in keys {
                    seed += 1
                    let data = Self.blob(seed)
                    let metadata = seed % 3 == 0 ? nil : Self.blob(seed + 1)
                    try tx.setData(data, metadata: metadata, forKey: key, in: collection)
                    expected[collection, default: [:]][key] = (data, metadata)
                }
            }
        }
        try connection.read { tx throws in
            #expect(Set(try tx.collections()) == Set(collections))
            for collection in collections {
                #expect(Set(try tx.keys(in: collection)) == Set(keys))
                #expect(try tx.count(in: collection) == keys.count)
                for key in keys {
                    let stored = try #require(try tx.dataAndMetadata(forKey: key, in: collection))
                    #expect(stored.data == expected[collection]?[key]?.data)
                    #expect(stored.metadata == expected[collection]?[key]?.metadata)
                }
            }
        }
    }

    @Test func replacedDataAndMetadataReadBackExactly() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        let keys = Self.distinctStrings("r")
        try connection.write { tx throws in
            for key in keys {
                try tx.setData(Data([0]), forKey: key, in: "c")
            }
            for (index, key) in keys.enumerated() {
                #expect(try tx.replaceData(Self.blob(index + 10), forKey: key, in: "c"))
                #expect(try tx.replaceMetadata(Self.blob(index + 20), forKey: key, in: "c"))
            }
        }
        try connection.read { tx throws in
            for (index, key) in keys.enumerated() {
                #expect(try tx.data(forKey: key, in: "c") == Self.blob(index + 10))
                #expect(try tx.metadata(forKey: key, in: "c") == Self.blob(index + 20))
            }
        }
    }
}
