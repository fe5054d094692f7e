/// A model that declares the extensions its items need, such as the secondary index that
/// trove-gen generates from `// @indexed` fields.
///
/// Register every extension of a model with one call, instead of assembling them by hand:
///
/// ```swift
/// let database = try Database(path: path, models: [User.self, Post.self])
/// try database.register(Comment.self)
/// ```
public protocol DatabaseExtensionProviding {
    /// The extensions of this model.
    static var databaseExtensions: [DatabaseExtension] { get }
}

extension Database {
    /// Opens the database at `path`, registers the extensions of `models` in one transaction
    /// (see ``init(path:configuration:extensions:)``) and records the schemas of those that
    /// describe themselves (see ``recordSchemas(of:)``).
    ///
    /// - Parameters:
    ///   - path: The path of the database file. Its folder must exist.
    ///   - configuration: How to open the file and configure connections.
    ///   - models: The models whose extensions to register.
    /// - Throws: What ``init(path:configuration:extensions:)`` throws.
    public convenience init(
        path: String, configuration: Configuration = Configuration(), models: [any DatabaseExtensionProviding.Type]
    ) throws {
        try self.init(path: path, configuration: configuration, extensions: models.flatMap { $0.databaseExtensions })
        try recordSchemas(of: models.compactMap { $0 as? any SchemaDescribing.Type })
    }

    /// Opens a new temporary database (see ``temporary(configuration:extensions:)``) and registers
    /// the extensions of `models`.
    ///
    /// ```swift
    /// let database = try Database.temporary(models: [User.self])
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: How to configure connections.
    ///   - models: The models whose extensions to register.
    /// - Returns: An empty database with the extensions registered.
    /// - Throws: What ``temporary(configuration:extensions:)`` throws.
    public static func temporary(
        configuration: Configuration = Configuration(), models: [any DatabaseExtensionProviding.Type]
    ) throws -> Database {
        let database = try temporary(configuration: configuration, extensions: models.flatMap { $0.databaseExtensions })
        try database.recordSchemas(of: models.compactMap { $0 as? any SchemaDescribing.Type })
        return database
    }

    /// Registers the extensions of `model` on the fly, in one transaction (see
    /// ``register(_:)-(DatabaseExtension)``).
    ///
    /// - Parameter model: The model whose extensions to register.
    /// - Returns: What registering did, for each extension of the model in order.
    /// - Throws: What ``register(_:)-(DatabaseExtension)`` throws.
    @discardableResult
    public func register(_ model: any DatabaseExtensionProviding.Type) throws -> [ExtensionRegistration] {
        let registrations = try register(model.databaseExtensions)
        if let describing = model as? any SchemaDescribing.Type {
            try recordSchemas(of: [describing])
        }
        return registrations
    }
}
