import Foundation
import NIOCore
import Trove

/// How far a ``PostgresStore/copy(from:batchSize:progress:)`` has come.
public struct PostgresCopyProgress: Sendable, Hashable {
    /// The items copied so far.
    public var copiedItems: Int
    /// The items of the Trove file when the copy started.
    public var totalItems: Int
    /// The collection being copied.
    public var collection: String
}

extension PostgresStore {
    /// Copies every item and its metadata from a Trove file into this store, with the rows of the
    /// indexes and the edges of the relationships this store keeps: the way to move an app from one machine to PostgreSQL.
    ///
    /// Each batch is one read transaction of the file and one read-write transaction of the store
    /// that writes its items over whatever is at their keys, so a copy is idempotent: when it
    /// stops half-way (a crash, a lost connection), running it again finishes it. Items of the
    /// store that the file does not have are left alone. The bytes are copied as they are: no
    /// model type is needed, and fields unknown to this version of the app are kept.
    ///
    /// ```swift
    /// let file = try Database(path: "app.trove")
    /// try await store.copy(from: file) { print("\($0.copiedItems) of \($0.totalItems)") }
    /// ```
    ///
    /// - Parameters:
    ///   - database: The Trove file to copy from.
    ///   - batchSize: How many items each transaction copies.
    ///   - progress: Called after each batch.
    /// - Returns: The number of items copied.
    /// - Throws: ``/Trove/TroveError`` when the file or the server fails; the batches before stay copied.
    @discardableResult
    public func copy(
        from database: Database, batchSize: Int = 500, progress: (PostgresCopyProgress) -> Void = { _ in }
    ) async throws -> Int {
        let collections = try await database.read { tx in
            try tx.collections().map { ($0, try tx.count(in: $0)) }
        }
        let total = collections.reduce(0) { $0 + $1.1 }
        var copied = 0
        for (collection, _) in collections {
            let keys = try await database.read { tx in try tx.keys(in: collection) }
            var start = 0
            while start < keys.count {
                let batch = Array(keys[start..<min(keys.count, start + max(1, batchSize))])
                let rows = try await database.read { tx in
                    try batch.compactMap { key -> (String, Data, Data?)? in
                        guard let row = try tx.dataAndMetadata(forKey: key, in: collection) else { return nil }
                        return (key, row.data, row.metadata)
                    }
                }
                try await write { tx in
                    for (key, data, metadata) in rows {
                        let dataBuffer = ByteBuffer(bytes: data)
                        let metadataBuffer = metadata.map { ByteBuffer(bytes: $0) }
                        try await tx.setRawData(dataBuffer, metadata: metadataBuffer, forKey: key, in: collection)
                        for kept in writeFollowers[collection] ?? [] {
                            try await kept.store(key: key, data: dataBuffer, metadata: metadataBuffer, in: tx)
                        }
                    }
                }
                copied += rows.count
                start += batch.count
                progress(PostgresCopyProgress(copiedItems: copied, totalItems: total, collection: collection))
            }
        }
        return copied
    }
}
