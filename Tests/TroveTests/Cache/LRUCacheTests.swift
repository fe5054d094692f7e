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

    /// A full cache that admits what a scan reads keeps what is read again and again: a hot set
    /// read four times per round, with a scan of four times the cache's size between rounds, is
    /// still cached when the next round begins, and the scan's misses stay out. The same reads
    /// cached by `set` (least recently used) lose the hot set to every scan. (`Hasher` is seeded
    /// per process, so the sketch's collisions, and a few evictions of hot entries by scanned
    /// entries whose counts they inflate, differ from run to run: hence a bound.)
    @Test
    func admissionKeepsTheWorkingSetAgainstAScan() {
        let limit = 100
        let hot = (0..<50).map { CacheKey(collection: "users", key: "hot-\($0)") }
        let scan = (0..<(4 * limit)).map { CacheKey(collection: "users", key: "scan-\($0)") }
        /// The hot reads that hit first in their round, after the scan of the round before.
        func hitsAfterAScan(admitting: Bool) -> Int {
            var cache = LRUCache(limit: limit)
            func read(_ key: CacheKey) -> Bool {
                if cache.value(for: key) != nil { return true }
                if admitting { cache.admit(key.key, for: key) } else { cache.set(key.key, for: key) }
                return false
            }
            var hits = 0
            for round in 0..<20 {
                for key in hot where read(key) && round > 0 { hits += 1 }
                for _ in 0..<3 { for key in hot { _ = read(key) } }
                for key in scan { _ = read(key) }
            }
            return hits
        }
        let rounds = 19 * hot.count
        let admitted = hitsAfterAScan(admitting: true)
        // 866 to 950 of 950 over 20 processes; least recently used: 0.
        #expect(admitted * 3 >= rounds * 2, "\(admitted) of \(rounds) hot reads hit after a scan")
        #expect(hitsAfterAScan(admitting: false) == 0, "a scan evicts the hot set from a least-recently-used cache")
    }

    /// Until the cache is full, `admit` caches every value, as `set` does.
    @Test
    func admissionCachesEverythingUntilFull() {
        var cache = LRUCache(limit: 10)
        let keys = (0..<10).map { CacheKey(collection: "users", key: "\($0)") }
        for (offset, key) in keys.enumerated() {
            #expect(cache.value(for: key) == nil)
            cache.admit(offset, for: key)
        }
        #expect(cache.count == 10)
        for (offset, key) in keys.enumerated() { #expect(cache.value(for: key) as? Int == offset) }
    }

    /// The keys that a read of many rows makes from its collection's prepared hash are the keys
    /// that a read by key makes: the same hash, equal, found in the cache.
    @Test func keysOfACollectionAreTheKeysMadeOneByOne() {
        let keys = CollectionKeys("users")
        var cache = LRUCache(limit: 8)
        for key in ["a", "b", "caf\u{E9}", String(repeating: "k", count: 40)] {
            let made = keys(key)
            let byKey = CacheKey(collection: "users", key: key)
            // The hash of the two strings, computed here the plain way.
            var hasher = Hasher()
            hasher.combine("users")
            hasher.combine(key)
            #expect(made.hash == hasher.finalize(), "\(key)")
            #expect(made == byKey && made.hashValue == byKey.hashValue, "\(key)")
            cache.set(key, for: made)
            #expect(cache.value(for: byKey) as? String == key, "\(key)")
        }
        #expect(keys("a") != CacheKey(collection: "posts", key: "a"))
    }
}
