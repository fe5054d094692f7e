/// An error thrown by Trove: what failed, as a sentence, and where.
///
/// Every error carries a ``Code`` to match on, a ``message`` that reads as a sentence, and as
/// much of the location as is known: the path of the file, the collection and key of the item,
/// the field of the model, the extension, and SQLite's result code. Neither the message nor the
/// ``description`` shows Trove's SQL or table names: they say what is wrong in words.
///
/// ```swift
/// do {
///     let user = try tx.read(User.self, key: id)
/// } catch let error as TroveError where error.code == .corruptData {
///     print(error.collection ?? "", error.key ?? "", error.field ?? "")
/// }
/// ```
public struct TroveError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public var code: Code
    /// What failed, as a sentence.
    public var message: String
    /// The collection of the item involved, if any.
    public var collection: String?
    /// The key of the item involved, if any.
    public var key: String?
    /// The field of the model involved, if any (for example the field that failed to decode).
    public var field: String?
    /// The key of another item involved, if any: for ``Code/uniqueViolation``, the item of the same
    /// collection that already holds the value.
    public var otherKey: String?
    /// The name of the database extension involved, if any (for example the index whose unique
    /// column a write would break).
    public var extensionName: String?
    /// The SQL statement that failed, if any: for debugging only.
    ///
    /// It is never shown in ``message`` or ``description``: Trove's statements and tables are
    /// internal, change between versions, and a user never needs them to understand an error.
    /// Log it yourself when you report a bug in Trove.
    public var sql: String?
    /// The path of the database file involved, if any.
    public var path: String?
    /// SQLite's extended result code, when SQLite reported the failure.
    public var sqliteResultCode: Int32?
    /// The error that caused this one, if any.
    public var underlyingError: (any Error)?
    /// SQLite's own text of the failure (`sqlite3_errmsg`), for the few callers that word it
    /// themselves (a full-text query's syntax error). Not shown in ``description``.
    var sqliteMessage: String?

    /// Creates an error. Prefer the static factories, which fill in a consistent message.
    ///
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - message: What failed, as a sentence.
    ///   - collection: The collection of the item involved.
    ///   - key: The key of the item involved.
    ///   - field: The field of the model involved.
    ///   - extensionName: The name of the database extension involved.
    ///   - sql: The SQL statement that failed, for debugging only (never shown).
    ///   - path: The path of the database file involved.
    ///   - sqliteResultCode: SQLite's extended result code.
    ///   - underlyingError: The error that caused this one.
    public init(
        code: Code,
        message: String,
        collection: String? = nil,
        key: String? = nil,
        field: String? = nil,
        extensionName: String? = nil,
        sql: String? = nil,
        path: String? = nil,
        sqliteResultCode: Int32? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.collection = collection
        self.key = key
        self.field = field
        self.extensionName = extensionName
        self.sql = sql
        self.path = path
        self.sqliteResultCode = sqliteResultCode
        self.underlyingError = underlyingError
    }

    /// A one-line description: the code, the message and every known part of the location.
    ///
    /// Names are quoted and escaped as Swift string literals (a key holding a NUL character
    /// prints as `"a\0b"`), and shortened in the middle past 200 characters. The SQL statement
    /// (``sql``) is never part of it.
    public var description: String {
        var parts = ["TroveError.\(code): \(message)"]
        if let collection { parts.append("collection: \(Self.quoted(collection))") }
        if let key { parts.append("key: \(Self.quoted(key))") }
        if let field { parts.append("field: \(Self.quoted(field))") }
        if let extensionName { parts.append("extension: \(Self.quoted(extensionName))") }
        if let sqliteResultCode { parts.append("SQLite code: \(sqliteResultCode)") }
        if let path { parts.append("path: \(path)") }
        if let underlyingError { parts.append("caused by: \(underlyingError)") }
        return parts.joined(separator: "; ")
    }

    /// `name` as a Swift string literal, shortened in the middle when it is long.
    static func quoted(_ name: String) -> String {
        abbreviated(name).debugDescription
    }

    /// `name`, or its first and last characters around the count of bytes left out when it is
    /// longer than 200 characters: a key of a megabyte must not make a megabyte of message.
    static func abbreviated(_ name: String) -> String {
        guard name.utf8.count > 200 else { return name }
        let head = name.prefix(100)
        let tail = name.suffix(60)
        let omitted = name.utf8.count - head.utf8.count - tail.utf8.count
        return "\(head)…(\(omitted) bytes)…\(tail)"
    }
}

