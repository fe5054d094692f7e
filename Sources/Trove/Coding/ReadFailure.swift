/// The errors of ``BinaryReader``, built out of line so that the inlined fast paths stay small.
@usableFromInline
internal enum ReadFailure {
    @usableFromInline
    static func truncated(_ what: String) -> TroveError {
        TroveError.corruptData("truncated data: expected \(what)")
    }

    @usableFromInline
    static func overlongVarint() -> TroveError {
        TroveError.corruptData("varint longer than 10 bytes or larger than UInt64.max")
    }

    @usableFromInline
    static func invalidUTF8() -> TroveError {
        TroveError.corruptData("string is not valid UTF-8")
    }

    @usableFromInline
    static func tooDeep() -> TroveError {
        TroveError.corruptData(
            "values nested more than \(BinaryReader.maximumNestingDepth) levels deep")
    }

    @usableFromInline
    static func unreadBytes(_ count: Int) -> TroveError {
        TroveError.corruptData("\(count) bytes left unread at the end of a length-delimited value")
    }

    @usableFromInline
    static func countTooLarge(_ count: UInt64, remaining: Int) -> TroveError {
        TroveError.corruptData("count \(count) exceeds the \(remaining) remaining bytes")
    }

    @usableFromInline
    static func unknownWireType(_ rawValue: UInt32) -> TroveError {
        TroveError.corruptData("unknown wire type \(rawValue)")
    }

    @usableFromInline
    static func wireTypeMismatch(_ found: WireType, expected: WireType, field: String) -> TroveError {
        TroveError.corruptData("the field is stored as \(found), expected \(expected)", field: field)
    }

    @usableFromInline
    static func outOfRange(_ value: some BinaryInteger, of type: Any.Type) -> TroveError {
        TroveError.corruptData("\(value) is out of range for \(type)")
    }

    @usableFromInline
    static func invalid(_ description: String, of type: Any.Type) -> TroveError {
        TroveError.corruptData("\(description) is not a valid \(type)")
    }

    @usableFromInline
    static func duplicate(in type: Any.Type) -> TroveError {
        TroveError.corruptData("duplicate element in \(type)")
    }

    @usableFromInline
    static func notRawValue(_ rawValue: Any, of type: Any.Type) -> TroveError {
        TroveError.corruptData("\(String(reflecting: rawValue)) is not a raw value of \(type)")
    }

    @usableFromInline
    static func nestedUnknownField(_ number: UInt32) -> TroveError {
        TroveError(
            code: .nestedUnknownFields,
            message: "The stored value holds a field (number \(FieldNumber.literal(number))) nested in this field that "
                + "this version of the model does not know; a write would lose it, so the write is refused.")
    }
}

/// Thrown by ``BinaryReader/nextField()`` at the end of the one-field message of a probing reader
/// (see ``UnknownFields``): the field has been classified, the rest of the decoder need not run.
@usableFromInline
internal struct FieldProbeFinished: Error {
    @inlinable
    internal init() {}
}
