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
import Synchronization

/// One writer per state folder: the persistence engine takes an advisory lock (`flock`) on
/// `<folder>/<appID>.lock` before it writes there, and holds it until the process ends. A second
/// process of the same app on the same folder finds it held: its values load as usual, but it
/// writes nothing there (no silent last-writer-wins) and says so, and what it changed is reported
/// as unsaved when it exits.
///
/// The lock file holds the owner's pid, for the message. The kernel drops a lock when its process
/// ends however it ends (`kill -9` included), so a stale lock cannot keep a folder shut. Within one
/// process every engine on a folder shares the lock.
///
/// ```swift
/// switch StateFolderLock.acquire(directory: "/home/me/.local/state/app", appID: "app") {
/// case .acquired: break                       // this process writes the folder
/// case .heldByAnother(let pid): print(pid)    // another process does
/// case .unavailable: break                    // no folder or no lock file: writes report their own errors
/// }
/// ```
enum StateFolderLock {
    enum Outcome: Equatable, Sendable {
        case acquired
        /// Another process holds it (its pid, if the lock file says).
        case heldByAnother(pid: Int32?)
        /// The lock file cannot be made (a missing or unwritable folder): a write will report why.
        case unavailable
    }

    /// Lock files this process holds, by path (their descriptors stay open until it ends).
    private static let held = Mutex<[String: Int32]>([:])

    static func path(directory: String, appID: String) -> String {
        Path.join(directory, "\(Persistence.fileName(appID)).lock")
    }

    /// Takes the folder's lock for this process, or says who has it. Never blocks.
    static func acquire(directory: String, appID: String) -> Outcome {
        let path = path(directory: directory, appID: appID)
        return held.withLock { held -> Outcome in
            if held[path] != nil { return .acquired }
            guard (try? AtomicFile.ensureDirectory(directory, mode: 0o700)) != nil else { return .unavailable }
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0o600)
            guard fd >= 0 else { return .unavailable }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let busy = errno == EWOULDBLOCK
                let owner = busy ? Self.owner(fd) : nil
                close(fd)
                return busy ? .heldByAnother(pid: owner) : .unavailable
            }
            held[path] = fd
            let text = Data("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = AtomicFile.writeAll(fd, text)
            return .acquired
        }
    }

    /// The pid written in a lock file (at most 32 bytes are read).
    private static func owner(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let digits = buffer[0..<count].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return Int32(String(decoding: digits, as: UTF8.self)).flatMap { $0 > 0 ? $0 : nil }
    }
}
