#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process environment as a dictionary, read straight from `environ`.
///
/// `ProcessInfo.processInfo.environment` makes a new dictionary on every access through
/// Foundation's string machinery, which is costly enough to show in the time to an app's first
/// frame. This walks `environ` once per call with plain UTF-8 decoding. A variable without `=` is skipped; of two with one name, the first wins (as
/// `getenv` finds it).
///
/// ```swift
/// let home = ProcessEnvironment.current["HOME"] ?? "/"
/// ```
public enum ProcessEnvironment {
    public static var current: [String: String] { dictionary(from: environ) }

    /// The user's home folder: `HOME` when it is set and not empty, else the password database's
    /// entry for the user, else `/`. The store's folder, the keymap's and `~` in paths all start here.
    ///
    /// ```swift
    /// ProcessEnvironment.home(in: ["HOME": "/home/ada"])   // "/home/ada"
    /// ```
    public static func home(in environment: [String: String] = current) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir { return String(cString: directory) }
        return "/"
    }

    /// The temporary folder: `TMPDIR` when it is an absolute path, else `/tmp`.
    ///
    /// ```swift
    /// ProcessEnvironment.temporaryDirectory   // "/tmp"
    /// ```
    public static var temporaryDirectory: String {
        if let value = getenv("TMPDIR") {
            let folder = String(cString: value)
            if folder.hasPrefix("/") { return folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder }
        }
        return "/tmp"
    }

    /// The variables of a NULL-terminated `environ`-style array of `NAME=value` strings.
    package static func dictionary(from entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String: String] {
        var result: [String: String] = [:]
        guard var entry = entries else { return result }
        while let pointer = entry.pointee {
            let length = strlen(pointer)
            pointer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                let all = UnsafeBufferPointer(start: bytes, count: length)
                if let equals = all.firstIndex(of: UInt8(ascii: "=")) {
                    let name = String(decoding: UnsafeBufferPointer(rebasing: all[..<equals]), as: UTF8.self)
                    if result[name] == nil {
                        result[name] = String(decoding: UnsafeBufferPointer(rebasing: all[(equals + 1)...]), as: UTF8.self)
                    }
                }
            }
            entry += 1
        }
        return result
    }
}
