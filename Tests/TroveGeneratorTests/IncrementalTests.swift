import Testing
import TroveGenerator

/// Incremental generation gives exactly what a cold run gives: the files and the diagnostics, after
/// every kind of change, including changes to a type that another file's output depends on.
struct IncrementalTests {
    /// The variants of each input file of the walk; `nil` is a file that is not an input.
    ///
    /// The files depend on each other: `Item` indexes `Kind` (valid only while `Kind` is a raw-value
    /// enum) and has `Meta` as metadata (whose `@indexed`/`@searchable` fields become index and search
    /// columns of `Item`, and whose coder is generated only while `Meta` is annotated); `Library.Book`
    /// names `Author`, which is `Library.Author` only while `Author.swift` declares it in an
    /// extension of `Library`; `Second.swift` may declare a second `Meta`, the one `Item` uses when
    /// `Meta.swift` has none. `Post` has a `@relationship` to `User`: its output depends on `User`'s
    /// declaration (its key, its access), and `User`'s own edge may generate a query of the name of
    /// `Post`'s inverse on `User`, which is an error found across the two files.
    static let variants: [(name: String, texts: [String?])] = [
        (
            "Kind.swift",
            [
                "// @coded\nenum Kind: String { case a, b }\n",
                "// @coded\nenum Kind { case a, b(Int) }\n",
                "// @coded\nenum Kind: String { case a, b }\n// An edit that changes no declaration.\n",
                "// @coded\nenum Kind: Int { case a = 1, b = 2 }\n",
                // Renamed: `Item`'s `kind: Kind` now names no annotated type.
                "// @coded\nenum Category: String { case a, b }\n",
            ]
        ),
        (
            "Meta.swift",
            [
                "// @coded\nstruct Meta {\n    var visits: Int\n    // @indexed\n    var level: Int\n"
                    + "    // @searchable\n    var note: String\n}\n",
                "// @coded\nstruct Meta {\n    var visits: Int\n    var level: Int\n    // @searchable\n"
                    + "    var note: String\n}\n",
                "struct Meta {\n    var visits: Int\n}\n",
                "// @coded\nstruct Meta {\n    var visits: Int\n    // @indexed(unique: true)\n    var rank: Int\n}\n",
                // Renamed: `Item`'s metadata is then the `Meta` of `Second.swift`, or none.
                "// @coded\nstruct Stats {\n    var visits: Int\n    // @indexed\n    var level: Int\n}\n",
                nil,
            ]
        ),
        (
            "Item.swift",
            [
                "// @persistable(collection: \"items\")\nstruct Item {\n    var id: String\n    // @indexed\n"
                    + "    var kind: Kind\n    // @metadata\n    var metadata: Meta?\n}\n",
                "// @persistable(collection: \"items\")\nstruct Item {\n    var id: String\n    var kind: Kind\n"
                    + "    // @metadata\n    var metadata: Meta?\n}\n",
                "// @persistable(collection: \"things\")\nstruct Item {\n    var id: String\n    // @indexed\n"
                    + "    var kind: Kind\n    // @metadata\n    var metadata: Meta?\n    func f() {}\n}\n",
            ]
        ),
        (
            "Library.swift",
            [
                "// @coded\nstruct Library {\n    var name: String\n    // @coded\n    struct Book {\n"
                    + "        var author: Author\n        var title: String\n    }\n}\n",
                "// @coded\nstruct Library {\n    var name: String\n    // @coded\n    struct Book {\n"
                    + "        var author: Author?\n    }\n}\n",
            ]
        ),
        (
            "Author.swift",
            [
                "extension Library {\n    // @coded\n    struct Author {\n        var name: String\n    }\n}\n",
                "// @coded\nstruct Author {\n    var name: String\n}\n",
                "// @coded\nstruct Author {\n    var name: String\n}\nextension Library {\n    struct Author {}\n}\n",
                // Renamed: `Library.Book`'s `Author` is then the top-level one, or none.
                "extension Library {\n    // @coded\n    struct Writer {\n        var name: String\n    }\n}\n",
                nil,
            ]
        ),
        (
            "Second.swift",
            [
                "struct Plain {}\n",
                "// @coded\nstruct Meta {\n    // @indexed\n    var other: String\n}\n",
                "struct Plain {\n    var count = 1\n}\n",
                nil,
            ]
        ),
        (
            "User.swift",
            [
                "// @persistable(collection: \"users\")\nstruct User {\n    var id: String\n}\n",
                "// @persistable(collection: \"users\")\npublic struct User {\n    public var id: String\n}\n",
                "// @coded\nstruct User {\n    var id: String\n}\n",
                // Its own edge generates `User.posts(in:)`, which is also `Post`'s inverse on `User`.
                "// @persistable(collection: \"users\")\nstruct User {\n    var id: String\n"
                    + "    // @relationship(to: Post.self, name: \"posts\")\n    var pinnedIDs: [Post.ID]\n}\n",
                "// @persistable(collection: \"users\")\nstruct User {\n    // @key\n    var handle: Int\n}\n",
                // Renamed: `Post`'s `to: User.self` then names no type.
                "// @persistable(collection: \"people\")\nstruct Person {\n    var id: String\n}\n",
                nil,
            ]
        ),
        (
            "Post.swift",
            [
                "// @persistable(collection: \"posts\")\nstruct Post {\n    var id: String\n"
                    + "    // @relationship(to: User.self, onDelete: .deleteSource)\n    var authorID: User.ID\n}\n",
                "// @persistable(collection: \"posts\")\npublic struct Post {\n    public var id: String\n"
                    + "    // @relationship(to: User.self, inverse: \"writings\")\n    public var authorIDs: [User.ID]\n}\n",
                "// @persistable(collection: \"posts\")\nstruct Post {\n    var id: String\n"
                    + "    // @relationship(to: User.self, onDelete: .notifyDestination)\n    var authorID: String?\n}\n",
            ]
        ),
    ]

