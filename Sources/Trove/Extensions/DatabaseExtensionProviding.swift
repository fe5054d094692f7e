/// A model that declares the extensions its items need, such as the secondary index that
/// trove-gen generates from `// @indexed` fields.
///
/// Register every extension of a model with one call, instead of assembling them by hand:
///
/// ```swift
/// let database = try Database(path: path, models: [User.self, Post.self])
/// try database.register(Comment.self)
/// ```
///
/// A list of models is written `[any Persistable.Type]`, which is what
/// ``Database/init(path:configuration:models:extensions:)`` takes: a model that provides no
/// extension belongs in it too.
///
/// The protocol refines `Sendable`, as ``Persistable`` does, so that the metatype of a conformer,
/// `any DatabaseExtensionProviding.Type`, can be shared across concurrency domains (held in a
/// `static let`, for one).
public protocol DatabaseExtensionProviding: Sendable {
    /// The extensions of this model.
    static var databaseExtensions: [DatabaseExtension] { get }
}

extension Database {
    /// Registers, as a database opens, the extensions of the `models` that provide some and
    /// `extensions` after them, in one transaction, then records the schemas of the models that
    /// describe one (see ``init(path:configuration:models:extensions:)``).
    func registerAtOpen(models: [any Persistable.Type], extensions: [DatabaseExtension]) throws {
        let all = models.flatMap { ($0 as? any DatabaseExtensionProviding.Type)?.databaseExtensions ?? [] } + extensions
        if !all.isEmpty {
            try register(all)
        }
        let describing = models.compactMap { $0 as? any SchemaDescribing.Type }
        if !describing.isEmpty {
            try recordSchemas(of: describing)
        }
    }

    /// Registers the extensions of `model` on the fly, in one transaction (see
    /// ``register(_:)-(DatabaseExtension)``), and records its schema when it describes one.
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