extension TroveError {
    /// The kind of a ``TroveError``.
    ///
    /// A struct over a private enumeration, so that adding a code in a later version breaks no
    /// exhaustive `switch` in user code. Compare codes with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case sqlite
            case notADatabase
            case corruptDatabase
            case unsupportedSchemaVersion
            case corruptData
            case encodingFailed
            case invalidKey
            case readOnly
            case misuse
            case extensionFailed
            case uniqueViolation
            case cancelled
            case nestedUnknownFields
            case invalidSearchQuery
            case server
            case writeConflict
            case overflow
            case unauthorized
            case encryptionKey
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// SQLite reported an error (see ``TroveError/sqliteResultCode``).
        public static let sqlite = Code(.sqlite)
        /// The file is not a SQLite database, or is a SQLite database that Trove does not own.
        public static let notADatabase = Code(.notADatabase)
        /// SQLite found the database file damaged (`SQLITE_CORRUPT`, or `SQLITE_NOTADB` in a file
        /// that opened as a database): a page or an index does not hold what it should; or Trove
        /// found its own records contradicting each other (a view that lists an item its
        /// collection does not have). The message names the file, and the collection and key
        /// being read when known. Committed data elsewhere in the file may still be readable;
        /// ``Database/integrityCheck()`` (`trove check`) lists what SQLite finds.
        public static let corruptDatabase = Code(.corruptDatabase)
        /// The file was written by a newer version of Trove, whose schema this version cannot read.
        public static let unsupportedSchemaVersion = Code(.unsupportedSchemaVersion)
        /// Stored bytes could not be decoded: truncated, extended, or of another type.
        public static let corruptData = Code(.corruptData)
        /// A value could not be encoded.
        public static let encodingFailed = Code(.encodingFailed)
        /// A stored key could not be converted to the model's key type.
        public static let invalidKey = Code(.invalidKey)
        /// A write was attempted where only reads are allowed.
        public static let readOnly = Code(.readOnly)
        /// The API was used in a way it does not support.
        public static let misuse = Code(.misuse)
        /// A database extension failed to register or to update.
        public static let extensionFailed = Code(.extensionFailed)
        /// A write would store a value that another item already has in a unique column of a
        /// secondary index; the transaction is rolled back.
        public static let uniqueViolation = Code(.uniqueViolation)
        /// The operation was cancelled. Trove's `async` transactions do not use it: a cancelled
        /// task makes them throw `CancellationError`, as Swift concurrency's own functions do.
        public static let cancelled = Code(.cancelled)
        /// A typed write was refused because the stored item (or its metadata) holds fields that
        /// this version of the model does not know inside a field that it does know (a field
        /// added to a `@coded` type by a newer version): the new value would lose them.
        ///
        /// Unknown fields of the item itself are kept by typed writes; unknown fields nested in a
        /// known field cannot be. ``TroveError/field`` names the path of the known field that
        /// holds them (`address`, `metadata.stats`). To replace the item anyway, remove it first,
        /// or update the app that reads it with the newer model.
        public static let nestedUnknownFields = Code(.nestedUnknownFields)
        /// A full-text search query is not valid FTS5 syntax (an unbalanced quote or parenthesis,
        /// an operator without an operand, an unknown column filter). The message names the query
        /// and SQLite's explanation. Queries built with ``SearchQuery/prefixes(of:)`` never are.
        public static let invalidSearchQuery = Code(.invalidSearchQuery)
        /// A database server (TrovePostgres) refused a statement, could not be reached, refused
        /// the credentials, or lost the connection; or a sync server (TroveSync) could not be
        /// reached or failed to answer. The message says which, with the server's SQLSTATE or HTTP
        /// status where it sent one.
        public static let server = Code(.server)
        /// A read-write transaction on a database server (TrovePostgres) kept conflicting with
        /// concurrent transactions (serialization failures or deadlocks) and gave up after its
        /// retries. Nothing of it was committed.
        public static let writeConflict = Code(.writeConflict)
        /// A number does not fit its type: the sum of an integer column of a secondary index
        /// (``IndexQuery/sum(of:)``) beyond `Int`'s 64 bits. The message names the index and the
        /// column.
        public static let overflow = Code(.overflow)
        /// A sync server (TroveSync) refused the request: the credentials are missing, expired or
        /// wrong (HTTP 401), or they do not grant the partition (HTTP 403). The message says which.
        public static let unauthorized = Code(.unauthorized)
        /// The file is encrypted and was opened without its key or with another one, or a key was
        /// given for a file that is not encrypted (``Configuration/encryptionKey``). Nothing was
        /// written to the file.
        public static let encryptionKey = Code(.encryptionKey)

        /// The name of the code, such as `corruptData`.
        public var description: String { kind.rawValue }
    }
}

