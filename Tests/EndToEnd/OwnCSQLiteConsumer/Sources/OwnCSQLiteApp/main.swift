import CSQLite
import Foundation
import SQLiteNIO
import Trove

// The app's own shim, Trove and sqlite-nio side by side in one executable.
let systemVersion = own_csqlite_version_number()

let database = try Database.temporary()
try await database.write { tx in
    try tx.setData(Data([1, 2, 3]), forKey: "one", in: "things")
}
let stored = try await database.read { tx in try tx.data(forKey: "one", in: "things") }

let nioVersion = SQLiteConnection.libraryVersionString()

guard systemVersion > 0, stored == Data([1, 2, 3]), !nioVersion.isEmpty else {
    print("OwnCSQLiteApp: FAILED (system \(systemVersion), stored \(String(describing: stored)), sqlite-nio \(nioVersion))")
    exit(1)
}
print("OwnCSQLiteApp: OK (CSQLite \(systemVersion), Trove, SQLiteNIO \(nioVersion))")
