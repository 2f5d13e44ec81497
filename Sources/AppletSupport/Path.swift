internal import SystemPackage

/// Path arithmetic on strings, through swift-system's `FilePath`.
///
/// Not NSString's path methods: on Linux each call bridges to an `NSString` and sets up
/// CoreFoundation, on every state file written, and pulls in pages of Foundation that nothing
/// else touches. Separators are normalised as NSString normalises them: `a//b/` is `a/b`.
///
/// ```swift
/// Path.join("/state", "files")        // "/state/files"
/// Path.directory(of: "/state/a.json") // "/state"
/// Path.name(of: "/state/a.json")      // "a.json"
/// ```
package enum Path {
    /// `name` (one or more components; a leading `/` is ignored) under `base`.
    package static func join(_ base: String, _ name: String) -> String { FilePath(base).appending(name).string }

    /// The path without its last component: `/` for `/a`, empty for a bare name.
    package static func directory(of path: String) -> String { FilePath(path).removingLastComponent().string }

    /// The last component, empty for `/` or an empty path.
    package static func name(of path: String) -> String { FilePath(path).lastComponent?.string ?? "" }

    /// Whether `path` is `folder` or below it, component by component (`/a/bc` is not inside `/a/b`).
    package static func isInside(_ path: String, _ folder: String) -> Bool {
        FilePath(path).lexicallyNormalized().starts(with: FilePath(folder).lexicallyNormalized())
    }

    /// `~` and `~/…` under the user's home folder (`HOME`, else the password database's); any
    /// other path, `~user` included, as it is.
    package static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = ProcessEnvironment.home()
        return path == "~" ? home : join(home, String(path.dropFirst(2)))
    }
}
