// swift-tools-version: 6.1
// Notes: a list, a detail screen and an editor on a navigation stack, a tags sheet, a delete
// confirmation and a toast on save.
// An applet package as any other would be: the applet, an Interface target with the state it
// shares, and its tests. It depends on AppletKit (here by path, two folders up; elsewhere by URL).
import PackageDescription

let package = Package(
    name: "NotesApplet",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "NotesApplet", targets: ["NotesApplet"]),
        .library(name: "NotesAppletInterface", targets: ["NotesAppletInterface"]),
    ],
    dependencies: [
        .package(name: "AppletKit", path: "../.."),
    ],
    targets: [
        .target(name: "NotesAppletInterface", dependencies: [.product(name: "AppletKit", package: "AppletKit")]),
        .target(name: "NotesApplet", dependencies: [
            "NotesAppletInterface",
            .product(name: "AppletKit", package: "AppletKit"),
        ]),
        .testTarget(name: "NotesAppletTests", dependencies: [
            "NotesApplet",
            .product(name: "AppletTesting", package: "AppletKit"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
