/// A least-recently-used cache of decoded values, keyed by collection and key.
///
/// Lookups, insertions and removals are O(1); removing a whole collection is O(n) in the
/// number of cached entries. Entries live in one array linked by indices, so the cache makes no
/// allocation per entry once it has reached its limit.
///
/// Entries are found through an open-addressing table of their indices, probed with the hash
/// that ``CacheKey`` computed once: a `Dictionary` would hash that hash again (SipHash) at every
/// lookup, insertion and removal, three times for each entry that replaces another.
///
/// Values read from the database after a miss go in through ``admit(_:for:)``, which keeps a full
/// cache's working set against a scan (TinyLFU's admission, see ``FrequencySketch``); values
/// written go in through ``set(_:for:)``, always.
///
/// Not thread-safe: each ``Connection`` owns its caches and uses them under its lock.
@usableFromInline
struct LRUCache {
    private struct Node {
        var key: CacheKey
        var value: Any
        var previous: Int
        var next: Int
    }

    /// The most entries the cache holds. `0` disables it.
    @usableFromInline
    let limit: Int
    /// The number of entries.
    @usableFromInline
    private(set) var count = 0
    private var nodes: [Node] = []
    private var free: [Int] = []
    private var head = -1  // most recently used
    private var tail = -1  // least recently used
    /// Linear-probing table: each slot holds a node index plus one, or 0 when empty. Its size is
    /// a power of two, at least twice the number of entries.
    private var slots: [Int] = []
    /// How often each key was asked for lately, hit or miss.
    private var sketch: FrequencySketch

    @usableFromInline
    init(limit: Int) {
        self.limit = max(0, limit)
        sketch = FrequencySketch(capacity: self.limit)
    }

    /// The cached value, marked as most recently used. The ask is counted, hit or miss, for
    /// ``admit(_:for:)``.
    @usableFromInline
    mutating func value(for key: CacheKey) -> Any? {
        guard limit > 0 else { return nil }
        sketch.record(key.hash)
        guard let index = find(key).index else { return nil }
        moveToFront(index)
        return nodes[index].value
    }

    /// Caches `value`, evicting the least recently used entry when full.
    @usableFromInline
    mutating func set(_ value: Any, for key: CacheKey) {
        guard limit > 0 else { return }
        var (slot, found) = find(key)
        if let index = found {
            nodes[index].value = value
            moveToFront(index)
            return
        }
        let index: Int
        if count >= limit, tail >= 0 {
            index = tail
            unlink(index)
            removeSlot(find(nodes[index].key).slot)
            nodes[index] = Node(key: key, value: value, previous: -1, next: -1)
            // Removing a slot moves later slots back: the new key's free slot may have moved.
            slot = find(key).slot
        } else {
            if (count + 1) * 2 > slots.count {
                grow()
                slot = find(key).slot
            }
            count += 1
            if let reused = free.popLast() {
                index = reused
                nodes[index] = Node(key: key, value: value, previous: -1, next: -1)
            } else {
                index = nodes.count
                nodes.append(Node(key: key, value: value, previous: -1, next: -1))
            }
        }
        slots[slot] = index + 1
        linkAtFront(index)
    }

    /// Caches `value`, just read from the database after ``value(for:)`` missed it, unless the
    /// cache is full and the entry it would evict (the least recently used) was asked for at
    /// least as often lately (TinyLFU's admission): a scan of more items than the cache holds
    /// then leaves the entries read again and again in place, where a least-recently-used cache
    /// would evict all of them and keep none of the scan, and a miss that is not admitted costs
    /// no insertion and no eviction.
    ///
    /// `value` is evaluated only when admitted: a typed item goes into an `Any` (a box on the heap
    /// for a large struct) only to be kept.
    @usableFromInline
    mutating func admit(_ value: @autoclosure () -> Any, for key: CacheKey) {
        guard limit > 0 else { return }
        if count >= limit, tail >= 0, sketch.frequency(key.hash) <= sketch.frequency(nodes[tail].key.hash) {
            return
        }
        set(value(), for: key)
    }

    @usableFromInline
    mutating func removeValue(for key: CacheKey) {
        let (slot, found) = find(key)
        guard let index = found else { return }
        removeSlot(slot)
        release(index)
    }

    mutating func removeAll(in collection: String) {
        var index = head
        while index >= 0 {
            let next = nodes[index].next
            if nodes[index].key.collection == collection {
                removeValue(for: nodes[index].key)
            }
            index = next
        }
    }

    mutating func removeAll() {
        nodes.removeAll()
        free.removeAll()
        slots.removeAll()
        count = 0
        head = -1
        tail = -1
    }

    // MARK: Table

    /// The slot of `key` and its node index, or the empty slot where it would go.
    private func find(_ key: CacheKey) -> (slot: Int, index: Int?) {
        guard !slots.isEmpty else { return (0, nil) }
        let mask = slots.count - 1
        var slot = key.hash & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return (slot, nil) }
            if nodes[entry - 1].key == key { return (slot, entry - 1) }
            slot = (slot + 1) & mask
        }
    }

    /// Empties `slot`, moving back the entries after it that probing would no longer reach.
    private mutating func removeSlot(_ slot: Int) {
        let mask = slots.count - 1
        var hole = slot
        var next = slot
        while true {
            next = (next + 1) & mask
            let entry = slots[next]
            if entry == 0 { break }
            let home = nodes[entry - 1].key.hash & mask
            // The entry stays where it is when its home slot lies cyclically in (hole, next].
            let staysReachable = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !staysReachable {
                slots[hole] = entry
                hole = next
            }
        }
        slots[hole] = 0
    }

    private mutating func grow() {
        let size = max(16, slots.count * 2)
        slots = Array(repeating: 0, count: size)
        let mask = size - 1
        var index = head
        while index >= 0 {
            var slot = nodes[index].key.hash & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = index + 1
            index = nodes[index].next
        }
    }

    // MARK: Recency list

    private mutating func release(_ index: Int) {
        unlink(index)
        nodes[index].value = ()
        free.append(index)
        count -= 1
    }

    private mutating func moveToFront(_ index: Int) {
        guard head != index else { return }
        unlink(index)
        linkAtFront(index)
    }

    private mutating func unlink(_ index: Int) {
        let previous = nodes[index].previous
        let next = nodes[index].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
        nodes[index].previous = -1
        nodes[index].next = -1
    }

    private mutating func linkAtFront(_ index: Int) {
        nodes[index].previous = -1
        nodes[index].next = head
        if head >= 0 { nodes[head].previous = index }
        head = index
        if tail < 0 { tail = index }
    }
}
