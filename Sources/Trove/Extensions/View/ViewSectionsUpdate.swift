/// An element of ``ViewSectionsObservation``: the sections now, and the changes since the
/// element before.
public struct ViewSectionsUpdate: Sendable, Hashable {
    /// The sections at the latest snapshot.
    public var sections: ViewSections
    /// The changes since the sections of the element before; `nil` for the first element (show
    /// the sections without animation).
    public var changes: ViewSectionChanges?

    /// Creates an update.
    ///
    /// - Parameters:
    ///   - sections: The sections.
    ///   - changes: The changes since the element before, `nil` for the first.
    public init(sections: ViewSections, changes: ViewSectionChanges?) {
        self.sections = sections
        self.changes = changes
    }
}
