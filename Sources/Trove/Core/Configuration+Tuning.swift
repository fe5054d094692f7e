// Applies the tuning settings of a `Configuration` (page size, memory-mapped I/O, SQLite's page
// cache, write-ahead log) to SQLite handles.

extension Configuration {
    /// Sets the page size of a file about to be created, before anything is written to it.
    ///
    /// - Throws: ``TroveError`` with code ``TroveError/Code/misuse`` when ``pageSize`` is not a
    ///   power of two from 512 to 65,536, or when SQLite fails.
    func applyPageSize(to sqlite: SQLiteConnection) throws {
        guard let pageSize else { return }
        guard (512...65_536).contains(pageSize), pageSize & (pageSize - 1) == 0 else {
            throw TroveError(
                code: .misuse,
                message: "Configuration.pageSize must be a power of two from 512 to 65536, not \(pageSize).",
                path: sqlite.path)
        }
        try sqlite.execute("PRAGMA page_size = \(pageSize)")
    }

    /// Applies the settings of each connection: memory-mapped I/O, SQLite's page cache and the
    /// write-ahead log's checkpoints and size.
    ///
    /// - Throws: ``TroveError`` with code ``TroveError/Code/misuse`` when a setting is negative,
    ///   or when SQLite fails.
    func applyTuning(to sqlite: SQLiteConnection) throws {
        func check(_ value: Int, _ name: String) throws -> Int {
            guard value >= 0 else {
                throw TroveError(
                    code: .misuse, message: "Configuration.\(name) must not be negative, not \(value).", path: sqlite.path)
            }
            return value
        }
        if let mmapSize {
            try sqlite.execute("PRAGMA mmap_size = \(try check(mmapSize, "mmapSize"))")
        }
        if let sqliteCacheSizeKiB {
            // A negative cache_size is a size in KiB, a positive one a number of pages.
            try sqlite.execute("PRAGMA cache_size = -\(try check(sqliteCacheSizeKiB, "sqliteCacheSizeKiB"))")
        }
        if let walAutocheckpointPages {
            try sqlite.execute(
                "PRAGMA wal_autocheckpoint = \(try check(walAutocheckpointPages, "walAutocheckpointPages"))")
        }
        if let journalSizeLimit {
            try sqlite.execute("PRAGMA journal_size_limit = \(try check(journalSizeLimit, "journalSizeLimit"))")
        }
    }
}

extension Connection {
    /// The value of a SQLite `PRAGMA` on this connection's handle, for tests and diagnostics.
    func pragmaValue(_ name: String) throws -> Int64 {
        try lock.withLock(misuse: Connection.flushMisuseMessage) {
            let statement = try core.sqlite.makeStatement("PRAGMA \(name)")
            defer { statement.reset() }
            guard try statement.step() else { return 0 }
            return statement.int64(at: 0)
        }
    }
}

extension ReadTransaction {
    /// The value of a SQLite `PRAGMA` on the handle of this transaction's connection, for tests
    /// and diagnostics (the database's own pool connections included).
    func pragmaValue(_ name: String) throws -> Int64 {
        let statement = try checkedCore.sqlite.makeStatement("PRAGMA \(name)")
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.int64(at: 0)
    }
}
