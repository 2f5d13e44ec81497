import Foundation
import Terminal

/// What an xterm-compatible terminal shows after a program's output: the cells of the screen and
/// their styles, the cursor, and the modes the program set. Feed it every byte a program writes
/// (`PseudoTerminal` does) and check the result.
///
/// It understands what ncurses writes for `TERM=xterm-256color` and the usual extras: cursor
/// movement (CUP, CUU/CUD/CUF/CUB, CNL/CPL, CHA/HPA, VPA, HPR/VPR), erasing (ED, EL, ECH), inserting
/// and deleting characters and lines (ICH, DCH, IL, DL), scroll regions (DECSTBM) and scrolling
/// (IND, RI, NEL, LF at the bottom margin, SU, SD), REP, saving the cursor (DECSC/DECRC, SCOSC/SCORC),
/// SGR (attributes and 8, 16, 256 and 24-bit colours, `;` and `:` forms), tab stops (HT, CHT, CBT,
/// HTS, TBC), insert mode (IRM), origin mode, autowrap with xterm's pending wrap, the alternate
/// screen (47, 1047, 1048, 1049), the keypad modes (DECCKM, DECKPAM/DECKPNM), the DEC line-drawing
/// character set, soft and full reset (DECSTR, RIS), DECALN, and the kitty keyboard protocol's
/// stack, OSC 8 links and OSC 52 clipboard writes; other OSC, DCS, SOS, PM and APC strings are
/// skipped. Queries a program may wait for (DSR, DA, DECRQM, the kitty flags, the window size in
/// cells, and as `identity` says the default colours, XTVERSION and XTGETTCAP) are answered
/// through `takeResponses()`; synchronized updates (mode 2026) are counted in `synchronizedUpdates`.
/// Left and right margins (DECSLRM), double-width lines and scrollback are not emulated.
///
/// Text is UTF-8, decoded across `feed` calls: a wide character (CJK, most emoji; measured with the
/// framework's `terminalWidth`) takes two cells, a zero-width one (a combining mark, a variation
/// selector, ZWJ) joins the character before the cursor, and writing in the last column leaves the
/// cursor there until the next printable character wraps (when autowrap, `?7`, is on).
///
/// Any byte sequence is accepted without a crash and in bounded memory (see `VTParser`), so the
/// screen can take fuzzed input. Invariants: `lines.count == size.height`; every row has
/// `size.width` cells; a cell of width 2 is always followed by its right half (width 0) and a
/// width-0 cell always follows a width-2 one; the cursor is always on screen (`0..<width`,
/// `0..<height`); the scroll region is within the screen, top above bottom.
///
/// ```swift
/// var screen = TerminalScreen(width: 20, height: 5)
/// screen.feed(Array("\u{1B}[?1049h\u{1B}[3;5H\u{1B}[7mhi\u{1B}[m".utf8))
/// screen.lines[2]                        // "    hi"
/// screen.cell(x: 4, y: 2).attributes     // [.reverse]
/// screen.cursor                          // (6, 2)
/// screen.isAlternateScreen               // true
/// screen.unresetModes()                  // [1049]
/// ```
public struct TerminalScreen: Sendable, CustomStringConvertible {
    /// One cell: a character, how many columns it takes, and how it is drawn.
    ///
    /// A wide character takes two cells: the left one holds it with `width == 2`, the right one is
    /// its continuation (`width == 0`, a space). Blank cells are spaces of width 1.
    ///
    /// ```swift
    /// let cell = screen.cell(x: 0, y: 0)
    /// #expect(cell.character == "東" && cell.width == 2)
    /// #expect(cell.foreground == .indexed(208) && cell.attributes.contains(.bold))
    /// ```
    public struct Cell: Hashable, Sendable, CustomStringConvertible {
        /// The character (with any combining marks that joined it); a space when blank.
        public var character: Character
        private var storedWidth: UInt8
        public var foreground: Color
        public var background: Color
        public var attributes: Attributes
        /// The address the cell links to (OSC 8: `ESC ] 8 ; params ; URI ESC \\` before it was
        /// written, `ESC ] 8 ; ; ESC \\` after), nil for none.
        public var hyperlink: String?

