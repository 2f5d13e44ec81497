import Logging

/// The store's logger. State changes are logged at debug level (only formatted when the level is
/// debug or lower); errors — a corrupt file, an unwritable folder — always.
///
/// The host bootstraps swift-log so that nothing reaches the terminal while the UI is up.
public enum StateLog {
    public static let logger = Logger(label: "AppletState")

    @usableFromInline
    static func changed(_ key: String) {
        if logger.logLevel <= .debug { logger.debug("state changed", metadata: ["key": "\(key)"]) }
    }
}
