/// The secondary index generated from the `@indexed` fields of a `@persistable` type and of its
/// `@metadata` type.
package struct SecondaryIndexDescription: Sendable, Equatable, Codable {
    /// The name of the index: the type's name, sanitized, with `_index`.
    package var name: String
    /// The version: a hash of the columns' names, Swift types, uniqueness and sources, so that a
    /// change of the indexed fields rebuilds the index.
    package var version: Int
    /// The columns: the item's indexed fields in declaration order, then the metadata's.
    package var columns: [IndexColumnDescription]

    /// Creates an index description; its version is computed from `columns`.
    ///
    /// - Parameters:
    ///   - name: The name of the index.
    ///   - columns: The columns.
    package init(name: String, columns: [IndexColumnDescription]) {
        self.name = name
        self.columns = columns
        self.version = IndexableTypes.version(of: columns)
    }
}

/// One column of a generated secondary index: an `@indexed` stored property.
package struct IndexColumnDescription: Sendable, Equatable, Codable {
    /// The column name: the property name, sanitized for the runtime when it must be.
    package var column: String
    /// The property name, without backticks.
    package var property: String
    /// The stored type: the declared type without its optional.
    package var type: String
    /// Whether the declared type is optional.
    package var isOptional: Bool
    /// `@indexed(unique: true)`.
    package var isUnique: Bool
    /// Whether the property is a field of the item's metadata rather than of the item.
    package var isMetadata: Bool
    /// Whether the type is `Comparable`, so that it is matched by ranges.
    package var isComparable: Bool
    /// Whether the property is an array or a set of `type`: a multi-valued column, matched by
    /// `contains`, `containsAny` and `containsAll`.
    package var isMultiValued: Bool

    /// Creates a column description.
    ///
    /// - Parameters:
    ///   - column: The column name.
    ///   - property: The property name.
    ///   - type: The stored type.
    ///   - isOptional: Whether the declared type is optional.
    ///   - isUnique: Whether the column is unique.
    ///   - isMetadata: Whether the property is a field of the metadata.
    ///   - isComparable: Whether ranges apply.
    ///   - isMultiValued: Whether the property is an array or a set of `type`.
    package init(
        column: String, property: String, type: String, isOptional: Bool, isUnique: Bool, isMetadata: Bool,
        isComparable: Bool, isMultiValued: Bool = false
    ) {
        self.isMultiValued = isMultiValued
        self.column = column
        self.property = property
        self.type = type
        self.isOptional = isOptional
        self.isUnique = isUnique
        self.isMetadata = isMetadata
        self.isComparable = isComparable
    }
}

/// The types an `@indexed` field may have, and the names the runtime accepts.
package enum IndexableTypes {
    /// Types matched by equality, membership and ranges.
    static let comparable: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "String", "Date",
    ]
    /// Types matched by equality and membership only: not `Comparable` on every platform.
    static let equatable: Set<String> = ["Bool", "UUID", "Data"]
    /// The raw types of enums that are stored by raw value (each is ``IndexValueConvertible`` in the
    /// runtime).
    static let rawValueTypes: Set<String> = [
        "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    ]
    /// What the diagnostic of an unsupported type lists.
    static let supportedDescription =
        "integers, Double, Float, Bool, String, UUID, Date, Data, @coded enums with a String or integer raw "
        + "value, optionals of these, and arrays and sets of these (a multi-valued column)"
    /// What the diagnostic of an array or a set of an unsupported type lists.
    static let elementDescription =
        "integers, Double, Float, Bool, String, UUID, Date, Data, @coded enums with a String or integer raw "
        + "value (not optional)"

    /// The element type of an array or a set written `[T]`, `Array<T>` or `Set<T>`, or `nil` for
    /// any other type (a dictionary `[K: V]` among them).
    static func collectionElement(of typeName: String) -> String? {
        let text = typeName.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
        let inner: String
        if text.first == "[", text.last == "]" {
            inner = String(text.dropFirst().dropLast())
            // `[K: V]` is a dictionary: a colon outside any brackets.
            var depth = 0
            for character in inner {
                switch character {
                case "[", "<", "(": depth += 1
                case "]", ">", ")": depth -= 1
                case ":" where depth == 0: return nil
                default: break
                }
            }
        } else if let prefix = ["Array<", "Set<", "Swift.Array<", "Swift.Set<"].first(where: {
            text.starts(with: $0) && text.last == ">"
        }) {
            inner = String(text.dropFirst(prefix.count).dropLast())
        } else {
            return nil
        }
        let element = String(inner.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        return element.isEmpty ? nil : element
    }

    /// The longest name the runtime accepts.
    static let maximumNameLength = 64

    /// `name` as a valid index or column name: ASCII letters, digits and underscores, not starting
    /// with a digit, at most 64 characters. A name that must change gets a hash of the original
    /// after it, so that two names do not become one.
    package static func sanitized(_ name: String) -> String {
        let isValid: (UInt8) -> Bool = { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F
        }
        let bytes = Array(name.utf8)
        if !bytes.isEmpty, bytes.count <= maximumNameLength, bytes.allSatisfy(isValid),
            !(bytes[0] >= 0x30 && bytes[0] <= 0x39)
        {
            return name
        }
        var base = String(decoding: bytes.map { isValid($0) ? $0 : 0x5F }, as: UTF8.self)
        if let first = base.utf8.first, first >= 0x30 && first <= 0x39 { base = "_" + base }
        let suffix = "_" + String(hash(name), radix: 16)
        return String(base.prefix(maximumNameLength - suffix.count)) + suffix
    }

    /// The version of an index of `columns`: stable across runs and platforms.
    static func version(of columns: [IndexColumnDescription]) -> Int {
        let text = columns.map { column in
            [
                column.column, column.property, column.type + (column.isOptional ? "?" : ""),
                column.isUnique ? "unique" : "indexed", column.isMetadata ? "metadata" : "item",
            ].joined(separator: ":") + (column.isMultiValued ? ":values" : "")
        }.joined(separator: ";")
        return Int(hash(text) >> 1)
    }

    /// The FNV-1a 32-bit hash of the UTF-8 bytes of `text`.
    static func hash(_ text: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash &*= 0x0100_0193
        }
        return hash
    }
}
