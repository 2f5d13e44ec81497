// swift-tools-version: 6.1
// A list of a million rows, only the visible ones ever built.
// An applet package as any other would be: the applet, an Interface target with the state it
// shares, and its tests. It depends on AppletKit (here by path, two folders up; elsewhere by URL).
import PackageDescription

let package = Package(
    name: "ListApplet",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ListApplet", targets: ["ListApplet"]),
        .library(name: "ListAppletInterface", targets: ["ListAppletInterface"]),
    ],
    dependencies: [
        .package(name: "AppletKit", path: "../.."),
    ],
    targets: [
        .target(name: "ListAppletInterface", dependencies: [.product(name: "AppletKit", package: "AppletKit")]),
        .target(name: "ListApplet", dependencies: [
            "ListAppletInterface",
            .product(name: "AppletKit", package: "AppletKit"),
        ]),
        .testTarget(name: "ListAppletTests", dependencies: [
            "ListApplet",
            .product(name: "AppletTesting", package: "AppletKit"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
