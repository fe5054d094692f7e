/// An extension of a database: a structure kept in the same file as the items and updated by
/// every write inside the same transaction, such as a ``SecondaryIndex``.
///
/// Extensions are registered by name, with a version:
///
/// ```swift
/// let byAge = SecondaryIndex<User>("users_by_age", columns: [.column("age") { $0.age }])
/// let database = try Database(path: path, extensions: [byAge.databaseExtension])
/// ```
///
/// - **Persistent**: the extension's tables are in the file. Registering the same name, version
///   and definition on a later open does no work proportional to the data.
/// - **Versioned**: a new version, or a changed definition, drops and rebuilds it.
/// - **Transactional**: every write reaches it inside the write transaction, typed or untyped, and
///   a registration (which fills it from the items) is one transaction: a process killed while
///   it runs leaves no half-built extension.
///
/// An extension registered in the file that no longer is registered when the database opens is
/// an *orphan*. Trove does not drop it, since another process on the same file may still use it:
/// every write of this `Database` to the orphan's collection marks it stale in the file, and
/// whoever registers it next rebuilds it. ``Database/unregister(_:)`` drops an extension.
public struct DatabaseExtension: Sendable {
    /// The name of the extension, unique in the file: letters, digits and underscores.
    public let name: String
    /// The version of the extension's definition: registering another version rebuilds it.
    public let version: Int
    /// What the extension does: its tables, and how it follows the writes.
    public let implementation: any ExtensionImplementation

    /// An extension named `name`, at `version`, that `implementation` defines: a built-in one
    /// (``SecondaryIndex/databaseExtension`` and the like make it), or one of your own (see
    /// ``ExtensionImplementation``).
    ///
    /// - Parameters:
    ///   - name: The name of the extension, unique in the file: 1 to 64 ASCII letters, digits and
    ///     underscores.
    ///   - version: The version of its definition: registering another one rebuilds it.
    ///   - implementation: What the extension does.
    public init(name: String, version: Int, implementation: any ExtensionImplementation) {
        self.name = name
        self.version = version
        self.implementation = implementation
    }

    /// The collection whose items the extension follows.
    public var collection: String {
        implementation.collection
    }

    /// Throws when a table of `implementation` cannot be the table of the extension `name`: each
    /// must begin with `trove_ext_` and the name, then `_` or `$` when more follows, so that no
    /// extension reaches Trove's tables.
    static func validateTables(of implementation: any ExtensionImplementation, name: String) throws {
        let prefix = "trove_ext_\(name)"
        for table in implementation.tableNames(name: name) {
            let rest = table.utf8.dropFirst(prefix.utf8.count)
            guard table.hasPrefix(prefix), rest.isEmpty || rest.first == UInt8(ascii: "_") || rest.first == UInt8(ascii: "$"),
                table.utf8.allSatisfy({ $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'") })
            else {
                throw TroveError(
                    code: .extensionFailed,
                    message:
                        "The extension '\(name)' names the table '\(table)': the name of each table of an extension begins with '\(prefix)' (followed by nothing, or by '_' or '$' and more), without quotes.",
                    extensionName: name)
            }
        }
    }

    /// Throws when `name` cannot name an extension.
    static func validate(name: String) throws {
        let isValid =
            !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            }
        guard isValid else {
            throw TroveError(
                code: .extensionFailed,
                message:
                    "'\(name)' cannot name an extension: use 1 to 64 ASCII letters, digits and underscores.")
        }
    }
}
