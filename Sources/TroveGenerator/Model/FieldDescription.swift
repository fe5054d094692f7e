/// A stored field of a message: a persisted property, or an associated value of an enum case.
package struct FieldDescription: Sendable, Equatable, Codable {
    /// The field name, without backticks: the property name, the associated value's label, or
    /// `_0`, `_1`... for an unlabeled associated value.
    package var name: String
    /// Whether the name is an argument label in the initializer or case pattern (`false` for an
    /// unlabeled associated value).
    package var isLabeled: Bool
    /// The stored type: the declared type, without its optional for an optional.
    package var type: String
    /// Whether the declared type is optional: encoded only when present, `nil` when absent.
    package var isOptional: Bool
    /// The default value as written, used when the field is absent from stored data.
    package var defaultValue: String?
    /// The field number, ``FieldNumber/of(_:)`` of ``name``.
    package var number: UInt32
    /// Earlier names of the field (`@renamed(from:)`), read as this field.
    package var previousNames: [PreviousName]

    /// An earlier name of a field, still read.
    package struct PreviousName: Sendable, Equatable, Codable {
        /// The earlier name.
        package var name: String
        /// Its field number.
        package var number: UInt32

        /// Creates an earlier name.
        ///
        /// - Parameter name: The earlier name.
        package init(name: String) {
            self.name = name
            self.number = FieldNumber.of(name)
        }
    }

    /// Creates a field.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - isLabeled: Whether the name is an argument label.
    ///   - type: The stored type.
    ///   - isOptional: Whether the declared type is optional.
    ///   - defaultValue: The default value as written.
    ///   - previousNames: The earlier names.
    package init(
        name: String, isLabeled: Bool = true, type: String, isOptional: Bool, defaultValue: String? = nil,
        previousNames: [String] = []
    ) {
        self.name = name
        self.isLabeled = isLabeled
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.number = FieldNumber.of(name)
        self.previousNames = previousNames.map(PreviousName.init)
    }
}

/// A case of an enum encoded as a message: a field named by the case whose value is a nested
/// message of the associated values.
package struct CaseDescription: Sendable, Equatable, Codable {
    /// The case name, without backticks.
    package var name: String
    /// The field number of the case.
    package var number: UInt32
    /// The associated values, as fields of the nested message.
    package var parameters: [FieldDescription]

    /// Creates a case.
    ///
    /// - Parameters:
    ///   - name: The case name.
    ///   - parameters: Its associated values.
    package init(name: String, parameters: [FieldDescription]) {
        self.name = name
        self.number = FieldNumber.of(name)
        self.parameters = parameters
    }
}
