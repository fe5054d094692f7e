// swift-tools-version: 6.1
import PackageDescription

// A small JSON HTTP service over Trove, on Hummingbird 2: its own package, so that neither a web
// framework nor GRDB enters the dependency graph of Trove's users or the main test build. The same
// service runs on GRDB's `DatabasePool` (`--store grdb`), so that both are measured in one load test.
//
//     swift run -c release --package-path Examples/TroveServer trove-server --store trove --port 8080
//     Examples/TroveServer/Scripts/loadtest.sh            # wrk against both stores
//
// See Examples/TroveServer/README.md.

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "TroveServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Trove", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The models, both stores and the routes: a library, so that the tests drive the same
        // application as the executable.
        .target(
            name: "TroveServerApp",
            dependencies: [
                .product(name: "Trove", package: "Trove"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "trove-server",
            dependencies: [
                "TroveServerApp",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/TroveServer",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TroveServerTests",
            dependencies: [
                "TroveServerApp",
                // A second connection that holds the write lock in BusyWriterTests.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
