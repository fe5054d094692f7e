// swift-tools-version: 6.1
import PackageDescription

// A server-style package for Tests/EndToEnd/run.sh: it has its own target named `CSQLite` (the name apps and
// packages give their SQLite shim), depends on Trove by path and on vapor/sqlite-nio, and uses all three in one
// executable. Target names are unique across a package graph, so this resolves only while Trove's own
// system-library target has a name of its own (`TroveCSQLite`). The script works on a copy whose dependency path
// points at the repository root; opened in place, `../../..` is that root too.
let package = Package(
    name: "OwnCSQLiteConsumer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Trove", path: "../../.."),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
    ],
    targets: [
        .target(
            name: "CSQLite",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        .executableTarget(
            name: "OwnCSQLiteApp",
            dependencies: [
                "CSQLite",
                .product(name: "Trove", package: "Trove"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ]
        ),
    ]
)
