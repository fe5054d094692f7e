import Foundation

/// The relationships benchmark (issue 16): an author whose posts go with them.
///
/// Each run, on a fresh database per implementation: 101 authors; then (timed, **write**)
/// N/10 posts spread over 100 of them in one write transaction; then (untimed) N/10 posts of
/// the 101st, the victim, in transactions of 1,000; then (timed, **cascade**) the removal of
/// the victim in one write transaction, which removes its N/10 posts; then (untimed) N/10 more
/// authors, the parents, with 10 posts each (N posts, in transactions of 10,000); then (timed,
/// **cascade of many**) the removal of every parent in one write transaction, which removes their
/// N posts (issue 29).
///
/// - Trove: `Relationships<Post>` with the edge "author" and `.deleteSourceWhenDestinationDeleted`,
///   registered at open (the runtime API, no generated relationship code); and, for the write
///   only, Trove without the relationship.
/// - Raw SQLite and GRDB: `posts.authorID REFERENCES authors(id) ON DELETE CASCADE`, indexed,
///   foreign keys on.
///
/// Checked after each removal: no post of a removed author is left (by the relationship or the
/// foreign key's index, and by key), the other authors' posts are all there, and the removed
/// authors are gone.
struct RelationshipSuite {
    let options: Options

    /// The implementations, in table order.
    enum Engine: String, CaseIterable {
        case trove = "Trove + Relationships"
        case troveBare = "Trove, no relationship"
        case raw = "raw SQLite, FK"
        case grdb = "GRDB, FK"

        /// Whether the engine is Trove's (the encrypted pass runs those alone).
        var isTrove: Bool { self == .trove || self == .troveBare }

        /// The profiled workload of the engine's cascade of one author (Scripts/instructions.sh).
        var cascadeWorkload: SuiteWorkload? {
            switch self {
            case .trove: .relationshipCascade
            case .troveBare: nil
            case .raw: .relationshipCascadeRaw
            case .grdb: .relationshipCascadeGRDB
            }
        }

        /// The profiled workload of the engine's cascade of many authors.
        var cascadeManyWorkload: SuiteWorkload? {
            switch self {
            case .trove: .relationshipCascadeMany
            case .troveBare: nil
            case .raw: .relationshipCascadeManyRaw
            case .grdb: .relationshipCascadeManyGRDB
            }
        }
    }

    static let victim = "a-victim"
    static let authorCount = 100

    let authors: [Author]
    /// Posts of the other authors: the timed write.
    let posts: [Post]
    /// Posts of the victim: removed by the cascade.
    let victimPosts: [Post]
    /// The parents: N/10 authors removed together, each taking its 10 posts with it.
    let parents: [Author]
    /// The posts of the parents, 10 each: removed by the cascade of many.
    let children: [Post]

    /// The posts of each parent.
    static let childrenPerParent = 10

    private(set) var write: [Engine: ViewSuite.Timing] = [:]
    private(set) var cascade: [Engine: ViewSuite.Timing] = [:]
    private(set) var cascadeMany: [Engine: ViewSuite.Timing] = [:]
    /// Peak memory of each timed workload, and the size on disk after it (issue 29).
    private(set) var footprints: [Engine: [Phase: Footprint]] = [:]

    /// The timed workloads of one engine's run, in table order.
    enum Phase: CaseIterable {
        /// Writing the posts of the 100 authors.
        case write
        /// Removing the victim, whose posts cascade.
        case cascade
        /// Removing the parents, whose posts cascade.
        case cascadeMany
    }

    init(options: Options) {
        self.options = options
        let count = max(100, options.count / 10)
        log("making \(Workload.format(count)) posts of one author and \(Workload.format(count)) of \(Self.authorCount) others")
        var random = SplitMix64(seed: 16)
        authors = (0..<Self.authorCount).map { Author(id: "a\(1_000 + $0)", name: "Author \($0)") }
            + [Author(id: Self.victim, name: "The victim")]
        func post(_ index: Int, author: String) -> Post {
            Post(
                id: "p\(10_000_000 + index)", authorID: author, title: "Post \(index)",
                body: String(repeating: "lorem ipsum ", count: Int(random.next() % 10) + 5))
        }
        posts = (0..<count).map { post($0, author: "a\(1_000 + $0 % Self.authorCount)") }
        victimPosts = (0..<count).map { post(count + $0, author: Self.victim) }
        let parentCount = max(10, options.count / 10)
        log("making \(Workload.format(parentCount)) parents of \(Self.childrenPerParent) posts each")
        parents = (0..<parentCount).map { Author(id: "m\(100_000 + $0)", name: "Parent \($0)") }
        children = (0..<parentCount * Self.childrenPerParent).map {
            post(2 * count + $0, author: "m\(100_000 + $0 / Self.childrenPerParent)")
        }
    }

