// swift-tools-version: 6.1
import PackageDescription

/// Settings every target shares: Swift 6 language mode is the default of tools 6.x; these add the
/// upcoming features the project holds itself to.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// How SQLite3 Multiple Ciphers is compiled under the `Encryption` trait (VENDORED.md says why).
let encryptionDefines: [(String, String)] = [
    ("TROVE_ENCRYPTION", "1"),
    ("SQLITE_THREADSAFE", "1"),
    ("SQLITE_ENABLE_FTS5", "1"),
    ("SQLITE_ENABLE_RTREE", "1"),
    ("SQLITE_TEMP_STORE", "2"),
    ("SQLITE_OMIT_LOAD_EXTENSION", "1"),
    ("SQLITE_DQS", "0"),
    // The system SQLite's limit (Debian's): a statement may bind 250,000 values, not SQLite's
    // default 32,766, so that code that works on the system SQLite works with the trait.
    ("SQLITE_MAX_VARIABLE_NUMBER", "250000"),
    ("HAVE_CIPHER_AES_128_CBC", "0"),
    ("HAVE_CIPHER_AES_256_CBC", "0"),
    ("HAVE_CIPHER_RC4", "0"),
    ("HAVE_CIPHER_ASCON128", "0"),
    ("HAVE_CIPHER_AEGIS", "0"),
    ("CODEC_TYPE", "CODEC_TYPE_SQLCIPHER"),
]

let encryptionSettings: [CSetting] = encryptionDefines.map { (name: String, value: String) -> CSetting in
    CSetting.define(name, to: value, .when(traits: ["Encryption"]))
}

/// The `trove` command's one dependency (kept by `TROVE_WITH_COMMAND=1`, below).
let argumentParser: Package.Dependency = .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")

