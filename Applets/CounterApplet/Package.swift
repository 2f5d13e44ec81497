// swift-tools-version: 6.1
// An example applet package: the applet, and an Interface target with the state it shares.
// It depends back on the AppletKit root package (two folders up) for the framework's products.
import Foundation
import PackageDescription

// The root's package identity is its folder's name, whatever the clone was called.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "CounterApplet",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CounterApplet", targets: ["CounterApplet"]),
        .library(name: "CounterAppletInterface", targets: ["CounterAppletInterface"]),
    ],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "CounterAppletInterface", dependencies: [.product(name: "AppletState", package: root)]),
        .target(name: "CounterApplet", dependencies: ["CounterAppletInterface", .product(name: "Applet", package: root),
            // Named directly too: incremental builds only track direct imports.
            .product(name: "AppletState", package: root), .product(name: "AppletUI", package: root)]),
    ],
    swiftLanguageModes: [.v6]
)
