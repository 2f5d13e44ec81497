// swift-tools-version: 6.1
// The demo host, `appletkit`: the example applets in tabs, and `appletkit new-applet` to start a
// package of your own. It depends on AppletKit (one folder up) and on each example applet package,
// as an app in another repository would.
import PackageDescription

let package = Package(
    name: "AppletKitDemo",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "appletkit", targets: ["AppletKitDemo"]),
        .executable(name: "appletkit-fixture", targets: ["ReliabilityFixture"]),
        .executable(name: "appletkit-state-probe", targets: ["StateProbe"]),
        .executable(name: "appletkit-screens", targets: ["ScreenMaker"]),
    ],
    dependencies: [
        .package(name: "AppletKit", path: ".."),
        .package(path: "../Applets/CounterApplet"),
        .package(path: "../Applets/DashboardApplet"),
        .package(path: "../Applets/ListApplet"),
        .package(path: "../Applets/NotesApplet"),
        .package(path: "../Applets/ProcessMonitorApplet"),
        .package(path: "../Applets/WidgetsApplet"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "AppletKitDemo",
            dependencies: [
                "AppletGenerator",
                "DemoTabs",
                .product(name: "AppletKit", package: "AppletKit"),
                // `--sync-url postgres://…`: the dashboard's goal across machines.
                .product(name: "AppletSync", package: "AppletKit"),
                .product(name: "WidgetsApplet", package: "WidgetsApplet"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The demo's tabs: one per example applet package.
        .target(name: "DemoTabs", dependencies: [
            .product(name: "AppletKit", package: "AppletKit"),
            .product(name: "CounterApplet", package: "CounterApplet"),
            .product(name: "DashboardApplet", package: "DashboardApplet"),
            .product(name: "ListApplet", package: "ListApplet"),
            .product(name: "NotesApplet", package: "NotesApplet"),
            .product(name: "ProcessMonitorApplet", package: "ProcessMonitorApplet"),
            .product(name: "WidgetsApplet", package: "WidgetsApplet"),
        ]),
        // The demo's screens on fixtures (README, Docs, golden screens), and what draws them into
        // the documents (`make screens`).
        .target(name: "DemoScreens", dependencies: [
            "DemoTabs",
            .product(name: "AppletTesting", package: "AppletKit"),
            .product(name: "NotesApplet", package: "NotesApplet"),
            .product(name: "ProcessMonitorApplet", package: "ProcessMonitorApplet"),
            .product(name: "ProcessMonitorAppletInterface", package: "ProcessMonitorApplet"),
        ]),
        .executableTarget(name: "ScreenMaker", dependencies: ["DemoScreens"]),
        // An app for the reliability suite: a counter, a burst of saves, and a key that crashes.
        .executableTarget(name: "ReliabilityFixture", dependencies: [.product(name: "AppletKit", package: "AppletKit")]),
        // A program that sets stored state and ends at once (the exit flush check).
        .executableTarget(name: "StateProbe", dependencies: [.product(name: "AppletState", package: "AppletKit")]),
        // `appletkit new-applet`: the files of a new applet package (Foundation only).
        .target(name: "AppletGenerator"),
        .testTarget(name: "DemoTests", dependencies: [
            "AppletKitDemo", "DemoTabs", "DemoScreens",
            .product(name: "AppletTesting", package: "AppletKit"),
        ]),
        .testTarget(name: "AppletGeneratorTests", dependencies: ["AppletGenerator"]),
        // The real binary in tmux and on pseudo-terminals, and packages built from outside.
        .testTarget(name: "EndToEndTests", dependencies: [
            .product(name: "AppletTesting", package: "AppletKit"),
            // A throwaway PostgreSQL server for the sync tests.
            .product(name: "AppletSyncTesting", package: "AppletKit"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
