// swift-tools-version: 6.1
// The widget gallery: every widget, with keys to hide, show and disable some through its WidgetManager.
// An applet package as any other would be: the applet, an Interface target with the state it
// shares, and its tests. It depends on AppletKit (here by path, two folders up; elsewhere by URL).
import PackageDescription

let package = Package(
    name: "WidgetsApplet",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WidgetsApplet", targets: ["WidgetsApplet"]),
        .library(name: "WidgetsAppletInterface", targets: ["WidgetsAppletInterface"]),
    ],
    dependencies: [
        .package(name: "AppletKit", path: "../.."),
    ],
    targets: [
        .target(name: "WidgetsAppletInterface", dependencies: [.product(name: "AppletKit", package: "AppletKit")]),
        .target(name: "WidgetsApplet", dependencies: [
            "WidgetsAppletInterface",
            .product(name: "AppletKit", package: "AppletKit"),
        ]),
        .testTarget(name: "WidgetsAppletTests", dependencies: [
            "WidgetsApplet",
            .product(name: "AppletTesting", package: "AppletKit"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
