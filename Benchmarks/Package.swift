// swift-tools-version: 6.1
// Benchmarks, kept out of the framework's package so that `make test` and CI never build them.
// Run with `make bench` (release build, ordo-one/benchmark). They depend on AppletKit's library
// products, as any app does: what is measured is what users link.
import PackageDescription

let package = Package(
    name: "AppletKitBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        // The tabs workload (Tabs/README.md): the AppletKit app, and the driver that runs it and
        // Tabs/tabs.c side by side on pseudo-terminals (`make bench-tabs`).
        .executable(name: "tabs-appletkit", targets: ["TabsAppletKit"]),
        .executable(name: "tabs-driver", targets: ["TabsDriver"]),
        .executable(name: "tabs-floor", targets: ["TabsFloor"]),
        // SyncState across machines: a change's way from one instance to another through a
        // throwaway PostgreSQL, beside the server's own round trips (`make bench-sync`).
        .executable(name: "sync-bench", targets: ["SyncBenchmark"]),
    ],
    dependencies: [
        .package(name: "AppletKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // The reference round trips (SELECT 1, NOTIFY) on a connection of the benchmark's own.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // A figure beside its references, timed in the same process, with budgets on the ratios.
        .target(name: "BenchSupport", dependencies: [.product(name: "Benchmark", package: "benchmark")], path: "BenchSupport"),
        .target(name: "UIScreens", dependencies: [.product(name: "AppletKit", package: "AppletKit")], path: "UIScreens"),
        .executableTarget(
            name: "UIBenchmarks",
            dependencies: [
                "UIScreens",
                .product(name: "AppletKit", package: "AppletKit"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "UIBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The same screens in a plain timing loop, for perf and to cross-check the harness.
        .executableTarget(
            name: "UIProfile",
            dependencies: ["UIScreens", .product(name: "AppletKit", package: "AppletKit")],
            path: "UIProfile"
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                .product(name: "AppletState", package: "AppletKit"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchSupport",
            ],
            path: "StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The command palette's fuzzy filter and the key router, each timed beside a reference
        // measured in the same process, with budgets on the ratio.
        .executableTarget(
            name: "NavigationBenchmarks",
            dependencies: [
                .product(name: "AppletKit", package: "AppletKit"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchSupport",
            ],
            path: "NavigationBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Sending a request through AppletLogic's logic module, with and without recording, timed
        // beside a direct store write in the same process, with budgets on the ratios.
        .executableTarget(
            name: "LogicBenchmarks",
            dependencies: [
                // The product holds AppletState too (the store the requests change).
                .product(name: "AppletLogic", package: "AppletKit"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchSupport",
            ],
            path: "LogicBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The tabs workload as an AppletKit user writes it: the AppletKit product only.
        .executableTarget(
            name: "TabsAppletKit",
            dependencies: [.product(name: "AppletKit", package: "AppletKit")],
            path: "Tabs/AppletKit"
        ),
        // The floor: a Swift program with no framework that starts, encodes one JSON value and
        // waits for q (what the tabs figures cannot go below; see Tabs/README.md).
        .executableTarget(name: "TabsFloor", path: "Tabs/Floor"),
        // Runs Tabs/tabs.c and tabs-appletkit on pseudo-terminals, sends both the same keys, waits
        // for each key's effect on the parsed screen, and prints the side-by-side table.
        .executableTarget(
            name: "SyncBenchmark",
            dependencies: [
                .product(name: "AppletSync", package: "AppletKit"),
                .product(name: "AppletSyncTesting", package: "AppletKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sync"
        ),
        .executableTarget(
            name: "TabsDriver",
            dependencies: [.product(name: "AppletTesting", package: "AppletKit")],
            path: "Tabs/Driver"
        ),
    ],
    swiftLanguageModes: [.v6]
)
