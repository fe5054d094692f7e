import Foundation

extension UUID: ItemKey {
    /// The key as stored: the uppercase `uuidString`.
    public var itemKey: String { uuidString }

    /// Creates a UUID from its stored form, in any letter case.
    ///
    /// - Parameter itemKey: A key as stored in the database.
    public init?(itemKey: String) {
        self.init(uuidString: itemKey)
    }
}
