import Foundation
import Trove

/// Opens a fresh database in its own temporary folder, removed when the database is gone.
///
/// Tests run in parallel: each opens its own database through this function.
///
/// - Parameters:
///   - extensions: The extensions to register.
///   - configure: Changes to the default configuration.
/// - Returns: An empty database.
/// - Throws: ``TroveError`` when the database cannot be created.
public func makeTemporaryDatabase(
    extensions: [DatabaseExtension] = [], _ configure: (inout Configuration) -> Void = { _ in }
) throws -> Database {
    var configuration = TestEncryption.configuration
    configure(&configuration)
    return try Database.temporary(configuration: configuration, extensions: extensions)
}

/// A fresh temporary folder for tests that need files of their own; remove it with
/// `FileManager.default.removeItem(atPath:)` when done.
///
/// - Returns: The path of an empty folder.
/// - Throws: When the folder cannot be created.
public func makeTemporaryFolder() throws -> String {
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("trove-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
