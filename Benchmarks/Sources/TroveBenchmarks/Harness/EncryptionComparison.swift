/// A suite whose Trove workloads the encrypted pass measures again (issue 34).
protocol TroveMeasuredSuite {
    /// Runs the suite's workloads, `options.runs` times.
    mutating func run() throws
    /// Trove's workloads, titled, and the median of each, in seconds.
    func troveMedians() -> [(workload: String, seconds: Double)]
}

extension ConcurrencySuite: TroveMeasuredSuite {}
extension ObservationSuite: TroveMeasuredSuite {}
extension SearchSuite: TroveMeasuredSuite {}
extension SearchViewSuite: TroveMeasuredSuite {}
extension ViewSuite: TroveMeasuredSuite {}
extension RelationshipSuite: TroveMeasuredSuite {}
extension FileEdgeSuite: TroveMeasuredSuite {}
extension SpatialSuite: TroveMeasuredSuite {}

/// What encryption costs, workload by workload (issue 34): every Trove workload of the run on a
/// plain file and on a file encrypted with a passphrase, in one table.
///
/// The database workloads come from the columns "Trove" and "Trove, encrypted" of the database
/// suite. Every other suite runs a second time right after its first, with its Trove engines
/// alone, each opening its file with the key (``Options/troveKey``): the same work, the same
/// checks of the results, a few seconds apart.
struct EncryptionComparison {
    /// The options of the encrypted pass: the run's, with the passphrase.
    let encryptedOptions: Options
    private let fixtures: Fixtures
    private(set) var rows: [(workload: String, plain: Double, encrypted: Double)] = []

    /// The comparison, when the run has the trait `Encryption` and its implementations include
    /// `troveEncrypted` (and it is not a profile); otherwise `nil`.
    static func ifChosen(options: Options, fixtures: Fixtures) -> EncryptionComparison? {
        #if Encryption
            guard options.implementations.contains(.troveEncrypted), !options.isProfiling else { return nil }
            var encrypted = options
            encrypted.trovePassphrase = Implementation.encryptionPassphrase
            return EncryptionComparison(encryptedOptions: encrypted, fixtures: fixtures)
        #else
            return nil
        #endif
    }

    /// Adds the database workloads that both Trove columns measured.
    mutating func add(_ database: DatabaseSuite) {
        #if Encryption
            for workload in Workload.allCases {
                guard let plain = database.samples[.trove]?[workload]?.median,
                    let encrypted = database.samples[.troveEncrypted]?[workload]?.median
                else { continue }
                rows.append((workload.title(fixtures: fixtures), plain, encrypted))
            }
        #endif
    }

    /// Runs `make(encryptedOptions)`, the encrypted twin of `plain`, and adds each workload of
    /// the two.
    mutating func measureAgain<Suite: TroveMeasuredSuite>(_ plain: Suite, _ make: (Options) -> Suite) throws {
        var twin = make(encryptedOptions)
        try twin.run()
        let encrypted = twin.troveMedians()
        for (index, row) in plain.troveMedians().enumerated() {
            guard index < encrypted.count, encrypted[index].workload == row.workload else {
                throw BenchmarkError("encryption: the encrypted pass measured other workloads than \(row.workload)")
            }
            rows.append((row.workload, row.seconds, encrypted[index].seconds))
        }
    }

    /// The Markdown table.
    func table() -> [String] {
        var lines = ["", "## Encryption (issue 34): every Trove workload, plain and encrypted", ""]
        lines.append(
            "Trove on a plain file and on a file encrypted with a passphrase (SQLite3 Multiple Ciphers, SQLCipher 4 "
                + "scheme), \(encryptedOptions.clock.rawValue) time unless the workload says elapsed, median of "
                + "\(encryptedOptions.runsPhrase). Database workloads: the columns Trove and Trove, encrypted above; the "
                + "others: each suite ran again right after itself, Trove alone, on encrypted files.")
        lines.append("")
        lines.append("| Workload | Trove | Trove, encrypted | encrypted / plain |")
        lines.append("|---|---:|---:|---:|")
        for row in rows {
            lines.append(
                "| \(row.workload) | \(formatDuration(row.plain)) | \(formatDuration(row.encrypted)) | "
                    + "\(formatRatio(row.encrypted / row.plain)) |")
        }
        return lines
    }
}
