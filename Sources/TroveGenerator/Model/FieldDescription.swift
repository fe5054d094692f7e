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
    /// The field's identity on disk: the number it is written under, ``FieldNumber/of(_:)`` of
    /// ``storedName``.
    ///
    /// A renamed field keeps the number it was first stored with, as a protobuf field keeps its
    /// number whatever its name: older versions of the model, which know the field by an
    /// earlier name, go on reading what newer versions write.
    package var number: UInt32
    /// Earlier names of the field (`@renamed(from:)`), oldest first: the first is the name the
    /// field was first stored under (its identity), the others the names it had in between.
    package var previousNames: [PreviousName]

    /// The name whose number the field is written under: its first name.
    package var storedName: String {
        previousNames.first?.name ?? name
    }

    /// Every number the decoder reads as this field: the identity first, then the numbers of the
    /// names in between, then the number of the current name, which generators before the
    /// identity rule wrote renamed fields under.
    package var readNumbers: [UInt32] {
        guard !previousNames.isEmpty else { return [number] }
        var numbers = previousNames.map(\.number)
        let current = FieldNumber.of(name)
        if !numbers.contains(current) { numbers.append(current) }
        return numbers
    }

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
    ///   - previousNames: The earlier names, oldest first.
    package init(
        name: String, isLabeled: Bool = true, type: String, isOptional: Bool, defaultValue: String? = nil,
        previousNames: [String] = []
    ) {
        self.name = name
        self.isLabeled = isLabeled
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.previousNames = previousNames.map(PreviousName.init)
        self.number = FieldNumber.of(previousNames.first ?? name)
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
