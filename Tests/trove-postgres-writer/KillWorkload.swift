import Trove

/// The item of the killed-instance test (`TrovePostgresTests/KilledInstanceTests`), written by
/// `trove-postgres-writer`: one per acknowledged commit of a writer, plus the shared total that
/// every commit of every writer increments. Compiled into both (this file is symlinked).
struct KillTally: Persistable, Codable, Equatable {
    typealias Coder = CodableCoder<KillTally>
    static let collection = "kill-tallies"
    /// The key of the shared total.
    static let totalKey = "total"

    var id: String
    var value: Int

    /// The key of the item of commit `number` of the writer `name`.
    static func key(writer name: String, commit number: Int) -> String {
        "\(name)-\(number)"
    }
}
