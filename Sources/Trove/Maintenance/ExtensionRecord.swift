/// An extension as the file records it (see ``Database/extensionRecords()``), whether or not this
/// process registered it.
public struct ExtensionRecord: Sendable, Hashable {
    /// The extension's name.
    public var name: String
    /// What it is (`secondaryIndex`, `fullTextSearch`, …).
    public var kind: String
    /// The version it was built with.
    public var version: Int
    /// The collection it follows.
    public var collection: String
    /// `ready` when it is in step with the items, `stale` when a process wrote to its collection
    /// without maintaining it (the next write of a process that registers it rebuilds it).
    public var state: String

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - name: The extension's name.
    ///   - kind: What it is.
    ///   - version: Its version.
    ///   - collection: The collection it follows.
    ///   - state: Its state.
    public init(name: String, kind: String, version: Int, collection: String, state: String) {
        self.name = name
        self.kind = kind
        self.version = version
        self.collection = collection
        self.state = state
    }
}
