// swift-tools-version: 6.1
import PackageDescription

// Sync (issue 33) as an app uses it: a sync server on PostgreSQL and Hummingbird, and a replica
// command-line tool whose every edit is local (offline) until `todo sync`. Its own package, like
// Examples/TroveServer: Trove's users never build a web framework for the examples.
//
//     Examples/TroveSync/Scripts/demo.sh      # two replicas, an offline edit on each, the merge
//
// See Examples/TroveSync/README.md.

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "TroveSyncExample",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Trove", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The synced model and its generated code (committed in Generated/).
        .target(
            name: "TodoModel",
            dependencies: [.product(name: "Trove", package: "Trove")],
            swiftSettings: strictSettings
        ),
        // The server: TroveSyncServer's routes on a PostgreSQL store, mounted at /sync.
        .executableTarget(
            name: "trove-sync-server",
            dependencies: [
                .product(name: "TroveSyncServer", package: "Trove"),
                .product(name: "TrovePostgres", package: "Trove"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/trove-sync-server",
            swiftSettings: strictSettings
        ),
        // A replica: one SQLite file, edited offline, synced on `todo sync`.
        .executableTarget(
            name: "todo",
            dependencies: [
                "TodoModel",
                .product(name: "Trove", package: "Trove"),
                .product(name: "TroveSync", package: "Trove"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/todo",
            swiftSettings: strictSettings
        ),
    ]
)
