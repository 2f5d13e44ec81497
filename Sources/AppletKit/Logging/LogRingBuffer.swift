#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization

/// The last log entries in memory, for an applet that shows the log; older entries drop off.
///
/// ```swift
/// let buffer = LogRingBuffer(capacity: 500)
/// buffer.entries.last?.message
/// ```
public final class LogRingBuffer: Sendable {
    /// One log line.
    public struct Entry: Sendable, Hashable {
        public let date: Date
        public let level: Logger.Level
        public let label: String
        public let message: String
    }

    public let capacity: Int
    private let storage: Mutex<(entries: [Entry], next: Int)>

    public init(capacity: Int = 1_000) {
        self.capacity = max(1, capacity)
        storage = Mutex(([], 0))
    }

    public func append(_ entry: Entry) {
        storage.withLock { s in
            if s.entries.count < capacity {
                s.entries.append(entry)
            } else {
                s.entries[s.next] = entry
                s.next = (s.next + 1) % capacity
            }
        }
    }

    /// Oldest first.
    public var entries: [Entry] {
        storage.withLock { s in Array(s.entries[s.next...] + s.entries[..<s.next]) }
    }
}
