import Terminal

// Editing shared by `TextField` and `TextArea`: a buffer of lines with a cursor counted in
// grapheme clusters, the keys both understand, and how a row of text is scrolled and drawn.

/// An editing command decoded from a key. Both text widgets read keys through this, so they
/// agree on every binding; each ignores the commands it has no use for (a field has no lines
/// to move between).
enum TextEditCommand: Equatable {
    case insert(Character)
    case left, right, wordLeft, wordRight
    case lineStart, lineEnd, bufferStart, bufferEnd
    case up, down, pageUp, pageDown
    case deleteBackward, deleteForward, deleteWordBackward, deleteWordForward
    case deleteToLineStart, deleteToLineEnd
    case enter

    /// The command for `key`, or nil for keys the text widgets leave alone (Tab, Esc, Ctrl-C,
    /// function keys, unknown combinations).
    init?(_ key: KeyEvent) {
        let mods = key.modifiers
        switch (key.code, mods) {
        case (.char(let c), _) where mods.subtracting(.shift).isEmpty:
            guard isInsertable(c) else { return nil }
            self = .insert(c)
        case (.char("a"), .ctrl): self = .lineStart
        case (.char("e"), .ctrl): self = .lineEnd
        case (.char("w"), .ctrl): self = .deleteWordBackward
        case (.char("u"), .ctrl): self = .deleteToLineStart
        case (.char("k"), .ctrl): self = .deleteToLineEnd
        case (.char("b"), .alt): self = .wordLeft
        case (.char("f"), .alt): self = .wordRight
        case (.char("d"), .alt): self = .deleteWordForward
        case (.left, []): self = .left
        case (.right, []): self = .right
        case (.left, .ctrl), (.left, .alt): self = .wordLeft
        case (.right, .ctrl), (.right, .alt): self = .wordRight
        case (.home, []): self = .lineStart
        case (.end, []): self = .lineEnd
        case (.home, .ctrl): self = .bufferStart
        case (.end, .ctrl): self = .bufferEnd
        case (.up, []): self = .up
        case (.down, []): self = .down
        case (.pageUp, []): self = .pageUp
        case (.pageDown, []): self = .pageDown
        case (.backspace, []): self = .deleteBackward
        case (.backspace, .alt), (.backspace, .ctrl): self = .deleteWordBackward
        case (.delete, []): self = .deleteForward
        case (.delete, .alt), (.delete, .ctrl): self = .deleteWordForward
        case (.enter, []): self = .enter
        default: return nil
        }
    }
}

/// Whether a typed character goes into the text: anything but control characters.
private func isInsertable(_ c: Character) -> Bool {
    guard let first = c.unicodeScalars.first?.value else { return false }
    return first >= 0x20 && !(0x7F..<0xA0).contains(first)
}

/// Text as lines of grapheme clusters with a cursor, and the edits both text widgets make.
///
/// A single-line buffer keeps the whole text as its one line (newlines in text set from outside
/// stay in it; typed and pasted text never adds them). Edits return whether the text changed, so
/// the widget knows when to write the binding and send `.changed`.
struct TextBuffer {
    /// The lines, never empty. Multi-line text is split at "\n" (a "\r\n" ends a line too).
    private(set) var lines: [String]
    let multiline: Bool
    /// The cursor's line, and its column as a grapheme index into that line (0...count).
    var line = 0
    var column = 0

    init(text: String, multiline: Bool) {
        self.multiline = multiline
        self.lines = multiline ? Self.splitLines(text) : [text]
    }

    /// The buffer's text; lines are joined with "\n".
    var text: String { multiline ? lines.joined(separator: "\n") : lines[0] }

    var isEmpty: Bool { lines.count == 1 && lines[0].isEmpty }