let package = Package(
    name: "Trove",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Trove", targets: ["Trove"]),
        .executable(name: "trove-gen", targets: ["trove-gen"]),
        .executable(name: "trove", targets: ["TroveCommand"]),
        .plugin(name: "TrovePlugin", targets: ["TrovePlugin"]),
        .plugin(name: "TroveCommandPlugin", targets: ["TroveCommandPlugin"]),
        .plugin(name: "TroveCheckPlugin", targets: ["TroveCheckPlugin"]),
        // Trove on PostgreSQL (issue 18). A product of its own: an app that depends on `Trove` alone
        // never builds postgres-nio (SwiftPM builds a dependency only for the products that use it).
        .library(name: "TrovePostgres", targets: ["TrovePostgres"]),
        // Sync (issue 33): the replica's side, on Trove and Foundation's URLSession alone, and the
        // server's, a library of routes to mount in a Hummingbird app, on TrovePostgres.
        .library(name: "TroveSync", targets: ["TroveSync"]),
        .library(name: "TroveSyncServer", targets: ["TroveSyncServer"]),
    ],
    traits: [
        .default(enabledTraits: ["SystemSQLite"]),
        .trait(name: "SystemSQLite", description: "Links the system's SQLite (the default)."),
        .trait(
            name: "Encryption",
            description:
                "Compiles SQLite3 Multiple Ciphers into Trove in place of the system's SQLite, so that database files can be encrypted (Configuration.encryptionKey). Enable it alone: traits: [\"Encryption\"]."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
        argumentParser,
        // Tests only: the generator's template engine is compared with swift-mustache (TemplateTests).
        // A package that depends on Trove does not fetch it (SwiftPM resolves the dependencies of the
        // products it uses).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // TrovePostgres's TLS settings (certificates, trust roots): already a dependency of postgres-nio.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's: the sync server's long pulls answer at once when the server shuts down.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
    ],
    targets: [
        // MARK: Runtime
        // SQLite: the system's (trait `SystemSQLite`, the default: libsqlite3-dev on Debian), or,
        // with the trait `Encryption`, SQLite3 Multiple Ciphers compiled from the sources in
        // Sources/TroveCSQLite/SQLite3MultipleCiphers. Swift sees SQLite's C API either way (the
        // system's sqlite3.h); what is linked decides which SQLite runs.
        .target(
            name: "TroveCSQLite",
            exclude: ["SQLite3MultipleCiphers"],
            cSettings: encryptionSettings,
            linkerSettings: [
                .linkedLibrary("sqlite3", .when(traits: ["SystemSQLite"])),
                .linkedLibrary("m", .when(traits: ["Encryption"])),
            ]
        ),
        .target(
            name: "Trove",
            dependencies: ["TroveCSQLite"],
            swiftSettings: strictSettings
        ),

        // MARK: PostgreSQL backend (issue 18)
        .target(
            name: "TrovePostgres",
            dependencies: [
                "Trove",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Sync (issue 33)
        // The replica's side: the ledger (outbox, versions, clock), the merge of replicas' changes
        // field by field on hybrid logical clocks, the wire format and the HTTP client.
        .target(
            name: "TroveSync",
            dependencies: ["Trove"],
            swiftSettings: strictSettings
        ),
        // The server's side: the merged versions, the change log and the replicas' progress in
        // PostgreSQL tables, and the routes that authorize and serve pushes and pulls.
        .target(
            name: "TroveSyncServer",
            dependencies: [
                "Trove", "TroveSync", "TrovePostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Generator
        .target(
            name: "TroveTemplates",
            path: "Templates",
            resources: [
                .embedInCode("Header.mustache"),
                .embedInCode("File.mustache"),
                .embedInCode("Persistable.mustache"),
                .embedInCode("Message.mustache"),
                .embedInCode("EnumMessage.mustache"),
                .embedInCode("Conformances.mustache"),
                .embedInCode("SecondaryIndex.mustache"),
                .embedInCode("FullTextSearch.mustache"),
                .embedInCode("Relationships.mustache"),
                .embedInCode("DatabaseExtensions.mustache"),
                .embedInCode("Schema.mustache"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TroveGenerator",
            dependencies: [
                "TroveTemplates",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "trove-gen",
            dependencies: [
                "TroveGenerator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: The `trove` command
        // Inspects, checks, dumps, backs up and compacts a database from the shell. Its module is not named
        // `trove`: on a case-insensitive file system that would clash with `Trove`.
        .executableTarget(
            name: "TroveCommand",
            dependencies: [
                "Trove",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Plugins
        // Each plugin folder holds a `Shared -> ../Shared` symlink: SwiftPM compiles the files behind it as the
        // plugin's own sources, so every plugin builds from one copy of the code they share.
        .plugin(
            name: "TrovePlugin",
            capability: .buildTool(),
            dependencies: ["trove-gen"]
        ),
        .plugin(
            name: "TroveCommandPlugin",
            capability: .command(
                intent: .custom(
                    verb: "trove",
                    description: "Write the generated Trove sources of annotated models into each target's Generated/ "
                        + "folder, or check them with --check"
                ),
                permissions: [
                    .writeToPackageDirectory(reason: "Writes the generated Trove sources into Generated/ folders")
                ]
            ),
            dependencies: ["trove-gen"]
        ),
        // The same check as `trove --check`, under its own verb with no permission: SwiftPM asks for a command
        // plugin's permissions before running it, whatever its arguments, so CI could not run that one unasked.
        .plugin(
            name: "TroveCheckPlugin",
            capability: .command(
                intent: .custom(
                    verb: "trove-check",
                    description: "Check that the committed generated Trove sources of annotated models are up to "
                        + "date (writes nothing; for CI)"
                )
            ),
            dependencies: ["trove-gen"]
        ),

        // MARK: Example
        .executableTarget(
            name: "trove-demo",
            dependencies: ["Trove"],
            path: "Examples/TroveDemo",
            swiftSettings: strictSettings,
            plugins: [.plugin(name: "TrovePlugin")]
        ),

        // MARK: Tests of the runtime
        .target(
            name: "TroveTestSupport",
            dependencies: ["Trove", "TroveSync"],
            path: "Tests/TroveTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TroveTests",
            dependencies: ["Trove", "TroveTestSupport", "TroveCSQLite"],
            // Database files written by earlier versions, for the upgrade tests; found via #filePath.
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),

        // The PostgreSQL backend's tests: they need a server, named by TROVE_POSTGRES_URL
        // (Scripts/postgres-test-server.sh starts one); without it they skip, saying so.
        .testTarget(
            name: "TrovePostgresTests",
            dependencies: [
                "Trove", "TrovePostgres", "TroveTestSupport", "trove-postgres-writer",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The child process of the killed-instance test: commits to a PostgreSQL store, printing
        // each commit, until the test kills it. A dependency of the test target so that building
        // the tests builds it too.
        .executableTarget(
            name: "trove-postgres-writer",
            dependencies: ["Trove", "TrovePostgres"],
            path: "Tests/trove-postgres-writer",
            swiftSettings: strictSettings
        ),

        // A replica process of the sync convergence test: edits and syncs at random until killed.
        .executableTarget(
            name: "trove-sync-replica",
            dependencies: ["Trove", "TroveSync", "TroveTestSupport"],
            path: "Tests/trove-sync-replica",
            swiftSettings: strictSettings
        ),
        // The merge of sync: convergence of replicas against a brute-force model.
        .testTarget(
            name: "TroveSyncTests",
            dependencies: ["Trove", "TroveSync", "TroveTestSupport"],
            swiftSettings: strictSettings
        ),
        // Sync through a real server: PostgreSQL (TROVE_POSTGRES_URL, as TrovePostgresTests) and
        // Hummingbird on loopback, replicas on SQLite files talking HTTP, some in processes of
        // their own (`trove-sync-replica`, killed at random).
        .testTarget(
            name: "TroveSyncServerTests",
            dependencies: [
                "Trove", "TroveSync", "TroveSyncServer", "TrovePostgres", "TroveTestSupport", "trove-sync-replica",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Tests of the generator
        .testTarget(
            name: "TroveGeneratorTests",
            dependencies: [
                "TroveGenerator", "TroveTemplates", "TroveTestSupport",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TroveGeneratorReferenceTests",
            dependencies: ["TroveGenerator"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TroveConsumerTests",
            // `TroveCommand`: the end-to-end tests of the `trove` command run the built executable;
            // `trove-crash-writer` commits while `trove backup` copies the file (its launcher,
            // `Support/ChildProcess.swift`, is a symlink to the reliability tests' copy).
            dependencies: ["Trove", "TroveCommand", "TroveTestSupport", "trove-crash-writer"],
            swiftSettings: strictSettings
        ),
        // An extension written against Trove's public API alone (issue 32), and its tests: the
        // crash writer registers it too, for the tests that kill a process while it follows writes.
        .target(
            name: "TroveUserExtension",
            dependencies: ["Trove", "TroveTestSupport"],
            path: "Tests/TroveUserExtension",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TroveUserExtensionTests",
            dependencies: ["Trove", "TroveUserExtension", "TroveTestSupport", "trove-crash-writer"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TroveConsumerMainActorTests",
            dependencies: ["Trove"],
            swiftSettings: strictSettings + [.unsafeFlags(["-default-isolation", "MainActor"])]
        ),
        .testTarget(
            name: "TroveGenTests",
            dependencies: ["trove-gen"],
            swiftSettings: strictSettings
        ),

        // MARK: Reliability tests
        // The child process of the crash tests: writes in many transactions, printing each commit,
        // until the test kills it. A dependency of the test target so that building the tests
        // builds it too.
        .executableTarget(
            name: "trove-crash-writer",
            dependencies: ["Trove", "TroveSync", "TroveTestSupport", "TroveUserExtension"],
            path: "Tests/trove-crash-writer",
            swiftSettings: strictSettings
        ),
        // A libFuzzer target of the decoders (RELIABILITY.md has the command); a plain build
        // writes its seed corpus and replays inputs.
        .executableTarget(
            name: "trove-fuzz",
            dependencies: ["Trove", "TroveTestSupport"],
            path: "Tests/trove-fuzz",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TroveReliabilityTests",
            dependencies: ["Trove", "TroveSync", "TroveTestSupport", "TroveCSQLite", "trove-crash-writer"],
            exclude: ["CompileChecks"],
            swiftSettings: strictSettings
        ),

        // MARK: Documentation
        // Compiles every Swift block of README.md and of the DocC catalogs against the built modules
        // (issue 30). `Context` holds what the blocks use without declaring it; the test hands it to
        // the compiler itself, so it is not part of the target.
        .testTarget(
            name: "TroveDocTests",
            dependencies: [
                "Trove", "TrovePostgres", "TroveSync", "TroveSyncServer", "TroveTestSupport", "trove-gen",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            exclude: ["Context"],
            swiftSettings: strictSettings
        ),

        // MARK: Tests of the plugins' shared code
        // `ManifestScanner.swift` is a symlink to the plugins' copy: a plugin cannot be imported by a test.
        .testTarget(
            name: "TrovePluginSupportTests",
            swiftSettings: strictSettings
        ),
    ]
)

// MARK: Sanitizer builds
// `.ci/run` runs the runtime's tests under AddressSanitizer and ThreadSanitizer with
// `TROVE_RUNTIME_ONLY=1` (and scratch paths of their own): the package is then the runtime and its
// tests alone. A sanitizer build of everything spends most of its time on swift-syntax, whose code
// none of these tests runs, and SwiftPM links every test target into one test product, so a
// `--filter` does not shorten the build. A new test target of the runtime joins the sanitizer runs
// by being added to this list.
if Context.environment["TROVE_RUNTIME_ONLY"] == "1" {
    let runtimeTargets: Set<String> = [
        "TroveCSQLite", "Trove", "TroveTestSupport", "TroveTests", "trove-crash-writer", "TroveReliabilityTests",
        "TroveUserExtension", "TroveUserExtensionTests", "TroveSync", "TroveSyncTests",
    ]
    // `TROVE_WITH_COMMAND=1` keeps the `trove` command too (the encryption tests run it on an
    // encrypted file), and swift-argument-parser, its one dependency.
    let withCommand = Context.environment["TROVE_WITH_COMMAND"] == "1"
    package.targets.removeAll { !runtimeTargets.contains($0.name) && !(withCommand && $0.name == "TroveCommand") }
    package.products.removeAll { $0.name != "Trove" && !(withCommand && $0.name == "trove") }
    package.dependencies = withCommand ? [argumentParser] : []
}
