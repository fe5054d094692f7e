import Foundation

/// `trove-benchmarks`: see `Options.usage` and BENCHMARKS.md.
@main
enum TroveBenchmarks {
    static func main() {
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == "--child-read-all", arguments.count == 3,
                let implementation = Implementation(rawValue: arguments[1])
            {
                try MemoryProbe.childReadAll(implementation: implementation, directory: arguments[2])
                return
            }
            if arguments.first == "--child-enumerate", arguments.count == 3 {
                try EnumerationProbe.child(mode: arguments[1], path: arguments[2])
                return
            }
            try run(Options(arguments: arguments))
        } catch {
            log("error: \(error)")
            exit(1)
        }
    }

    private static func run(_ options: Options) throws {
        let start = ContinuousClock.now
        log("making \(Workload.format(options.count)) users")
        let fixtures = Fixtures(count: options.count)
        // With the trait Encryption and `--implementations …,troveEncrypted`: every suite's Trove
        // workloads again on encrypted files, right after the suite (issue 34).
        var encryption = EncryptionComparison.ifChosen(options: options, fixtures: fixtures)

        var database: DatabaseSuite?
        if !options.workloads.isEmpty && !options.implementations.isEmpty {
            var suite = DatabaseSuite(options: options, fixtures: fixtures)
            try suite.run()
            database = suite
            encryption?.add(suite)
        }
        var coders: CoderSuite?
        if (options.includeCoders && !options.isProfiling) || options.profilesCoders {
            var suite = CoderSuite(options: options, users: fixtures.users)
            try suite.run()
            coders = suite
        }
        var memory: MemoryProbe?
        if options.includeMemory && !options.isProfiling {
            var probe = MemoryProbe(options: options, fixtures: fixtures)
            try probe.run()
            memory = probe
        }
        var enumeration: EnumerationProbe?
        let enumerationCounts = options.enumerationCounts.isEmpty && options.isSmoke ? [1_000] : options.enumerationCounts
        if !enumerationCounts.isEmpty && options.runs(.enumeration) {
            var probe = EnumerationProbe(counts: enumerationCounts, directory: options.directory, options: options)
            try probe.run()
            enumeration = probe
        }
        var concurrency: ConcurrencySuite?
        if options.includeConcurrency && options.runs(.concurrency) {
            var suite = ConcurrencySuite(options: options, fixtures: fixtures)
            try suite.run()
            try encryption?.measureAgain(suite) { ConcurrencySuite(options: $0, fixtures: fixtures) }
            concurrency = suite
        }
        var observation: ObservationSuite?
        if options.includeObservation && options.runs(.observation) {
            var suite = ObservationSuite(options: options, users: fixtures.users)
            try suite.run()
            try encryption?.measureAgain(suite) { ObservationSuite(options: $0, users: fixtures.users) }
            observation = suite
        }
        var search: SearchSuite?
        var searchView: SearchViewSuite?
        if options.includeSearch && options.runs(.search) {
            var suite = SearchSuite(options: options)
            try suite.run()
            try encryption?.measureAgain(suite) { SearchSuite(options: $0) }
            search = suite
            // Not a profiled workload (Scripts/instructions.sh).
            if !options.isProfiling {
                var viewSuite = SearchViewSuite(options: options)
                try viewSuite.run()
                try encryption?.measureAgain(viewSuite) { SearchViewSuite(options: $0) }
                searchView = viewSuite
            }
        }
        var views: ViewSuite?
        if options.includeViews && options.runs(.views) {
            var suite = ViewSuite(options: options)
            try suite.run()
            try encryption?.measureAgain(suite) { ViewSuite(options: $0) }
            views = suite
        }
        var relationships: RelationshipSuite?
        if options.includeRelationships && options.runs(.relationships) {
            var suite = RelationshipSuite(options: options)
            try suite.run()
            try encryption?.measureAgain(suite) { RelationshipSuite(options: $0) }
            relationships = suite
        }
        var fileEdges: FileEdgeSuite?
        if options.includeFileEdges && options.runs(.fileEdges) {
            var suite = FileEdgeSuite(options: options)
            try suite.run()
            try encryption?.measureAgain(suite) { FileEdgeSuite(options: $0) }
            fileEdges = suite
        }
        var spatial: SpatialSuite?
        if options.includeSpatial && options.runs(.spatial) {
            var suite = SpatialSuite(options: options)
            try suite.run()
            try encryption?.measureAgain(suite) { SpatialSuite(options: $0) }
            spatial = suite
        }
        // A profiled run (Scripts/instructions.sh) ran the profiled workloads alone, and Trove's
        // side of the suites only: no table to print.
        if options.isProfiling {
            log("done in \(formatDuration(start.duration(to: .now).seconds))")
            return
        }
        Report(
            options: options, fixtures: fixtures, database: database, coders: coders, memory: memory,
            observation: observation
        ).print()
        if let enumeration {
            print(enumeration.report().joined(separator: "\n"))
        }
        if let concurrency {
            print(concurrency.table().joined(separator: "\n"))
        }
        if let search {
            print(search.table().joined(separator: "\n"))
        }
        if let searchView {
            print(searchView.table().joined(separator: "\n"))
        }
        if let views {
            print(views.table().joined(separator: "\n"))
        }
        if let relationships {
            print(relationships.table().joined(separator: "\n"))
        }
        if let fileEdges {
            print(fileEdges.table().joined(separator: "\n"))
        }
        if let spatial {
            print(spatial.table().joined(separator: "\n"))
        }
        if let encryption {
            print(encryption.table().joined(separator: "\n"))
        }
        #if Postgres
            // The PostgreSQL suite (issue 18): only with the package trait `Postgres`.
            if options.includePostgres { try PostgresSuite.runIfConfigured(options: options, fixtures: fixtures) }
            // The sync suite (issue 33): TroveSync against TroveSyncServer on loopback.
            if options.includeSync { try SyncSuite.runIfConfigured(options: options, fixtures: fixtures) }
        #endif
        log("done in \(formatDuration(start.duration(to: .now).seconds))")
    }
}
