import Logging

/// The store's logger. State changes are logged at debug level (only formatted when the level is
/// debug or lower); errors — a corrupt file, an unwritable folder — always.
///
/// The host bootstraps swift-log so that nothing reaches the terminal while the UI is up.
public enum StateLog {
    public static let logger = Logger(label: "AppletState")

    /// `logger`'s handler, for the level check on every change: `logger.logLevel` copies the
    /// handler out of the logger, a cost every set would pay. `logger` is a constant, so its
    /// handler is this one for good: the same value, or the same object when the handler keeps
    /// its level elsewhere; asking it gives exactly what `logger.logLevel` gives.
    private static let handler: any LogHandler = logger.handler

    @usableFromInline
    static func changed(_ key: String) {
        if handler.logLevel <= .debug { logger.debug("state changed", metadata: ["key": "\(key)"]) }
    }
}
