import Testing
@testable import Terminal
@testable import TerminalCore

@Suite("Canvas")
struct CanvasTests {
    @Test func writesTextAndReadsItBack() {
        var canvas = Canvas(size: Size(width: 10, height: 2))
        let used = canvas.write("hello", at: Point(x: 2, y: 1), style: Style(attributes: .bold))
        #expect(used == 5)
        #expect(canvas.lines == ["", "  hello"])
        #expect(canvas[2, 1].style.attributes.contains(.bold))
        #expect(canvas[1, 1].style == .plain)
    }

    @Test("Text of one-column scalars writes the same cells as putting each character")
    func singleColumnTextMatchesCharacterByCharacter() {
        for text in ["tab 2 · count 5 · row 3", "naïve → ─┼─ “x” …", "ÿ§©®°±µ¶"] {
            var fast = Canvas(size: Size(width: 30, height: 2))
            let used = fast.write(text, at: Point(x: 1, y: 0), style: Style(attributes: .bold), clip: Rect(x: 0, y: 0, width: 12, height: 2))
            var slow = Canvas(size: Size(width: 30, height: 2))
            var x = 1
            for character in text where x < 12 {
                x += slow.put(character, at: Point(x: x, y: 0), style: Style(attributes: .bold), clip: Rect(x: 0, y: 0, width: 12, height: 2))
            }
            #expect(fast == slow, "\(text)")
            #expect(used == min(text.count, 11))
        }
    }

    @Test("fill sets exactly the cells of the rectangle, clipped to the canvas", arguments: [
        Rect(x: 0, y: 0, width: 37, height: 9), Rect(x: 3, y: 2, width: 1, height: 1), Rect(x: 5, y: 1, width: 17, height: 4),
        Rect(x: -4, y: -2, width: 10, height: 5), Rect(x: 30, y: 7, width: 20, height: 20), Rect(x: 2, y: 3, width: 0, height: 4),
    ])
    func fillCoversItsRectangle(_ rect: Rect) {
        var canvas = Canvas(size: Size(width: 37, height: 9))
        for y in 0..<9 { canvas.write(String(repeating: "x", count: 37), at: Point(x: 0, y: y)) }
        let cell = Cell("#", style: Style(foreground: .red, attributes: .bold))
        canvas.fill(rect, with: cell)
        let inside = rect.intersection(canvas.bounds)
        for y in 0..<9 {
            for x in 0..<37 {
                let expected = inside.contains(Point(x: x, y: y)) ? cell : Cell("x")
                #expect(canvas[x, y] == expected, "(\(x), \(y)) in \(rect)")
            }
        }
    }

    @Test func changingOneCellEmitsOneChange() {
        var frame = Canvas(size: Size(width: 120, height: 40))
        frame.write("Count: 1", at: Point(x: 1, y: 3))
        var next = frame
        next.put("2", at: Point(x: 8, y: 3))
        let changes = next.changes(since: frame)
        #expect(changes.count == 1)
        #expect(changes.first?.position == Point(x: 8, y: 3))
        #expect(changes.first?.cell.grapheme == "2")
    }

    @Test func identicalFramesEmitNothing() {
        var frame = Canvas(size: Size(width: 30, height: 5))
        frame.write("中文 and text", at: .zero)
        #expect(frame.changes(since: frame).isEmpty)
    }

    @Test func firstFrameOrNewSizeIsAFullRedraw() {
        var frame = Canvas(size: Size(width: 4, height: 2))
        frame.write("中", at: .zero)
        // 8 cells, one of them the right half of 中: 7 changes.
        #expect(frame.changes(since: nil).count == 7)
        #expect(frame.changes(since: Canvas(size: Size(width: 5, height: 2))).count == 7)
    }

    @Test func styleChangeAloneIsAChange() {
        var frame = Canvas(size: Size(width: 5, height: 1))
        frame.write("abc", at: .zero)
        var next = frame
        next.restyle(Rect(x: 1, y: 0, width: 1, height: 1)) { $0.attributes.insert(.reverse) }
        #expect(next.changes(since: frame).map(\.position) == [Point(x: 1, y: 0)])
    }

    @Test func wideCharactersTakeTwoCells() {
        var canvas = Canvas(size: Size(width: 10, height: 1))
        let used = canvas.write("a中b😀", at: .zero)
        #expect(used == 6)
        #expect(canvas[1, 0].grapheme == "中")
        #expect(canvas[1, 0].width == 2)
        #expect(canvas[2, 0].isContinuation)
        #expect(canvas[3, 0].grapheme == "b")
        #expect(canvas[4, 0].grapheme == "😀")
        #expect(canvas[5, 0].isContinuation)
        #expect(canvas.line(0) == "a中b😀")
    }

