import Logging
import Synchronization
internal import SystemPackage

/// Sets up swift-log for a terminal app: every logger writes to `<state folder>/<app-id>.log` and
/// to an in-memory ring buffer (for a log applet), and nothing is ever printed to the terminal
/// while the UI is up. Call once, early, from the executable.
///
/// ```swift
/// let log = AppletLogging.bootstrap(directory: storage.directory, appID: "appletkit", level: .info)
/// log.buffer.entries   // the recent lines
/// ```
public enum AppletLogging {
    /// What `bootstrap` set up.
    public struct Setup: Sendable {
        /// The log file, or nil when it could not be opened (logging then goes to memory only).
        public let filePath: String?
        public let buffer: LogRingBuffer
    }

    private static let installed = Mutex<Setup?>(nil)

    /// The setup in effect, if `bootstrap` was called.
    public static var current: Setup? { installed.withLock { $0 } }

    /// Installs the handlers (once per process; later calls return the first setup).
    @discardableResult
    public static func bootstrap(directory: String, appID: String, level: Logger.Level = .info, capacity: Int = 1_000) -> Setup {
        installed.withLock { existing in
            if let existing { return existing }
            let file = LogFile(path: FilePath(directory).appending("\(appID).log").string)
            let buffer = LogRingBuffer(capacity: capacity)
            LoggingSystem.bootstrap { label in
                AppletLogHandler(label: label, file: file, buffer: buffer, logLevel: level)
            }
            let setup = Setup(filePath: file?.path, buffer: buffer)
            existing = setup
            return setup
        }
    }
}
