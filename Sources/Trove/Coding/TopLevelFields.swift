/// The top-level fields of an encoded message, split with the format's own framing (a 4-byte
/// tag, then a value that its wire type delimits), without the model's coder: what keeps the
/// fields a coder does not know (``UnknownFields``) and what merges items field by field (the
/// sync engine) read.
///
/// Package access: the sync targets read it too.
package enum TopLevelFields {
    /// Calls `body` with the number of each top-level field of `bytes` and its bytes (tag
    /// included), in order.
    ///
    /// - Returns: `true` when every byte belonged to a field; `false` when the bytes end in
    ///   something that is no field (the fields before it were handed over).
    @discardableResult
    package static func forEach(
        in bytes: UnsafeRawBufferPointer, _ body: (_ number: UInt32, _ field: UnsafeRawBufferPointer) throws -> Void
    ) rethrows -> Bool {
        var scanner = BinaryReader(bytes)
        while !scanner.isAtEnd {
            let start = scanner.position
            let number: UInt32
            do {
                guard let header = try scanner.nextField() else { return true }
                try scanner.skip(header)
                number = header.number
            } catch {
                return false
            }
            try body(number, UnsafeRawBufferPointer(rebasing: bytes[start..<scanner.position]))
        }
        return true
    }
}
