// swift-tools-version: 6.2
import PackageDescription

// A package that uses Trove exactly as a user would, for Tests/EndToEnd/run.sh. The script works on a copy
// whose dependency path points at the repository root; opened in place, `../../..` is that root too.

/// Generated code must compile without warnings, in the Swift 6 language mode, with the features Trove uses.
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .unsafeFlags(["-warnings-as-errors"]),
]

let package = Package(
    name: "PluginConsumer",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "Trove", path: "../../.."),
    ],
    targets: [
        // Build mode: the plugin generates into its work directory on every build.
        .executableTarget(
            name: "BuildModeApp",
            dependencies: [.product(name: "Trove", package: "Trove")],
            swiftSettings: settings,
            plugins: [.plugin(name: "TrovePlugin", package: "Trove")]
        ),
        // Committed mode without the plugin: how a library ships generated code (no swift-syntax downstream).
        .target(
            name: "CommittedLibrary",
            dependencies: [.product(name: "Trove", package: "Trove")],
            swiftSettings: settings
        ),
        // Committed mode with the plugin: the plugin only verifies the committed files. Its module's default
        // isolation is the main actor, which generated code must also compile in.
        .executableTarget(
            name: "CommittedApp",
            dependencies: ["CommittedLibrary", .product(name: "Trove", package: "Trove")],
            swiftSettings: settings + [.defaultIsolation(MainActor.self)],
            plugins: [.plugin(name: "TrovePlugin", package: "Trove")]
        ),
    ]
)
