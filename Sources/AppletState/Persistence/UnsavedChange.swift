/// A change a store could not save before the process ends: which keys, the file they belong in,
/// why the write failed, and where a copy of the unsaved value was written instead (never for a
/// secret). `AppletApp` prints each on stderr and exits 1, so nothing is lost in silence.
///
/// ```swift
/// for change in Application.shared.saveBeforeExit() {
///     FileHandle.standardError.write(Data("myapp: \(change)\n".utf8))
/// }
/// // myapp: 'Counter.counter' was not saved to /home/me/.local/state/myapp/myapp.json (No space
/// // left on device); a copy is in /tmp/myapp-unsaved-20261128-101500-Qx81Za/myapp.json
/// ```
public struct UnsavedChange: Sendable, Equatable, CustomStringConvertible {
    /// The keys ("Feature.id") whose values are not in `path`.
    public var keys: [String]
    /// The file they belong in (`UnsavedChange.desktopKeyring` for a secret kept there).
    public var path: String
    /// Why it could not be written.
    public var reason: String
    /// Where the unsaved values were written instead, if anywhere.
    public var copy: String?
    /// A `SecureState` value: never copied anywhere.
    public var isSecret: Bool

    public init(keys: [String], path: String, reason: String, copy: String?, isSecret: Bool = false) {
        self.keys = keys
        self.path = path
        self.reason = reason
        self.copy = copy
        self.isSecret = isSecret
    }

    /// The `path` of a secret that belongs in the desktop keyring (the Secret Service).
    public static let desktopKeyring = "the desktop keyring"

    public var description: String {
        let names = keys.map { "'\($0)'" }.joined(separator: ", ")
        let what = isSecret ? "the secret \(names)" : names
        let verb = keys.count == 1 ? "was" : "were"
        let outcome: String
        if isSecret {
            let when = path == Self.desktopKeyring ? "the keyring can be used" : "the folder is writable"
            outcome = "secrets are never copied elsewhere, so set it again once \(when)"
        } else if let copy {
            outcome = "a copy is in \(copy)"
        } else {
            outcome = "no copy could be written anywhere"
        }
        return "\(what) \(verb) not saved to \(LogText.escaped(path)) (\(reason)); \(outcome)"
    }
}