    static func inputs(_ state: [Int]) -> [SourceInput] {
        zip(variants, state).compactMap { file, variant in
            file.texts[variant].map { SourceInput(path: "/p/" + file.name, relativePath: file.name, contents: $0) }
        }
    }

    /// Whether an output folder holding `folder` (bytes by file name) holds a file.
    static func isIn(_ folder: [String: [UInt8]]) -> (GeneratedFile) -> Bool {
        { file in folder[file.name].map { GeneratorCache.isText(file.contents, exactly: $0) } ?? false }
    }

    /// Writes and reads back the cache, as the tool does between runs.
    static func roundTrip(_ cache: GeneratorCache?, identity: String, includeUnannotated: Bool) -> GeneratorCache? {
        cache.flatMap {
            GeneratorCache(
                serialized: $0.serialized(), generatorIdentity: identity, includeUnannotated: includeUnannotated)
        }
    }

    /// A walk through many states, one file changed at a time (and a few files added and removed):
    /// after every step the incremental run equals a cold run of the same inputs.
    @Test(arguments: [false, true])
    func everyStepEqualsAColdRun(includeUnannotated: Bool) throws {
        let pipeline = try GeneratorPipeline()
        var state = Array(repeating: 0, count: Self.variants.count)
        var cache: GeneratorCache?
        var reusedSome = false
        var sawErrors = false
        // Steps where an input that did not change got another output, because a type of another
        // input it uses changed: the cross-file dependencies the cache must follow.
        var dependentChanges = 0
        var visited: Set<[Int]> = []
        var previousInputs: [String: String] = [:]
        var previousOutputs: [String: String] = [:]
        let counts = Self.variants.map(\.texts.count)
        let steps = 4 * counts.reduce(0, +)
        for step in 0..<steps {
            if step > 0 {
                // Each file in turn moves to its next variant (every variant is visited in the first
                // half), then two variants on, so that the files meet in other combinations.
                let file = (step * 5) % counts.count
                state[file] = (state[file] + (step < steps / 2 ? 1 : 2)) % counts[file]
            }
            for (file, variant) in state.enumerated() { visited.insert([file, variant]) }
            let inputs = Self.inputs(state)
            let warm = pipeline.runIncrementally(
                inputs, includeUnannotated: includeUnannotated,
                cache: Self.roundTrip(cache, identity: "test", includeUnannotated: includeUnannotated),
                generatorIdentity: "test")
            let cold = pipeline.run(inputs, includeUnannotated: includeUnannotated)
            #expect(warm.files == cold.files, "step \(step), state \(state)")
            #expect(warm.diagnostics == cold.diagnostics, "step \(step), state \(state)")
            if warm.regenerated < inputs.count { reusedSome = true }
            if cold.hasErrors { sawErrors = true }
            let outputs = Dictionary(uniqueKeysWithValues: cold.files.map { ($0.name, $0.contents) })
            for input in inputs where previousInputs[input.path] == input.contents {
                let name = OutputNaming.outputName(forInput: input.relativePath)
                if let before = previousOutputs[name], let now = outputs[name], before != now { dependentChanges += 1 }
            }
            previousInputs = Dictionary(uniqueKeysWithValues: inputs.map { ($0.path, $0.contents) })
            if !cold.hasErrors { previousOutputs = outputs }
            // Like trove-gen: a run with errors leaves the cache of the last good run in place.
            cache = warm.cache ?? cache
        }
        #expect(reusedSome && sawErrors, "the walk must reuse outputs and pass through errors")
        #expect(dependentChanges >= 5, "the walk must change outputs of unchanged inputs: \(dependentChanges)")
        let unvisited = zip(counts.indices, counts).flatMap { file, count in
            (0..<count).filter { !visited.contains([file, $0]) }.map { "\(Self.variants[file].name) #\($0)" }
        }
        #expect(unvisited.isEmpty, "every variant (deletions and renames too) is an input of some step")
    }

