import Foundation

// How a recorded schema names the stored types of fields and the formats of items, read from the
// Swift types themselves rather than from the text of the declarations.
//
// trove-gen sees text: a field written `Project.ID` or `Tags` is a typealias whose target may be
// declared in a file with no annotation, in another module, or not at all (the `ID` that Swift
// infers for an `Identifiable` type). The Swift type knows, so the generated schema hands it to
// ``ModelSchema/Field/init(number:name:type:swiftType:isOptional:index:)`` and the runtime
// records the resolved name, in the notation tools read: `String`, `[String]`, `[String: Int]`,
// `Set<UUID>`, `Int?`, and an annotated type by its qualified name, as its own schema has it.
//
// The format of an item's bytes is recorded the same way, from its coder (see
// ``SchemaTypeName/formats(of:)``): the bytes of a ``CodableCoder`` are JSON, and without the
// schema saying so a tool reading them as a binary message finds "unknown wire type 3" in every
// item. (A file whose items have no recorded schema still tells: a binary message never starts
// with `{` or `[`, whose low three bits are the wire type 3 that Trove's format does not use. The
// `trove` command reads such an item as JSON; a schema also covers JSON that is not an object.)

/// Names a Swift type as a recorded schema does.
enum SchemaTypeName {
    /// The format recorded for values stored as JSON.
    static let json = "json"

    /// The name of `type` with every typealias resolved, or `nil` when the runtime does not
    /// encode the type itself in its binary format (a `Codable` fallback, stored as JSON) or
    /// Swift does not give it a usable name.
    static func of(_ type: Any.Type) -> String? {
        if let named = type as? any SchemaTypeNaming.Type {
            return named.schemaTypeName
        }
        if type is any SchemaDescribing.Type {
            return qualifiedName(of: type)
        }
        if let rawRepresentable = type as? any RawRepresentable.Type, type is any BinaryCodable.Type {
            // Stored by its raw value (`RawRepresentable+BinaryCodable`).
            return rawValueName(of: rawRepresentable)
        }
        return nil
    }

    /// How a field of `type` is stored: `nil` for Trove's binary format, ``json`` for a type that
    /// only `Codable` encodes (the generated coders choose the JSON fallback exactly then).
    static func format(of type: Any.Type) -> String? {
        type is any BinaryCodable.Type ? nil : json
    }

    /// The formats of the items and the metadata of `model`, when it is a ``Persistable`` type:
    /// ``json`` for a ``CodableCoder``, `nil` for Trove's binary messages.
    static func formats(of model: Any.Type) -> (item: String?, metadata: String?) {
        guard let persistable = model as? any Persistable.Type else { return (nil, nil) }
        return coderFormats(of: persistable)
    }

    private static func coderFormats<Model: Persistable>(of model: Model.Type) -> (item: String?, metadata: String?) {
        (
            Model.Coder.self is any JSONStoredCoder.Type ? json : nil,
            Model.MetadataCoder.self is any JSONStoredCoder.Type ? json : nil
        )
    }

    /// The name of the raw-value type of `type`, when it is `RawRepresentable` (resolved as
    /// ``of(_:)`` resolves it), or `nil`.
    static func rawValueType(of type: Any.Type) -> String? {
        guard let rawRepresentable = type as? any RawRepresentable.Type else { return nil }
        return rawValueName(of: rawRepresentable)
    }

    /// The name of the raw value of `type`.
    private static func rawValueName<Value: RawRepresentable>(of type: Value.Type) -> String? {
        of(Value.RawValue.self)
    }

    /// The name of a type declared in a module, without the module: `Library.Author` for
    /// `Models.Library.Author`, the name trove-gen gives the type's schema. `nil` for a name Swift
    /// writes with a context that is not a type (a private or local declaration).
    static func qualifiedName(of type: Any.Type) -> String? {
        let reflected = String(reflecting: type)
        guard !reflected.contains("("), let dot = reflected.firstIndex(of: ".") else { return nil }
        return String(reflected[reflected.index(after: dot)...])
    }
}

