/// Reads and writes keys as text: `"q"`, `"+"`, `"ctrl-p"`, `"shift-tab"`, `"alt-enter"`, `"f5"`, `"pgdn"`.
///
/// ```swift
/// KeySpec.parse("ctrl-p")               // KeyEvent(.char("p"), modifiers: .ctrl)
/// KeySpec.label(for: KeyEvent(.up))     // "↑"
/// ```
public enum KeySpec {
    private static let named: [String: KeyCode] = [
        "enter": .enter, "return": .enter, "tab": .tab, "backspace": .backspace, "esc": .escape, "escape": .escape,
        "up": .up, "down": .down, "left": .left, "right": .right, "home": .home, "end": .end,
        "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown,
        "insert": .insert, "ins": .insert, "delete": .delete, "del": .delete, "space": .char(" "),
    ]

    /// Parses a key spec; nil if it is not one.
    public static func parse(_ spec: String) -> KeyEvent? {
        if spec.count == 1, let ch = spec.first { return KeyEvent(.char(ch)) }
        var parts = spec.lowercased().split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        // "ctrl--" means Ctrl and the minus key.
        if parts.count >= 2, parts.last == "", parts[parts.count - 2] == "" { parts.removeLast(2); parts.append("-") }
        guard let last = parts.popLast(), !last.isEmpty else { return nil }
        var modifiers: KeyModifiers = []
        for part in parts {
            switch part {
            case "ctrl", "c", "control": modifiers.insert(.ctrl)
            case "alt", "a", "meta", "m", "opt": modifiers.insert(.alt)
            case "shift", "s": modifiers.insert(.shift)
            default: return nil
            }
        }
        if let code = named[last] { return KeyEvent(code, modifiers: modifiers) }
        if last.first == "f", let n = Int(last.dropFirst()), (1...24).contains(n) { return KeyEvent(.function(n), modifiers: modifiers) }
        let original = String(spec.split(separator: "-").last ?? "")
        if last.count == 1, let ch = (modifiers.contains(.ctrl) ? last : original).first ?? last.first {
            return KeyEvent(.char(ch), modifiers: modifiers)
        }
        return nil
    }

    /// How a key is shown to the user: `q`, `Ctrl-P`, `Shift-Tab`, `↑`, `F5`, `Alt-C` (Alt with
    /// the c key; Alt with a capital C is `Alt-Shift-C`, as keyboards and menus write them).
    public static func label(for key: KeyEvent) -> String {
        var prefix = ""
        if key.modifiers.contains(.ctrl) { prefix += "Ctrl-" }
        if key.modifiers.contains(.alt) { prefix += "Alt-" }
        if key.modifiers.contains(.shift) { prefix += "Shift-" }
        let name: String
        switch key.code {
        case .char(" "): name = "Space"
        case .char(let c) where key.modifiers.contains(.alt) && !key.modifiers.contains(.ctrl) && c.isLetter && c.isCased:
            if c.isUppercase, !key.modifiers.contains(.shift) { prefix += "Shift-" }
            name = String(c).uppercased()
        case .char(let c): name = key.modifiers.contains(.ctrl) ? String(c).uppercased() : String(c)
        case .enter: name = "Enter"
        case .tab: name = "Tab"
        case .backspace: name = "Backspace"
        case .escape: name = "Esc"
        case .up: name = "↑"
        case .down: name = "↓"
        case .left: name = "←"
        case .right: name = "→"
        case .home: name = "Home"
        case .end: name = "End"
        case .pageUp: name = "PgUp"
        case .pageDown: name = "PgDn"
        case .insert: name = "Ins"
        case .delete: name = "Del"
        case .function(let n): name = "F\(n)"
        }
        return prefix + name
    }
}
