// Cache control of a connection: flushing on demand, and limits of its own.

extension Connection {
    /// Empties this connection's caches of decoded items and metadata, of the pages of views and
    /// of extensions (``ExtensionConnectionCache``), and finalizes its cached prepared statements, releasing their memory. Call it on memory
    /// pressure; nothing else changes, and the caches fill again as the connection reads.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: nil) { _ in
    ///     connection.flushCaches()
    /// }
    /// ```
    ///
    /// Waits for a transaction of this connection under way to end.
    ///
    /// - Important: Calling it from inside a transaction of the same connection is a programming
    ///   error that stops the program, as nesting transactions is.
    public func flushCaches() {
        lock.withLock(misuse: Connection.flushMisuseMessage) {
            core.items = LRUCache(limit: core.items.limit)
            core.metadata = LRUCache(limit: core.metadata.limit)
            core.viewPages = ViewPageCache()
            core.extensionCaches.removeAll()
            core.extensionStatements.removeAll()
            core.sqlite.removeCachedStatements()
        }
    }

    /// How many decoded items this connection keeps in its cache. Starts at the database's
    /// ``Configuration/itemCacheLimit``; `0` disables the cache.
    ///
    /// Setting it empties the item cache. It waits for a transaction of this connection under
    /// way to end, and must not be set from inside one.
    public var itemCacheLimit: Int {
        get { lock.withLock(misuse: Connection.flushMisuseMessage) { core.items.limit } }
        set { lock.withLock(misuse: Connection.flushMisuseMessage) { core.items = LRUCache(limit: newValue) } }
    }

    /// How many decoded metadata values this connection keeps in its cache. Starts at the
    /// database's ``Configuration/metadataCacheLimit``; `0` disables the cache.
    ///
    /// Setting it empties the metadata cache. It waits for a transaction of this connection under
    /// way to end, and must not be set from inside one.
    public var metadataCacheLimit: Int {
        get { lock.withLock(misuse: Connection.flushMisuseMessage) { core.metadata.limit } }
        set { lock.withLock(misuse: Connection.flushMisuseMessage) { core.metadata = LRUCache(limit: newValue) } }
    }

    /// The number of entries in this connection's item and metadata caches, and of its cached
    /// prepared statements: what ``flushCaches()`` releases.
    public var cacheCounts: (items: Int, metadata: Int, statements: Int) {
        lock.withLock(misuse: Connection.flushMisuseMessage) {
            (core.items.count, core.metadata.count, core.sqlite.cachedStatementCount)
        }
    }

    static let flushMisuseMessage =
        "Trove: the caches of a connection were flushed or resized from inside one of its own transactions."
}

extension Database {
    /// Opens a new connection whose caches hold at most `itemCacheLimit` items and
    /// `metadataCacheLimit` metadata values, instead of the limits of the database's
    /// ``Configuration``: a connection that walks large collections in the background can have a
    /// small cache, and the one of the interface a large one.
    ///
    /// - Parameters:
    ///   - itemCacheLimit: The item cache's limit; `0` disables it.
    ///   - metadataCacheLimit: The metadata cache's limit; `0` disables it.
    /// - Returns: The connection.
    /// - Throws: ``TroveError`` when SQLite cannot open a handle.
    public func newConnection(itemCacheLimit: Int, metadataCacheLimit: Int) throws -> Connection {
        let connection = try newConnection()
        connection.itemCacheLimit = itemCacheLimit
        connection.metadataCacheLimit = metadataCacheLimit
        return connection
    }
}