    /// Splits at "\n" bytes (a newline is always a grapheme boundary, except inside "\r\n",
    /// whose "\r" is dropped with it).
    static func splitLines(_ text: String) -> [String] {
        var lines: [String] = []
        var start = text.startIndex
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            if utf8[index] == 0x0A {
                var line = text[start..<index]
                if line.utf8.last == 0x0D { line = line.dropLast() }
                lines.append(String(line))
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        lines.append(String(text[start...]))
        return lines
    }

    /// Replaces the text (changed from outside), keeping the cursor where it still fits.
    mutating func replaceText(_ text: String) {
        lines = multiline ? Self.splitLines(text) : [text]
        clampCursor()
    }

    mutating func clampCursor() {
        line = min(max(0, line), lines.count - 1)
        column = min(max(0, column), lines[line].count)
    }

    func characters(_ index: Int) -> [Character] { Array(lines[index]) }
    var currentCharacters: [Character] { Array(lines[line]) }
    private var lineLength: Int { lines[line].count }

    /// The cursor line as shown: a masked (secure) line shows one `•` per grapheme.
    func displayCharacters(masked: Bool) -> [Character] {
        masked ? Array(repeating: maskCharacter, count: lineLength) : currentCharacters
    }

    /// Display cells before the cursor in its line.
    var cursorCell: Int { cellColumn(of: column, in: currentCharacters) }

    // MARK: Moving

    mutating func moveLeft() {
        if column > 0 { column -= 1 } else if line > 0 { line -= 1; column = lineLength }
    }

    mutating func moveRight() {
        if column < lineLength { column += 1 } else if line < lines.count - 1 { line += 1; column = 0 }
    }

    /// To the start of the word before the cursor (from the start of a line: the previous line's end).
    mutating func moveWordLeft() {
        if column == 0 { moveLeft(); return }
        column = wordStart(before: column, in: currentCharacters)
    }

    /// To the end of the word after the cursor (from the end of a line: the next line's start).
    mutating func moveWordRight() {
        let chars = currentCharacters
        if column >= chars.count { moveRight(); return }
        column = wordEnd(after: column, in: chars)
    }

    mutating func moveToLineStart() { column = 0 }
    mutating func moveToLineEnd() { column = lineLength }
    mutating func moveToStart() { line = 0; column = 0 }
    mutating func moveToEnd() { line = lines.count - 1; column = lineLength }

    /// To line `target` (clamped), at the grapheme under display column `goal`.
    mutating func moveToLine(_ target: Int, goal: Int) {
        line = min(max(0, target), lines.count - 1)
        column = graphemeIndex(atCell: goal, in: currentCharacters)
    }

    // MARK: Editing

    /// Inserts `string` at the cursor and puts the cursor after it. In a multi-line buffer
    /// "\n" starts a new line; callers clean the text first (see `sanitizedForInsertion`).
    mutating func insert(_ string: String) -> Bool {
        guard !string.isEmpty else { return false }
        let chars = currentCharacters
        let before = String(chars[..<column]), after = String(chars[column...])
        let parts = multiline ? Self.splitLines(string) : [string]
        if parts.count == 1 {
            let head = before + string
            lines[line] = head + after
            column = head.count
        } else {
            var replacement = [before + parts[0]]
            replacement.append(contentsOf: parts[1..<(parts.count - 1)])
            replacement.append(parts[parts.count - 1] + after)
            lines.replaceSubrange(line...line, with: replacement)
            line += parts.count - 1
            column = parts[parts.count - 1].count
        }
        // A combining mark typed after a letter joins it: the cursor stays on a boundary.
        clampCursor()
        return true
    }

    /// Backspace: the grapheme before the cursor, or at a line's start the line break.
    mutating func deleteBackward() -> Bool {
        if column > 0 { return removeInLine(column - 1, column) }
        guard line > 0 else { return false }
        let joined = lines[line]
        lines.remove(at: line)
        line -= 1
        column = lineLength
        lines[line] += joined
        clampCursor()
        return true
    }

    /// Delete: the grapheme at the cursor, or at a line's end the line break.
    mutating func deleteForward() -> Bool {
        if column < lineLength { return removeInLine(column, column + 1) }
        guard line < lines.count - 1 else { return false }
        lines[line] += lines.remove(at: line + 1)
        clampCursor()
        return true
    }

    /// Ctrl-W: the word before the cursor (at a line's start, the line break).
    mutating func deleteWordBackward() -> Bool {
        if column == 0 { return deleteBackward() }
        return removeInLine(wordStart(before: column, in: currentCharacters), column)
    }

    /// Alt-D: the word after the cursor (at a line's end, the line break).
    mutating func deleteWordForward() -> Bool {
        let chars = currentCharacters
        if column >= chars.count { return deleteForward() }
        return removeInLine(column, wordEnd(after: column, in: chars))
    }

    /// Ctrl-U: from the line's start to the cursor.
    mutating func deleteToLineStart() -> Bool {
        removeInLine(0, column)
    }

    /// Ctrl-K: from the cursor to the line's end; at the end of a line, the line break.
    mutating func deleteToLineEnd() -> Bool {
        if column >= lineLength { return multiline ? deleteForward() : false }
        return removeInLine(column, lineLength)
    }

    /// Removes graphemes `from..<to` of the cursor's line and puts the cursor at `from`.
    private mutating func removeInLine(_ from: Int, _ to: Int) -> Bool {
        guard from < to else { return false }
        let chars = currentCharacters
        lines[line] = String(chars[..<from]) + String(chars[to...])
        column = from
        clampCursor()
        return true
    }
}

// MARK: - Words

/// What a secure field shows for each grapheme.
let maskCharacter: Character = "•"

/// Letters, digits and `_` make words; everything else separates them.
private func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

/// The start of the word before `index`, skipping separators first (readline's Alt-B).
func wordStart(before index: Int, in chars: [Character]) -> Int {
    var i = min(index, chars.count)
    while i > 0, !isWordCharacter(chars[i - 1]) { i -= 1 }
    while i > 0, isWordCharacter(chars[i - 1]) { i -= 1 }
    return i
}

/// The end of the word after `index`, skipping separators first (readline's Alt-F).
func wordEnd(after index: Int, in chars: [Character]) -> Int {
    var i = max(0, index)
    while i < chars.count, !isWordCharacter(chars[i]) { i += 1 }
    while i < chars.count, isWordCharacter(chars[i]) { i += 1 }
    return i
}

// MARK: - Cells

/// Display cells taken by the graphemes before `index`.
func cellColumn<C: Collection<Character>>(of index: Int, in chars: C) -> Int {
    var cells = 0
    for c in chars.prefix(index) { cells += c.terminalWidth }
    return cells
}

/// The grapheme covering display cell `cell` (either half of a wide character gives that
/// character); the end of the text when `cell` is past it.
func graphemeIndex<C: Collection<Character>>(atCell cell: Int, in chars: C) -> Int {
    var start = 0
    for (i, c) in chars.enumerated() {
        let w = c.terminalWidth
        if cell < start + w { return i }
        start += w
    }
    return chars.count
}

/// Cells the cursor covers: the grapheme under it (a wide character is 2), 1 at the end.
func cursorCells<C: Collection<Character>>(at index: Int, in chars: C) -> Int where C.Index == Int {
    index < chars.count ? max(1, chars[index].terminalWidth) : 1
}

/// A scroll offset (in cells) that shows `cursor...cursor+width-1` in a viewport of
/// `viewport` cells, moving as little as possible to the right and, past the left edge,
/// back by half a viewport so some text before the cursor shows too.
func revealingScroll(_ scroll: Int, cursor: Int, width: Int, viewport: Int) -> Int {
    guard viewport > 0 else { return 0 }
    let width = min(width, viewport)
    var s = scroll
    if cursor < s { s = max(0, cursor - viewport / 2) }
    if cursor + width > s + viewport { s = cursor + width - viewport }
    return max(0, s)
}

/// Moves a scroll offset right to the next grapheme boundary, so no wide character is cut at
/// the left edge of the line the cursor is on.
func snappedScroll<C: Collection<Character>>(_ scroll: Int, in chars: C) -> Int {
    var start = 0
    for c in chars {
        if start >= scroll { return start }
        start += c.terminalWidth
    }
    return max(scroll, start)
}

/// Draws one row of text scrolled left by `scroll` cells into `width` cells at `origin`.
/// Wide characters cut by either edge are left out (the cells stay blank), never split.
func drawTextRow<C: Sequence<Character>>(_ chars: C, scroll: Int, at origin: Point, width: Int,
                                         style: Style, in canvas: inout Canvas, clip: Rect) {
    guard width > 0 else { return }
    var start = 0
    for c in chars {
        if start >= scroll + width { break }
        let w = c.terminalWidth
        if w > 0, start >= scroll, start + w <= scroll + width {
            canvas.put(c, at: Point(x: origin.x + start - scroll, y: origin.y), style: style, clip: clip)
        }
        start += w
    }
}

/// The style of the cursor cell: the theme's focus style, or reverse video when the theme
/// gives focus no look of its own.
func cursorStyle(base: Style, theme: ResolvedTheme) -> Style {
    let focus = theme[.focus]
    return base.merged(with: focus == .plain ? Style(attributes: .reverse) : focus)
}

/// Text made ready for insertion: `"\r\n"` and `"\r"` become `"\n"`, and in a single-line
/// field every newline and tab becomes a space; tabs in multi-line text become four spaces.
/// Other control characters are dropped (a terminal would act on them).
func sanitizedForInsertion(_ text: String, multiline: Bool) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for c in text {
        switch c {
        case "\r\n", "\r", "\n", "\u{2028}", "\u{2029}", "\u{85}":
            out.append(multiline ? "\n" : " ")
        case "\t":
            out += multiline ? "    " : " "
        default:
            if isInsertable(c) { out.append(c) }
        }
    }
    return out
}

