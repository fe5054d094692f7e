/// A least-recently-used cache of decoded values, keyed by collection and key.
///
/// Lookups, insertions and removals are O(1); removing a whole collection is O(n) in the
/// number of cached entries. Entries live in one array linked by indices, so the cache makes no
/// allocation per entry once it has reached its limit.
///
/// Not thread-safe: each ``Connection`` owns its caches and uses them under its lock.
struct LRUCache {
    private struct Node {
        var key: CacheKey
        var value: Any
        var previous: Int
        var next: Int
    }

    /// The most entries the cache holds. `0` disables it.
    let limit: Int
    private var indices: [CacheKey: Int] = [:]
    private var nodes: [Node] = []
    private var free: [Int] = []
    private var head = -1  // most recently used
    private var tail = -1  // least recently used

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    var count: Int { indices.count }

    /// The cached value, marked as most recently used.
    mutating func value(for key: CacheKey) -> Any? {
        guard let index = indices[key] else { return nil }
        moveToFront(index)
        return nodes[index].value
    }

    /// Caches `value`, evicting the least recently used entry when full.
    mutating func set(_ value: Any, for key: CacheKey) {
        guard limit > 0 else { return }
        if let index = indices[key] {
            nodes[index].value = value
            moveToFront(index)
            return
        }
        let index: Int
        if indices.count >= limit, tail >= 0 {
            index = tail
            unlink(index)
            indices.removeValue(forKey: nodes[index].key)
            nodes[index] = Node(key: key, value: value, previous: -1, next: -1)
        } else if let reused = free.popLast() {
            index = reused
            nodes[index] = Node(key: key, value: value, previous: -1, next: -1)
        } else {
            index = nodes.count
            nodes.append(Node(key: key, value: value, previous: -1, next: -1))
        }
        indices[key] = index
        linkAtFront(index)
    }

    mutating func removeValue(for key: CacheKey) {
        guard let index = indices.removeValue(forKey: key) else { return }
        release(index)
    }

    mutating func removeAll(in collection: String) {
        let keys = indices.keys.filter { $0.collection == collection }
        for key in keys {
            removeValue(for: key)
        }
    }

    mutating func removeAll() {
        indices.removeAll()
        nodes.removeAll()
        free.removeAll()
        head = -1
        tail = -1
    }

    private mutating func release(_ index: Int) {
        unlink(index)
        nodes[index].value = ()
        free.append(index)
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
