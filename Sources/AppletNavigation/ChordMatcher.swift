import Terminal

/// Matches keys pressed in turn against bound key sequences, so `g g` or `ctrl-x ctrl-s` can run
/// a command. It only decides; the router runs what matched and the host expires a prefix left
/// waiting longer than `timeout`.
///
/// Invariants: `pending` is empty or a strict prefix of some bound chord; a key that starts a
/// chord always waits for the next key, even if it is also bound alone (`keys --check` reports
/// that as a conflict); a wrong next key cancels the chord and is swallowed, as in Emacs and Vim.
///
/// ```swift
/// var chords = ChordMatcher()
/// let bound = [KeySequence("g g")!, KeySequence("q")!]
/// chords.feed(KeyEvent(.character("g")), bound: bound)   // .pending(g)
/// chords.feed(KeyEvent(.character("g")), bound: bound)   // .matched(g g)
/// chords.feed(KeyEvent(.character("q")), bound: bound)   // .matched(q)
/// ```
public struct ChordMatcher: Sendable {
    /// How long a chord's prefix waits for its next key unless told otherwise.
    public static let defaultTimeout: Duration = .seconds(1)

    /// What a key did.
    public enum Outcome: Equatable, Sendable {
        /// The keys so far make a whole bound sequence; the matcher is empty again.
        case matched(KeySequence)
        /// The keys so far start a chord; waiting for more.
        case pending(KeySequence)
        /// The key does not continue the pending chord: the prefix is dropped, the key swallowed.
        case cancelled(KeySequence)
        /// No chord pending and the key starts or makes nothing bound.
        case unbound
    }

    /// How long a prefix waits for its next key.
    public var timeout: Duration

    /// The keys of an unfinished chord (empty when none).
    public private(set) var pending: [KeyEvent] = []

    public init(timeout: Duration = ChordMatcher.defaultTimeout) {
        self.timeout = timeout
    }

    /// The keys of the unfinished chord as shown to the user (`g`, `Ctrl-X`), or nil.
    public var pendingLabel: String? {
        KeySequence(pending)?.label
    }

    /// Feeds one key against the sequences bound now.
    public mutating func feed(_ key: KeyEvent, bound: some Collection<KeySequence>) -> Outcome {
        let typed = pending + [key]
        let continues = bound.contains { $0.keys.count > typed.count && $0.starts(with: typed) }
        if continues {
            pending = typed
            return .pending(KeySequence(typed)!)
        }
        let exact = KeySequence(typed)!
        if bound.contains(exact) {
            pending = []
            return .matched(exact)
        }
        if let prefix = KeySequence(pending) {
            pending = []
            return .cancelled(prefix)
        }
        return .unbound
    }

    /// The timeout passed: drops the pending prefix and returns it (nil when none was pending).
    @discardableResult
    public mutating func expire() -> KeySequence? {
        defer { pending = [] }
        return KeySequence(pending)
    }

    /// Forgets any pending prefix (a sheet opened, the tab changed).
    public mutating func reset() {
        pending = []
    }
}
