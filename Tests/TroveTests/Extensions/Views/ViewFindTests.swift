import Foundation
import Testing
import Trove
import TroveTestSupport

/// ``ViewReader/range(in:where:)`` and ``ViewReader/firstIndex(in:where:)`` against the brute
/// force: the indexes of the sorted group whose score is in a window.
struct ViewFindTests {
    @Test(arguments: [View<Member>.Storage.persistent, .inMemory])
    func rangesOfRandomWindowsMatchTheSortedGroups(storage: View<Member>.Storage) throws {
        let view = ViewTestViews.byCity(storage: storage)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        let connection = try database.newConnection()
        var random = SplitMix64(seed: 0xF1D0)
        // Groups larger than a page, so that the search crosses pages.
        let keys = (0..<600).map { "m\($0)" }
        var checked = 0
        for step in 0..<60 {
            try ViewModelTests.commitRandomBatch(
                connection, random: &random, keys: keys, cities: ["a", "b", nil], maxBatch: step < 10 ? 120 : 20,
                bulkRemovals: false)
            try connection.read { tx in
                let all = try tx.readAll(Member.self)
                let scores = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.score) })
                let expected = ViewTestViews.expected(all, filter: { _ in true })
                let reader = view.read(tx)
                for group in ["a", "b", "missing"] {
                    let sorted = expected[group] ?? []
                    for _ in 0..<6 {
                        // Scores are whole numbers in 0..<6: windows from empty to everything.
                        let low = Double(Int.random(in: -1...6, using: &random))
                        let high = low + Double(Int.random(in: 0...3, using: &random))
                        let placement: (Member) -> ViewRowPlacement = { member in
                            member.score < low ? .before : member.score < high ? .match : .after
                        }
                        let matching = sorted.indices.filter { (low..<high).contains(scores[sorted[$0]]!) }
                        let insertion = sorted.firstIndex { scores[$0]! >= low } ?? sorted.count
                        let expectedRange = matching.isEmpty ? insertion..<insertion : matching.first!..<(matching.last! + 1)
                        let range = try reader.range(in: group, where: placement)
                        #expect(
                            range == expectedRange,
                            "step \(step), group \(group), scores \(low)..<\(high): \(range) instead of \(expectedRange)")
                        let first = try reader.firstIndex(in: group, where: placement)
                        #expect(first == matching.first, "step \(step), group \(group), scores \(low)..<\(high)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 60 * 3 * 6)
    }

    @Test func aThrowingPlacementEndsTheSearchWithItsError() throws {
        struct Stop: Error {}
        let view = ViewTestViews.byCity(storage: .persistent)
        let database = try makeTemporaryDatabase(extensions: [view.databaseExtension])
        try database.write { tx in
            for index in 0..<10 { try tx.write(Member(id: "m\(index)", age: 1, city: "a", score: Double(index))) }
        }
        try database.read { tx in
            #expect(throws: Stop.self) { try view.read(tx).range(in: "a") { _ in throw Stop() } }
            let range = try view.read(tx).range(in: "a") { $0.score < 3 ? .before : $0.score < 5 ? .match : .after }
            #expect(range == 3..<5)
            let first = try view.read(tx).firstIndex(in: "a") { $0.score < 30 ? .before : .match }
            #expect(first == nil)
        }
    }
}
