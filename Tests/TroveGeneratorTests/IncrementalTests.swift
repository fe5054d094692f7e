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
                // Variant 0 with an extension below it: `Item` reads the same declaration of `Meta`.
                "// @coded\nstruct Meta {\n    var visits: Int\n    // @indexed\n    var level: Int\n"
                    + "    // @searchable\n    var note: String\n}\n\nextension Meta {\n    func touch() {}\n}\n",
                // Variant 0 with a line above it: the same members, at other lines.
                "// The metadata of an item.\n// @coded\nstruct Meta {\n    var visits: Int\n    // @indexed\n"
                    + "    var level: Int\n    // @searchable\n    var note: String\n}\n",
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
                // Variant 0 and a function: `Post` reads the same declaration of `User`.
                "// @persistable(collection: \"users\")\nstruct User {\n    var id: String\n}\n\n"
                    + "func greet(_ user: User) -> String { user.id }\n",
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

    /// Whether an output folder holding `folder` (bytes by file name) holds a recorded output.
    static func isIn(_ folder: [String: [UInt8]]) -> (OutputRecord) -> Bool {
        { record in folder[record.name].map(record.matches) ?? false }
    }

    /// An output folder in memory, kept as trove-gen keeps one: a run's generated outputs are written, its
    /// reused outputs are left as they are (their text is the folder's), and in committed mode the files a
    /// run no longer produces are deleted.
    struct Folder {
        var files: [String: [UInt8]] = [:]

        /// `cache` without the entries whose outputs this folder does not hold, as trove-gen checks it.
        func check(_ cache: GeneratorCache?) -> GeneratorCache? {
            cache?.keepingOutputs(where: IncrementalTests.isIn(files))
        }

        /// Writes what `result` generated (nothing when it has errors); returns every output with its text,
        /// a reused one's read from the folder.
        mutating func apply(
            _ result: IncrementalResult, deletingExtras: Bool, sourceLocation: Testing.SourceLocation = #_sourceLocation
        ) -> [GeneratedFile] {
            guard !result.hasErrors else { return [] }
            var outputs: [GeneratedFile] = []
            for output in result.files {
                switch output {
                case .generated(let file):
                    files[file.name] = Array(file.contents.utf8)
                    outputs.append(file)
                case .reused(let record):
                    guard let bytes = files[record.name] else {
                        Issue.record("reused '\(record.name)', which the folder does not hold", sourceLocation: sourceLocation)
                        continue
                    }
                    outputs.append(GeneratedFile(name: record.name, contents: String(decoding: bytes, as: UTF8.self)))
                }
            }
            if deletingExtras {
                let produced = Set(result.files.map(\.name))
                files = files.filter { produced.contains($0.key) }
            }
            return outputs
        }
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
        var folder = Folder()
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
                cache: folder.check(Self.roundTrip(cache, identity: "test", includeUnannotated: includeUnannotated)),
                generatorIdentity: "test")
            let cold = pipeline.run(inputs, includeUnannotated: includeUnannotated)
            let warmFiles = folder.apply(warm, deletingExtras: !includeUnannotated)
            #expect(warmFiles == cold.files, "step \(step), state \(state)")
            // The cache the warm run writes (reused entries as the bytes they were read from) is the one
            // a cold run writes.
            let coldCache = pipeline.runIncrementally(
                inputs, includeUnannotated: includeUnannotated, cache: nil, generatorIdentity: "test"
            ).cache
            #expect(warm.cache?.serialized() == coldCache?.serialized(), "step \(step), state \(state)")
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
        var folder = Folder()
        var files: [GeneratedFile] = []
        func run(_ cache: GeneratorCache?) -> IncrementalResult {
            let result = pipeline.runIncrementally(
                inputs(), includeUnannotated: false,
                cache: folder.check(Self.roundTrip(cache, identity: "test", includeUnannotated: false)),
                generatorIdentity: "test")
            files = folder.apply(result, deletingExtras: true)
            #expect(files == pipeline.run(inputs()).files)
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
        #expect(dependent.files[0].generatedFile?.contents.contains("\"name\"") == true, "User's search now has Model1's field")
        texts[1] += "\nextension Model1 {\n    var doubled: Int { value * 2 }\n}\n"
        let body = run(dependent.cache)
        #expect(body.regenerated == 1, "an edit below Model1's declaration: User reads the same declaration")
        texts[1] = "// The model.\n" + texts[1]
        let moved = run(body.cache)
        #expect(moved.regenerated == 2, "Model1's declaration moved a line down: User reads it again")
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
        var folder = Folder()
        func run(_ user: String, _ cache: GeneratorCache?) -> IncrementalResult {
            let result = pipeline.runIncrementally(
                inputs(user), includeUnannotated: false,
                cache: folder.check(Self.roundTrip(cache, identity: "test", includeUnannotated: false)),
                generatorIdentity: "test")
            let cold = pipeline.run(inputs(user))
            #expect(folder.apply(result, deletingExtras: true) == cold.files && result.diagnostics == cold.diagnostics)
            return result
        }
        let first = run(users[0], nil)
        #expect(!first.hasErrors)
        // `User` made public: the inverse query `User.posts` that Post's output declares becomes public.
        let published = run(users[1], first.cache)
        #expect(published.regenerated == 2, "User changed, and Post whose edge points to it")
        #expect(first.files[0].generatedFile?.contents.contains("public nonisolated var posts:") == false)
        #expect(published.files[0].generatedFile?.contents.contains("public nonisolated var posts:") == true)
        // `User` gains an edge named `posts`: Post's inverse on `User` has that name too.
        let clash = run(users[2], published.cache)
        #expect(clash.diagnostics.map(\.message).contains { $0.contains("would get two relationship queries named 'posts'") })
        // Post comes first, so its inverse keeps the name and User's edge is the one reported.
        #expect(clash.diagnostics.map(\.location.path) == ["User.swift"])
    }

    /// An edge to files generates no query, so it claims no name on any type: not on its source (a
    /// file edge named `posts` on User is no clash with Post's inverse `User.posts`), and not on a
    /// type named like its folder; the cache's facts of a type with only edges to files hold no
    /// claim, and an incremental run after a change of one file agrees with a cold one.
    @Test func edgesToFilesClaimNoQuery() throws {
        let pipeline = try GeneratorPipeline()
        let post = "// @persistable(collection: \"posts\")\nstruct Post {\n    var id: String\n"
            + "    // @relationship(to: User.self)\n    var authorID: User.ID\n"
            + "    // @relationship(toFiles: \"User\", name: \"users\")\n    var userFiles: [String]\n}\n"
        let users = [
            "// @persistable(collection: \"users\")\nstruct User {\n    var id: String\n"
                + "    // @relationship(toFiles: \"avatars\", name: \"posts\", onDelete: .deleteDestination)\n"
                + "    var avatarPath: String?\n}\n",
            "// @persistable(collection: \"users\")\nstruct User {\n    var id: String\n"
                + "    // @relationship(toFiles: \"pictures\", name: \"posts\", onDelete: .deleteDestination)\n"
                + "    var avatarPath: String?\n}\n",
        ]
        func inputs(_ user: String) -> [SourceInput] {
            [
                SourceInput(path: "Post.swift", relativePath: "Post.swift", contents: post),
                SourceInput(path: "User.swift", relativePath: "User.swift", contents: user),
            ]
        }
        var folder = Folder()
        func run(_ user: String, _ cache: GeneratorCache?) -> IncrementalResult {
            let result = pipeline.runIncrementally(
                inputs(user), includeUnannotated: false,
                cache: folder.check(Self.roundTrip(cache, identity: "test", includeUnannotated: false)),
                generatorIdentity: "test")
            let cold = pipeline.run(inputs(user))
            #expect(folder.apply(result, deletingExtras: true) == cold.files && result.diagnostics == cold.diagnostics)
            return result
        }
        let first = run(users[0], nil)
        #expect(first.diagnostics.isEmpty, "\(first.diagnostics)")
        let facts = first.cache?.entries.map { $0.facts?.annotatedTypes.map(\.relationshipQueries) }
        #expect(facts?[0]?.first?.map(\.name) == ["author", "posts"], "Post's edge to items only")
        #expect(facts?[1]?.first?.isEmpty == true, "User's edge to files claims nothing")
        let moved = run(users[1], first.cache)
        #expect(moved.diagnostics.isEmpty, "\(moved.diagnostics)")
        #expect(moved.files[1].generatedFile?.contents.contains(".toFile(\"posts\", in: \"pictures\"") == true)
    }

    /// A cache is reused as it is by the generator that made it, and not at all when damaged (any byte:
    /// all of it is checksummed), truncated, of another generator or of the other mode: those runs are cold.
    /// An entry read from a cache is written again as the bytes it was read from only while it is
    /// unchanged: a change to any of its fields is written.
    @Test func aChangedEntryIsWrittenAnew() throws {
        let pipeline = try GeneratorPipeline()
        let inputs = Self.inputs(Array(repeating: 0, count: Self.variants.count))
        let written = try #require(
            pipeline.runIncrementally(inputs, includeUnannotated: true, cache: nil, generatorIdentity: "t").cache)
        let read = try #require(GeneratorCache(serialized: written.serialized(), generatorIdentity: "t", includeUnannotated: true))
        #expect(read.serialized() == written.serialized())
        let changes: [(String, (inout GeneratorCache.Entry) -> Void)] = [
            ("path", { $0.path += "x" }),
            ("relativePath", { $0.relativePath += "x" }),
            ("contents", { $0.contents += "\n" }),
            ("facts", { $0.facts = nil }),
            ("lookups", { $0.lookups.append(Lookup(kind: .qualify, argument: "A", owner: "B", answer: "B.A")) }),
            ("output", { $0.output = nil }),
        ]
        for (field, change) in changes {
            var changed = read
            change(&changed.entries[0])
            var expected = written
            change(&expected.entries[0])
            #expect(changed.serialized() == expected.serialized(), "a changed \(field)")
            let again = GeneratorCache(serialized: changed.serialized(), generatorIdentity: "t", includeUnannotated: true)
            #expect(again?.entries == expected.entries, "a changed \(field)")
        }
    }

    @Test func aDamagedForeignOrOtherModeCacheGivesAColdRun() throws {
        let pipeline = try GeneratorPipeline()
        let inputs = Self.inputs(Array(repeating: 0, count: Self.variants.count))
        let cold = pipeline.run(inputs, includeUnannotated: true)
        let result = pipeline.runIncrementally(inputs, includeUnannotated: true, cache: nil, generatorIdentity: "one")
        let bytes = try #require(result.cache).serialized()
        func run(_ bytes: [UInt8], identity: String, includeUnannotated: Bool = true) -> IncrementalResult {
            pipeline.runIncrementally(
                inputs, includeUnannotated: true,
                cache: GeneratorCache(serialized: bytes, generatorIdentity: identity, includeUnannotated: includeUnannotated),
                generatorIdentity: identity)
        }
        let reused = run(bytes, identity: "one")
        #expect(reused.regenerated == 0 && reused.files.allSatisfy { $0.generatedFile == nil })
        #expect(reused.files.map(\.name) == cold.files.map(\.name))
        for (label, result) in [
            ("foreign", run(bytes, identity: "two")), ("other mode", run(bytes, identity: "one", includeUnannotated: false)),
            ("truncated", run(Array(bytes.dropLast()), identity: "one")), ("empty", run([], identity: "one")),
        ] {
            #expect(result.regenerated == inputs.count, "\(label)")
            #expect(result.files == cold.files.map(IncrementalOutput.generated), "\(label)")
        }
        // Every single damaged byte is noticed, wherever it is (the digests of the outputs too).
        var damagedBytes = 0
        for offset in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 197)) {
            var damaged = bytes
            damaged[offset] ^= 0x20
            damagedBytes += 1
            #expect(
                GeneratorCache(serialized: damaged, generatorIdentity: "one", includeUnannotated: true) == nil,
                "byte \(offset) of \(bytes.count)")
        }
        #expect(damagedBytes > 150)
    }

    /// An output is reused only when the output folder holds exactly its bytes: a deleted output, or one
    /// edited anywhere (its first byte, its last byte, one byte more or less), makes its input generated
    /// again, and the run then equals a cold run.
    @Test(arguments: [false, true])
    func anOutputTheFolderDoesNotHoldIsGeneratedAgain(includeUnannotated: Bool) throws {
        let pipeline = try GeneratorPipeline()
        let inputs = Self.inputs(Array(repeating: 0, count: Self.variants.count))
        let cold = pipeline.run(inputs, includeUnannotated: includeUnannotated)
        var folder = Folder()
        let first = pipeline.runIncrementally(
            inputs, includeUnannotated: includeUnannotated, cache: nil, generatorIdentity: "test")
        #expect(folder.apply(first, deletingExtras: !includeUnannotated) == cold.files)
        let cache = Self.roundTrip(first.cache, identity: "test", includeUnannotated: includeUnannotated)
        let name = try #require(cold.files.last?.name)
        let good = try #require(folder.files[name])
        let edits: [(String, ([UInt8]) -> [UInt8]?)] = [
            ("deleted", { _ in nil }),
            ("first byte", { var bytes = $0; bytes[0] ^= 1; return bytes }),
            ("last byte", { var bytes = $0; bytes[bytes.count - 1] ^= 1; return bytes }),
            ("one byte more", { $0 + [0x0A] }),
            ("one byte less", { Array($0.dropLast()) }),
            ("emptied", { _ in [] }),
        ]
        for (label, edit) in edits {
            folder.files[name] = edit(good)
            let checked = try #require(folder.check(cache))
            #expect(checked.entries.count == inputs.count - 1, "\(label)")
            let warm = pipeline.runIncrementally(
                inputs, includeUnannotated: includeUnannotated, cache: checked, generatorIdentity: "test")
            #expect(warm.files.compactMap(\.generatedFile).map(\.name) == [name], "\(label)")
            #expect(folder.apply(warm, deletingExtras: !includeUnannotated) == cold.files, "\(label)")
            #expect(folder.files[name] == good, "\(label)")
        }
        // Untouched, every output is reused.
        let warm = pipeline.runIncrementally(
            inputs, includeUnannotated: includeUnannotated, cache: folder.check(cache), generatorIdentity: "test")
        #expect(warm.regenerated == 0 && warm.files.allSatisfy { $0.generatedFile == nil })
    }

    /// The digest tells apart any two of many byte strings: every length from 0 to 40 (the last word
    /// shorter or not), each byte of each changed in turn, each string cut short or grown by a zero byte.
    @Test func theDigestTellsEveryByte() {
        var generator = SystemRandomNumberGenerator()
        var seen: [ContentDigest: [UInt8]] = [:]
        func add(_ bytes: [UInt8]) {
            let digest = bytes.withUnsafeBytes(ContentDigest.init(of:))
            if let other = seen[digest] {
                #expect(other == bytes, "\(bytes) and \(other) have the same digest")
            }
            seen[digest] = bytes
            let record = OutputRecord(name: "F.swift", byteCount: bytes.count, digest: digest)
            #expect(record.matches(bytes))
        }
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            add(bytes)
            add(bytes + [0])
            if !bytes.isEmpty { add(Array(bytes.dropLast())) }
            for index in bytes.indices {
                for bit in [0, 7] {
                    var changed = bytes
                    changed[index] ^= 1 << bit
                    add(changed)
                }
            }
        }
        #expect(seen.count > 1_500)
        // Empty bytes have one digest, whether or not the buffer has an address.
        #expect(ContentDigest(of: UnsafeRawBufferPointer(start: nil, count: 0)) == ContentDigest(of: ""))
        #expect([UInt8]().withUnsafeBytes(ContentDigest.init(of:)) == ContentDigest(of: ""))
        // A text's digest is its UTF-8's.
        let text = "// Generated by trove-gen: é, 🙂\n"
        #expect(ContentDigest(of: text) == Array(text.utf8).withUnsafeBytes(ContentDigest.init(of:)))
        #expect(OutputRecord(GeneratedFile(name: "F.swift", contents: text)).matches(Array(text.utf8)))
    }
}