    @Test func wideCharacterThatDoesNotFitBecomesABlank() {
        var canvas = Canvas(size: Size(width: 3, height: 1))
        canvas.write("ab中", at: .zero)
        #expect(canvas.line(0) == "ab")
        #expect(canvas[2, 0].width == 1)
        // The same at the edge of a clip rectangle inside the canvas.
        var clipped = Canvas(size: Size(width: 10, height: 1))
        clipped.write("x中中", at: .zero, clip: Rect(x: 0, y: 0, width: 4, height: 1))
        #expect(clipped.line(0) == "x中")
        #expect(clipped[4, 0].grapheme == " ")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var canvas = Canvas(size: Size(width: 6, height: 1))
        canvas.write("中中", at: .zero)
        canvas.put("x", at: Point(x: 1, y: 0))   // right half of the first 中
        #expect(canvas[0, 0].grapheme == " ")
        #expect(canvas[0, 0].width == 1)
        #expect(canvas[1, 0].grapheme == "x")
        canvas.put("y", at: Point(x: 2, y: 0))   // left half of the second 中
        #expect(canvas[3, 0].grapheme == " ")
        #expect(!canvas[3, 0].isContinuation)
        #expect(canvas.line(0) == " xy")
    }

    @Test func writingAsciiOverWideCharactersBlanksTheHalvesItCutsAtEitherEnd() {
        var canvas = Canvas(size: Size(width: 8, height: 1))
        canvas.write("中中中", at: .zero)
        canvas.write("ab", at: Point(x: 1, y: 0))   // from the right half of the first to the left of the second
        #expect(canvas[0, 0].grapheme == " " && canvas[0, 0].width == 1)
        #expect(canvas[1, 0].grapheme == "a" && canvas[2, 0].grapheme == "b")
        #expect(canvas[3, 0].grapheme == " " && !canvas[3, 0].isContinuation)
        #expect(canvas[4, 0].grapheme == "中" && canvas[5, 0].isContinuation)
        #expect(canvas.line(0) == " ab 中")
        // Over a whole wide character, and with a control character (the other path): the same rules.
        var other = Canvas(size: Size(width: 8, height: 1))
        other.write("中中中", at: .zero)
        other.write("a\u{7}b", at: Point(x: 1, y: 0))
        #expect(other.line(0) == " ab 中")
        // At the right edge of the canvas: nothing past it is touched.
        var edge = Canvas(size: Size(width: 4, height: 1))
        edge.write("x中", at: .zero)
        edge.write("yz", at: Point(x: 2, y: 0))
        #expect(edge.line(0) == "x yz" && edge[1, 0].grapheme == " ")
    }

    @Test func savedCellsArePutBackExactlyAndNothingOutsideTheirRectangle() {
        var canvas = Canvas(size: Size(width: 10, height: 3))
        canvas.write("top line", at: .zero)
        canvas.write("中 middle", at: Point(x: 0, y: 1), style: Style(attributes: .bold))
        let saved = canvas.saved(Rect(x: 0, y: 1, width: 20, height: 5))   // clipped: row 1 and 2
        #expect(saved.area == Rect(x: 0, y: 1, width: 10, height: 2))
        let before = canvas
        canvas.fill(Rect(x: 0, y: 0, width: 10, height: 3), with: Cell("x"))
        canvas.restore(saved)
        #expect(canvas.line(0) == "xxxxxxxxxx", "outside the rectangle: untouched")
        #expect(canvas.line(1) == before.line(1) && canvas.line(2) == before.line(2))
        #expect(canvas[0, 1] == before[0, 1] && canvas[1, 1].isContinuation)
        var smaller = Canvas(size: Size(width: 5, height: 1))
        smaller.restore(saved)   // saved from a bigger canvas: ignored, never out of bounds
        #expect(smaller.line(0) == "")
    }

    @Test func diffRedrawsAWideCharacterWhoseRightHalfChanged() {
        var old = Canvas(size: Size(width: 4, height: 1))
        old.write("中", at: .zero)
        var new = old
        new.put("z", at: Point(x: 1, y: 0))
        let positions = new.changes(since: old).map(\.position)
        #expect(positions.contains(Point(x: 0, y: 0)))
        #expect(positions.contains(Point(x: 1, y: 0)))
    }

    @Test func aChangedRowIsOneSpanFromItsFirstToItsLastChangedCell() {
        var old = Canvas(size: Size(width: 20, height: 3))
        old.write("first row", at: .zero)
        old.write("second row", at: Point(x: 0, y: 1))
        var new = old
        new.put("F", at: .zero)
        new.put("W", at: Point(x: 8, y: 0))
        #expect(new.changedSpans(since: old) == [Canvas.Span(y: 0, columns: 0..<9)])
        #expect(new.changedSpans(since: new).isEmpty)
        // No previous frame, or another size: every row, whole.
        #expect(new.changedSpans(since: nil).map(\.columns) == [0..<20, 0..<20, 0..<20])
        #expect(new.changedSpans(since: Canvas(size: Size(width: 5, height: 3))).count == 3)
        #expect(Canvas(size: .zero).changedSpans(since: Canvas(size: .zero)).isEmpty)
    }

