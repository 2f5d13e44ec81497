// The text of each file a new applet package starts with. Kept short: every line is something the
// author will read and change.
extension AppletPackageTemplate {
    var dependencyLine: String {
        switch framework {
        case .url(let url, let version): return ".package(url: \"\(url)\", from: \"\(version)\")"
        case .path(let path): return ".package(name: \"AppletKit\", path: \"\(path)\")"
        }
    }

    var manifest: String {
        let kit = frameworkIdentity
        return """
        // swift-tools-version: 6.1
        // The \(name) applet: the applet, the state it shares with other applets (\(interfaceTarget)),
        // a host that runs it full screen (`swift run \(executable)`) and its tests (`swift test`).
        import PackageDescription

        let package = Package(
            name: "\(packageName)",
            platforms: [.macOS(.v15)],
            products: [
                .library(name: "\(appletTarget)", targets: ["\(appletTarget)"]),
                .library(name: "\(interfaceTarget)", targets: ["\(interfaceTarget)"]),
                .executable(name: "\(executable)", targets: ["\(hostTarget)"]),
            ],
            dependencies: [
                \(dependencyLine),
                // The app's own command-line options (`import ArgumentParser` in \(hostTarget); Docs/AppOptions.md).
                .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
            ],
            targets: [
                // What other applets import to read or change \(name)'s state: state only, no views.
                .target(name: "\(interfaceTarget)", dependencies: [.product(name: "AppletKit", package: "\(kit)")]),
                .target(name: "\(appletTarget)", dependencies: [
                    "\(interfaceTarget)",
                    .product(name: "AppletKit", package: "\(kit)"),
                ]),
                .executableTarget(name: "\(hostTarget)", dependencies: [
                    "\(appletTarget)",
                    "\(interfaceTarget)",
                    .product(name: "AppletKit", package: "\(kit)"),
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                ]),
                .testTarget(name: "\(testTarget)", dependencies: [
                    "\(appletTarget)",
                    .product(name: "AppletTesting", package: "\(kit)"),
                ]),
            ],
            swiftLanguageModes: [.v6]
        )

        """
    }

    var interfaceSource: String {
        """
        import AppletKit

        /// What the \(name) applet keeps and shares. Any applet that imports \(interfaceTarget)
        /// can read and change it; nothing else of \(name) is visible to them.
        public struct \(stateType): Codable, Equatable, Sendable {
            public var presses = 0
            public init(presses: Int = 0) { self.presses = presses }
        }

        extension Application {
            /// \(name)'s state, kept across restarts (a StoredState is saved in the app's state folder).
            public var \(stateProperty): StoredState<\(stateType)> {
                storedState(initial: \(stateType)(), feature: "\(name)", id: "state")
            }
        }

        """
    }

    var appletSource: String {
        """
        import AppletKit
        import \(interfaceTarget)

        /// The \(name) applet: a title, a count kept across restarts, a button and a key that add one.
        public struct \(appletTarget): Applet {
            public let id = "\(appletID)"
            public let title = "\(name)"
            @StoredState(\\.\(stateProperty)) private var state

            public init() {}

            public var body: some View {
                VStack(spacing: 1) {
                    Text("\(name)").bold()
                    Text("Presses: \\(state.presses)")
                    Button("Press me") { state.presses += 1 }
                    Text("Edit Sources/\(appletTarget)/\(appletTarget).swift to make this applet yours.").dim()
                }
                .padding(1)
            }

            /// Keys this applet takes while it has focus; the footer and `?` list them.
            public var commands: [Command] {
                let state = $state
                return [Command("+", "Press") { state.wrappedValue.presses += 1 }]
            }
        }

        """
    }

    var hostSource: String {
        """
        import AppletKit
        import \(appletTarget)

        /// Runs the \(name) applet full screen: `swift run \(executable)` (q quits, `--help` lists the options).
        @main
        struct \(hostTarget): AppletApp {
            static let id = "\(executable)"
            static let version = "0.1.0"
            static let abstract = "The \(name) applet, full screen."

            var tabs: [Tab] { [Tab(\(appletTarget)())] }
        }

        """
    }

    var testSource: String {
        """
        import AppletTesting
        import \(appletTarget)
        import Testing

        @Suite("\(name) applet")
        @MainActor
        struct \(testTarget) {
            @Test func plusAddsOne() throws {
                // A host on a headless 60x10 screen, with a store of its own in a temporary folder.
                let host = try AppletTestHost(\(appletTarget)(), width: 60, height: 10)
                host.expectRows(2..<5, toShow: \"\"\"
                     \(name)

                     Presses: 0
                    \"\"\")
                host.press("+", "+")
                host.expectRows(4..<5, toShow: " Presses: 2")
            }

            @Test func theButtonAddsOneToo() throws {
                let host = try AppletTestHost(\(appletTarget)(), width: 60, height: 10)
                host.press("enter")                        // the button has focus
                #expect(host.contains("Presses: 1"))
                #expect(host.application.\(stateProperty).value.presses == 1)
            }
        }

        """
    }

    var readme: String {
        """
        # \(packageName)

        An AppletKit applet for the terminal.

        ```sh
        swift run \(executable)    # run it full screen (q quits, ? lists the keys)
        swift test          # run its headless tests
        ```

        | Path | What it is |
        | --- | --- |
        | `Sources/\(appletTarget)/` | the applet: its view and key commands |
        | `Sources/\(interfaceTarget)/` | the state it shares; other applets import only this |
        | `Sources/\(hostTarget)/` | a host that shows the applet full screen |
        | `Tests/\(testTarget)/` | tests on a headless screen (`AppletTesting`) |

        To show it in another app, add this package as a dependency of the app and a tab for it:
        `Tab(\(appletTarget)())`.

        """
    }

    var gitignore: String {
        """
        .build/
        .swiftpm/
        Package.resolved

        """
    }
}
