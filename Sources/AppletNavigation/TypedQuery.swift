import Terminal

/// The text typed into an overlay's search line (the command palette's query, the action log's
/// filter): a printable key adds its character, `Backspace` takes the last one off, `Ctrl-U`
/// clears it, and pasted text is added without its line breaks.
///
/// ```swift
/// var query = TypedQuery()
/// _ = query.handle(KeyEvent(.char("q")))      // true: "q"
/// _ = query.handle(KeyEvent(.backspace))      // true: ""
/// _ = query.handle(KeyEvent(.backspace))      // false: nothing to take off
/// ```
public struct TypedQuery: Equatable, Sendable {
    public private(set) var text: String

    public init(_ text: String = "") { self.text = text }

    /// Edits the text with `key`; false when the key is not an editing key (or `Backspace` on an
    /// empty text), so the caller can give it another meaning.
    public mutating func handle(_ key: KeyEvent) -> Bool {
        switch (key.code, key.modifiers) {
        case (.backspace, _):
            guard !text.isEmpty else { return false }
            text.removeLast()
        case (.char("u"), .ctrl):
            text = ""
        case (.char(let c), let modifiers) where modifiers.isEmpty || modifiers == .shift:
            text.append(c)
        default:
            return false
        }
        return true
    }

    /// Adds pasted text, line breaks dropped.
    public mutating func paste(_ pasted: String) {
        text += pasted.filter { !$0.isNewline }
    }
}
