import Terminal

/// The bytes xterm sends for a key press (what `TERM=xterm-256color` programs expect, as its
/// terminfo entry lists them), so a test can type keys at a program on a `PseudoTerminal`.
///
/// Cursor keys, Home and End follow the cursor-keys mode: `ESC [ A` normally, `ESC O A` once the
/// program turned on application mode (`CSI ? 1 h`, which ncurses' `keypad()` does). With
/// modifiers, keys send xterm's `CSI 1 ; m X` and `CSI n ; m ~` forms (m = 1 + Shift 1 + Alt 2 +
/// Ctrl 4); Ctrl with a letter sends its control byte, Alt adds an ESC in front. F13–F24 are
/// Shift-F1–F12, as xterm sends them.
///
/// ```swift
/// XtermKeys.bytes(for: KeySpec.parse("ctrl-c")!)                        // [0x03]
/// XtermKeys.bytes(for: KeyEvent(.up))                                    // ESC [ A
/// XtermKeys.bytes(for: KeyEvent(.up), applicationCursorKeys: true)       // ESC O A
/// XtermKeys.bytes(for: KeyEvent(.right, modifiers: .ctrl))               // ESC [ 1 ; 5 C
/// ```
public enum XtermKeys {
    public static func bytes(for key: KeyEvent, applicationCursorKeys: Bool = false) -> [UInt8] {
        var modifiers = key.modifiers
        var code = key.code
        if case .function(let number) = code, number > 12 {
            code = .function(number - 12)
            modifiers.insert(.shift)
        }
        let parameter = 1 + (modifiers.contains(.shift) ? 1 : 0) + (modifiers.contains(.alt) ? 2 : 0)
            + (modifiers.contains(.ctrl) ? 4 : 0)
        let escape: [UInt8] = [0x1B]

        /// `CSI 1 ; m final` with modifiers, else `ESC O final` or `CSI final`.
        func letterKey(_ final: Character, application: Bool) -> [UInt8] {
            if parameter > 1 { return Array("\u{1B}[1;\(parameter)\(final)".utf8) }
            return Array((application ? "\u{1B}O\(final)" : "\u{1B}[\(final)").utf8)
        }
        /// `CSI n ~` or `CSI n ; m ~`.
        func tildeKey(_ number: Int) -> [UInt8] {
            Array((parameter > 1 ? "\u{1B}[\(number);\(parameter)~" : "\u{1B}[\(number)~").utf8)
        }
        let altPrefix = modifiers.contains(.alt) ? escape : []

        switch code {
        case .char(let character):
            var text = String(character)
            if modifiers.contains(.shift) { text = text.uppercased() }
            if modifiers.contains(.ctrl), let control = controlByte(for: character) {
                return altPrefix + [control]
            }
            return altPrefix + Array(text.utf8)
        case .enter:
            return altPrefix + [0x0D]
        case .tab:
            return modifiers.contains(.shift) ? Array("\u{1B}[Z".utf8) : altPrefix + [0x09]
        case .backspace:
            return altPrefix + [modifiers.contains(.ctrl) ? 0x08 : 0x7F]
        case .escape:
            return altPrefix + escape
        case .up: return letterKey("A", application: applicationCursorKeys)
        case .down: return letterKey("B", application: applicationCursorKeys)
        case .right: return letterKey("C", application: applicationCursorKeys)
        case .left: return letterKey("D", application: applicationCursorKeys)
        case .home: return letterKey("H", application: applicationCursorKeys)
        case .end: return letterKey("F", application: applicationCursorKeys)
        case .insert: return tildeKey(2)
        case .delete: return tildeKey(3)
        case .pageUp: return tildeKey(5)
        case .pageDown: return tildeKey(6)
        case .function(let number):
            switch number {
            case 1...4: return letterKey(["P", "Q", "R", "S"][number - 1], application: true)
            case 5...12: return tildeKey([15, 17, 18, 19, 20, 21, 23, 24][number - 5])
            default: return []
            }
        }
    }

    /// What Ctrl turns a character into: letters and `@[\]^_` their C0 byte, Space NUL, `?` DEL.
    private static func controlByte(for character: Character) -> UInt8? {
        guard let ascii = character.asciiValue else { return nil }
        switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return ascii - UInt8(ascii: "a") + 1
        case UInt8(ascii: "@")...UInt8(ascii: "_"): return ascii & 0x1F
        case UInt8(ascii: " "): return 0
        case UInt8(ascii: "?"): return 0x7F
        default: return nil
        }
    }
}
