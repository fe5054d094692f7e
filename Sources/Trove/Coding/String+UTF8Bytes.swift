extension String {
    /// Calls `body` with the string's UTF-8, read in place when the string stores it contiguously
    /// (native Swift strings), or from a native copy otherwise (strings bridged from another
    /// representation).
    ///
    /// - Parameter body: A closure that reads the bytes; they are valid only during the call.
    /// - Returns: What `body` returns.
    /// - Throws: Whatever `body` throws.
    @inlinable
    internal func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        var native = self
        return try native.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
}
