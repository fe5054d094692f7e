/// The text of a JSON array of integers, as the row ids of a one-statement read are bound
/// (``FileLayout/selectRowsByIDs``): written digit by digit into a temporary buffer, where
/// building a `String` of the numbers would allocate for each.
enum JSONIntegerArray {
    /// Calls `body` with the UTF-8 text of a JSON array of `values`, in order; the bytes are
    /// valid only during the call.
    static func withText<T>(
        of values: ArraySlice<Int64>, _ body: (UnsafeRawBufferPointer) throws -> T
    ) rethrows -> T {
        // At most 20 characters per number (a sign and 19 digits), a comma each, the brackets.
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: values.count * 21 + 2) { buffer in
            var count = 0
            buffer[count] = UInt8(ascii: "[")
            count += 1
            for value in values {
                if count > 1 {
                    buffer[count] = UInt8(ascii: ",")
                    count += 1
                }
                if value < 0 {
                    buffer[count] = UInt8(ascii: "-")
                    count += 1
                }
                // The magnitude as unsigned, so that Int64.min has one too.
                var magnitude = value.magnitude
                var digits = 1
                var power: UInt64 = 10
                while digits < 20, magnitude >= power {
                    digits += 1
                    power = power &* 10
                }
                var position = count + digits - 1
                repeat {
                    buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                    magnitude /= 10
                    position -= 1
                } while magnitude > 0
                count += digits
            }
            buffer[count] = UInt8(ascii: "]")
            count += 1
            return try body(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[..<count])))
        }
    }
}
