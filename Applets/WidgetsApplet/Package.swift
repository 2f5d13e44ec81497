// swift-tools-version: 6.1
// The widget gallery: every AppletUI widget, with keys to hide, show and disable some.
// It depends back on the AppletKit root package (two folders up) for the framework's products.
import Foundation
import PackageDescription

// The root's package identity is its folder's name, whatever the clone was called.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "WidgetsApplet",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WidgetsApplet", targets: ["WidgetsApplet"]),
        .library(name: "WidgetsAppletInterface", targets: ["WidgetsAppletInterface"]),
    ],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "WidgetsAppletInterface", dependencies: [.product(name: "AppletState", package: root), .product(name: "AppletUI", package: root)]),
        .target(name: "WidgetsApplet", dependencies: ["WidgetsAppletInterface", .product(name: "Applet", package: root),
            // Named directly too: incremental builds only track direct imports.
            .product(name: "AppletState", package: root), .product(name: "AppletUI", package: root)]),
    ],
    swiftLanguageModes: [.v6]
)
