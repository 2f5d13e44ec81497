#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and crash-safe writes: a write goes to a temporary file in the same folder,
/// is flushed to disk, and is renamed over the target, so a reader (or a restart after `kill -9`)
/// sees either the old content or the new, never a mix.
///
/// ```swift
/// try AtomicFile.write(Data("{}".utf8), to: "/tmp/state/app.json", mode: 0o600)
/// let data = try AtomicFile.read("/tmp/state/app.json")   // nil if the file does not exist
/// ```
public enum AtomicFile {
    /// Why a file could not be read or written; the message names the path.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }

        package init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// Creates `directory` (and its parents) with `mode` if missing.
    public static func ensureDirectory(_ directory: String, mode: mode_t = 0o700) throws {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory else { throw Failure(path: directory, reason: "exists and is not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: Int(mode)])
        } catch {
            throw Failure(path: directory, reason: "cannot create the folder (\(Self.reason(error)))")
        }
    }

    /// A file over the size its reader accepts.
    public struct TooLarge: Error, CustomStringConvertible, Sendable {
        public let path: String
        /// The most bytes the reader accepts.
        public let limit: Int
        public var description: String { "\(path) is larger than \(limit) bytes" }
    }

    /// The file's bytes, or nil if it does not exist.
    public static func read(_ path: String) throws -> Data? {
        try read(path, limit: .max)
    }

    /// The file's bytes, or nil if it does not exist; throws `TooLarge` past `limit` bytes (reading
    /// stops there), and `Failure` for anything but a regular file (a FIFO or a device would block
    /// or never end).
    ///
    /// ```swift
    /// let text = try AtomicFile.read("keys.toml", limit: 1 << 20)
    /// ```
    public static func read(_ path: String, limit: Int) throws -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd < 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw Failure(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw Failure(path: path, reason: info.st_mode & S_IFMT == S_IFDIR ? "it is a folder, not a file" : "it is not a regular file")
        }
        if Int(info.st_size) > limit { throw TooLarge(path: path, limit: limit) }
        var data = Data()
        data.reserveCapacity(Int(info.st_size))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            // The file may grow while it is read.
            if data.count + n > limit { throw TooLarge(path: path, limit: limit) }
            data.append(contentsOf: buffer[0..<n])
        }
        return data
    }

    /// Replaces the file's content atomically, creating it with `mode`. `durable: false` skips the
    /// two flushes to disk (a reader still sees the old content or the new, and so does a restart
    /// after the process is killed; only a power loss may leave the old one): for a copy of what
    /// is kept elsewhere, such as a value a sync server sent.
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o600, durable: Bool = true) throws {
        // A bare file name is in the current folder (not at the root).
        let directory = Path.directory(of: path).isEmpty ? "." : Path.directory(of: path)
        let name = Path.name(of: path)
        var template = Array("\(directory)/.\(name).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(path: path, reason: "cannot write in \(directory) (\(String(cString: strerror(errno))))") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var ok = false
        defer { if !ok { unlink(temporary) } }
        fchmod(fd, mode)
        let written = writeAll(fd, data)
        let synced = !durable || fsync(fd) == 0
        close(fd)
        guard written, synced else { throw Failure(path: path, reason: "cannot write (\(String(cString: strerror(errno))))") }
        guard rename(temporary, path) == 0 else { throw Failure(path: path, reason: "cannot replace the file (\(String(cString: strerror(errno))))") }
        ok = true
        // The rename is an entry in the folder: synced too, so a power loss keeps the new file.
        if durable { syncDirectory(directory) }
    }

    /// Flushes a folder's entries (a rename or a new file in it) to disk; best effort.
    public static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Whether `name` is one of the temporary files `write` makes (`.<name>.tmp-XXXXXX`).
    package static func isTemporaryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let marker = Array(".tmp-".utf8)
        guard bytes.count > marker.count + 7, bytes[0] == UInt8(ascii: "."),
              Array(bytes[(bytes.count - 11)..<(bytes.count - 6)]) == marker else { return false }
        return true
    }

    /// Removes what interrupted writes left in `directory` (temporary files of `write` that were
    /// never renamed: a process killed while saving); returns how many. Only regular files of
    /// this user are removed, and nothing else in the folder is touched. Call it only when no
    /// other process writes there.
    ///
    /// ```swift
    /// AtomicFile.removeLeftovers(in: "/home/me/.local/state/app")   // .app.json.tmp-Ab12Cd, …
    /// ```
    @discardableResult
    public static func removeLeftovers(in directory: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names where isTemporaryName(name) {
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Writes all of `data` to the open descriptor `fd`, again after an interrupted or partial
    /// `write`; false (with `errno` set) when the system refuses.
    ///
    /// ```swift
    /// guard AtomicFile.writeAll(fd, Data("line\n".utf8)) else { print(String(cString: strerror(errno))) }
    /// ```
    public static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
    }

    package static func reason(_ error: Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.underlying as? POSIXError { return String(cString: strerror(underlying.code.rawValue)) }
        return String(describing: error)
    }
}
