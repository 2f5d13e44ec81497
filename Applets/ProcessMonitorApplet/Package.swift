// swift-tools-version: 6.1
// Processes: a process monitor over /proc, written on the logic layer. It refreshes on a timer,
// sorts, filters, and signals a process after asking. Every change of state is a request, reading
// /proc is a coeffect and signalling is a side effect, so tests fake the system and a recorded
// session replays.
// An applet package as any other would be: the applet, an Interface target with the state it
// shares, and its tests. It depends on AppletKit (here by path, two folders up; elsewhere by URL).
import PackageDescription

let package = Package(
    name: "ProcessMonitorApplet",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ProcessMonitorApplet", targets: ["ProcessMonitorApplet"]),
        .library(name: "ProcessMonitorAppletInterface", targets: ["ProcessMonitorAppletInterface"]),
    ],
    dependencies: [
        .package(name: "AppletKit", path: "../.."),
    ],
    targets: [
        .target(name: "ProcessMonitorAppletInterface", dependencies: [.product(name: "AppletKit", package: "AppletKit")]),
        .target(name: "ProcessMonitorApplet", dependencies: [
            "ProcessMonitorAppletInterface",
            .product(name: "AppletKit", package: "AppletKit"),
        ]),
        .testTarget(name: "ProcessMonitorAppletTests", dependencies: [
            "ProcessMonitorApplet",
            .product(name: "AppletTesting", package: "AppletKit"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
