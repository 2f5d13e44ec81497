// swift-tools-version: 6.1
// The counter: + and - change a count kept across restarts; other applets share it through CounterAppletInterface.
// An applet package as any other would be: the applet, an Interface target with the state it
// shares, and its tests. It depends on AppletKit (here by path, two folders up; elsewhere by URL).
import PackageDescription

let package = Package(
    name: "CounterApplet",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CounterApplet", targets: ["CounterApplet"]),
        .library(name: "CounterAppletInterface", targets: ["CounterAppletInterface"]),
    ],
    dependencies: [
        .package(name: "AppletKit", path: "../.."),
    ],
    targets: [
        .target(name: "CounterAppletInterface", dependencies: [.product(name: "AppletKit", package: "AppletKit")]),
        .target(name: "CounterApplet", dependencies: [
            "CounterAppletInterface",
            .product(name: "AppletKit", package: "AppletKit"),
        ]),
        .testTarget(name: "CounterAppletTests", dependencies: [
            "CounterApplet",
            .product(name: "AppletTesting", package: "AppletKit"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
