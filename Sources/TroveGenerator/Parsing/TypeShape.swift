import SwiftSyntax

/// How a property's declared type is stored: as a value, as an optional value, or not at all.
enum TypeShape: Sendable, Hashable {
    /// A non-optional value of the type written.
    case value(String)
    /// An optional: `wrapped` is the type inside `?` (or `Optional<...>`).
    case optional(wrapped: String)
    /// A type Trove cannot store, with the reason as a phrase.
    case unsupported(String)

    /// Classifies `type`, looking inside arrays, dictionaries, optionals and generic arguments
    /// for function types, tuples, `Any`, `AnyObject`, existentials and opaque types.
    ///
    /// - Parameter type: A type as written in a declaration.
    /// - Returns: Its shape.
    static func of(_ type: TypeSyntax) -> TypeShape {
        if let reason = unsupportedReason(type) { return .unsupported(reason) }
        if let optional = type.as(OptionalTypeSyntax.self) {
            return .optional(wrapped: optional.wrappedType.sourceText)
        }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return .optional(wrapped: optional.wrappedType.sourceText)
        }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let argument = genericArgumentTypes(of: identifier.genericArgumentClause).first
        {
            return .optional(wrapped: argument.sourceText)
        }
        return .value(type.sourceText)
    }

    /// The reason `type` cannot be stored, or `nil` if it can.
    private static func unsupportedReason(_ type: TypeSyntax) -> String? {
        if type.is(FunctionTypeSyntax.self) { return "function types cannot be stored" }
        if let tuple = type.as(TupleTypeSyntax.self) {
            // `(Int)` is a parenthesized type, not a tuple.
            if tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
                return unsupportedReason(only.type)
            }
            return "tuples cannot be stored; declare a @coded struct instead"
        }
        if let someOrAny = type.as(SomeOrAnyTypeSyntax.self) {
            return "'\(someOrAny.someOrAnySpecifier.text)' types cannot be stored; use a concrete type"
        }
        if type.is(CompositionTypeSyntax.self) { return "protocol compositions cannot be stored; use a concrete type" }
        if type.is(MetatypeTypeSyntax.self) { return "metatypes cannot be stored" }
        if let attributed = type.as(AttributedTypeSyntax.self) { return unsupportedReason(attributed.baseType) }
        if let optional = type.as(OptionalTypeSyntax.self) {
            if optional.wrappedType.is(OptionalTypeSyntax.self) { return "nested optionals cannot be stored" }
            return unsupportedReason(optional.wrappedType)
        }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return unsupportedReason(optional.wrappedType)
        }
        if let array = type.as(ArrayTypeSyntax.self) { return unsupportedReason(array.element) }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return unsupportedReason(dictionary.key) ?? unsupportedReason(dictionary.value)
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            switch identifier.name.text {
            case "Any": return "'Any' cannot be stored; use a concrete type"
            case "AnyObject": return "'AnyObject' cannot be stored; use a concrete type"
            case "AnyHashable": return "'AnyHashable' cannot be stored; use a concrete type"
            default: break
            }
            for argument in genericArgumentTypes(of: identifier.genericArgumentClause) {
                if let reason = unsupportedReason(argument) { return reason }
            }
            return nil
        }
        if let member = type.as(MemberTypeSyntax.self) {
            for argument in genericArgumentTypes(of: member.genericArgumentClause) {
                if let reason = unsupportedReason(argument) { return reason }
            }
            return unsupportedReason(member.baseType)
        }
        return nil
    }

    /// The type arguments of a generic argument clause.
    ///
    /// Reads children rather than `GenericArgumentSyntax.argument`, whose type changed across
    /// swift-syntax releases, so the generator builds with every version it accepts.
    static func genericArgumentTypes(of clause: GenericArgumentClauseSyntax?) -> [TypeSyntax] {
        guard let clause else { return [] }
        return clause.arguments.flatMap { argument in
            argument.children(viewMode: .sourceAccurate).compactMap { child in
                child.as(TypeSyntax.self) ?? child.children(viewMode: .sourceAccurate).lazy.compactMap {
                    $0.as(TypeSyntax.self)
                }.first
            }
        }
    }
}