    mutating func run() throws {
        for run in 0..<options.runs {
            for engine in Engine.allCases.rotated(by: run)
            where (!options.isProfiling || isProfiled(engine)) && (!options.isEncryptedPass || engine.isTrove) {
                log("run \(run + 1)/\(options.runs): relationships, \(engine.rawValue)")
                let directory = try makeDirectory(in: options.directory, prefix: "relationships")
                defer { try? FileManager.default.removeItem(atPath: directory) }
                try measure(engine, directory: directory)
            }
        }
    }

    /// Whether a workload of `engine` is profiled (Scripts/instructions.sh).
    private func isProfiled(_ engine: Engine) -> Bool {
        switch engine {
        case .trove:
            options.profiles(.relationshipWrite) || options.profiles(.relationshipCascade)
                || options.profiles(.relationshipCascadeMany)
        case .troveBare: options.profiles(.relationshipWriteBare)
        case .raw, .grdb:
            [engine.cascadeWorkload, engine.cascadeManyWorkload].contains { $0.map(options.profiles) ?? false }
        }
    }

    private mutating func measure(_ engine: Engine, directory: String) throws {
        let store: any RelationshipBenchmarkStore =
            switch engine {
            case .trove: try TroveRelationshipStore(directory: directory, relationship: true, key: options.troveKey)
            case .troveBare: try TroveRelationshipStore(directory: directory, relationship: false, key: options.troveKey)
            case .raw: try RawRelationshipStore(directory: directory)
            case .grdb: try GRDBRelationshipStore(directory: directory)
            }
        try store.insert(authors)
        let writeMeter = options.peakMeter()
        let start = Stopwatch()
        switch engine {
        case .trove: try options.profiled(.relationshipWrite, operations: posts.count) { try store.insert(posts[...]) }
        case .troveBare: try options.profiled(.relationshipWriteBare, operations: posts.count) { try store.insert(posts[...]) }
        case .raw, .grdb: try store.insert(posts[...])
        }
        write[engine, default: .init()].append(start.elapsed(), count: 1)
        footprints[engine, default: [:]][.write, default: Footprint()]
            .append(writeMeter?.stop(), try options.diskSize(of: directory))
        guard engine != .troveBare else {
            guard try store.counts() == (posts.count, authors.count) else {
                throw BenchmarkError("relationships: \(engine.rawValue) did not store every post")
            }
            return
        }
        var offset = 0
        while offset < victimPosts.count {
            let end = min(offset + 1_000, victimPosts.count)
            try store.insert(victimPosts[offset..<end])
            offset = end
        }
        let victimKeys = victimPosts.map(\.id)
        guard try store.postCount(of: Self.victim, storedAmong: victimKeys) == (victimPosts.count, victimPosts.count),
            try store.counts() == (posts.count + victimPosts.count, authors.count)
        else {
            throw BenchmarkError("relationships: \(engine.rawValue) did not store every post before the removal")
        }
        let cascadeMeter = options.peakMeter()
        let removal = Stopwatch()
        if let workload = engine.cascadeWorkload {
            try options.profiled(workload, operations: victimPosts.count) { try store.removeAuthor(Self.victim) }
        } else {
            try store.removeAuthor(Self.victim)
        }
        cascade[engine, default: .init()].append(removal.elapsed(), count: 1)
        footprints[engine, default: [:]][.cascade, default: Footprint()]
            .append(cascadeMeter?.stop(), try options.diskSize(of: directory))
        let left = try store.postCount(of: Self.victim, storedAmong: victimKeys)
        let counts = try store.counts()
        guard left == (0, 0), counts == (posts.count, authors.count - 1) else {
            throw BenchmarkError(
                "relationships: \(engine.rawValue) left \(left.byAuthor) posts by the relationship, \(left.stored) by key, "
                    + "\(counts.posts) posts in all (\(posts.count) expected) and \(counts.authors) authors")
        }
        try measureCascadeOfMany(engine, store: store, directory: directory)
    }

    /// The cascade of many (issue 29): the parents and their posts stored (untimed), then every
    /// parent removed in one write transaction (timed), then checked.
    private mutating func measureCascadeOfMany(
        _ engine: Engine, store: any RelationshipBenchmarkStore, directory: String
    ) throws {
        try store.insert(parents)
        var offset = 0
        while offset < children.count {
            let end = min(offset + 10_000, children.count)
            try store.insert(children[offset..<end])
            offset = end
        }
        let childKeys = children.map(\.id)
        let authorsLeft = authors.count - 1
        let firstParent = try store.postCount(of: parents[0].id, storedAmong: childKeys)
        guard firstParent == (Self.childrenPerParent, children.count),
            try store.counts() == (posts.count + children.count, authorsLeft + parents.count)
        else {
            throw BenchmarkError("relationships: \(engine.rawValue) did not store every child before the removal")
        }
        let parentKeys = parents.map(\.id)
        let meter = options.peakMeter()
        let removal = Stopwatch()
        if let workload = engine.cascadeManyWorkload {
            try options.profiled(workload, operations: children.count) { try store.removeAuthors(parentKeys) }
        } else {
            try store.removeAuthors(parentKeys)
        }
        cascadeMany[engine, default: .init()].append(removal.elapsed(), count: 1)
        footprints[engine, default: [:]][.cascadeMany, default: Footprint()]
            .append(meter?.stop(), try options.diskSize(of: directory))
        var byParent = 0
        for key in parentKeys {
            byParent += try store.postCount(of: key, storedAmong: []).byAuthor
        }
        let stored = try store.postCount(of: parentKeys[0], storedAmong: childKeys).stored
        let counts = try store.counts()
        guard byParent == 0, stored == 0, counts == (posts.count, authorsLeft) else {
            throw BenchmarkError(
                "relationships: \(engine.rawValue) left \(byParent) children by the relationship, \(stored) by key, "
                    + "\(counts.posts) posts in all (\(posts.count) expected) and \(counts.authors) authors "
                    + "(\(authorsLeft) expected)")
        }
    }