/// A coder whose bytes are JSON: the schema of a model coded by it records ``SchemaTypeName/json``.
protocol JSONStoredCoder {}

extension CodableCoder: JSONStoredCoder {}

/// A type whose encoding the runtime defines, named in schemas as Swift writes it.
///
/// The collections name their elements through ``SchemaTypeName/of(_:)``, so that `[Author]`
/// names the annotated `Author` and `[Point]`, where `Point` is only `Codable`, has no name: such
/// a collection is stored as JSON as a whole.
protocol SchemaTypeNaming {
    /// The name, or `nil` when the type is not encoded in Trove's binary format.
    static var schemaTypeName: String? { get }
    /// The types of the elements of a collection or optional, whose schemas a schema that
    /// refers to it records too: a field of type `Milestones`, a typealias of `[Milestone]`,
    /// refers to `Milestone`.
    static var elementTypes: [Any.Type] { get }
}

extension SchemaTypeNaming {
    static var elementTypes: [Any.Type] { [] }
}

extension Bool: SchemaTypeNaming { static var schemaTypeName: String? { "Bool" } }
extension String: SchemaTypeNaming { static var schemaTypeName: String? { "String" } }
extension Int: SchemaTypeNaming { static var schemaTypeName: String? { "Int" } }
extension Int8: SchemaTypeNaming { static var schemaTypeName: String? { "Int8" } }
extension Int16: SchemaTypeNaming { static var schemaTypeName: String? { "Int16" } }
extension Int32: SchemaTypeNaming { static var schemaTypeName: String? { "Int32" } }
extension Int64: SchemaTypeNaming { static var schemaTypeName: String? { "Int64" } }
extension UInt: SchemaTypeNaming { static var schemaTypeName: String? { "UInt" } }
extension UInt8: SchemaTypeNaming { static var schemaTypeName: String? { "UInt8" } }
extension UInt16: SchemaTypeNaming { static var schemaTypeName: String? { "UInt16" } }
extension UInt32: SchemaTypeNaming { static var schemaTypeName: String? { "UInt32" } }
extension UInt64: SchemaTypeNaming { static var schemaTypeName: String? { "UInt64" } }
extension Float: SchemaTypeNaming { static var schemaTypeName: String? { "Float" } }
extension Double: SchemaTypeNaming { static var schemaTypeName: String? { "Double" } }
extension Data: SchemaTypeNaming { static var schemaTypeName: String? { "Data" } }
extension Date: SchemaTypeNaming { static var schemaTypeName: String? { "Date" } }
extension UUID: SchemaTypeNaming { static var schemaTypeName: String? { "UUID" } }
extension URL: SchemaTypeNaming { static var schemaTypeName: String? { "URL" } }
extension Decimal: SchemaTypeNaming { static var schemaTypeName: String? { "Decimal" } }

extension Array: SchemaTypeNaming {
    static var schemaTypeName: String? { SchemaTypeName.of(Element.self).map { "[\($0)]" } }
    static var elementTypes: [Any.Type] { [Element.self] }
}

extension Set: SchemaTypeNaming {
    static var schemaTypeName: String? { SchemaTypeName.of(Element.self).map { "Set<\($0)>" } }
    static var elementTypes: [Any.Type] { [Element.self] }
}

extension Dictionary: SchemaTypeNaming {
    static var schemaTypeName: String? {
        guard let key = SchemaTypeName.of(Key.self), let value = SchemaTypeName.of(Value.self) else { return nil }
        return "[\(key): \(value)]"
    }
    static var elementTypes: [Any.Type] { [Key.self, Value.self] }
}

extension Optional: SchemaTypeNaming {
    static var schemaTypeName: String? { SchemaTypeName.of(Wrapped.self).map { "\($0)?" } }
    static var elementTypes: [Any.Type] { [Wrapped.self] }
}
