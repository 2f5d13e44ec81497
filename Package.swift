// swift-tools-version: 6.1
// The AppletKit framework and its demo host. Each example applet is its own package under
// Applets/ that depends back on this package's library products; SwiftPM accepts that cycle
// between packages because the target graph has none.
import PackageDescription

let package = Package(
    name: "AppletKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Terminal", targets: ["Terminal"]),
        .library(name: "AppletState", targets: ["AppletState"]),
        .library(name: "AppletUI", targets: ["AppletUI"]),
        .library(name: "Applet", targets: ["Applet"]),
        .library(name: "AppletKit", targets: ["AppletKit"]),
        .executable(name: "appletkit", targets: ["appletkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(path: "Applets/CounterApplet"),
        .package(path: "Applets/DashboardApplet"),
        .package(path: "Applets/ListApplet"),
        .package(path: "Applets/WidgetsApplet"),
    ],
    targets: [
        // ncursesw from the system (Debian: libncurses-dev), and a C shim for what Swift can't do.
        .systemLibrary(
            name: "CNcurses",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        .target(name: "CNcursesShim", dependencies: ["CNcurses"]),
        .target(name: "Terminal", dependencies: ["CNcursesShim"]),
        .target(name: "AppletState", dependencies: [.product(name: "Logging", package: "swift-log")]),
        .target(name: "AppletUI", dependencies: ["Terminal", "AppletState"]),
        .target(name: "Applet", dependencies: ["AppletUI", "AppletState", "Terminal"]),
        // Every module names (and imports) what it uses directly: the incremental build only
        // tracks direct imports, and a layout change seen through `@_exported` alone would
        // leave stale code behind.
        .target(name: "AppletKit", dependencies: [
            "Applet", "AppletUI", "AppletState", "Terminal",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(
            name: "appletkit",
            dependencies: [
                "AppletKit", "AppletState", "AppletUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CounterApplet", package: "CounterApplet"),
                .product(name: "DashboardApplet", package: "DashboardApplet"),
                .product(name: "ListApplet", package: "ListApplet"),
                .product(name: "WidgetsApplet", package: "WidgetsApplet"),
            ]
        ),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
        .testTarget(name: "AppletStateTests", dependencies: ["AppletState"]),
        // Golden screens are read from the source tree by path (#filePath), not bundled.
        .testTarget(name: "AppletUITests", dependencies: ["AppletUI"], exclude: ["__Snapshots__"]),
        .testTarget(
            name: "AppletKitTests",
            dependencies: [
                "AppletKit",
                "AppletState",
                .product(name: "CounterApplet", package: "CounterApplet"),
                .product(name: "CounterAppletInterface", package: "CounterApplet"),
                .product(name: "DashboardApplet", package: "DashboardApplet"),
                .product(name: "DashboardAppletInterface", package: "DashboardApplet"),
                .product(name: "ListApplet", package: "ListApplet"),
                .product(name: "ListAppletInterface", package: "ListApplet"),
                .product(name: "WidgetsApplet", package: "WidgetsApplet"),
                .product(name: "WidgetsAppletInterface", package: "WidgetsApplet"),
            ]
        ),
        .testTarget(name: "EndToEndTests"),
    ],
    swiftLanguageModes: [.v6]
)
