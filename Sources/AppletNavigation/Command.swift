import Terminal

/// Something the user can do, as data: a stable id, a title, its default keys, whether it can run
/// now, and what it does. The footer, the help overlay (`?`) and the command palette (`Ctrl-P`)
/// are all drawn from the commands registered for what is on screen, and keys reach them through
/// the same `CommandRegistry`, so what is shown and what works never disagree. A user's
/// `keys.toml` rebinds a command by its id.
///
/// ```swift
/// Command("+", "Increment") { counter.count += 1 }              // id "counter.increment" in the counter applet
/// Command(id: "notes.delete", "Delete note", keys: ["d", "delete"]) { notes.deleteSelected() }
///     .enabled(!notes.selection.isEmpty)
/// Command(id: "editor.save", "Save", keys: ["ctrl-x ctrl-s"]) { editor.save() }   // a chord
/// ```
///
/// A command without keys is still in the palette and in help. An id is dotted lower case
/// (`<owner>.<name>`); a command made with a key and a title gets `<owner id>.<title as a slug>`
/// when it is registered.
public struct Command: Sendable {
    /// The id given explicitly, if any (else the registry derives one from the owner and title).
    public let explicitID: String?
    /// A short title: the footer and the palette show it.
    public var title: String
    /// The keys that run it unless the user's keymap says otherwise; the first is the one shown.
    public var keys: [KeySequence]
    /// Whether it can run now. A disabled command stays in help and the palette (dimmed) but its
    /// keys do nothing and go on to the next handler.
    public var isEnabled: Bool
    /// Whether the footer lists it (help and the palette always do).
    public var showsInFooter: Bool
    /// A priority command is offered its keys before the focused widget, so no widget can take
    /// them (the host's tab keys `alt-1`…`alt-9`, `ctrl-pgup`/`ctrl-pgdn`).
    public var isPriority: Bool
    public let action: @MainActor @Sendable () -> Void

    /// A command on one key (a key spec such as `"+"`, `"ctrl-r"`, `"enter"`, `"f5"`, or a chord
    /// `"g g"`). An invalid spec is a programming error and stops with a message naming it.
    public init(_ key: String, _ title: String, action: @escaping @MainActor @Sendable () -> Void) {
        self.init(id: nil, title, keys: [key], action: action)
    }

    /// A command with a stable id and any number of keys (none: palette and help only).
    public init(id: String?, _ title: String, keys: [String] = [], isEnabled: Bool = true,
                showsInFooter: Bool = true, isPriority: Bool = false,
                action: @escaping @MainActor @Sendable () -> Void) {
        self.explicitID = id
        self.title = title
        self.keys = keys.map { spec in
            guard let sequence = KeySequence.parsed(spec) else {
                preconditionFailure("Command '\(title)': '\(spec)' is not a key; use e.g. \"+\", \"ctrl-r\", \"enter\", \"f5\", \"g g\"")
            }
            return sequence
        }
        self.isEnabled = isEnabled
        self.showsInFooter = showsInFooter
        self.isPriority = isPriority
        self.action = action
    }

    /// The first key of the first sequence (what older code read as the command's key).
    public var key: KeyEvent? { keys.first?.keys.first }

    /// How the first key is written in the footer (`+`, `Ctrl-R`, `g g`); empty without keys.
    public var keyLabel: String { keys.first?.label ?? "" }

    /// The same command, enabled only when `condition` holds.
    ///
    /// ```swift
    /// Command("d", "Delete") { delete() }.enabled(!selection.isEmpty)
    /// ```
    public func enabled(_ condition: Bool) -> Command {
        var copy = self
        copy.isEnabled = condition
        return copy
    }

    /// The id this command has when `owner` registers it: its own, or `<owner>.<title slug>`.
    ///
    /// ```swift
    /// Command("+", "Increment") {}.id(owner: "counter")   // "counter.increment"
    /// ```
    public func id(owner: String) -> String {
        explicitID ?? "\(owner).\(Self.slug(title))"
    }

    /// "Delete note" → "delete-note": lower case letters and digits, words joined by `-`; a `+`
    /// is the word "plus", so "Goal+5" and "Goal-5" stay apart.
    static func slug(_ title: String) -> String {
        var spelled = ""
        for character in title.lowercased() {
            if character == "+" { spelled += " plus " } else { spelled.append(character) }
        }
        let words = spelled.split(whereSeparator: { !($0.isLetter || $0.isNumber) })
        return words.isEmpty ? "command" : words.joined(separator: "-")
    }
}
