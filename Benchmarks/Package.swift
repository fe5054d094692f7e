// swift-tools-version: 6.1
import PackageDescription

// The benchmark suite of Trove: its own package, so that GRDB never enters the dependency graph
// of Trove's users or the main test build.
//
//     swift run -c release --package-path Benchmarks trove-benchmarks
//
// See BENCHMARKS.md at the root of the repository for what it measures and the latest figures.

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "TroveBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Trove", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
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
            ],
            path: "Sources/TroveBenchmarks",
            swiftSettings: strictSettings
        ),
    ]
)
