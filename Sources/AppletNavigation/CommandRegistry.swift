import Terminal

/// Every command that is active now, each with its scope, owner and effective keys (the defaults,
/// or the user's keymap's). Keys are looked up here, and the footer, help and palette list from
/// here, so they cannot disagree.
///
/// Invariants: entries are kept in scope order (sheet first, host last), and within a scope in
/// registration order; lookups return the first enabled entry, so an inner scope's binding wins
/// over an outer one on the same key.
///
/// ```swift
/// var registry = CommandRegistry()
/// registry.register(applet.commands, scope: .applet, owner: "counter")
/// registry.register(hostCommands, scope: .host, owner: "host")
/// registry.apply(keymap)
/// registry.entry(for: KeySequence("+")!)?.command.action()
/// ```
public struct CommandRegistry: Sendable {
    /// A registered command.
    public struct Entry: Sendable, Identifiable {
        /// The command's id (`counter.increment`).
        public let id: String
        public let scope: CommandScope
        /// Who registered it: an applet's id, `host`, a sheet's name.
        public let owner: String
        public let command: Command
        /// The keys that run it now.
        public internal(set) var keys: [KeySequence] {
            didSet { keyLabel = keys.first?.label ?? "" }
        }
        /// Whether the user's keymap changed its keys.
        public internal(set) var isRebound = false
        /// How its first key is shown (`Ctrl-P`, `g g`); empty when unbound. Kept, not computed:
        /// the footer shows it on every frame.
        public private(set) var keyLabel: String

        public var title: String { command.title }
        public var isEnabled: Bool { command.isEnabled }

        init(id: String, scope: CommandScope, owner: String, command: Command, keys: [KeySequence]) {
            self.id = id
            self.scope = scope
            self.owner = owner
            self.command = command
            self.keys = keys
            self.keyLabel = keys.first?.label ?? ""
        }
    }

    public private(set) var entries: [Entry] = []
    /// Where each id's first entry is (an id can repeat: `duplicateIDs`): the footer looks the
    /// host's commands up by id on every frame.
    private var firstIndexByID: [String: Int] = [:]

    public init() {}

    /// Adds `commands` in `scope`, owned by `owner` (their ids derive from it when not explicit).
    public mutating func register(_ commands: [Command], scope: CommandScope, owner: String) {
        let added = commands.map { Entry(id: $0.id(owner: owner), scope: scope, owner: owner, command: $0, keys: $0.keys) }
        let index = entries.firstIndex { $0.scope > scope } ?? entries.endIndex
        entries.insert(contentsOf: added, at: index)
        firstIndexByID.removeAll(keepingCapacity: true)
        for index in entries.indices where firstIndexByID[entries[index].id] == nil {
            firstIndexByID[entries[index].id] = index
        }
    }

    /// Gives commands the keys the keymap names for their ids (an empty list unbinds).
    public mutating func apply(_ keymap: Keymap) {
        guard !keymap.bindings.isEmpty else { return }
        for index in entries.indices {
            if let keys = keymap.bindings[entries[index].id] {
                entries[index].keys = keys
                entries[index].isRebound = true
            }
        }
    }

    /// Every id registered.
    public var ids: Set<String> { Set(entries.map(\.id)) }

    /// The entry with this id (the first, if several have it).
    public func entry(id: String) -> Entry? { firstIndexByID[id].map { entries[$0] } }

    /// Where in `entries` the entry with this id is (the first, if several have it).
    ///
    /// ```swift
    /// registry.index(ofID: "host.quit").map { registry.entries[$0].keyLabel }   // "q"
    /// ```
    public func index(ofID id: String) -> Int? { firstIndexByID[id] }

    /// The first enabled entry bound to `sequence` in `scopes` (all by default).
    public func entry(for sequence: KeySequence, in scopes: Set<CommandScope> = CommandScope.all,
                      priorityOnly: Bool = false) -> Entry? {
        // By index: `first(where:)` copies every entry it looks at (and retains what its
        // command holds), on every key.
        let wanted = CommandScope.mask(of: scopes)
        for index in entries.indices {
            if entries[index].keys.contains(sequence), entries[index].isEnabled, wanted & entries[index].scope.bit != 0,
               !priorityOnly || entries[index].command.isPriority {
                return entries[index]
            }
        }
        return nil
    }

