// swift-tools-version: 6.1
// Benchmarks, kept out of the main package so that `make test` and CI never build them.
// Run with `make bench` (release build, ordo-one/benchmark).
//
// The framework's modules are compiled here from their real sources (Modules/* are symlinks to
// ../Sources/*) rather than through a dependency on the root package: SwiftPM 6.3 crashes
// planning a build plugin in a graph that contains the root ⇄ Applets package cycle.
import PackageDescription

let package = Package(
    name: "AppletKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(name: "AppletState", dependencies: [.product(name: "Logging", package: "swift-log")], path: "Modules/AppletState"),
        .systemLibrary(name: "CNcurses", path: "Modules/CNcurses", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        .target(name: "CNcursesShim", dependencies: ["CNcurses"], path: "Modules/CNcursesShim"),
        .target(name: "Terminal", dependencies: ["CNcursesShim"], path: "Modules/Terminal"),
        .target(name: "AppletUI", dependencies: ["Terminal", "AppletState"], path: "Modules/AppletUI"),
        .target(name: "Applet", dependencies: ["AppletUI", "AppletState", "Terminal"], path: "Modules/Applet"),
        .target(name: "AppletKit", dependencies: [
            "Applet", "AppletUI", "AppletState", "Terminal", .product(name: "Logging", package: "swift-log"),
        ], path: "Modules/AppletKit"),
        .target(name: "UIScreens", dependencies: ["AppletKit", "Applet", "AppletUI", "Terminal", "AppletState"], path: "UIScreens"),
        .executableTarget(
            name: "UIBenchmarks",
            dependencies: [
                "UIScreens", "AppletKit", "Applet", "AppletUI", "Terminal", "AppletState",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "UIBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The same screens in a plain timing loop, for perf and to cross-check the harness.
        .executableTarget(
            name: "UIProfile",
            dependencies: ["UIScreens", "AppletKit", "Applet", "AppletUI", "Terminal", "AppletState"],
            path: "UIProfile"
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: ["AppletState", .product(name: "Benchmark", package: "benchmark")],
            path: "StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