    /// Trove's workloads and their medians by the run's clock, for the table of the encrypted
    /// pass (issue 34).
    func troveMedians() -> [(workload: String, seconds: Double)] {
        let median = options.clock.median
        return [
            ("relationships: write \(Workload.format(posts.count)) posts, \(Engine.trove.rawValue)", median(write[.trove])),
            ("relationships: write \(Workload.format(posts.count)) posts, \(Engine.troveBare.rawValue)", median(write[.troveBare])),
            ("relationships: remove an author, \(Workload.format(victimPosts.count)) posts cascade", median(cascade[.trove])),
            (
                "relationships: remove \(Workload.format(parents.count)) parents, \(Workload.format(children.count)) children cascade",
                median(cascadeMany[.trove])
            ),
        ]
    }

    func table() -> [String] {
        let clock = options.clock
        let median = clock.median
        let cell = clock.cell
        let runs = options.runsPhrase
        let engines = Engine.allCases
        var lines: [String] = []
        lines.append("")
        lines.append("## Relationships (issue 16)")
        lines.append("")
        lines.append(
            "\(clock.rawValue) time, median of \(runs) (elapsed in parentheses). Write: \(Workload.format(posts.count)) posts "
                + "of \(Self.authorCount) authors in one transaction. Cascade: removing an author whose "
                + "\(Workload.format(victimPosts.count)) posts go with it, in one transaction, beside the "
                + "\(Workload.format(posts.count)) other posts. Cascade of many: removing \(Workload.format(parents.count)) "
                + "authors whose \(Self.childrenPerParent) posts each go with them (\(Workload.format(children.count)) posts), "
                + "in one transaction. Checked: none of the removed authors' posts is left, all the others are.")
        lines.append("")
        lines += tableHeader(engines.map(\.rawValue))
        lines.append("| write \(Workload.format(posts.count)) posts | " + engines.map { cell(write[$0]) }.joined(separator: " | ") + " |")
        let bare = median(write[.troveBare])
        lines.append(
            "| … / Trove, no relationship | " + engines.map { formatRatio(median(write[$0]) / bare) }.joined(separator: " | ")
                + " |")
        lines.append(
            "| … per post | " + engines.map { formatDuration(median(write[$0]) / Double(posts.count)) }
                .joined(separator: " | ") + " |")
        lines.append(
            "| remove the author, \(Workload.format(victimPosts.count)) posts cascade | "
                + engines.map { cell(cascade[$0]) }.joined(separator: " | ") + " |")
        let raw = median(cascade[.raw])
        lines.append(
            "| … / raw SQLite | " + engines.map { formatRatio(median(cascade[$0]) / raw) }.joined(separator: " | ") + " |")
        lines.append(
            "| … per post removed | " + engines.map { formatDuration(median(cascade[$0]) / Double(victimPosts.count)) }
                .joined(separator: " | ") + " |")
        lines.append(
            "| remove \(Workload.format(parents.count)) authors, \(Workload.format(children.count)) posts cascade | "
                + engines.map { cell(cascadeMany[$0]) }.joined(separator: " | ") + " |")
        let rawMany = median(cascadeMany[.raw])
        lines.append(
            "| … / raw SQLite | "
                + engines.map { formatRatio(median(cascadeMany[$0]) / rawMany) }.joined(separator: " | ") + " |")
        lines.append(
            "| … per post removed | "
                + engines.map { formatDuration(median(cascadeMany[$0]) / Double(children.count)) }
                .joined(separator: " | ") + " |")
        if options.measuresFootprint {
            let titles: [Phase: String] = [
                .write: "write \(Workload.format(posts.count)) posts",
                .cascade: "remove the author, \(Workload.format(victimPosts.count)) posts cascade",
                .cascadeMany:
                    "remove \(Workload.format(parents.count)) authors, \(Workload.format(children.count)) posts cascade",
            ]
            lines += ["", "### Relationships: peak memory and size on disk per workload, same runs"]
            lines += footprintTables(
                columns: engines.map(\.rawValue),
                rows: Phase.allCases.map { phase in (titles[phase]!, engines.map { footprints[$0]?[phase] }) })
        }
        return lines
    }
}
