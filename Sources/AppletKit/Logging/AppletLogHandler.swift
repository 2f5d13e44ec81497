#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppletState
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

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
        // Messages carry text from outside (file names, keymap ids, values): escaped, so reading
        // the log in a terminal runs none of it, and each entry stays one line.
        let text = LogText.escaped("\(message)\(details)")
        let now = Date()
        buffer.append(.init(date: now, level: level, label: label, message: text))
        self.file?.write("\(LogFile.timestamp(now)) \(level) \(LogText.escaped(label)): \(text)\n")
    }
}

/// An append-only log file shared by all handlers; lines are written whole, in order.
///
/// Plain POSIX calls (`mkdir`, `open` with `O_APPEND`, `write`): the file is opened while the app
/// launches, where `FileManager` and `FileHandle` cost a millisecond of first-use set-up.
final class LogFile: Sendable {
    let path: String
    /// The open file; -1 once a write failed (disk full): logging then stops trying.
    private let descriptor: Mutex<Int32>

    /// Opens (creating it, and its folder, owner-only) the file; nil if it cannot be opened —
    /// logging then goes to memory only. A symlink or anything but a regular file in its place is
    /// not opened: the log never writes through a link someone else put there.
    init?(path: String) {
        Self.makeFolders(of: path)
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0o600)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        _ = fcntl(fd, F_SETFL, O_WRONLY | O_APPEND)
        self.path = path
        self.descriptor = Mutex(fd)
    }

    deinit {
        descriptor.withLock { fd in if fd >= 0 { close(fd) } }
    }

    func write(_ line: String) {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            var line = line
            let written = line.withUTF8 { bytes -> Bool in
                var offset = 0
                while offset < bytes.count {
                    let n = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    if n < 0, errno == EINTR { continue }
                    guard n > 0 else { return false }
                    offset += n
                }
                return true
            }
            if !written {
                close(fd)
                fd = -1
            }
        }
    }

    /// Creates each missing folder on the way to `path` (mode 0700); existing ones are left as they are.
    private static func makeFolders(of path: String) {
        var folder = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/").dropLast() {
            folder += "/" + component
            _ = mkdir(folder, 0o700)
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
