// swift-tools-version: 6.1
// Coverage-guided fuzzing (libFuzzer, in the toolchain) of every parser that reads what a user may
// have been sent: keymaps, session files, state files, and the terminal's input. Each target is a
// `LLVMFuzzerTestOneInput`; libFuzzer brings `main`. Built only by `make fuzz` and `make test-fuzz`,
// into .build-fuzz, with `--sanitize fuzzer --sanitize address`.
import PackageDescription

// The sources hold no top-level code: libFuzzer's `main` runs them.
let library: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "AppletKitFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "AppletKit", path: "..")],
    targets: [
        .executableTarget(name: "FuzzKeymap", dependencies: [.product(name: "AppletKit", package: "AppletKit")],
                          swiftSettings: library),
        .executableTarget(name: "FuzzSession", dependencies: [.product(name: "AppletLogic", package: "AppletKit")],
                          swiftSettings: library),
        .executableTarget(name: "FuzzStateFile", dependencies: [.product(name: "AppletState", package: "AppletKit")],
                          swiftSettings: library),
        .executableTarget(name: "FuzzInputDecoder", dependencies: [.product(name: "Terminal", package: "AppletKit")],
                          swiftSettings: library),
    ],
    swiftLanguageModes: [.v6]
)
