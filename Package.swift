// swift-tools-version: 6.1
// The AppletKit framework: its library products and its tests, nothing else. The demo host (Demo/)
// and the example applets (Applets/) are packages of their own that depend on this one, as any
// app or applet in another repository does, by path or by a version tagged in a clone
// (Docs/GettingStarted.md, "Depend on AppletKit from your own package"):
//
//     .package(name: "AppletKit", path: "/home/you/src/AppletKit")
//     .package(url: "file:///home/you/src/AppletKit", from: "0.1.0")
import PackageDescription

// The framework's Swift modules, bottom to top. `AppletKit` re-exports the others, so a product that
// offers it lists all of them: SwiftPM rebuilds a client when the modules of its *direct*
// dependencies change, and a module seen only through a re-export would otherwise be missed,
// leaving code compiled against an old type layout behind (a crash or a link error).
let frameworkModules = ["TerminalCore", "Terminal", "AppletSupport", "AppletState", "AppletLogic", "AppletUI", "AppletNavigation", "AppletKit"]

let package = Package(
    name: "AppletKit",
    platforms: [.macOS(.v15)],
    products: [
        // What an applet, an Interface target or an app depends on: `import AppletKit`.
        .library(name: "AppletKit", targets: frameworkModules),
        // What an applet package's tests depend on: a headless host and screen assertions.
        .library(name: "AppletTesting", targets: frameworkModules + ["TerminalEmulator", "AppletTesting"]),
        // The layers on their own, for code that needs only them (a store without a terminal).
        .library(name: "AppletState", targets: ["AppletSupport", "AppletState"]),
        .library(name: "AppletLogic", targets: ["AppletSupport", "AppletState", "AppletLogic"]),
        .library(name: "AppletUI", targets: ["TerminalCore", "Terminal", "AppletSupport", "AppletState", "AppletUI"]),
        .library(name: "Terminal", targets: ["TerminalCore", "Terminal"]),
        // SyncState across machines on PostgreSQL. A product of its own, so that only apps that sync
        // build postgres-nio (and SwiftNIO, BoringSSL and the rest under it).
        .library(name: "AppletSync", targets: ["AppletState", "AppletSync"]),
        // A throwaway PostgreSQL cluster (initdb, pg_ctl, a Unix socket) for tests and benchmarks of
        // apps that sync.
        .library(name: "AppletSyncTesting", targets: ["AppletSyncTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Path arithmetic (FilePath) for the store's files, without NSString.
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // A clock tests control (chord timeouts, toasts).
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
        // Readable diffs of values in TestLogic's failures (AppletTesting).
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
        // The PostgreSQL client under AppletSync (and only there).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Under postgres-nio already; AppletSync makes its own socket (keepalive, no Dispatch
        // resolver) and TLS configuration.
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.25.0"),
    ],
    targets: [
        // A small C layer over the system's ncursesw (Debian: libncurses-dev). Linked by name rather
        // than through pkg-config, whose flags for ncursesw SwiftPM refuses with a warning.
        .target(
            name: "CNcursesShim",
            linkerSettings: [
                .linkedLibrary("ncursesw", .when(platforms: [.linux])),
                .linkedLibrary("ncurses", .when(platforms: [.macOS])),
            ]
        ),
        // The global executor's threads (GlobalExecutorPool): the Swift runtime's hooks, in C.
        .target(name: "CGlobalExecutor"),
        // The desktop keyring for SecureState: libsecret, loaded at run time with dlopen, so
        // building needs nothing more and a machine without it keeps secrets in files.
        .target(name: "CSecretService", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // What is drawn and read, as values: cells, styles, the canvas and its diff, events, key
        // specs, text widths, the Terminal protocol and the headless terminal that tests draw on.
        // No C, no device.
        .target(name: "TerminalCore"),
        // The device: ncurses, the input decoder, the run loop, the start-up probe, the global
        // executor's threads, programs given the terminal. Re-exports TerminalCore.
        .target(name: "Terminal", dependencies: ["TerminalCore", "CNcursesShim", "CGlobalExecutor"]),
        // What every module above shares and none owns: the process environment, paths, atomic
        // files, text made safe for a log, a recursive lock, a clock on the main queue.
        .target(name: "AppletSupport", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "AppletState", dependencies: [
            "AppletSupport", "CGlobalExecutor", "CSecretService",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Requests, side effects and coeffects as values; the logic module, observers, recording
        // and replay. Knows nothing of terminals.
        // No clock package here: swift-clocks would link all of Foundation into every app.
        // Every target names the modules it sees through a re-export too (TerminalCore through
        // Terminal, AppletSupport through AppletState): SwiftPM recompiles a target when a module
        // it lists changes, so one that changes only a type's layout (Color's, in TerminalCore)
        // would otherwise leave code compiled against the old layout behind.
        .target(name: "AppletLogic", dependencies: ["AppletSupport", "AppletState"]),
        .target(name: "AppletUI", dependencies: ["TerminalCore", "Terminal", "AppletSupport", "AppletState"]),
        // Tabs, per-tab navigation stacks, sheets, toasts, the command registry and the keymap (its
        // TOML read by KeymapSyntax: TOMLKit's toml++ aborts on some files, and a keymap may come
        // from someone else).
        .target(name: "AppletNavigation", dependencies: [
            "AppletUI", "AppletSupport", "AppletState", "TerminalCore", "Terminal",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .target(name: "AppletKit", dependencies: [
            "AppletNavigation", "AppletUI", "AppletLogic", "AppletSupport", "AppletState", "TerminalCore", "Terminal",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // Starts programs on a pseudo-terminal for `PseudoTerminal` (fork and exec with only
        // async-signal-safe calls in the child, ioctls). Imported `internal`ly, so clients of
        // AppletTesting never see it and the product's target list need not name it.
        .target(name: "CPseudoTerminal"),
        // A terminal for tests: an xterm-like emulator (`TerminalScreen`, the escape parser, the
        // palette, the answers a terminal gives) and a driver that runs a program on a
        // pseudo-terminal it emulates (`PseudoTerminal`). On Terminal only; AppletTesting
        // re-exports it.
        .target(name: "TerminalEmulator", dependencies: ["TerminalCore", "Terminal", "CPseudoTerminal"]),
        .target(name: "AppletTesting", dependencies: [
            "AppletKit", "AppletNavigation", "AppletUI", "AppletLogic", "AppletSupport", "AppletState", "TerminalCore", "Terminal",
            "TerminalEmulator",
            .product(name: "Clocks", package: "swift-clocks"),
            .product(name: "CustomDump", package: "swift-custom-dump"),
        ]),

        // SyncState's values replicated through a PostgreSQL table, LISTEN/NOTIFY telling every
        // instance of a change (see Docs/PersistentState.md).
        .target(name: "AppletSync", dependencies: [
            "AppletSupport", "AppletState",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "AppletSyncTesting"),

        // What every test target shares (waiting for a condition, ...): at the bottom, on nothing
        // of the framework, so that the store's tests can use it too.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "TerminalTests", dependencies: ["TerminalCore", "Terminal", "CNcursesShim", "AppletTesting", "TestSupport"]),
        .testTarget(name: "AppletStateTests", dependencies: ["AppletSupport", "AppletState", "TestSupport"]),
        .testTarget(name: "AppletLogicTests", dependencies: [
            "AppletLogic", "AppletSupport", "AppletState", .product(name: "Clocks", package: "swift-clocks"),
        ]),
        // Golden screens live in Tests/__Snapshots__/<target>/, outside every target (AppletTesting).
        .testTarget(name: "AppletUITests", dependencies: [
            "AppletUI", "AppletSupport", "AppletState", "TerminalCore", "AppletTesting", "TerminalEmulator",
        ]),
        .testTarget(name: "AppletNavigationTests", dependencies: [
            "AppletNavigation", "AppletTesting", .product(name: "Clocks", package: "swift-clocks"),
        ]),
        .testTarget(name: "AppletSyncTests", dependencies: [
            "AppletSync", "AppletSyncTesting", "AppletState", "TestSupport", .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "AppletKitTests", dependencies: [
            "AppletKit", "AppletTesting", "AppletUI", "AppletSupport", "AppletState", "AppletLogic", "TerminalCore", "Terminal",
            "TerminalEmulator", "TestSupport",
        ]),
    ],
    swiftLanguageModes: [.v6]
)

// The framework's modules see a member only through a module the file imports itself. Without it
// an API of all of Foundation (`String(format:)`, `padding(toLength:)`) compiles in a file that
// imports FoundationEssentials and links all of Foundation into every app (about 4 MB of memory).
for target in package.targets where frameworkModules.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
