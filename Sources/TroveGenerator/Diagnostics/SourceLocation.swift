/// A position in an input file: its path as given to the generator, and a 1-based line and
/// column (columns count UTF-8 bytes, as the Swift compiler does).
package struct SourceLocation: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The path of the file, as the caller named it.
    package var path: String
    /// The 1-based line.
    package var line: Int
    /// The 1-based column, in UTF-8 bytes.
    package var column: Int

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - path: The path of the file.
    ///   - line: The 1-based line.
    ///   - column: The 1-based column.
    package init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`.
    package var description: String { "\(path):\(line):\(column)" }

    /// Orders by path, then line, then column.
    package static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}
