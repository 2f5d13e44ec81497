// swift-tools-version: 6.1
// The dashboard: the Counter applet's shared count, known only through CounterAppletInterface, with a goal.
// An applet package as any other would be: the applet, an Interface target with the state it
// shares, and its tests. It depends on AppletKit (here by path, two folders up; elsewhere by URL).
import PackageDescription

let package = Package(
    name: "DashboardApplet",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DashboardApplet", targets: ["DashboardApplet"]),
        .library(name: "DashboardAppletInterface", targets: ["DashboardAppletInterface"]),
    ],
    dependencies: [
        .package(name: "AppletKit", path: "../.."),
        .package(path: "../CounterApplet"),
    ],
    targets: [
        .target(name: "DashboardAppletInterface", dependencies: [.product(name: "AppletKit", package: "AppletKit")]),
        .target(name: "DashboardApplet", dependencies: [
            "DashboardAppletInterface",
            .product(name: "CounterAppletInterface", package: "CounterApplet"),
            .product(name: "AppletKit", package: "AppletKit"),
        ]),
        .testTarget(name: "DashboardAppletTests", dependencies: [
            "DashboardApplet",
            .product(name: "AppletTesting", package: "AppletKit"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
