/// What a copy to the system clipboard did (`Terminal.copyToClipboard`).
///
/// ```swift
/// let copy = terminal.copyToClipboard(selection)
/// toast(copy.isComplete ? "Copied" : "Copied the first \(copy.copiedLines) lines")
/// ```
public struct ClipboardCopy: Hashable, Sendable {
    /// The text that was sent: all of it, or as much as fits (`OSC52.maximumPayload`).
    public var copied: String
    /// Whether that is the whole text asked for.
    public var isComplete: Bool
    /// Lines in the text asked for, and in what was sent (a text without a newline is one line).
    public var requestedLines: Int
    public var copiedLines: Int

    public init(copied: String, isComplete: Bool, requestedLines: Int) {
        self.copied = copied
        self.isComplete = isComplete
        self.requestedLines = requestedLines
        self.copiedLines = ClipboardCopy.lineCount(copied)
    }

    /// Lines of `text`: one more than its newlines, not counting a final newline; 0 when empty.
    public static func lineCount(_ text: String) -> Int {
        guard !text.isEmpty else { return 0 }
        var count = 1
        for byte in text.utf8 where byte == 0x0A { count += 1 }
        if text.utf8.last == 0x0A { count -= 1 }
        return count
    }
}

/// The clipboard by escape sequence: OSC 52 (`ESC ] 52 ; c ; <base64> ESC \`), which xterm,
/// kitty, iTerm2, WezTerm, foot, Windows Terminal and others take, over SSH too, and tmux passes
/// on with `set -g set-clipboard on`. Terminals refuse a payload much over 100 KB (xterm's
/// default limit, kitty's and tmux's are of that order), so the text is cut to fit, at a line
/// end when a whole line fits, else at a character.
///
/// ```swift
/// let (bytes, copy) = OSC52.sequence(for: "hello")
/// String(decoding: bytes, as: UTF8.self)   // "\u{1B}]52;c;aGVsbG8=\u{1B}\\"
/// ```
public enum OSC52 {
    /// The largest base64 payload sent (bytes); the text it carries is 3/4 of it.
    public static let maximumPayload = 100_000

    /// The largest text sent, in UTF-8 bytes.
    public static var maximumText: Int { maximumPayload / 4 * 3 }

    /// The sequence that puts `text` (or as much as fits) on the clipboard, and what it copies.
    public static func sequence(for text: String) -> (bytes: [UInt8], copy: ClipboardCopy) {
        let copied = fitting(text)
        var bytes = Array("\u{1B}]52;c;".utf8)
        bytes.reserveCapacity(bytes.count + (copied.utf8.count + 2) / 3 * 4 + 2)
        appendBase64(of: copied.utf8, to: &bytes)
        bytes.append(contentsOf: [0x1B, UInt8(ascii: "\\")])
        let copy = ClipboardCopy(copied: copied, isComplete: copied.utf8.count == text.utf8.count,
                                 requestedLines: ClipboardCopy.lineCount(text))
        return (bytes, copy)
    }

    /// `text`, or its longest start that fits in `maximumText` bytes: whole lines when at least
    /// one fits, else whole characters.
    static func fitting(_ text: String) -> String {
        let limit = maximumText
        guard text.utf8.count > limit else { return text }
        var end = text.startIndex
        var lastLineEnd: String.Index?
        var used = 0
        for index in text.indices {
            let size = text[index].utf8.count
            if used + size > limit { break }
            used += size
            end = text.index(after: index)
            if text[index].isNewline { lastLineEnd = end }
        }
        return String(text[..<(lastLineEnd ?? end)])
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard base64 (RFC 4648, with padding).
    static func appendBase64(of input: some Collection<UInt8>, to output: inout [UInt8]) {
        var iterator = input.makeIterator()
        while let a = iterator.next() {
            let b = iterator.next(), c = iterator.next()
            let n = UInt32(a) << 16 | UInt32(b ?? 0) << 8 | UInt32(c ?? 0)
            output.append(alphabet[Int(n >> 18 & 63)])
            output.append(alphabet[Int(n >> 12 & 63)])
            output.append(b == nil ? UInt8(ascii: "=") : alphabet[Int(n >> 6 & 63)])
            output.append(c == nil ? UInt8(ascii: "=") : alphabet[Int(n & 63)])
        }
    }
}