    /// The typical build: a body edit in one of many files regenerates that file alone; a change to
    /// a type another file uses regenerates both; nothing changed regenerates nothing.
    @Test func onlyWhatChangedIsGeneratedAgain() throws {
        let pipeline = try GeneratorPipeline()
        var texts = (0..<20).map { "// @coded\nstruct Model\($0) {\n    var value: Int\n}\n" }
        texts[0] = "// @persistable(collection: \"users\")\nstruct User {\n    var id: String\n    // @metadata\n"
            + "    var metadata: Model1?\n}\n"
        func inputs() -> [SourceInput] {
            texts.enumerated().map { SourceInput(path: "M\($0).swift", relativePath: "M\($0).swift", contents: $1) }
        }
        func run(_ cache: GeneratorCache?) -> IncrementalResult {
            let result = pipeline.runIncrementally(
                inputs(), includeUnannotated: false,
                cache: Self.roundTrip(cache, identity: "test", includeUnannotated: false), generatorIdentity: "test")
            #expect(result.files == pipeline.run(inputs()).files)
            return result
        }
        let cold = run(nil)
        #expect(cold.regenerated == 20)
        let same = run(cold.cache)
        #expect(same.regenerated == 0 && same.cacheIsUnchanged)
        texts[7] += "// A comment.\n"
        let oneFile = run(same.cache)
        #expect(oneFile.regenerated == 1 && !oneFile.cacheIsUnchanged)
        texts[1] = "// @coded\nstruct Model1 {\n    var value: Int\n    // @searchable\n    var name: String\n}\n"
        let dependent = run(oneFile.cache)
        #expect(dependent.regenerated == 2, "Model1 changed, and User whose metadata it is")
        #expect(dependent.files[0].contents.contains("\"name\""), "User's search now has Model1's field")
    }

    /// A relationship's output follows its destination's declaration in another file, and two
    /// queries of one name on one type are found when only one of the two files changed.
    @Test func relationshipsFollowTheirDestination() throws {
        let pipeline = try GeneratorPipeline()
        let post = "// @persistable(collection: \"posts\")\npublic struct Post {\n    public var id: String\n"
            + "    // @relationship(to: User.self)\n    public var authorID: User.ID\n}\n"
        let users = [
            "// @persistable(collection: \"users\")\nstruct User {\n    var id: String\n}\n",
            "// @persistable(collection: \"users\")\npublic struct User {\n    public var id: String\n}\n",
            "// @persistable(collection: \"users\")\nstruct User {\n    var id: String\n"
                + "    // @relationship(to: Post.self, name: \"posts\")\n    var pinnedIDs: [Post.ID]\n}\n",
        ]
        func inputs(_ user: String) -> [SourceInput] {
            [
                SourceInput(path: "Post.swift", relativePath: "Post.swift", contents: post),
                SourceInput(path: "User.swift", relativePath: "User.swift", contents: user),
            ]
        }
        func run(_ user: String, _ cache: GeneratorCache?) -> IncrementalResult {
            let result = pipeline.runIncrementally(
                inputs(user), includeUnannotated: false,
                cache: Self.roundTrip(cache, identity: "test", includeUnannotated: false), generatorIdentity: "test")
            let cold = pipeline.run(inputs(user))
            #expect(result.files == cold.files && result.diagnostics == cold.diagnostics)
            return result
        }
        let first = run(users[0], nil)
        #expect(!first.hasErrors)
        // `User` made public: the inverse query `User.posts(in:)` that Post's output declares becomes public.
        let published = run(users[1], first.cache)
        #expect(published.regenerated == 2, "User changed, and Post whose edge points to it")
        #expect(!first.files[0].contents.contains("public nonisolated func posts("))
        #expect(published.files[0].contents.contains("public nonisolated func posts("))
        // `User` gains an edge named `posts`: Post's inverse on `User` has that name too.
        let clash = run(users[2], published.cache)
        #expect(clash.diagnostics.map(\.message).contains { $0.contains("would get two queries 'posts(in:)'") })
        // Post comes first, so its inverse keeps the name and User's edge is the one reported.
        #expect(clash.diagnostics.map(\.location.path) == ["User.swift"])
    }