        public init(_ character: Character = " ", width: Int = 1, foreground: Color = .default,
                    background: Color = .default, attributes: Attributes = [], hyperlink: String? = nil) {
            self.character = character
            self.storedWidth = UInt8(clamping: max(0, min(2, width)))
            self.foreground = foreground
            self.background = background
            self.attributes = attributes
            self.hyperlink = hyperlink
        }

        /// Columns the character takes: 1, 2 for a wide character, 0 for the right half of one.
        public var width: Int {
            get { Int(storedWidth) }
            set { storedWidth = UInt8(clamping: max(0, min(2, newValue))) }
        }

        /// Whether this is the right half of a wide character.
        public var isContinuation: Bool { storedWidth == 0 }

        /// The colours and the attributes the framework's `Style` has (`invisible` and
        /// `strikethrough` have no counterpart there and are left out).
        public var style: Style {
            var textAttributes: TextAttributes = []
            if attributes.contains(.bold) { textAttributes.insert(.bold) }
            if attributes.contains(.dim) { textAttributes.insert(.dim) }
            if attributes.contains(.italic) { textAttributes.insert(.italic) }
            if attributes.contains(.underline) { textAttributes.insert(.underline) }
            if attributes.contains(.reverse) { textAttributes.insert(.reverse) }
            if attributes.contains(.blink) { textAttributes.insert(.blink) }
            return Style(foreground: foreground, background: background, attributes: textAttributes)
        }

        public var description: String {
            "\"\(character)\"" + (width == 1 ? "" : " width \(width)")
                + (foreground == .default ? "" : " fg \(foreground)")
                + (background == .default ? "" : " bg \(background)")
                + (attributes.isEmpty ? "" : " \(attributes)")
                + (hyperlink.map { " link \($0)" } ?? "")
        }

        /// A blank cell in `background` (what erasing leaves, as xterm's background colour erase does).
        static func blank(_ background: Color = .default) -> Cell { Cell(" ", background: background) }
    }

    /// The SGR attributes a cell is drawn with.
    ///
    /// ```swift
    /// #expect(screen.cell(x: 0, y: 0).attributes == [.bold, .reverse])
    /// ```
    public struct Attributes: OptionSet, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        public static let bold = Attributes(rawValue: 1 << 0)            // SGR 1
        public static let dim = Attributes(rawValue: 1 << 1)             // SGR 2
        public static let italic = Attributes(rawValue: 1 << 2)          // SGR 3
        public static let underline = Attributes(rawValue: 1 << 3)       // SGR 4 (any style), 21
        public static let blink = Attributes(rawValue: 1 << 4)           // SGR 5, 6
        public static let reverse = Attributes(rawValue: 1 << 5)         // SGR 7
        public static let invisible = Attributes(rawValue: 1 << 6)       // SGR 8
        public static let strikethrough = Attributes(rawValue: 1 << 7)   // SGR 9

