internal import TroveCSQLite

/// The tables a statement may use, checked by SQLite's authorizer while the statement is
/// prepared: what keeps an extension's SQL (``ExtensionContext``) on its own tables, inside the
/// transaction that runs it.
struct TableAccess {
    /// The tables the statement may read (and write, unless ``readOnly``); a table named after
    /// one of them followed by `_` (a virtual table's shadow table) is allowed too.
    var tables: [String]
    /// Whether the statement may only read.
    var readOnly: Bool

    /// Whether `table` is one of ``tables`` or a shadow table of one.
    func owns(_ table: String) -> Bool {
        tables.contains { own in
            table == own || (table.hasPrefix(own) && table.utf8.dropFirst(own.utf8.count).first == UInt8(ascii: "_"))
        }
    }

    /// Whether `table` is a shadow table of one of ``tables`` (named after it, then `_`), and
    /// not one of them.
    func ownsAsShadow(_ table: String) -> Bool {
        !tables.contains(table) && owns(table)
    }

    /// `nil` when SQLite may do `action` with its arguments, else what was refused, in words.
    func refusal(action: Int32, _ first: String?, _ second: String?) -> String? {
        // SQLite's own schema table: a statement that creates or drops a table writes it, and
        // SQLite refuses a direct write to it by itself.
        let isSchema = first == "sqlite_master" || first == "sqlite_schema"
        switch action {
        case SQLITE_SELECT, SQLITE_FUNCTION, SQLITE_RECURSIVE:
            return nil
        case SQLITE_READ:
            guard let first, owns(first) || isSchema else { return "it reads the table '\(first ?? "?")'" }
            return nil
        case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
            // A virtual table prepares its own statements on its shadow tables, writes included,
            // when a connection first opens it, inside the preparation of a statement that only
            // reads it (an R*Tree's query on a read connection): those are let through here, and
            // a read-only statement is checked to write nothing once prepared
            // (``SQLiteConnection/makeStatement(_:limitedTo:)``).
            if readOnly, !isSchema, !(first.map(ownsAsShadow) ?? false) { return "it writes in a read transaction" }
            guard let first, owns(first) || isSchema else { return "it writes the table '\(first ?? "?")'" }
            return nil
        case SQLITE_CREATE_TABLE, SQLITE_DROP_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE:
            if readOnly { return "it changes the schema in a read transaction" }
            guard let first, owns(first) else { return "it creates or drops the table '\(first ?? "?")'" }
            return nil
        case SQLITE_CREATE_INDEX, SQLITE_DROP_INDEX, SQLITE_ALTER_TABLE:
            if readOnly { return "it changes the schema in a read transaction" }
            guard let second, owns(second) else { return "it changes the table '\(second ?? "?")'" }
            return nil
        case SQLITE_REINDEX, SQLITE_ANALYZE:
            return readOnly ? "it changes the schema in a read transaction" : nil
        case SQLITE_PRAGMA:
            // A virtual table (R*Tree) reads the page size when it is created.
            return first == "page_size" && second == nil ? nil : "it runs the pragma '\(first ?? "?")'"
        case SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
            return "it begins or ends a transaction, which belongs to Trove"
        case SQLITE_ATTACH, SQLITE_DETACH:
            return "it attaches or detaches a database"
        default:
            return "it creates or drops a trigger, a view or a temporary object"
        }
    }
}

/// What the authorizer callback reads and writes while a statement is prepared.
private final class TableAccessCheck {
    let access: TableAccess
    var refusal: String?

    init(access: TableAccess) {
        self.access = access
    }
}

extension SQLiteConnection {
    /// Prepares a statement that is not cached, which may use only what `access` allows.
    ///
    /// - Returns: The statement, or what `access` refused in it, in words.
    /// - Throws: ``TroveError`` when the SQL does not compile for another reason.
    func makeStatement(_ sql: String, limitedTo access: TableAccess) throws -> Result<Statement, Refusal> {
        let check = TableAccessCheck(access: access)
        let context = Unmanaged.passUnretained(check).toOpaque()
        let authorize: @convention(c) (
            UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafePointer<CChar>?
        ) -> Int32 = { context, action, first, second, _, _ in
            guard let context else { return SQLITE_DENY }
            let check = Unmanaged<TableAccessCheck>.fromOpaque(context).takeUnretainedValue()
            guard
                let refusal = check.access.refusal(
                    action: action, first.map { String(cString: $0) }, second.map { String(cString: $0) })
            else { return SQLITE_OK }
            if check.refusal == nil { check.refusal = refusal }
            return SQLITE_DENY
        }
        let code = sqlite3_set_authorizer(handle, authorize, context)
        guard code == SQLITE_OK else { throw error(code: code, sql: sql) }
        defer { sqlite3_set_authorizer(handle, nil, nil) }
        do {
            let statement = try withExtendedLifetime(check) { try makeStatement(sql) }
            // What the authorizer let through for a virtual table's own statements must not make
            // a read-only statement write.
            if access.readOnly, sqlite3_stmt_readonly(statement.pointer) == 0 {
                return .failure(Refusal(reason: "it writes in a read transaction"))
            }
            return .success(statement)
        } catch {
            if let refusal = check.refusal { return .failure(Refusal(reason: refusal)) }
            throw error
        }
    }

    /// What ``makeStatement(_:limitedTo:)`` refused, in words ("it reads the table 'x'").
    struct Refusal: Error {
        var reason: String
    }
}
