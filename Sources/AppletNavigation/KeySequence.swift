import Synchronization
import Terminal

/// One or more keys pressed in turn that together run a command: a single key (`ctrl-p`) or a
/// chord (`g g`, `ctrl-x ctrl-s`). Written as key specs (see `KeySpec`) separated by spaces.
///
/// Invariants: never empty; equal sequences are the same keys in the same order.
///
/// ```swift
/// KeySequence("ctrl-x ctrl-s")?.label       // "Ctrl-X Ctrl-S"
/// KeySequence("g")!.isPrefix(of: KeySequence("g g")!)   // true
/// ```
public struct KeySequence: Hashable, Sendable, CustomStringConvertible {
    /// The keys, in the order they are pressed (at least one).
    public let keys: [KeyEvent]

    /// A sequence of the given keys; nil when `keys` is empty.
    public init?(_ keys: [KeyEvent]) {
        guard !keys.isEmpty else { return nil }
        self.keys = keys
    }

    /// A one-key sequence.
    public init(_ key: KeyEvent) {
        keys = [key]
    }

    /// Parses key specs separated by spaces (`"g g"`, `"ctrl-x ctrl-s"`, `"space"` for the space
    /// bar); nil when the text is empty or any part is not a key spec.
    public init?(_ spec: String) {
        let parts = spec.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard !parts.isEmpty else { return nil }
        var keys: [KeyEvent] = []
        for part in parts {
            guard let key = KeySpec.parse(String(part)) else { return nil }
            keys.append(key)
        }
        self.keys = keys
    }

    /// `KeySequence(spec)`, remembered: commands are made again for every frame and every key
    /// (an applet's `commands` is computed), each parsing the same few specs, which was a visible
    /// part of a key's cost. Specs are literals in code, so the table stays small; past 4,096
    /// entries it is not added to.
    static func parsed(_ spec: String) -> KeySequence? {
        if let known = parsedSpecs.withLock({ $0[spec] }) { return known }
        let sequence = KeySequence(spec)
        if let sequence { parsedSpecs.withLock { if $0.count < 4096 { $0[spec] = sequence } } }
        return sequence
    }

    private static let parsedSpecs = Mutex<[String: KeySequence]>([:])

    /// More than one key.
    public var isChord: Bool { keys.count > 1 }

    /// How it is shown to the user: `Ctrl-P`, `g g`, `Ctrl-X Ctrl-S`.
    public var label: String { keys.map(KeySpec.label(for:)).joined(separator: " ") }

    public var description: String { label }

    /// Whether this sequence is a strict prefix of `other` (`g` of `g g`; not of itself).
    public func isPrefix(of other: KeySequence) -> Bool {
        keys.count < other.keys.count && Array(other.keys.prefix(keys.count)) == keys
    }

    /// Whether this sequence starts with `prefix` (itself included).
    public func starts(with prefix: [KeyEvent]) -> Bool {
        keys.count >= prefix.count && Array(keys.prefix(prefix.count)) == prefix
    }
}