    @Test func aSpanTakesAWideCharacterWholeAtEitherEnd() {
        var old = Canvas(size: Size(width: 8, height: 1))
        old.write("ab中d", at: .zero)   // 中 at 2, its right half at 3
        var rightHalf = old
        rightHalf.put("z", at: Point(x: 3, y: 0))
        #expect(rightHalf.changedSpans(since: old).map(\.columns) == [2..<4])
        var endsWide = old
        endsWide.put("x", at: Point(x: 0, y: 0))
        endsWide.write("国", at: Point(x: 2, y: 0))
        #expect(endsWide.changedSpans(since: old).map(\.columns) == [0..<4])
    }

    /// Random frames: every changed cell lies in a span, and copying the spans over the old frame
    /// gives the new one, which is what a terminal's copy of the screen relies on.
    @Test func copyingTheSpansMakesTheOldFrameTheNewOne() {
        var random = SystemRandomNumberGenerator()
        let glyphs: [String] = ["a", "b", "中", "😀", " ", "é"]
        for _ in 0..<200 {
            var old = Canvas(size: Size(width: 12, height: 4))
            for _ in 0..<10 {
                old.write(glyphs.randomElement(using: &random)!, at: Point(x: Int.random(in: 0..<12, using: &random), y: Int.random(in: 0..<4, using: &random)))
            }
            var new = old
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                new.write(glyphs.randomElement(using: &random)!, at: Point(x: Int.random(in: 0..<12, using: &random), y: Int.random(in: 0..<4, using: &random)),
                          style: Bool.random(using: &random) ? .plain : Style(attributes: .bold))
            }
            let spans = new.changedSpans(since: old)
            for change in new.changes(since: old) {
                #expect(spans.contains { $0.y == change.position.y && $0.columns.contains(change.position.x) })
            }
            var copy = old
            for span in spans {
                #expect(span.columns.lowerBound == 0 || !new[span.columns.lowerBound, span.y].isContinuation)
                copy.copy(span, from: new)
            }
            #expect(copy == new)
        }
    }

    @Test func drawingIsClippedAndNeverOutOfBounds() {
        var canvas = Canvas(size: Size(width: 5, height: 2))
        canvas.write("far too long for this", at: Point(x: 2, y: 0))
        canvas.write("neg", at: Point(x: -2, y: 1))
        canvas.write("off", at: Point(x: 0, y: 7))
        canvas.fill(Rect(x: -3, y: -3, width: 100, height: 1))
        #expect(canvas.lines == ["  far", "g"])
        // A zero-size canvas takes writes without trapping.
        var empty = Canvas(size: .zero)
        #expect(empty.write("x", at: .zero) == 0)
        #expect(empty.changes(since: nil).isEmpty)
    }

    @Test func controlAndZeroWidthCharactersAreNotDrawn() {
        var canvas = Canvas(size: Size(width: 5, height: 1))
        canvas.write("a\u{7}\u{200B}b", at: .zero)
        #expect(canvas.line(0) == "ab")
    }
}

@Suite("Headless terminal")
@MainActor
struct HeadlessTerminalTests {
    @Test func presentCountsOnlyChangedCells() throws {
        let terminal = HeadlessTerminal(width: 20, height: 3)
        try terminal.start { _ in }
        var frame = Canvas(size: terminal.size)
        frame.write("hello", at: .zero)
        terminal.present(frame)
        #expect(terminal.lastWriteCount == 60)
        frame.put("J", at: .zero)
        terminal.present(frame)
        #expect(terminal.lastWriteCount == 1)
        #expect(terminal.lines[0] == "Jello")
        #expect(terminal.position(of: "llo") == Point(x: 2, y: 0))
    }

    @Test func injectedEventsReachTheHandler() throws {
        let terminal = HeadlessTerminal(width: 10, height: 2)
        var seen: [Event] = []
        try terminal.start { seen.append($0) }
        terminal.type("ab")
        terminal.resize(width: 30, height: 5)
        #expect(seen == [.key(KeyEvent(.char("a"))), .key(KeyEvent(.char("b"))), .resize(Size(width: 30, height: 5))])
        #expect(terminal.size == Size(width: 30, height: 5))
        terminal.stop()
        terminal.type("c")
        #expect(seen.count == 3)
    }
}

@Suite("Colour mapping")
struct ColorMappingTests {
    @Test func palette256() {
        #expect(ColorMapping.number(for: .default, support: .palette256) == -1)
        #expect(ColorMapping.number(for: .indexed(208), support: .palette256) == 208)
        #expect(ColorMapping.number(for: .rgb(255, 0, 0), support: .palette256) == 196)
        #expect(ColorMapping.number(for: .rgb(128, 128, 128), support: .palette256) == 244)
        #expect(ColorMapping.number(for: .red, support: .palette256) == 1)
    }

