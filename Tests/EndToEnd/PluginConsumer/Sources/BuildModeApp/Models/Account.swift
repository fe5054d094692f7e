import Foundation

// @persistable(collection: "accounts")
struct Account: Sendable, Equatable {
    var id: String
    var owner: String
    var plan: Plan
    var balanceCents: Int64
    var tags: [String] = []
    // @metadata
    var metadata: AccountActivity?
    // @transient
    var session: String? = nil
}
