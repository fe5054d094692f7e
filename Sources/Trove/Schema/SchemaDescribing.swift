/// A type that describes how it is stored: trove-gen writes this conformance for every
/// `// @persistable` and `// @coded` type.
///
/// The database records the schema of a model when the model is registered
/// (``Database/init(path:configuration:models:extensions:)``,
/// ``Database/register(_:)-(DatabaseExtensionProviding.Type)``),
/// with ``Database/recordSchemas(of:)``, or by the first typed write of the model, inside that
/// write's transaction; once per open and per schema version. Later writes of the model pay one
/// lookup in a set of the connection, and reads never look at it.
public protocol SchemaDescribing {
    /// The schema of this type, without the schemas of the types it refers to.
    static var troveSchema: ModelSchema { get }
    /// The types that the fields of this type refer to and that may describe themselves: the
    /// database follows those that conform to ``SchemaDescribing`` to record their schemas too.
    static var troveSchemaReferences: [Any.Type] { get }
}
