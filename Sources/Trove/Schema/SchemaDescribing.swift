/// A type that describes how it is stored: trove-gen writes this conformance for every
/// `// @persistable` and `// @coded` type.
///
/// The database records the schema of a model when the model is registered
/// (``Database/init(path:configuration:models:)``, ``Database/register(_:)-(any DatabaseExtensionProviding.Type)``)
/// or with ``Database/recordSchemas(of:)``, once per open and per schema version; nothing on the
/// paths of reads and writes looks at it.
public protocol SchemaDescribing {
    /// The schema of this type, without the schemas of the types it refers to.
    static var troveSchema: ModelSchema { get }
    /// The types that the fields of this type refer to and that may describe themselves: the
    /// database follows those that conform to ``SchemaDescribing`` to record their schemas too.
    static var troveSchemaReferences: [Any.Type] { get }
}