// MARK: - State between frames

/// What a text widget keeps between frames (in its state box): the buffer with its cursor,
/// the text the buffer was made from (to notice changes from outside), and the scroll.
struct TextEditState {
    var buffer: TextBuffer
    /// The bound text the buffer last agreed with.
    var source: String
    /// Cells scrolled off the left edge, and lines off the top (`TextArea`).
    var scrollX = 0
    var scrollY = 0
    /// The display column Up/Down aim for while moving between lines of different lengths.
    var goal: Int?
    /// Scroll to show the cursor at the next draw (after keys, clicks, pastes; not the wheel).
    var reveal = true
    /// The size of the last frame drawn (page moves use its height).
    var viewport: Size = .zero

    init(text: String, multiline: Bool, cursorAtEnd: Bool) {
        buffer = TextBuffer(text: text, multiline: multiline)
        if cursorAtEnd { buffer.moveToEnd() }
        source = text
    }

    /// Brings the buffer up to date with the bound text, which may have been changed from
    /// outside (cleared after a submit, loaded from a file): the cursor is clamped into it.
    mutating func sync(with text: String) {
        // `==` is canonical equivalence; comparing the byte counts too notices a change of
        // normalization, which the buffer must take over.
        if text == source && text.utf8.count == source.utf8.count { return }
        buffer.replaceText(text)
        source = text
    }

    /// Scrolls so the cursor shows (when asked to, or when the size changed) and keeps the
    /// scroll within the text: no more empty space after the cursor's line than the cursor
    /// needs, no empty rows after the last line.
    mutating func scroll(toFit size: Size, masked: Bool = false) {
        if size != viewport { viewport = size; reveal = true }
        let chars = buffer.displayCharacters(masked: masked)
        if reveal {
            if buffer.line < scrollY { scrollY = buffer.line }
            if buffer.line >= scrollY + size.height { scrollY = buffer.line - size.height + 1 }
            let cell = cellColumn(of: buffer.column, in: chars)
            let lineCells = cellColumn(of: chars.count, in: chars)
            scrollX = min(scrollX, max(0, lineCells + 1 - size.width))
            scrollX = revealingScroll(scrollX, cursor: cell, width: cursorCells(at: buffer.column, in: chars), viewport: size.width)
            scrollX = snappedScroll(scrollX, in: chars)
            reveal = false
        }
        scrollY = max(0, min(scrollY, buffer.lines.count - size.height))
    }
}
