import Foundation
import Trove

let database = try Database.temporary()
let connection = try database.newConnection()

let renewal = Date(timeIntervalSince1970: 1_800_000_000)
let alice = Account(
    id: "alice", owner: "Alice", plan: .paid(seats: 3, renews: renewal), balanceCents: 12_50,
    tags: ["vip"], metadata: AccountActivity(logins: 7), session: "not stored"
)
let bob = Account(id: "bob", owner: "Bob", plan: .free, balanceCents: 0)
let ledger = Ledger(number: 42, currency: .euro, entries: [100, -25])

try connection.write { tx in
    try tx.write([alice, bob])
    try tx.write(ledger)
}

// A second connection has an empty cache, so it decodes the stored bytes: the @transient field is back to its
// default. (The writing connection's cache returns items as they were written.)
var expectedAlice = alice
expectedAlice.session = nil
let decodedAlice = try database.newConnection().read(Account.self, key: "alice")
check(decodedAlice == expectedAlice, "alice decoded as \(String(describing: decodedAlice))")

try connection.read { tx in
    check(try tx.read(Account.self, keys: ["bob", "nobody", "alice"]).map(\.id) == ["bob", "alice"], "byKeys order")
    check(try tx.readAll(Account.self).count == 2, "all() count")
    check(try tx.metadata(for: Account.self, key: "alice") == AccountActivity(logins: 7), "metadata alone")
    let (found, missing) = try tx.filterExisting(Account.self, keys: ["alice", "carol"])
    check(found.map(\.id) == ["alice"] && missing == ["carol"], "filterExisting")
    let readLedger = try tx.read(Ledger.self, key: 42)
    check(readLedger?.currency == .euro && readLedger?.entries == [100, -25], "ledger round trip")
}

try connection.write { tx in
    check(try tx.remove(Account.self, key: "bob"), "remove by key")
}
check(try connection.readAll(Account.self).map(\.id) == ["alice"], "remove left alice")

print("BuildModeApp: round trip OK (collections \(Account.collection), \(Ledger.collection))")
