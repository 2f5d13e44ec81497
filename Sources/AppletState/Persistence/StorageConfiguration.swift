import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the store keeps its files: `$XDG_STATE_HOME/<app-id>/` (default
/// `~/.local/state/<app-id>/`), or a folder given on the command line (`--state-dir`).
///
/// ```swift
/// Application.shared.storage = .standard(appID: "appletkit")
/// Application.shared.storage = StorageConfiguration(appID: "appletkit", directory: "/tmp/demo-state")
/// ```
public struct StorageConfiguration: Hashable, Sendable {
    /// Names the app's folder and its files.
    public var appID: String
    /// The folder (created with mode 0700 on first write).
    public var directory: String
    /// Where `SecureState` keeps secrets: the desktop keyring where one runs, else files in
    /// `<directory>/secure` (`.automatic`); or always files (`.files`). Set it before the first
    /// secret is read or written.
    public var secrets: SecretStorage = .automatic

    public init(appID: String, directory: String) {
        self.appID = appID
        self.directory = directory
    }

    /// The XDG location for `appID` (the process name by default).
    ///
    /// In a test process (a SwiftPM test bundle) with no `appID` given, a new temporary folder
    /// instead: tests that use a store without choosing a folder must not share files with each
    /// other's runs or with the user's real state.
    public static func standard(appID: String? = nil, environment: [String: String] = ProcessEnvironment.current) -> StorageConfiguration {
        let id = appID ?? ProcessInfo.processInfo.processName
        if appID == nil, isTestProcess {
            return StorageConfiguration(appID: id, directory: testProcessDirectory)
        }
        let base: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = Path.join(ProcessEnvironment.home(in: environment), ".local/state")
        }
        return StorageConfiguration(appID: id, directory: Path.join(base, id))
    }

    /// Whether this process runs tests (SwiftPM's test bundle, or Xcode's test runners).
    static var isTestProcess: Bool {
        let name = ProcessInfo.processInfo.processName
        return name.hasSuffix(".xctest") || name == "xctest" || name == "swiftpm-testing-helper"
    }

    /// A folder of its own under the test process's folder, for one store of a test.
    static func testStore() -> StorageConfiguration {
        let number = testStores.add(1, ordering: .relaxed).newValue
        let shared = standard()
        return StorageConfiguration(appID: shared.appID, directory: Path.join(shared.directory, "store-\(number)"))
    }

    private static let testStores = Atomic<Int>(0)

    /// One folder per test process, under the system's temporary folder.
    static let testProcessDirectory: String = {
        let base = FileManager.default.temporaryDirectory.path
        return Path.join(base, "appletkit-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
    }()
}
