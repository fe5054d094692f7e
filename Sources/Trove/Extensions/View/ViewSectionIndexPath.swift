/// A position in ``ViewSections``: a section and a row of it, as a list's index path.
public struct ViewSectionIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The section, from 0.
    public var section: Int
    /// The row in the section, from 0.
    public var row: Int

    /// Creates a position.
    ///
    /// - Parameters:
    ///   - section: The section.
    ///   - row: The row in the section.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Orders positions by section, then row.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `[section, row]`.
    public var description: String {
        "[\(section), \(row)]"
    }
}
