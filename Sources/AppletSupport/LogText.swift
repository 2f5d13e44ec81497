/// Text that came from outside (a file name, a keymap id, a value read from a file) made safe for
/// a log line or a message: control characters, which a terminal would run as commands when the
/// log is read with `tail -f` or `cat`, are written as escapes instead. Everything else, other
/// languages and emoji included, is kept as it is.
///
/// ```swift
/// LogText.escaped("id\u{1B}[2Jx")   // "id\u{1B}[2Jx" as the 11 visible characters `id\e[2Jx`
/// LogText.escaped("line 1\nline 2") // "line 1\\nline 2": one log entry stays one line
/// ```
public enum LogText {
    /// `text` with C0 controls, DEL and C1 controls escaped (`\n`, `\t`, `\r`, `\e`, else `\u{XX}`).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{1B}": out += "\\e"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// C0 controls, DEL and the C1 controls (U+0080–U+009F, which some terminals run as well).
    @inline(__always)
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
