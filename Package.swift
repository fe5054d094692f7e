// swift-tools-version: 6.1
import PackageDescription

/// Settings every target shares: Swift 6 language mode is the default of tools 6.x; these add the
/// upcoming features the project holds itself to.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Trove",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Trove", targets: ["Trove"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
    ],
    targets: [
        // MARK: Runtime
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "Trove",
            dependencies: ["CSQLite"],
            swiftSettings: strictSettings
        ),

        // MARK: Tests of the runtime
        .target(
            name: "TroveTestSupport",
            dependencies: ["Trove"],
            path: "Tests/TroveTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TroveTests",
            dependencies: ["Trove", "TroveTestSupport", "CSQLite"],
            swiftSettings: strictSettings
        ),

        // MARK: Reliability tests
        // The child process of the crash tests: writes in many transactions, printing each commit,
        // until the test kills it. A dependency of the test target so that building the tests
        // builds it too.
        .executableTarget(
            name: "trove-crash-writer",
            dependencies: ["Trove", "TroveTestSupport"],
            path: "Tests/trove-crash-writer",
            swiftSettings: strictSettings
        ),
        // A libFuzzer target of the decoders (RELIABILITY.md has the command); a plain build
        // writes its seed corpus and replays inputs.
        .executableTarget(
            name: "trove-fuzz",
            dependencies: ["TroveTestSupport"],
            path: "Tests/trove-fuzz",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TroveReliabilityTests",
            dependencies: ["Trove", "TroveTestSupport", "CSQLite", "trove-crash-writer"],
            exclude: ["CompileChecks"],
            swiftSettings: strictSettings
        ),
    ]
)