    /// A cache whose outputs were replaced is reused as it is by the generator that made it (so a reused
    /// output is seen), and not at all when damaged or read by another generator: those runs are cold.
    @Test func aDamagedOrForeignCacheGivesAColdRun() throws {
        let pipeline = try GeneratorPipeline()
        let inputs = Self.inputs(Array(repeating: 0, count: Self.variants.count))
        let cold = pipeline.run(inputs, includeUnannotated: true)
        var poisoned = try #require(
            pipeline.runIncrementally(inputs, includeUnannotated: true, cache: nil, generatorIdentity: "one").cache)
        for index in poisoned.entries.indices {
            poisoned.entries[index].output?.contents = "// poisoned \(index)\n"
        }
        let bytes = poisoned.serialized()
        func run(_ bytes: [UInt8], identity: String) -> IncrementalResult {
            pipeline.runIncrementally(
                inputs, includeUnannotated: true,
                cache: GeneratorCache(serialized: bytes, generatorIdentity: identity, includeUnannotated: true),
                generatorIdentity: identity)
        }
        let reused = run(bytes, identity: "one")
        #expect(reused.regenerated == 0 && reused.files.allSatisfy { $0.contents.hasPrefix("// poisoned") })
        let foreign = run(bytes, identity: "two")
        #expect(foreign.regenerated == inputs.count && foreign.files == cold.files)
        // Checked against an output folder that holds what a cold run wrote, nothing poisoned is reused.
        let folder = Dictionary(uniqueKeysWithValues: cold.files.map { ($0.name, Array($0.contents.utf8)) })
        let checked = pipeline.runIncrementally(
            inputs, includeUnannotated: true,
            cache: GeneratorCache(serialized: bytes, generatorIdentity: "one", includeUnannotated: true)?
                .keepingOutputs(where: Self.isIn(folder)),
            generatorIdentity: "one")
        #expect(checked.regenerated == inputs.count && checked.files == cold.files)
        // A damaged byte of the checksummed part (the first input's path).
        var damaged = bytes
        damaged[30] ^= 1
        let afterDamage = run(damaged, identity: "one")
        #expect(afterDamage.regenerated == inputs.count && afterDamage.files == cold.files)
        let truncated = run(Array(bytes.prefix(bytes.count - 1)), identity: "one")
        #expect(truncated.regenerated == inputs.count && truncated.files == cold.files)
    }

    @Test func aDamagedForeignOrOtherModeCacheIsNotRead() throws {
        let inputs = Self.inputs(Array(repeating: 0, count: Self.variants.count))
        let result = try GeneratorPipeline().runIncrementally(
            inputs, includeUnannotated: true, cache: nil, generatorIdentity: "one")
        let bytes = try #require(result.cache).serialized()
        #expect(GeneratorCache(serialized: bytes, generatorIdentity: "one", includeUnannotated: true) != nil)
        #expect(GeneratorCache(serialized: bytes, generatorIdentity: "two", includeUnannotated: true) == nil)
        #expect(GeneratorCache(serialized: bytes, generatorIdentity: "one", includeUnannotated: false) == nil)
        #expect(GeneratorCache(serialized: Array(bytes.dropLast()), generatorIdentity: "one", includeUnannotated: true) == nil)
        #expect(GeneratorCache(serialized: [], generatorIdentity: "one", includeUnannotated: true) == nil)
        // Every single damaged byte is noticed, wherever it is: by the checksum, or (in a generated text,
        // which is not checksummed) because the output folder does not hold that text, so that its input is
        // generated again.
        let good = try #require(GeneratorCache(serialized: bytes, generatorIdentity: "one", includeUnannotated: true))
        let folder = Dictionary(uniqueKeysWithValues: result.files.map { ($0.name, Array($0.contents.utf8)) })
        #expect(good.keepingOutputs(where: Self.isIn(folder)).entries == good.entries)
        var damagedTexts = 0
        for offset in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            var damaged = bytes
            damaged[offset] ^= 0x20
            guard let read = GeneratorCache(serialized: damaged, generatorIdentity: "one", includeUnannotated: true)
            else { continue }
            damagedTexts += 1
            let kept = read.keepingOutputs(where: Self.isIn(folder)).entries
            #expect(
                kept.count == good.entries.count - 1 && kept.allSatisfy(good.entries.contains),
                "byte \(offset) of \(bytes.count)")
        }
        #expect(damagedTexts > 0)
    }
}
