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

    /// The file's bytes, or nil if it does not exist.
    public static func read(_ path: String) throws -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw Failure(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return data
    }

    /// Replaces the file's content atomically, creating it with `mode`.
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o600) throws {
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
        let synced = fsync(fd) == 0
        close(fd)
        guard written, synced else { throw Failure(path: path, reason: "cannot write (\(String(cString: strerror(errno))))") }
        guard rename(temporary, path) == 0 else { throw Failure(path: path, reason: "cannot replace the file (\(String(cString: strerror(errno))))") }
        ok = true
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

    static func reason(_ error: Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.underlying as? POSIXError { return String(cString: strerror(underlying.code.rawValue)) }
        return String(describing: error)
    }
}
