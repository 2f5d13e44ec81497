import Synchronization

/// A link a cell carries: on a terminal that has them (OSC 8: iTerm2, kitty, WezTerm, GNOME
/// Terminal and other VTE terminals, Windows Terminal, foot, tmux 3.4 and later), the text is a
/// link the user can open (Ctrl-click, or a click, as the terminal decides); elsewhere the text
/// shows as it is and nothing else changes.
///
/// A cell keeps a two-byte number, not the address: addresses are kept once per process in a
/// table (as `Glyph` keeps long grapheme clusters), so a `Cell` stays a 16-byte plain value, equal
/// cells are equal bytes, and the frame diff sees a link that changed as a changed cell.
///
/// Addresses may come from anywhere (a log line, a file): control characters are removed (an
/// address must not end the terminal's string early or start another sequence), and bytes
/// outside printable ASCII are percent-encoded, as the OSC 8 convention asks.
///
/// ```swift
/// let docs = Hyperlink("https://example.com/docs")   // nil for an empty or unusable address
/// canvas.write("docs", at: .zero)
/// canvas.setHyperlink(docs, in: Rect(x: 0, y: 0, width: 4, height: 1))
/// canvas[0, 0].hyperlink?.url                         // "https://example.com/docs"
/// ```
public struct Hyperlink: Hashable, Sendable, CustomStringConvertible {
    /// Its number in the process's table, from 1 (a cell stores 0 for no link).
    public let rawValue: UInt16

    /// The longest address kept, in bytes once cleaned: terminals drop longer ones (VTE's limit is
    /// 2,083 bytes), so a longer one is no link at all rather than a broken one.
    public static let maximumLength = 2048
    /// How many different addresses a process links to before further ones are drawn as plain
    /// text (a table that only grows must stay small: at most 4,096 × 2 KiB).
    public static let capacity = 4096

    init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The link to `url`, cleaned (see `Hyperlink.sanitized`); nil when nothing usable is left,
    /// the address is longer than `maximumLength`, or the table is full.
    public init?(_ url: String) {
        guard let clean = Self.sanitized(url), let number = HyperlinkTable.shared.number(of: clean) else { return nil }
        rawValue = number
    }

    /// The address, as cleaned.
    public var url: String { HyperlinkTable.shared.url(of: rawValue) }

    public var description: String { url }

    /// `url` with control characters (C0, DEL, C1) removed and every byte outside printable ASCII
    /// percent-encoded; nil when that leaves nothing or more than `maximumLength` bytes.
    ///
    /// ```swift
    /// Hyperlink.sanitized("https://a.b/\u{1B}]8;;evil")   // "https://a.b/]8;;evil"
    /// Hyperlink.sanitized("https://a.b/café")              // "https://a.b/caf%C3%A9"
    /// ```
    public static func sanitized(_ url: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(url.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for scalar in url.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) { continue }
            if value < 0x80 {
                bytes.append(UInt8(value))
            } else {
                for byte in String(scalar).utf8 {
                    bytes.append(UInt8(ascii: "%"))
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0xF)])
                }
            }
            if bytes.count > maximumLength { return nil }
        }
        // Leading and trailing spaces are not part of an address.
        while bytes.first == 0x20 { bytes.removeFirst() }
        while bytes.last == 0x20 { bytes.removeLast() }
        guard !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether any link was ever made in this process: until one is, a terminal need not look
    /// for linked cells at all.
    public static var anyMade: Bool { HyperlinkTable.shared.anyMade.load(ordering: .relaxed) }
}

/// The addresses cells link to, numbered from 1 in the order first seen.
final class HyperlinkTable: Sendable {
    static let shared = HyperlinkTable()

    private struct Storage {
        var urls: [String] = []
        var numbers: [String: UInt16] = [:]
    }
    private let storage = Mutex(Storage())
    let anyMade = Atomic<Bool>(false)

    /// The number of a cleaned address, added if new; nil when the table is full.
    func number(of url: String) -> UInt16? {
        let number: UInt16? = storage.withLock { s in
            if let known = s.numbers[url] { return known }
            guard s.urls.count < Hyperlink.capacity else { return nil }
            s.urls.append(url)
            let number = UInt16(s.urls.count)
            s.numbers[url] = number
            return number
        }
        if number != nil { anyMade.store(true, ordering: .relaxed) }
        return number
    }

    func url(of number: UInt16) -> String {
        storage.withLock { s in
            let index = Int(number) - 1
            return s.urls.indices.contains(index) ? s.urls[index] : ""
        }
    }
}
