// @persistable(collection: "ledgers")
final class Ledger: Sendable {
    // @key
    let number: Int
    let currency: Currency
    let entries: [Int64]

    init(number: Int, currency: Currency, entries: [Int64]) {
        self.number = number
        self.currency = currency
        self.entries = entries
    }
}

// @coded
enum Currency: String, Sendable {
    case euro = "EUR"
    case dollar = "USD"
}
