import Foundation
import Testing
import Trove
import TroveTestSupport

struct UntypedTransactionTests {
    @Test func dataAndMetadataByCollectionAndKey() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        try connection.write { tx throws in
            try tx.setData(Data([1, 2, 3]), metadata: Data([9]), forKey: "k", in: "c")
            try tx.setData(Data(), forKey: "empty", in: "c")
            try tx.setData(Data([4]), forKey: "k", in: "other")
        }
        try connection.read { tx throws in
            #expect(try tx.data(forKey: "k", in: "c") == Data([1, 2, 3]))
            #expect(try tx.metadata(forKey: "k", in: "c") == Data([9]))
            #expect(try tx.data(forKey: "empty", in: "c") == Data())
            #expect(try tx.metadata(forKey: "empty", in: "c") == nil)
            #expect(try tx.dataAndMetadata(forKey: "k", in: "c")?.metadata == Data([9]))
            #expect(try tx.data(forKey: "nope", in: "c") == nil)
            #expect(try tx.hasItem(forKey: "k", in: "other"))
            #expect(try !tx.hasItem(forKey: "k", in: "missing"))
            #expect(try tx.collections() == ["c", "other"])
            #expect(try tx.keys(in: "c") == ["empty", "k"])
            #expect(try tx.count(in: "c") == 2)
            #expect(try tx.count() == 3)
        }
    }

    @Test func replaceDataKeepsMetadataAndReplaceMetadataKeepsData() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        try connection.write { tx throws in
            try tx.setData(Data([1]), metadata: Data([2]), forKey: "k", in: "c")
            #expect(try tx.replaceData(Data([3]), forKey: "k", in: "c"))
            #expect(try tx.replaceMetadata(Data([4]), forKey: "k", in: "c"))
            #expect(try !tx.replaceData(Data([5]), forKey: "missing", in: "c"))
        }
        try connection.read { tx throws in
            #expect(try tx.data(forKey: "k", in: "c") == Data([3]))
            #expect(try tx.metadata(forKey: "k", in: "c") == Data([4]))
            #expect(try !tx.hasItem(forKey: "missing", in: "c"))
        }
        try connection.write { tx in _ = try tx.replaceMetadata(nil, forKey: "k", in: "c") }
        #expect(try connection.read { try $0.metadata(forKey: "k", in: "c") } == nil)
    }

    @Test func removeByKeyKeysCollectionAndEverything() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        try connection.write { tx throws in
            for collection in ["a", "b", "c"] {
                for key in ["1", "2", "3"] {
                    try tx.setData(Data(key.utf8), forKey: key, in: collection)
                }
            }
        }
        try connection.write { tx throws in
            #expect(try tx.removeItem(forKey: "1", in: "a"))
            #expect(try !tx.removeItem(forKey: "1", in: "a"))
            #expect(try tx.removeItems(forKeys: ["2", "3", "4"], in: "b") == 2)
            #expect(try tx.removeAllItems(in: "c") == 3)
        }
        try connection.read { tx throws in
            #expect(try tx.keys(in: "a") == ["2", "3"])
            #expect(try tx.keys(in: "b") == ["1"])
            #expect(try tx.collections() == ["a", "b"])
        }
        #expect(try connection.write { try $0.removeAllItems() } == 3)
        #expect(try connection.read { try $0.count() } == 0)
    }

    @Test func enumerateKeysStops() throws {
        let connection = try makeTemporaryDatabase().newConnection()
        try connection.write { tx throws in
            for key in 0..<10 { try tx.setData(Data(), forKey: "k\(key)", in: "c") }
        }
        var seen: [String] = []
        try connection.read { tx throws in
            try tx.enumerateKeys(in: "c") { key, stop in
                seen.append(key)
                if seen.count == 3 { stop = true }
            }
        }
        #expect(seen == ["k0", "k1", "k2"])
    }
}
