import Testing

@testable import Trove

/// `LRUCache` against a plain model of a least-recently-used cache, over random operations on
/// more keys than the cache holds, so that probing collides, entries are evicted and removed
/// slots move back.
struct LRUCacheTests {
    /// The model: entries by recency, most recent first.
    private struct Model {
        let limit: Int
        var entries: [(key: CacheKey, value: Int)] = []

        mutating func value(for key: CacheKey) -> Int? {
            guard let position = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: position)
            entries.insert(entry, at: 0)
            return entry.value
        }

        mutating func set(_ value: Int, for key: CacheKey) {
            guard limit > 0 else { return }
            entries.removeAll { $0.key == key }
            entries.insert((key, value), at: 0)
            if entries.count > limit { entries.removeLast() }
        }

        mutating func removeValue(for key: CacheKey) {
            entries.removeAll { $0.key == key }
        }

        mutating func removeAll(in collection: String) {
            entries.removeAll { $0.key.collection == collection }
        }
    }

    @Test(arguments: [0, 1, 2, 7, 64])
    func behavesLikeTheModel(limit: Int) {
        var generator = SplitMix64(seed: UInt64(limit) &+ 1)  // the same operations at every run
        let keys = ["users", "posts", "tags"].flatMap { collection in
            (0..<60).map { CacheKey(collection: collection, key: "key-\($0)") }
        }
        var cache = LRUCache(limit: limit)
        var model = Model(limit: limit)
        for step in 0..<20_000 {
            let key = keys.randomElement(using: &generator)!
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<40:
                cache.set(step, for: key)
                model.set(step, for: key)
            case 40..<75:
                #expect(cache.value(for: key) as? Int == model.value(for: key), "step \(step)")
            case 75..<97:
                cache.removeValue(for: key)
                model.removeValue(for: key)
            case 97..<99:
                cache.removeAll(in: key.collection)
                model.removeAll(in: key.collection)
            default:
                cache.removeAll()
                model.entries.removeAll()
            }
            #expect(cache.count == model.entries.count, "step \(step)")
        }
        // Every key, in an order that does not disturb the model's recency before it is read.
        for key in keys {
            #expect(cache.value(for: key) as? Int == model.value(for: key))
        }
    }
}