    @Test func fallsBackToBasicColours() {
        #expect(ColorMapping.number(for: .indexed(196), support: .basic16) == 9)
        #expect(ColorMapping.number(for: .indexed(196), support: .basic8) == 1)
        #expect(ColorMapping.number(for: .ansi(.brightGreen), support: .basic8) == 2)
        #expect(ColorMapping.number(for: .gray, support: .basic8) == -1, "black gray would vanish on a dark background")
        #expect(ColorMapping.number(for: .gray, support: .basic16) == 8)
        #expect(ColorMapping.number(for: .rgb(0, 0, 250), support: .basic8) == 4)
    }

    @Test func noColourMeansDefaultEverywhere() {
        for color in [Color.red, .indexed(100), .rgb(1, 2, 3), .default] {
            #expect(ColorMapping.number(for: color, support: .none) == -1)
        }
    }
}

@Suite("Cell and colour values")
struct CellValueTests {
    @Test func cellIsSixteenBytesWithoutPadding() {
        // The frame diff compares unchanged rows with memcmp; that is only a fast path if equal
        // cells are always equal bytes.
        #expect(MemoryLayout<Cell>.size == 16)
        #expect(MemoryLayout<Cell>.stride == 16)
        #expect(Cell.isPacked)
    }

    @Test(arguments: [Color.default, .ansi(.brightCyan), .indexed(0), .indexed(255), .rgb(1, 2, 3), .rgb(255, 255, 255)])
    func colourKindsRoundTrip(color: Color) {
        let rebuilt: Color
        switch color.kind {
        case .default: rebuilt = .default
        case .ansi(let c): rebuilt = .ansi(c)
        case .indexed(let i): rebuilt = .indexed(i)
        case .rgb(let r, let g, let b): rebuilt = .rgb(r, g, b)
        }
        #expect(rebuilt == color)
    }

    @Test func distinctColoursDiffer() {
        #expect(Color.indexed(1) != Color.ansi(.red))
        #expect(Color.rgb(0, 0, 0) != Color.default)
        #expect(Color.rgb(0, 0, 1) != Color.rgb(1, 0, 0))
    }

    @Test func glyphsRoundTrip() {
        for text in ["a", "中", "😀", "👩‍💻", "e\u{301}", "🇯🇵"] {
            let ch = Character(text)
            #expect(Glyph(ch).character == ch)
            #expect(Cell(ch).grapheme == ch)
        }
        #expect(Glyph(Character("👩‍💻")) == Glyph(Character("👩‍💻")))   // interned once
        #expect(Glyph(Character("👩‍💻")).isInterned)
        #expect(!Glyph(Character("x")).isInterned)
    }

    @Test func asciiFastPathMatchesTheGeneralPath() {
        // The same text, once all ASCII (fast path) and once with a non-ASCII character past the
        // clip (general path): the visible cells must be identical, controls skipped, clip kept.
        var fast = Canvas(size: Size(width: 12, height: 1))
        let usedFast = fast.write("ab\u{7}c def", at: Point(x: 1, y: 0), clip: Rect(x: 2, y: 0, width: 6, height: 1))
        var general = Canvas(size: Size(width: 12, height: 1))
        let usedGeneral = general.write("ab\u{7}c def中", at: Point(x: 1, y: 0), clip: Rect(x: 2, y: 0, width: 6, height: 1))
        #expect(fast.line(0) == "  bc def")
        #expect(fast == general)
        #expect(usedFast == usedGeneral)
    }

    @Test func linesInARegion() {
        var canvas = Canvas(size: Size(width: 10, height: 3))
        canvas.write("hello 東京", at: Point(x: 0, y: 0))
        canvas.write("  x", at: Point(x: 0, y: 1))
        // Inside the canvas: trailing spaces trimmed, leading ones kept.
        #expect(canvas.lines(in: Rect(x: 1, y: 0, width: 4, height: 2)) == ["ello", " x"])
        // A wide character cut on the left leaves a space; one cut on the right is kept whole.
        #expect(canvas.lines(in: Rect(x: 7, y: 0, width: 3, height: 1)) == [" 京"])
        #expect(canvas.lines(in: Rect(x: 6, y: 0, width: 1, height: 1)) == ["東"])
        // Rows and columns outside the canvas read as empty, one string per row asked for.
        #expect(canvas.lines(in: Rect(x: 0, y: 2, width: 10, height: 3)) == ["", "", ""])
        #expect(canvas.lines(in: Rect(x: 20, y: 0, width: 5, height: 2)) == ["", ""])
        #expect(canvas.lines(in: .zero) == [])
    }
}