// MARK: - Factories

extension TroveError {
    /// Stored bytes could not be decoded.
    ///
    /// - Parameters:
    ///   - reason: What was wrong with the bytes, as a sentence fragment ("truncated varint").
    ///   - field: The field being decoded, if known.
    /// - Returns: An error of code ``Code/corruptData``.
    public static func corruptData(_ reason: String, field: String? = nil) -> TroveError {
        TroveError(code: .corruptData, message: "Cannot decode stored bytes: \(reason).", field: field)
    }

    /// A value could not be encoded.
    ///
    /// - Parameters:
    ///   - reason: Why encoding failed.
    ///   - field: The field being encoded, if known.
    ///   - underlyingError: The error of the encoder, if any.
    /// - Returns: An error of code ``Code/encodingFailed``.
    public static func encodingFailed(
        _ reason: String,
        field: String? = nil,
        underlyingError: (any Error)? = nil
    ) -> TroveError {
        TroveError(
            code: .encodingFailed, message: "Cannot encode value: \(reason).", field: field,
            underlyingError: underlyingError)
    }

    /// Returns this error with the collection and key filled in where they are not yet known.
    ///
    /// The typed layer uses it to say which item a decoding error belongs to.
    ///
    /// - Parameters:
    ///   - collection: The collection of the item.
    ///   - key: The key of the item.
    /// - Returns: A copy of this error that names the item.
    public func locating(collection: String, key: String) -> TroveError {
        var copy = self
        if copy.collection == nil { copy.collection = collection }
        if copy.key == nil { copy.key = key }
        return copy
    }

    /// Returns this error with the field prefixed by an enclosing field (`address.city`).
    ///
    /// Generated coders call it when a nested value fails to decode, so that the error names
    /// the whole path to the failing field.
    ///
    /// - Parameter enclosingField: The name of the field that holds the nested value.
    /// - Returns: A copy of this error whose ``field`` starts with `enclosingField`.
    public func nested(in enclosingField: String) -> TroveError {
        var copy = self
        if let field = copy.field {
            copy.field = field.hasPrefix("[") ? enclosingField + field : enclosingField + "." + field
        } else {
            copy.field = enclosingField
        }
        return copy
    }

    /// Makes any error of a coder a ``TroveError`` that names the item.
    ///
    /// `field` (`"metadata"`) prefixes the path of the field that failed inside the value, so
    /// that `metadata.history` is not mistaken for a field `history` of the item. An error that is
    /// not a ``TroveError`` becomes ``Code/corruptData`` when decoding, ``Code/encodingFailed``
    /// when encoding. (Package access: TrovePostgres's coders fail with the same errors.)
    package static func coderFailure(
        _ error: any Error, decoding: Bool, collection: String, key: String, field: String?
    ) -> TroveError {
        if var troveError = error as? TroveError {
            if let field { troveError = troveError.nested(in: field) }
            return troveError.locating(collection: collection, key: key)
        }
        return TroveError(
            code: decoding ? .corruptData : .encodingFailed,
            message: decoding ? "Cannot decode stored bytes: \(error)." : "Cannot encode the item: \(error).",
            collection: collection, key: key, field: field, underlyingError: error)
    }

    static func misuse(_ message: String) -> TroveError {
        TroveError(code: .misuse, message: message)
    }

    /// The message of a ``Code/corruptDatabase`` error: the file is damaged, what was being read,
    /// and what to do.
    static func damagedFileMessage(path: String, collection: String?, key: String?) -> String {
        var reading = ""
        if let collection {
            reading =
                key.map { " while reading the item \(quoted($0)) of the collection \(quoted(collection))" }
                ?? " while reading the collection \(quoted(collection))"
        }
        return
            "The database file '\(path)' is damaged: SQLite found a page that does not hold what it should\(reading). The rest of the file may still be readable: run `trove check '\(path)'` to list the damage, or restore a backup."
    }

    /// Returns this error with the item being read or written filled in where it is not yet
    /// known: an error of SQLite names the file only, its callers know the item. A
    /// ``Code/corruptDatabase`` message is worded again to name it.
    ///
    /// - Parameters:
    ///   - collection: The collection being read or written.
    ///   - key: The key of the item, when one item is.
    /// - Returns: A copy of this error that names the item.
    func involving(collection: String, key: String?) -> TroveError {
        guard self.collection == nil, sqliteResultCode != nil else { return self }
        var copy = self
        copy.collection = collection
        copy.key = key
        if code == .corruptDatabase, let path {
            copy.message = Self.damagedFileMessage(path: path, collection: collection, key: key)
        }
        return copy
    }
}
