// swift-tools-version: 6.1
import PackageDescription

// The benchmark suite of Trove: its own package, so that GRDB never enters the dependency graph
// of Trove's users or the main test build.
//
//     swift run -c release --package-path Benchmarks trove-benchmarks
//
// See BENCHMARKS.md at the root of the repository for what it measures and the latest figures.
//
// The PostgreSQL suite (issue 18: Trove against raw postgres-nio and Fluent) and the sync suite
// (issue 33: TroveSync against TroveSyncServer on loopback) are behind the package
// trait `Postgres`, off by default, so that a plain run (CI's smoke run among them) does not build
// postgres-nio and Fluent (BENCHMARKS.md, "PostgreSQL", has the command that runs it alone):
//
//     swift run -c release --package-path Benchmarks --traits Postgres trove-benchmarks

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "TroveBenchmarks",
    platforms: [.macOS(.v15)],
    traits: [
        .trait(
            name: "Encryption",
            description:
                "Trove built with its trait Encryption (SQLite3 Multiple Ciphers, which then runs every implementation): adds the column 'Trove, encrypted' (issue 34)"),
        .trait(
            name: "Postgres",
            description: "The PostgreSQL suite: Trove's PostgresStore against raw postgres-nio and Fluent (issue 18)")
    ],
    dependencies: [
        .package(
            name: "Trove", path: "..",
            traits: [.defaults, .init(name: "Encryption", condition: .when(traits: ["Encryption"]))]),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // Used only with the `Postgres` trait: built only then (FluentKit and its PostgreSQL
        // driver without Vapor: vapor/fluent itself is FluentKit plus Vapor's glue).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/fluent-kit", from: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver", from: "2.14.0"),
        // The sync suite's loopback server (issue 33), with the `Postgres` trait too.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        // The SQLite C API for the raw SQLite implementations (the baseline and Codable+JSON).
        .systemLibrary(
            name: "CSQLiteBenchmark",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // Callgrind's client requests (no-ops outside valgrind), for Scripts/instructions.sh.
        .systemLibrary(name: "CCallgrind"),
        .executableTarget(
            name: "trove-benchmarks",
            dependencies: [
                "CCallgrind",
                "CSQLiteBenchmark",
                .product(name: "Trove", package: "Trove"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TrovePostgres", package: "Trove", condition: .when(traits: ["Postgres"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "TroveSync", package: "Trove", condition: .when(traits: ["Postgres"])),
                .product(name: "TroveSyncServer", package: "Trove", condition: .when(traits: ["Postgres"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Postgres"])),
                .product(name: "FluentKit", package: "fluent-kit", condition: .when(traits: ["Postgres"])),
                .product(
                    name: "FluentPostgresDriver", package: "fluent-postgres-driver",
                    condition: .when(traits: ["Postgres"])),
            ],
            path: "Sources/TroveBenchmarks",
            swiftSettings: strictSettings
        ),
    ]
)
