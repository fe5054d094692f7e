/// The keys of one section, in order: the content a list shows.
public struct ViewSectionContent: Sendable, Hashable {
    /// The group of the section.
    public var group: String
    /// The keys of its rows, in order.
    public var keys: [String]

    /// Creates a section's content.
    ///
    /// - Parameters:
    ///   - group: The group.
    ///   - keys: The keys, in order.
    public init(group: String, keys: [String]) {
        self.group = group
        self.keys = keys
    }
}
