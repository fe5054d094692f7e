import Testing

/// `ManifestScanner` (compiled here through a symlink to `Plugins/Shared/ManifestScanner.swift`) decides which
/// targets a check skips as being in build mode, so it must find every usual spelling of a plugin usage and
/// nothing else.
struct ManifestScannerTests {
    func scan(_ manifest: String) -> Set<String> {
        ManifestScanner.targetsApplyingPlugin(named: "TrovePlugin", inManifest: manifest)
    }

    @Test func findsTargetsThatApplyThePluginFromAPackageOrLocally() {
        let manifest = """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "App",
                dependencies: [.package(url: "https://example.com/Trove", from: "1.0.0")],
                targets: [
                    .executableTarget(
                        name: "App",
                        dependencies: [.product(name: "Trove", package: "Trove")],
                        plugins: [.plugin(name: "TrovePlugin", package: "Trove")]
                    ),
                    .target(name: "Local", plugins: [.plugin(name: "TrovePlugin")]),
                    .testTarget(name: "AppTests", dependencies: ["App"], plugins: ["TrovePlugin"]),
                    .target(name: "Library", dependencies: [.product(name: "Trove", package: "Trove")]),
                    .target(name: "Other", plugins: [.plugin(name: "OtherPlugin", package: "Other")]),
                ]
            )
            """
        #expect(scan(manifest) == ["App", "Local", "AppTests"])
    }

    @Test func ignoresTheDeclarationsOfThePluginItself() {
        // Trove's own manifest names TrovePlugin as a product and as a plugin target: neither applies it.
        let manifest = """
            let package = Package(
                name: "Trove",
                products: [.plugin(name: "TrovePlugin", targets: ["TrovePlugin"])],
                targets: [
                    .target(name: "Trove"),
                    .plugin(name: "TrovePlugin", capability: .buildTool(), dependencies: ["trove-gen"]),
                    .executableTarget(name: "trove-demo", dependencies: ["Trove"], plugins: [.plugin(name: "TrovePlugin")]),
                ]
            )
            """
        #expect(scan(manifest) == ["trove-demo"])
    }

    @Test func ignoresCommentsAndStrings() {
        let manifest = #"""
            let package = Package(
                name: "App",
                targets: [
                    // .target(name: "Commented", plugins: [.plugin(name: "TrovePlugin")]),
                    /* .target(name: "Block", /* nested */ plugins: [.plugin(name: "TrovePlugin")]), */
                    .target(name: "Quoted", exclude: [".plugin(name: \"TrovePlugin\")", "a)]"]),
                    .target(name: "Plain"),
                ]
            )
            """#
        #expect(scan(manifest).isEmpty)
    }

    @Test func readsSettingsAndConditionsAroundTheUsage() {
        let manifest = """
            let package = Package(
                name: "App",
                targets: [
                    .target(
                        name: "App",
                        swiftSettings: [.define("A", .when(platforms: [.linux])), .unsafeFlags(["-x"])],
                        plugins: [
                            .plugin(name: "SwiftLintPlugin", package: "SwiftLint"),
                            .plugin(name: "TrovePlugin", package: "Trove"),
                        ]
                    ),
                    .target(name: #"Raw"#, plugins: [.plugin(name: #"TrovePlugin"#)]),
                ]
            )
            """
        #expect(scan(manifest) == ["App", "Raw"])
    }

    @Test func doesNotGuessWhatItCannotRead() {
        // A plugins array in a variable, or a computed target name, is not tied to a target.
        let manifest = #"""
            let trove: [Target.PluginUsage] = [.plugin(name: "TrovePlugin", package: "Trove")]
            let name = "App"
            let package = Package(
                name: "App",
                targets: [
                    .target(name: "Shared", plugins: trove),
                    .target(name: "\(name)Core", plugins: [.plugin(name: "TrovePlugin", package: "Trove")]),
                    .target(name: name, plugins: [.plugin(name: "TrovePlugin", package: "Trove")]),
                ]
            )
            """#
        #expect(scan(manifest).isEmpty)
    }
}