    /// The key sequences enabled commands in `scopes` are bound to (for the chord matcher).
    public func boundSequences(in scopes: Set<CommandScope> = CommandScope.all) -> [KeySequence] {
        // By index: `filter` would copy every entry (and retain what its command holds) per key.
        // Scopes as bits: hashing each entry's scope into the set cost more than the rest.
        let wanted = CommandScope.mask(of: scopes)
        var sequences: [KeySequence] = []
        sequences.reserveCapacity(entries.count)
        for index in entries.indices where wanted & entries[index].scope.bit != 0 && entries[index].isEnabled {
            for sequence in entries[index].keys { sequences.append(sequence) }
        }
        return sequences
    }

    /// Keys that cannot all work as registered: two commands of one owner on one key in one scope,
    /// and a key that is also the start of a chord (the chord always waits for its next key, so
    /// the single key never runs).
    /// Ids that more than one command has (a keymap line could not say which it means), each
    /// with the titles of the commands that share it, in registration order.
    ///
    /// ```swift
    /// registry.duplicateIDs()   // [(id: "dash.goal", titles: ["Goal", "Goal!"])]
    /// ```
    public func duplicateIDs() -> [(id: String, titles: [String])] {
        var titles: [String: [String]] = [:]
        var order: [String] = []
        for entry in entries {
            if titles[entry.id] == nil { order.append(entry.id) }
            titles[entry.id, default: []].append(entry.title)
        }
        return order.compactMap { id in titles[id]!.count > 1 ? (id, titles[id]!) : nil }
    }

    public func conflicts() -> [KeyConflict] {
        var found: [KeyConflict] = []
        struct Slot: Hashable { let scope: CommandScope; let owner: String; let keys: KeySequence }
        var bySlot: [Slot: [String]] = [:]
        var order: [Slot] = []
        // Sized once: growing the table from empty rehashed it several times per registry.
        let bindings = entries.reduce(0) { $0 + $1.keys.count }
        bySlot.reserveCapacity(bindings)
        order.reserveCapacity(bindings)
        for entry in entries {
            for keys in entry.keys {
                let slot = Slot(scope: entry.scope, owner: entry.owner, keys: keys)
                if bySlot[slot] == nil { order.append(slot) }
                bySlot[slot, default: []].append(entry.id)
            }
        }
        for slot in order where bySlot[slot]!.count > 1 {
            found.append(KeyConflict(kind: .sameKey, keys: slot.keys, ids: bySlot[slot]!, scope: slot.scope))
        }
        // Only a chord (two keys or more) has a shorter binding as its prefix. By index: copying
        // each entry for every pair cost a launch about 1.4M instructions.
        let bound = entries.indices.flatMap { index in entries[index].keys.map { (index, $0) } }
        let chords = bound.filter { $0.1.keys.count > 1 }
        for (short, shortKeys) in bound {
            for (long, longKeys) in chords where shortKeys.isPrefix(of: longKeys) {
                found.append(KeyConflict(kind: .prefixShadows, keys: shortKeys, ids: [entries[short].id, entries[long].id],
                                         scope: entries[short].scope, chord: longKeys))
            }
        }
        return found
    }
}

/// Two bindings that cannot both work, found by `CommandRegistry.conflicts()`.
///
/// ```swift
/// KeyConflict(kind: .sameKey, keys: KeySequence("d")!, ids: ["notes.delete", "notes.duplicate"], scope: .applet).description
/// // "d is bound twice in Applet: notes.delete, notes.duplicate"
/// ```
public struct KeyConflict: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// One key, two commands of the same owner and scope.
        case sameKey
        /// A key that is also a chord's first keys: `ids[0]` never runs, `ids[1]`'s chord waits.
        case prefixShadows
    }

    public var kind: Kind
    public var keys: KeySequence
    public var ids: [String]
    public var scope: CommandScope
    /// For `.prefixShadows`: the chord that starts with `keys`.
    public var chord: KeySequence?

    public init(kind: Kind, keys: KeySequence, ids: [String], scope: CommandScope, chord: KeySequence? = nil) {
        self.kind = kind
        self.keys = keys
        self.ids = ids
        self.scope = scope
        self.chord = chord
    }

    public var description: String {
        switch kind {
        case .sameKey:
            "\(keys.label) is bound twice in \(scope): \(ids.joined(separator: ", "))"
        case .prefixShadows:
            "\(keys.label) (\(ids[0])) never runs: it starts the chord \(chord?.label ?? "?") (\(ids[1])); bind one of them to another key"
        }
    }
}
