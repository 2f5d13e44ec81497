import Foundation
import Logging
import Synchronization

/// A swift-log handler that appends lines to a log file and to an in-memory `LogRingBuffer`, and
/// never writes to the terminal (which the UI owns).
struct AppletLogHandler: LogHandler {
    let label: String
    let file: LogFile?
    let buffer: LogRingBuffer
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let level = event.level
        let message = event.message
        var all = metadata
        if let explicit = event.metadata { all.merge(explicit) { $1 } }
        if let error = event.error { all["error"] = "\(error)" }
        let details = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = "\(message)\(details)"
        let now = Date()
        buffer.append(.init(date: now, level: level, label: label, message: text))
        self.file?.write("\(LogFile.timestamp(now)) \(level) \(label): \(text)\n")
    }
}

/// An append-only log file shared by all handlers; lines are written whole, in order.
final class LogFile: Sendable {
    let path: String
    private let handle: Mutex<FileHandle?>

    /// Opens (creating) the file; nil if it cannot be opened — logging then goes to memory only.
    init?(path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: NSNumber(value: 0o700)])
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: NSNumber(value: 0o600)]) else { return nil }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { return nil }
        handle.seekToEndOfFile()
        self.path = path
        self.handle = Mutex(handle)
    }

    func write(_ line: String) {
        handle.withLock { handle in
            guard let h = handle else { return }
            do { try h.write(contentsOf: Data(line.utf8)) } catch { handle = nil }  // disk full: stop trying
        }
    }

    static func timestamp(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        let ms = Int((seconds - Double(Int(seconds))) * 1000)
        func pad(_ v: Int32, _ n: Int = 2) -> String { let s = String(v); return String(repeating: "0", count: max(0, n - s.count)) + s }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec)).\(pad(Int32(ms), 3))Z"
    }
}
