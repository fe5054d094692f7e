/// How often each key of a cache was asked for lately, approximately: a count-min sketch of four
/// rows of small saturating counters, halved after a sample of asks so that old popularity fades
/// (TinyLFU, as in Caffeine). ``LRUCache/admit(_:for:)`` compares a new entry's count with the
/// count of the entry it would evict.
///
/// A key's count is never below the number of times it was recorded since the last halving (up
/// to the saturation at 15); collisions can only raise it.
///
/// Not thread-safe: it belongs to its cache.
struct FrequencySketch {
    /// The counters, `rows` rows of `width` each.
    private var counters: [UInt8]
    private let mask: Int
    private let width: Int
    /// Records since the last halving, and how many trigger the next.
    private var records = 0
    private let sampleSize: Int

    private static let rows = 4
    private static let maximum: UInt8 = 15

    /// A sketch for a cache of `capacity` entries: rows of at least four times `capacity`
    /// counters (a power of two, at most 2^20), so that the keys asked for besides those cached
    /// seldom share all their counters; halved every ten times `capacity` records.
    init(capacity: Int) {
        var width = 16
        while width < 4 * capacity, width < 1 << 20 { width <<= 1 }
        self.width = width
        mask = width - 1
        counters = Array(repeating: 0, count: width * Self.rows)
        sampleSize = 10 * Swift.max(capacity, 16)
    }

    /// Counts one ask for the key of `hash`.
    mutating func record(_ hash: Int) {
        let (first, step) = Self.probes(hash)
        var index = first
        for row in 0..<Self.rows {
            let slot = row * width + (index & mask)
            if counters[slot] < Self.maximum { counters[slot] += 1 }
            index &+= step
        }
        records += 1
        if records >= sampleSize { halve() }
    }

    /// The estimated number of asks for the key of `hash` lately.
    func frequency(_ hash: Int) -> Int {
        let (first, step) = Self.probes(hash)
        var index = first
        var smallest = Self.maximum
        for row in 0..<Self.rows {
            smallest = Swift.min(smallest, counters[row * width + (index & mask)])
            index &+= step
        }
        return Int(smallest)
    }

    /// Halves every counter: asks long ago weigh half as much as recent ones.
    private mutating func halve() {
        records /= 2
        for slot in counters.indices { counters[slot] >>= 1 }
    }

    /// The first index and the step of the key's counters across the rows (double hashing from the
    /// key's hash, already mixed by `Hasher`).
    private static func probes(_ hash: Int) -> (first: Int, step: Int) {
        let mixed = UInt64(bitPattern: Int64(hash)) &* 0x9E37_79B9_7F4A_7C15
        return (hash, Int(truncatingIfNeeded: mixed >> 32) | 1)
    }
}
