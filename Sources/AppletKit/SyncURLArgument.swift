import AppletState
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--sync-url` (or `<ID>_SYNC_URL`): the remote an app syncs `SyncState` with, made by the app's
/// `syncProvider`; and the password in the command line masked where `ps` reads it.
///
/// ```swift
/// SyncURLArgument.environmentName(appID: "appletkit")   // "APPLETKIT_SYNC_URL"
/// ```
enum SyncURLArgument {
    struct Problem: Error {
        let message: String
    }

    /// The environment variable with the app's sync URL: its id in capitals, other characters `_`.
    static func environmentName(appID: String) -> String {
        String(appID.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }) + "_SYNC_URL"
    }

    /// The remote `option` (else the environment's URL) names; nil when neither is given. A
    /// problem is one line for the user, with any password masked.
    static func remote<App: AppletApp>(_ app: App.Type, option: String?, environment: [String: String]) -> Result<(any SyncRemote)?, Problem> {
        let variable = environmentName(appID: App.id)
        let fromEnvironment = environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        guard let url = option ?? fromEnvironment else { return .success(nil) }
        let source = option != nil ? "--sync-url" : variable
        guard let provider = App.syncProvider else {
            let how = "link the AppletSync product and add `static let syncProvider: SyncProvider? = .postgres` to the app (see Docs/PersistentState.md)"
            return .failure(Problem(message: option != nil
                ? "--sync-url: this app was built without sync across machines; to sync, \(how)"
                : "\(variable) is set, but this app was built without sync across machines: unset it, or \(how)"))
        }
        do {
            return .success(try provider.remote(url: url, appID: App.id))
        } catch {
            return .failure(Problem(message: "\(source): \(error)"))
        }
    }

    /// Overwrites, in the process's own argument strings (what `ps` and /proc/<pid>/cmdline
    /// show), the password of every `--sync-url` value with `*`s.
    static func maskPasswordsInArguments() {
        let count = Int(CommandLine.argc)
        var index = 1
        while index < count {
            guard let argument = CommandLine.unsafeArgv[index] else { break }
            let text = String(cString: argument)
            if text == "--sync-url", index + 1 < count, let value = CommandLine.unsafeArgv[index + 1] {
                mask(value)
                index += 2
                continue
            }
            if text.hasPrefix("--sync-url=") { mask(argument) }
            index += 1
        }
    }

    /// Masks the password in a C string in place (same length), as `SyncProvider.redacted` finds it.
    static func mask(_ cString: UnsafeMutablePointer<CChar>) {
        let length = strlen(cString)
        let bytes = UnsafeMutableBufferPointer(start: cString, count: length)
        for range in passwordRanges(in: Array(bytes).map { UInt8(bitPattern: $0) }) {
            for i in range { bytes[i] = CChar(bitPattern: UInt8(ascii: "*")) }
        }
    }

    /// Where passwords are in a URL's bytes: `user:PASSWORD@` and `password=PASSWORD`.
    static func passwordRanges(in bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        let scheme = Array("://".utf8)
        if let start = firstIndex(of: scheme, in: bytes, from: 0).map({ $0 + 3 }) {
            let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
            if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")),
               let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")), colon + 1 < at {
                ranges.append((colon + 1)..<at)
            }
        }
        let key = Array("password=".utf8)
        var from = 0
        while let found = firstIndex(of: key, in: bytes, from: from) {
            let value = found + key.count
            from = value
            guard found > 0, bytes[found - 1] == UInt8(ascii: "?") || bytes[found - 1] == UInt8(ascii: "&") else { continue }
            let end = bytes[value...].firstIndex { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "#") } ?? bytes.count
            if value < end { ranges.append(value..<end) }
        }
        return ranges
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = from
        while index + needle.count <= haystack.count {
            if Array(haystack[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }
}