        public var description: String {
            let names: [(Attributes, String)] = [(.bold, "bold"), (.dim, "dim"), (.italic, "italic"),
                                                 (.underline, "underline"), (.blink, "blink"), (.reverse, "reverse"),
                                                 (.invisible, "invisible"), (.strikethrough, "strikethrough")]
            return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
        }
    }

    /// One `CSI ? Pm h` (on) or `CSI ? Pm l` (off), for one mode.
    ///
    /// ```swift
    /// screen.feed(Array("\u{1B}[?1006;1000h".utf8))
    /// #expect(screen.modeChanges == [.init(mode: 1006, on: true), .init(mode: 1000, on: true)])
    /// ```
    public struct ModeChange: Hashable, Sendable, CustomStringConvertible {
        public var mode: Int
        public var on: Bool
        public init(mode: Int, on: Bool) { self.mode = mode; self.on = on }
        public var description: String { "?\(mode)\(on ? "h" : "l")" }
    }

    /// The DEC private modes that are on when a terminal starts: autowrap (7) and a visible
    /// cursor (25). Every other mode starts off.
    public static let defaultModes: [Int: Bool] = [7: true, 25: true]
    /// How many mode changes `modeChanges` keeps (the oldest go first).
    public static let maxModeChanges = 65_536
    /// The largest width or height a screen takes (larger sizes are clamped).
    public static let maxDimension = 4_096

    // MARK: State
    //
    // `rows` is the buffer on show; `otherRows` the one that is not (the alternate screen's while
    // the main one shows, and the other way round). They swap when the program switches.

    public internal(set) var size: Size
    var rows: [[Cell]]
    var otherRows: [[Cell]]
    public internal(set) var isAlternateScreen = false
    var x = 0
    var y = 0
    /// Set after a character went into the last column with autowrap on: the next printable
    /// character goes to the start of the next line first. Any cursor movement clears it.
    var pendingWrap = false
    /// The colours and attributes the next character gets (the SGR state); its character is a
    /// space. A program that exits should leave it plain (`pen == Cell()`).
    public internal(set) var pen = Cell()
    var scrollTop = 0
    var scrollBottom: Int
    var tabStops: [Bool]
    var characterSets = CharacterSets()
    /// DECSC's (and 1048's) saved state for the buffer on show, and for the other one.
    var savedCursor: SavedCursor?
    var otherSavedCursor: SavedCursor?
    var autowrap = true
    var originMode = false
    /// The last printable character, which REP repeats.
    var lastPrinted: Unicode.Scalar?
    var parser = VTParser()
    var responses: [UInt8] = []

    /// Every DEC private mode a program set or reset (`CSI ? Pm h/l`), with its latest state.
    /// Modes no sequence touched are absent (they have their power-on default, `defaultModes`).
    /// A full reset (`ESC c`) empties it; a soft reset (`CSI ! p`) resets 1, 6, 7 and 25 here too.
    public internal(set) var modes: [Int: Bool] = [:]
    /// Every `CSI ? Pm h/l`, one entry per mode, in order (at most `maxModeChanges`, the latest).
    /// Resets (`ESC c`, `CSI ! p`) change `modes` but add nothing here.
    public internal(set) var modeChanges: [ModeChange] = []
    /// The kitty keyboard protocol's stack: pushes (`CSI > flags u`) minus pops (`CSI < n u`),
    /// never below 0. A program that pushed must pop before it exits, leaving 0.
    public internal(set) var kittyKeyboardDepth = 0
    /// The kitty keyboard flags in effect (the top of the stack, as `CSI = flags ; mode u` left them).
    public internal(set) var kittyKeyboardFlags = 0
    var kittyFlagsStack: [Int] = []
    /// Whether the keypad sends application sequences (`ESC =`, DECKPAM) rather than numbers
    /// (`ESC >`, DECKPNM, the default). Not a `CSI ?` mode, so not in `modes`.
    public internal(set) var isKeypadApplicationMode = false
    /// Whether insert mode (IRM, `CSI 4 h`) is on: printed characters push the rest of the line right.
    public internal(set) var isInsertMode = false
    /// The cursor shape DECSCUSR (`CSI Ps SP q`) last asked for; 0 is the terminal's default.
    public internal(set) var cursorShape = 0
    /// What the program put on the clipboard with OSC 52 (`ESC ] 52 ; c ; base64 ESC \\`), in
    /// order (the last `maxClipboardWrites`).
    public internal(set) var clipboardWrites: [ClipboardWrite] = []
    /// OSC strings that were not OSC 8, 52 or a colour query, DCS strings that were not a query
    /// answered here, and strings cut for being longer than `VTParser.maxStringLength` (OSC) or
    /// `VTParser.maxControlStringLength` (DCS): how many.
    public internal(set) var ignoredStrings = 0
    /// How this terminal answers the questions a program asks about it (its colours, synchronized
    /// output, name, capabilities); set it before the program asks.
    public var identity: TerminalIdentity
    /// The synchronized updates (`CSI ? 2026 h` … `CSI ? 2026 l`) the program wrote, counted
    /// whatever `identity` says (a terminal without the mode ignores them).
    public internal(set) var synchronizedUpdates = SynchronizedUpdates()

    /// A blank screen of `width` x `height` cells (each clamped to 1...`maxDimension`) that
    /// answers queries as `identity` says.
    public init(width: Int = 80, height: Int = 24, identity: TerminalIdentity = TerminalIdentity()) {
        let width = Self.clampDimension(width)
        let height = Self.clampDimension(height)
        self.identity = identity
        size = Size(width: width, height: height)
        rows = Self.blankRows(width: width, height: height)
        otherRows = rows
        scrollBottom = height - 1
        tabStops = Self.defaultTabStops(width: width)
    }

    // MARK: Feeding

    /// Reads bytes a program wrote; sequences and characters may be split anywhere between calls.
    ///
    /// ```swift
    /// screen.feed([0xE6, 0x9D])        // the first two bytes of "東"
    /// screen.feed([0xB1])              // ... and the last: "東" is on screen
    /// screen.feed("\u{1B}[1mbold".utf8)
    /// ```
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        var parser = self.parser
        self.parser = VTParser()
        for byte in bytes { parser.advance(byte, screen: &self) }
        self.parser = parser
    }

    /// Takes the replies owed to the program for the queries it sent (cursor position, device
    /// attributes, mode reports, ...), which a terminal writes back as if typed. `PseudoTerminal`
    /// sends them on. Kept up to 4 KiB; more is dropped.
    ///
    /// ```swift
    /// screen.feed(Array("\u{1B}[6n".utf8))
    /// screen.takeResponses()   // Array("\u{1B}[1;1R".utf8)
    /// ```
    public mutating func takeResponses() -> [UInt8] {
        defer { responses.removeAll() }
        return responses
    }

    // MARK: Reading the screen

    /// Every row's text, trailing spaces trimmed, a wide character once.
    public var lines: [String] { rows.map(Self.text(of:)) }
    /// The rows joined by newlines.
    public var text: String { lines.joined(separator: "\n") }
    public var description: String { text }
    /// Row `y`'s text ("" off screen).
    public func row(_ y: Int) -> String { rows.indices.contains(y) ? Self.text(of: rows[y]) : "" }
    /// Whether `text` is on one of the rows.
    public func contains(_ text: String) -> Bool { rows.contains { Self.text(of: $0).contains(text) } }

    /// Where `text` first appears (row by row), in cells.
    ///
    /// ```swift
    /// screen.position(of: "hello")   // Point(x: 10, y: 5)
    /// ```
    public func position(of text: String) -> Point? {
        for (y, row) in rows.enumerated() {
            let line = Self.text(of: row)
            guard let range = line.range(of: text) else { continue }
            // Count cells, not characters, up to the match.
            var column = 0
            var characters = line[..<range.lowerBound].count
            for cell in row where !cell.isContinuation {
                if characters == 0 { break }
                characters -= 1
                column += cell.width
            }
            return Point(x: column, y: y)
        }
        return nil
    }

    /// One OSC 52 write: the selections named (`c` is the clipboard, `p` the primary
    /// selection) and the text, decoded from base64 as UTF-8 (nil when it was not valid base64,
    /// or was a query, `?`).
    public struct ClipboardWrite: Hashable, Sendable {
        public var selections: String
        public var text: String?
        /// The base64 payload as written.
        public var payload: String
    }

    static let maxClipboardWrites = 64

    /// A run of cells on one row that link to one address.
    public struct LinkedRun: Hashable, Sendable {
        public var y: Int
        public var columns: Range<Int>
        public var url: String
        public var text: String

        public init(y: Int, columns: Range<Int>, url: String, text: String) {
            self.y = y
            self.columns = columns
            self.url = url
            self.text = text
        }
    }

    /// Every run of linked cells, row by row, left to right.
    ///
    /// ```swift
    /// #expect(screen.linkedRuns.map(\.text) == ["docs"])
    /// ```
    public var linkedRuns: [LinkedRun] {
        var runs: [LinkedRun] = []
        for (y, row) in rows.enumerated() {
            var x = 0
            while x < row.count {
                guard let url = row[x].hyperlink else { x += 1; continue }
                let start = x
                var text = ""
                while x < row.count, row[x].hyperlink == url {
                    if !row[x].isContinuation { text.append(row[x].character) }
                    x += 1
                }
                runs.append(LinkedRun(y: y, columns: start..<x, url: url, text: text))
            }
        }
        return runs
    }

    /// The cell at a position; a blank cell off screen.
    public func cell(x: Int, y: Int) -> Cell {
        guard rows.indices.contains(y), rows[y].indices.contains(x) else { return Cell() }
        return rows[y][x]
    }

    /// Where the next character goes. After a character went into the last column (pending wrap),
    /// it is still that column.
    public var cursor: Point { Point(x: x, y: y) }
    /// Whether the cursor waits in the last column to wrap before the next character.
    public var hasPendingWrap: Bool { pendingWrap }
    /// Whether the cursor is shown (DECTCEM, `?25`).
    public var cursorVisible: Bool { modes[25] ?? true }
    /// The scroll region's first and last row (DECSTBM).
    public var scrollRegion: ClosedRange<Int> { scrollTop...scrollBottom }

    /// Whether the next ASCII character would come out as DEC line drawing (`ESC ( 0` or SO with
    /// `ESC ) 0` in effect): a program that exits like that leaves the shell drawing boxes.
    public var isLineDrawingActive: Bool { characterSets.active == .decSpecialGraphics }

    /// Whether DEC private mode `mode` is on now (its default when no sequence touched it).
    public func isModeOn(_ mode: Int) -> Bool { modes[mode] ?? Self.defaultModes[mode] ?? false }

    /// The modes whose state now differs from `defaults` (a mode not listed there defaults to
    /// off), sorted: what a program failed to reset on the way out. Checks of "every mode the
    /// program set is reset" expect `[]`.
    ///
    /// ```swift
    /// screen.feed(Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1000l".utf8))
    /// screen.unresetModes()   // [25, 1049]
    /// ```
    public func unresetModes(defaults: [Int: Bool] = TerminalScreen.defaultModes) -> [Int] {
        modes.filter { $0.value != (defaults[$0.key] ?? false) }.map(\.key).sorted()
    }

    /// Changes the size as a terminal window does, keeping what is on screen at the top left
    /// (clipped, or padded with blank cells), in both buffers. The cursor is kept on screen, the
    /// scroll region becomes the whole screen, and new columns get the default tab stops.
    public mutating func resize(width: Int, height: Int) {
        let width = Self.clampDimension(width)
        let height = Self.clampDimension(height)
        guard width != size.width || height != size.height else { return }
        rows = Self.resized(rows, width: width, height: height)
        otherRows = Self.resized(otherRows, width: width, height: height)
        if width > size.width {
            tabStops += Self.defaultTabStops(width: width)[size.width...]
        } else {
            tabStops.removeLast(size.width - width)
        }
        size = Size(width: width, height: height)
        x = min(x, width - 1)
        y = min(y, height - 1)
        pendingWrap = false
        scrollTop = 0
        scrollBottom = height - 1
        savedCursor?.clamp(to: size)
        otherSavedCursor?.clamp(to: size)
    }

    // MARK: Helpers

    static func clampDimension(_ value: Int) -> Int { max(1, min(maxDimension, value)) }

    static func blankRows(width: Int, height: Int, background: Color = .default) -> [[Cell]] {
        Array(repeating: Array(repeating: Cell.blank(background), count: width), count: height)
    }

    static func defaultTabStops(width: Int) -> [Bool] {
        (0..<width).map { $0 > 0 && $0 % 8 == 0 }
    }

    static func text(of row: [Cell]) -> String {
        var text = ""
        text.reserveCapacity(row.count)
        for cell in row where !cell.isContinuation { text.append(cell.character) }
        while text.last == " " { text.removeLast() }
        return text
    }

    static func resized(_ rows: [[Cell]], width: Int, height: Int) -> [[Cell]] {
        var result: [[Cell]] = rows.prefix(height).map { row in
            var row = Array(row.prefix(width))
            if row.count < width { row += repeatElement(Cell.blank(), count: width - row.count) }
            // A wide character cut in half by the new edge goes.
            if let last = row.last, last.width == 2 { row[width - 1] = .blank(last.background) }
            return row
        }
        if result.count < height {
            result += repeatElement(Array(repeating: Cell.blank(), count: width), count: height - result.count)
        }
        return result
    }
}

extension TerminalScreen {
    /// The 94-character sets G0 and G1 can hold (others designate as ASCII).
    enum Charset: Sendable {
        case ascii
        /// DEC Special Graphics: `lqk` and friends draw boxes.
        case decSpecialGraphics
    }

    /// G0, G1 and which of them is in use (SI/SO).
    struct CharacterSets: Sendable {
        var g0 = Charset.ascii
        var g1 = Charset.ascii
        var usesG1 = false
        var active: Charset { usesG1 ? g1 : g0 }
    }

    /// What DECSC saves and DECRC restores.
    struct SavedCursor: Sendable {
        var x: Int
        var y: Int
        var pendingWrap: Bool
        var pen: Cell
        var characterSets: CharacterSets
        var originMode: Bool

        mutating func clamp(to size: Size) {
            x = min(x, size.width - 1)
            y = min(y, size.height - 1)
            pendingWrap = false
        }
    }
}
