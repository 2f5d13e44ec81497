import AppletTesting
import Terminal
import Testing

/// The VT screen emulator the pseudo-terminal tests read programs' output with: every sequence
/// ncurses writes for xterm-256color, checked cell by cell.
@Suite("TerminalScreen")
struct TerminalScreenTests {
    /// A screen after `input`, fed part by part.
    private func screen(width: Int = 20, height: Int = 5, _ input: String...) -> TerminalScreen {
        var screen = TerminalScreen(width: width, height: height)
        for part in input { screen.feed(Array(part.utf8)) }
        return screen
    }

    private let csi = "\u{1B}["

    // MARK: Text and the cursor

    @Test func printsTextAndMovesTheCursorWithCRAndLF() {
        let s = screen("ab\r\ncd\nef")
        #expect(s.lines == ["ab", "cd", "  ef", "", ""])
        #expect(s.cursor == Point(x: 4, y: 2))
        #expect(s.text == "ab\ncd\n  ef\n\n")
        #expect(s.size == Size(width: 20, height: 5))
        #expect(s.contains("cd") && !s.contains("abc"))
        #expect(s.position(of: "ef") == Point(x: 2, y: 2))
        #expect(s.row(9) == "")
    }

    @Test func movesTheCursorAbsolutelyAndRelatively() {
        var s = screen("\(csi)3;5HX")
        #expect(s.cell(x: 4, y: 2).character == "X")
        #expect(s.cursor == Point(x: 5, y: 2))
        s.feed(Array("\(csi)AY".utf8))        // CUU 1
        #expect(s.cell(x: 5, y: 1).character == "Y")
        s.feed(Array("\(csi)2B".utf8))        // CUD 2
        #expect(s.cursor == Point(x: 6, y: 3))
        s.feed(Array("\(csi)3C".utf8))        // CUF 3
        #expect(s.cursor == Point(x: 9, y: 3))
        s.feed(Array("\(csi)2D".utf8))        // CUB 2
        #expect(s.cursor == Point(x: 7, y: 3))
        s.feed(Array("\(csi)0D".utf8))        // 0 means 1
        #expect(s.cursor == Point(x: 6, y: 3))
        s.feed(Array("\(csi)12G".utf8))       // CHA
        #expect(s.cursor == Point(x: 11, y: 3))
        s.feed(Array("\(csi)1d".utf8))        // VPA
        #expect(s.cursor == Point(x: 11, y: 0))
        s.feed(Array("\(csi)2E".utf8))        // CNL
        #expect(s.cursor == Point(x: 0, y: 2))
        s.feed(Array("\(csi)5C\(csi)F".utf8)) // CPL
        #expect(s.cursor == Point(x: 0, y: 1))
        s.feed(Array("\(csi)99;99H".utf8))    // clamped to the screen
        #expect(s.cursor == Point(x: 19, y: 4))
        s.feed(Array("\(csi)99A\(csi)99D".utf8))
        #expect(s.cursor == Point(x: 0, y: 0))
        s.feed(Array("\(csi)3;3f\(csi)H".utf8)) // HVP, then home
        #expect(s.cursor == Point(x: 0, y: 0))
        s.feed(Array("\(csi);7H".utf8))       // a missing row is row 1
        #expect(s.cursor == Point(x: 6, y: 0))
        s.feed(Array("ab\u{8}\u{8}\u{8}Z\u{7}".utf8))   // BS (BEL does nothing)
        #expect(s.lines[0] == "     Zab")
        #expect(s.cursor == Point(x: 6, y: 0))
    }

    // MARK: Erasing

    @Test func erasesInTheLine() {
        #expect(screen("abcdefgh\(csi)5G\(csi)K").lines[0] == "abcd")
        #expect(screen("abcdefgh\(csi)5G\(csi)0K").lines[0] == "abcd")
        #expect(screen("abcdefgh\(csi)4G\(csi)1K").lines[0] == "    efgh")
        #expect(screen("abcdefgh\(csi)4G\(csi)2K").lines[0] == "")
        let s = screen("abcdef\(csi)2G\(csi)3X")    // ECH
        #expect(s.lines[0] == "a   ef")
        #expect(s.cursor == Point(x: 1, y: 0))
    }

    @Test func erasesInTheDisplay() {
        let rows = "aaa\r\nbbb\r\nccc"
        #expect(screen(rows, "\(csi)2;2H\(csi)J").lines == ["aaa", "b", "", "", ""])
        #expect(screen(rows, "\(csi)2;2H\(csi)1J").lines == ["", "  b", "ccc", "", ""])
        let cleared = screen(rows, "\(csi)2;2H\(csi)2J")
        #expect(cleared.lines == ["", "", "", "", ""])
        #expect(cleared.cursor == Point(x: 1, y: 1))
        // ncurses' clear: home, then erase all.
        #expect(screen(rows, "\(csi)H\(csi)2J").cursor == Point(x: 0, y: 0))
        // Background colour erase: an erased cell takes the current background, nothing else.
        let colored = screen("abc\(csi)1;44m\(csi)1G\(csi)K")
        #expect(colored.cell(x: 0, y: 0) == TerminalScreen.Cell(" ", background: .blue))
        #expect(colored.cell(x: 0, y: 1) == TerminalScreen.Cell())
    }

    // MARK: Inserting and deleting

    @Test func insertsAndDeletesCharacters() {
        let inserted = screen("abcdef\(csi)2G\(csi)2@")
        #expect(inserted.lines[0] == "a  bcdef")
        #expect(inserted.cursor == Point(x: 1, y: 0))
        #expect(screen(width: 8, height: 1, "abcdefgh\(csi)3G\(csi)2@").lines == ["ab  cdef"])
        #expect(screen("abcdef\(csi)2G\(csi)2P").lines[0] == "adef")
        #expect(screen("abcdef\(csi)2G\(csi)P").lines[0] == "acdef")
        // Insert mode (IRM) pushes the rest of the line right.
        var s = screen("abc\(csi)1G\(csi)4hX")
        #expect(s.lines[0] == "Xabc")
        #expect(s.isInsertMode)
        s.feed(Array("\(csi)4lY".utf8))
        #expect(s.lines[0] == "XYbc")
        #expect(!s.isInsertMode)
    }

    @Test func insertsAndDeletesLines() {
        let rows = "1\r\n2\r\n3\r\n4\r\n5"
        #expect(screen(rows, "\(csi)2;3H\(csi)L").lines == ["1", "", "2", "3", "4"])
        #expect(screen(rows, "\(csi)2;3H\(csi)L").cursor == Point(x: 0, y: 1))
        #expect(screen(rows, "\(csi)2;1H\(csi)2M").lines == ["1", "4", "5", "", ""])
        // Inside a scroll region, only its lines move.
        #expect(screen(rows, "\(csi)2;4r\(csi)2;1H\(csi)L").lines == ["1", "", "2", "3", "5"])
        #expect(screen(rows, "\(csi)2;4r\(csi)2;1H\(csi)M").lines == ["1", "3", "4", "", "5"])
        // Outside it, nothing happens.
        #expect(screen(rows, "\(csi)2;4r\(csi)5;1H\(csi)L").lines == ["1", "2", "3", "4", "5"])
    }

    // MARK: Scrolling

    @Test func scrollsAtTheBottomAndInsideTheScrollRegion() {
        #expect(screen(width: 5, height: 3, "a\r\nb\r\nc\r\nd").lines == ["b", "c", "d"])
        let rows = "1\r\n2\r\n3\r\n4\r\n5"
        let region = screen(rows, "\(csi)2;4r")
        #expect(region.scrollRegion == 1...3)
        #expect(region.cursor == Point(x: 0, y: 0))   // DECSTBM homes the cursor
        #expect(screen(rows, "\(csi)2;4r\(csi)4;1H\n").lines == ["1", "3", "4", "", "5"])       // LF
        #expect(screen(rows, "\(csi)2;4r\(csi)4;1H\u{1B}D").lines == ["1", "3", "4", "", "5"])  // IND
        #expect(screen(rows, "\(csi)2;4r\(csi)2;1H\u{1B}M").lines == ["1", "", "2", "3", "5"])  // RI
        #expect(screen(rows, "\(csi)2;4r\(csi)S").lines == ["1", "3", "4", "", "5"])            // SU
        #expect(screen(rows, "\(csi)2;4r\(csi)2T").lines == ["1", "", "", "2", "5"])            // SD
        #expect(screen(rows, "\(csi)H\(csi)2S").lines == ["3", "4", "5", "", ""])
        // Below the region, LF on the last row does not scroll.
        let below = screen(rows, "\(csi)2;4r\(csi)5;1H\n")
        #expect(below.lines == ["1", "2", "3", "4", "5"])
        #expect(below.cursor == Point(x: 0, y: 4))
        // NEL: CR and LF.
        #expect(screen("ab\u{1B}Ec").lines[0...1] == ["ab", "c"])
        // RI at the top of the screen scrolls it down.
        #expect(screen(rows, "\(csi)H\u{1B}M").lines == ["", "1", "2", "3", "4"])
        // An invalid region (top not above bottom) is ignored.
        #expect(screen("\(csi)3;3r").scrollRegion == 0...4)
    }

    @Test func originModeMakesPositionsRelativeToTheRegion() {
        let s = screen("\(csi)2;4r\(csi)?6h\(csi)HX\(csi)9;1HY")
        #expect(s.cell(x: 0, y: 1).character == "X")
        #expect(s.cell(x: 0, y: 3).character == "Y")
    }

    // MARK: Wide and combining characters, wrapping

    @Test func wideCharactersTakeTwoCells() {
        let s = screen("東京a")
        #expect(s.lines[0] == "東京a")
        #expect(s.cursor == Point(x: 5, y: 0))
        #expect(s.cell(x: 0, y: 0).character == "東" && s.cell(x: 0, y: 0).width == 2)
        #expect(s.cell(x: 1, y: 0).isContinuation && s.cell(x: 1, y: 0).width == 0)
        #expect(s.position(of: "a") == Point(x: 4, y: 0))
        #expect(screen("😀!").cell(x: 2, y: 0).character == "!")
        // Writing over either half of a wide character blanks the other.
        #expect(screen("東\(csi)2GX").lines[0] == " X")
        #expect(screen("東\(csi)1GX").lines[0] == "X")
        #expect(screen("東京\(csi)2G\(csi)K").lines[0] == "")
        #expect(screen("ab東\(csi)4G\(csi)1K").lines[0] == "")
        // A wide character that does not fit in the last column wraps whole.
        let wrapped = screen(width: 5, height: 2, "abcd東")
        #expect(wrapped.lines == ["abcd", "東"])
        #expect(wrapped.cursor == Point(x: 2, y: 1))
        // Deleting a character that is half of a wide one leaves no half behind.
        #expect(screen("a東b\(csi)2G\(csi)P").lines[0] == "a b")
    }

    @Test func combiningMarksJoinTheCharacterBefore() {
        let s = screen("e\u{301}x")
        #expect(s.cell(x: 0, y: 0).character == "é")
        #expect(s.cell(x: 1, y: 0).character == "x")
        #expect(s.lines[0] == "éx")
        #expect(screen("東\u{308}").cell(x: 0, y: 0).character == "東\u{308}")
        // At the right edge (pending wrap) it joins the last column.
        #expect(screen(width: 3, height: 1, "abc\u{301}").lines[0] == "abc\u{301}")
    }

    @Test func writingTheLastColumnWrapsOnlyAtTheNextCharacter() {
        var s = screen(width: 5, height: 3, "abcde")
        #expect(s.lines == ["abcde", "", ""])
        #expect(s.cursor == Point(x: 4, y: 0))
        #expect(s.hasPendingWrap)
        s.feed(Array("f".utf8))
        #expect(s.lines == ["abcde", "f", ""])
        #expect(s.cursor == Point(x: 1, y: 1))
        // CR cancels the wrap.
        #expect(screen(width: 5, height: 2, "abcde\rX").lines == ["Xbcde", ""])
        // So does cursor movement.
        #expect(screen(width: 5, height: 2, "abcde\(csi)DX").lines == ["abcXe", ""])
        // At the bottom, the wrap scrolls.
        #expect(screen(width: 5, height: 2, "\(csi)2;1Habcdef").lines == ["abcde", "f"])
        // Without autowrap the last column is overwritten.
        let noWrap = screen(width: 5, height: 2, "\(csi)?7labcdefg")
        #expect(noWrap.lines == ["abcdg", ""])
        #expect(noWrap.cursor == Point(x: 4, y: 0))
        #expect(!noWrap.hasPendingWrap)
    }

    @Test func tabsGoToTheNextStop() {
        #expect(screen("a\tb").lines[0] == "a       b")
        let s = screen("\t\t\tX")
        #expect(s.cell(x: 19, y: 0).character == "X")
        #expect(screen("\(csi)3g\tX").cell(x: 19, y: 0).character == "X")        // TBC: no stops
        #expect(screen("\(csi)3g\(csi)4G\u{1B}H\(csi)1G\tX").lines[0] == "   X")   // HTS
        #expect(screen("\(csi)18G\(csi)ZX").lines[0] == String(repeating: " ", count: 16) + "X")   // CBT
        #expect(screen("\(csi)2IX").lines[0] == String(repeating: " ", count: 16) + "X")         // CHT
    }

    @Test func repeatRepeatsThePreviousCharacter() {
        #expect(screen("ab\(csi)3b").lines[0] == "abbbb")
        #expect(screen("=\(csi)b").lines[0] == "==")
    }

    @Test func savesAndRestoresTheCursorAndItsPen() {
        #expect(screen("\(csi)2;3H\u{1B}7\(csi)H\u{1B}8X").cell(x: 2, y: 1).character == "X")
        #expect(screen("\(csi)2;3H\(csi)s\(csi)H\(csi)uX").cell(x: 2, y: 1).character == "X")
        let s = screen("\(csi)1;31m\u{1B}7\(csi)0m\u{1B}8X")
        #expect(s.cell(x: 0, y: 0) == TerminalScreen.Cell("X", foreground: .red, attributes: .bold))
    }

    // MARK: SGR

    @Test func selectGraphicRenditionSetsEachCellsStyle() {
        let s = screen(width: 40, height: 2,
                       "\(csi)1;3;4;7mA\(csi)22;23;24;27mB\(csi)31;42mC\(csi)38;5;208;48;2;1;2;3mD",
                       "\(csi)38:2::10:20:30mE\(csi)0mF\(csi)91;103mG\(csi)m\(csi)2;5;8;9mH\(csi)4:3mI\(csi)4:0mJ",
                       "\(csi)0;38:5:99mK\(csi)39;49;1mL\(csi)>4;1mM")
        func cell(_ character: Character) -> TerminalScreen.Cell {
            let x = s.lines[0].firstIndex(of: character).map { s.lines[0].distance(from: s.lines[0].startIndex, to: $0) }
            return s.cell(x: x ?? -1, y: 0)
        }
        #expect(s.lines[0] == "ABCDEFGHIJKLM")
        #expect(cell("A").attributes == [.bold, .italic, .underline, .reverse])
        #expect(cell("A").style == Style(attributes: [.bold, .italic, .underline, .reverse]))
        #expect(cell("B").attributes == [])
        #expect(cell("C").foreground == .red && cell("C").background == .green)
        #expect(cell("D").foreground == .indexed(208) && cell("D").background == .rgb(1, 2, 3))
        #expect(cell("E").foreground == .rgb(10, 20, 30) && cell("E").background == .rgb(1, 2, 3))
        #expect(cell("F") == TerminalScreen.Cell("F"))
        #expect(cell("G").foreground == .ansi(.brightRed) && cell("G").background == .ansi(.brightYellow))
        #expect(cell("H").attributes == [.dim, .blink, .invisible, .strikethrough])
        #expect(cell("I").attributes == [.dim, .blink, .invisible, .strikethrough, .underline])
        #expect(cell("J").attributes == [.dim, .blink, .invisible, .strikethrough])
        #expect(cell("K") == TerminalScreen.Cell("K", foreground: .indexed(99)))
        #expect(cell("L") == TerminalScreen.Cell("L", attributes: .bold))
        // `CSI > 4;1 m` sets xterm's modifyOtherKeys, not SGR.
        #expect(cell("M") == TerminalScreen.Cell("M", attributes: .bold))
        #expect(s.pen == TerminalScreen.Cell(attributes: .bold))
        #expect(screen("\(csi)1;31m\(csi)m").pen == TerminalScreen.Cell())
    }

    // MARK: Modes

    @Test func tracksPrivateModesAndWhatIsLeftSet() {
        var s = screen("\(csi)?1006;1000h\(csi)?25l\(csi)?1000l")
        #expect(s.modes == [1006: true, 1000: false, 25: false])
        #expect(s.modeChanges == [.init(mode: 1006, on: true), .init(mode: 1000, on: true),
                                  .init(mode: 25, on: false), .init(mode: 1000, on: false)])
        #expect(s.modeChanges.map(\.description) == ["?1006h", "?1000h", "?25l", "?1000l"])
        #expect(!s.cursorVisible)
        #expect(s.unresetModes() == [25, 1006])
        #expect(s.isModeOn(1006) && !s.isModeOn(1000) && s.isModeOn(7) && !s.isModeOn(2004))
        s.feed(Array("\(csi)?25h\(csi)?1006l".utf8))
        #expect(s.unresetModes() == [])
        #expect(s.cursorVisible)
        // Turning a default-on mode off counts too; other defaults can be given.
        s.feed(Array("\(csi)?7l".utf8))
        #expect(s.unresetModes() == [7])
        #expect(s.unresetModes(defaults: [7: false, 25: true]) == [])
    }

    @Test func tracksTheKeypadModes() {
        var s = screen("\(csi)?1h\u{1B}=")
        #expect(s.isModeOn(1) && s.isKeypadApplicationMode)
        s.feed(Array("\(csi)?1l\u{1B}>".utf8))
        #expect(!s.isModeOn(1) && !s.isKeypadApplicationMode)
        #expect(s.unresetModes() == [])
    }

    @Test func tracksTheKittyKeyboardStack() {
        var s = screen("\(csi)>1u\(csi)>3u")
        #expect(s.kittyKeyboardDepth == 2 && s.kittyKeyboardFlags == 3)
        s.feed(Array("\(csi)<u".utf8))
        #expect(s.kittyKeyboardDepth == 1 && s.kittyKeyboardFlags == 1)
        s.feed(Array("\(csi)=5;1u".utf8))
        #expect(s.kittyKeyboardDepth == 1 && s.kittyKeyboardFlags == 5)
        s.feed(Array("\(csi)=4;3u\(csi)=8;2u".utf8))
        #expect(s.kittyKeyboardFlags == 9)
        s.feed(Array("\(csi)<5u".utf8))
        #expect(s.kittyKeyboardDepth == 0 && s.kittyKeyboardFlags == 0)
        s.feed(Array("\(csi)<u".utf8))
        #expect(s.kittyKeyboardDepth == 0)
        // `CSI u` without a marker restores the cursor; it is not a pop.
        #expect(screen("\(csi)>1u\(csi)u").kittyKeyboardDepth == 1)
    }

    // MARK: The alternate screen

    @Test func mode1049SavesTheCursorAndSwitchesToAClearedAlternateScreen() {
        var s = screen("main\(csi)2;3H")
        s.feed(Array("\(csi)?1049h".utf8))
        #expect(s.isAlternateScreen)
        #expect(s.lines == ["", "", "", "", ""])
        #expect(s.cursor == Point(x: 2, y: 1))
        s.feed(Array("\(csi)4;1Halt".utf8))
        #expect(s.lines[3] == "alt")
        s.feed(Array("\(csi)?1049l".utf8))
        #expect(!s.isAlternateScreen)
        #expect(s.lines == ["main", "", "", "", ""])
        #expect(s.cursor == Point(x: 2, y: 1))
        #expect(s.modeChanges == [.init(mode: 1049, on: true), .init(mode: 1049, on: false)])
        // Entered again, it is cleared again.
        s.feed(Array("\(csi)?1049h".utf8))
        #expect(s.lines == ["", "", "", "", ""])
    }

    @Test func modes47And1047KeepOrClearTheAlternateScreen() {
        var s = screen("main\(csi)?47hx\(csi)?47l")
        #expect(s.lines[0] == "main" && !s.isAlternateScreen)
        #expect(s.cursor == Point(x: 5, y: 0))   // 47 does not save the cursor
        s.feed(Array("\(csi)?47h".utf8))
        #expect(s.isAlternateScreen && s.lines[0] == "    x")   // kept
        s.feed(Array("\(csi)?47l\(csi)?1047hy\(csi)?1047l\(csi)?1047h".utf8))
        #expect(s.lines[0] == "")                                // 1047 clears when it leaves
        s.feed(Array("\(csi)?1047l\(csi)H\(csi)?1048h\(csi)3;3H\(csi)?1048lZ".utf8))
        #expect(s.lines[0] == "Zain")
    }

    // MARK: Character sets

    @Test func decLineDrawingDrawsBoxes() {
        #expect(screen("\u{1B}(0lqwqk\u{1B}(B lq").lines[0] == "┌─┬─┐ lq")
        #expect(screen("\u{1B}(0").isLineDrawingActive && !screen("\u{1B}(0\u{1B}(B").isLineDrawingActive)
        #expect(screen("\u{1B})0\u{E}x\u{F}x").lines[0] == "│x")
        #expect(screen("\u{1B}(0mvj\u{1B}(A!").lines[0] == "└┴┘!")
    }

    // MARK: Bytes

    @Test func decodesUTF8SplitAcrossFeeds() {
        var s = TerminalScreen(width: 10, height: 2)
        for byte in Array("東a😀".utf8) { s.feed([byte]) }
        #expect(s.lines[0] == "東a😀")
        #expect(s.cursor == Point(x: 5, y: 0))
        // An escape sequence split across feeds works too.
        s.feed(Array("\u{1B}[".utf8))
        s.feed(Array("3".utf8))
        s.feed(Array("1mR".utf8))
        #expect(s.cell(x: 5, y: 0) == TerminalScreen.Cell("R", foreground: .red))
    }

    @Test func replacesInvalidUTF8() {
        var s = TerminalScreen(width: 10, height: 1)
        s.feed([0xFF, 0x41, 0xE6, 0x42, 0x80, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0x43])
        #expect(s.lines[0] == "\u{FFFD}A\u{FFFD}B\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}C")
        var cut = TerminalScreen(width: 10, height: 1)
        cut.feed([0xE6, 0x9D, 0x1B] + Array("[2GX".utf8))
        #expect(cut.lines[0] == "\u{FFFD}X")
    }

    @Test func skipsStringsAndCancelledSequences() {
        #expect(screen("a\u{1B}]0;title\u{7}b\u{1B}]2;t\u{1B}\\c\u{1B}Pq#data\u{1B}\\d\u{1B}_apc\u{1B}\\e\u{1B}^pm\u{1B}\\f").lines[0]
                == "abcdef")
        #expect(screen("\(csi)3\u{18}X").lines[0] == "X")            // CAN
        #expect(screen("\(csi)1\u{1A}\(csi)2CX").lines[0] == "  X")   // SUB
        #expect(screen("\(csi)2\r;3HX").cell(x: 2, y: 1).character == "X")   // a control inside runs at once
        #expect(screen("\(csi)?2026h\(csi)?2026lok\u{1B}[23;0;0t\u{1B}[!p").lines[0] == "ok")
    }

    @Test func abandonsOverlongSequences() {
        let long = "\(csi)" + String(repeating: "1;", count: 100) + "31mX"
        let s = screen(long)
        #expect(s.lines[0] == "X")
        #expect(s.cell(x: 0, y: 0).foreground == .default)
        let huge = screen("\(csi)99999999999999999999999999C\(csi)1;99999999999999999999H!")
        #expect(huge.cell(x: 19, y: 0).character == "!")
        let modes = screen("\(csi)?" + String(repeating: "9;", count: 40) + "h")
        #expect(modes.modes.isEmpty)
    }

    @Test func survivesRandomBytes() {
        for seed in UInt64(1)...8 {
            var random = SeededRandom(seed: seed)
            var s = TerminalScreen(width: 30, height: 8)
            // Plain random bytes, then bytes drawn mostly from what sequences are made of.
            let alphabet = Array("\u{1B}[];:?>=<0123456789;;;;mHJKLMPSTXr@bdhlqsu(0B#8\r\n\t\u{8}\u{7}\u{18}東é".utf8)
            for round in 0..<40 {
                var bytes: [UInt8] = []
                for _ in 0..<Int(random.next() % 200) {
                    bytes.append(round % 2 == 0 ? UInt8(truncatingIfNeeded: random.next())
                                                 : alphabet[Int(random.next() % UInt64(alphabet.count))])
                }
                s.feed(bytes)
                _ = s.takeResponses()
                #expect(s.size == Size(width: 30, height: 8))
                #expect(s.lines.count == 8)
                #expect(s.cursor.x >= 0 && s.cursor.x < 30 && s.cursor.y >= 0 && s.cursor.y < 8)
                #expect(Self.wideCellsArePaired(s), "seed \(seed), round \(round)")
            }
            s.resize(width: 13, height: 3)
            #expect(s.lines.count == 3 && Self.wideCellsArePaired(s))
        }
    }

    private static func wideCellsArePaired(_ screen: TerminalScreen) -> Bool {
        for y in 0..<screen.size.height {
            for x in 0..<screen.size.width {
                let cell = screen.cell(x: x, y: y)
                if cell.width == 2 && (x + 1 >= screen.size.width || !screen.cell(x: x + 1, y: y).isContinuation) { return false }
                if cell.isContinuation && (x == 0 || screen.cell(x: x - 1, y: y).width != 2) { return false }
            }
        }
        return true
    }

    // MARK: Size, replies, resets

    @Test func resizeKeepsTheTopLeftAndClips() {
        var s = screen("hello\r\nworld\r\nab東")
        s.resize(width: 3, height: 2)
        #expect(s.lines == ["hel", "wor"])
        #expect(s.size == Size(width: 3, height: 2))
        #expect(s.cursor == Point(x: 2, y: 1))
        #expect(s.scrollRegion == 0...1)
        s.resize(width: 6, height: 3)
        #expect(s.lines == ["hel", "wor", ""])
        var wide = screen("ab東")
        wide.resize(width: 3, height: 1)
        #expect(wide.lines == ["ab"])
        #expect(wide.cell(x: 2, y: 0) == TerminalScreen.Cell())
        // The alternate screen is resized too.
        var alternate = screen("main\(csi)?1049h\(csi)5;1Hbottom")
        alternate.resize(width: 10, height: 3)
        alternate.feed(Array("\(csi)?1049l".utf8))
        #expect(alternate.lines == ["main", "", ""])
    }

    @Test func answersQueries() {
        var s = screen("\(csi)3;4H\(csi)6n")
        #expect(s.takeResponses() == Array("\u{1B}[3;4R".utf8))
        #expect(s.takeResponses() == [])
        s.feed(Array("\(csi)5n\(csi)c\(csi)?1049h\(csi)?1049$p\(csi)?2004$p\(csi)18t\(csi)?u".utf8))
        #expect(String(decoding: s.takeResponses(), as: UTF8.self)
                == "\u{1B}[0n\u{1B}[?62;22c\u{1B}[?1049;1$y\u{1B}[?2004;2$y\u{1B}[8;5;20t\u{1B}[?0u")
    }

    @Test func fullAndSoftResetsRestoreThePowerOnState() {
        let s = screen("text\(csi)?25l\(csi)?1049h\(csi)>1u\(csi)?1000h\u{1B}=\(csi)4h\u{1B}c")
        #expect(!s.isAlternateScreen && s.cursorVisible && s.kittyKeyboardDepth == 0)
        #expect(s.unresetModes() == [] && !s.isKeypadApplicationMode && !s.isInsertMode)
        #expect(s.lines[0] == "")   // RIS clears the main screen too
        #expect(s.modeChanges.count == 3)
        var soft = screen("\(csi)2;3rx\(csi)?25l\(csi)?7l\(csi)1;31m\u{1B}=\(csi)!pY")
        #expect(soft.cursorVisible && soft.isModeOn(7) && !soft.isKeypadApplicationMode)
        #expect(soft.scrollRegion == 0...4)
        #expect(soft.lines[0] == "xY")                                // the screen and cursor stay
        #expect(soft.cell(x: 1, y: 0) == TerminalScreen.Cell("Y"))   // the pen is reset
        soft.feed(Array("\(csi)?1000h".utf8))
        #expect(soft.unresetModes() == [1000])
    }

    @Test func alignmentPatternFillsTheScreen() {
        let s = screen(width: 3, height: 2, "\u{1B}#8")
        #expect(s.lines == ["EEE", "EEE"])
        #expect(s.cursor == Point(x: 0, y: 0))
    }

    @Test func cursorShapeIsTracked() {
        #expect(screen("\(csi)5 q").cursorShape == 5)
        #expect(screen("\(csi)5 q\(csi)0 q").cursorShape == 0)
    }

    // MARK: Operating system commands: links and the clipboard

    @Test func osc8LinksTheCharactersWrittenUntilItEnds() {
        let s = screen("a \u{1B}]8;;https://example.com/x\u{1B}\\docs\u{1B}]8;;\u{1B}\\ b")
        #expect(s.lines[0] == "a docs b", "the sequences show nothing")
        #expect(s.cell(x: 1, y: 0).hyperlink == nil)
        #expect(s.cell(x: 2, y: 0).hyperlink == "https://example.com/x")
        #expect(s.cell(x: 6, y: 0).hyperlink == nil)
        #expect(s.linkedRuns == [TerminalScreen.LinkedRun(y: 0, columns: 2..<6, url: "https://example.com/x", text: "docs")])
        #expect(s.pen == TerminalScreen.Cell(), "the link was closed")
    }

    @Test func osc8WithParametersAndBELAndALinkLeftOpen() {
        let s = screen("\u{1B}]8;id=1;https://a.example\u{07}ab\u{1B}[0mc")
        #expect(s.linkedRuns.map(\.text) == ["abc"], "SGR 0 does not end a link")
        #expect(s.pen.hyperlink == "https://a.example", "a link left open shows in the pen")
    }

    @Test func osc52IsRecordedDecoded() {
        let s = screen("\u{1B}]52;c;aGVsbG8=\u{1B}\\", "\u{1B}]52;c;?\u{07}", "\u{1B}]52;p;!!!\u{1B}\\x")
        #expect(s.clipboardWrites.map(\.selections) == ["c", "c", "p"])
        #expect(s.clipboardWrites.map(\.text) == ["hello", nil, nil])
        #expect(s.lines[0] == "x")
    }

    @Test func aStringSplitAcrossFeedsAndOtherOSCsAreHandled() {
        var s = TerminalScreen(width: 20, height: 2)
        s.feed(Array("\u{1B}]0;title\u{07}\u{1B}]52;c;aGVs".utf8))
        s.feed(Array("bG8=\u{1B}".utf8))
        s.feed(Array("\\ok".utf8))
        #expect(s.clipboardWrites.map(\.text) == ["hello"])
        #expect(s.ignoredStrings == 1)
        #expect(s.lines[0] == "ok")
    }

    @Test func anOSCStringLongerThanTheLimitIsDroppedWhole() {
        let payload = String(repeating: "A", count: 200 * 1024)
        let s = screen("\u{1B}]52;c;\(payload)\u{1B}\\after")
        #expect(s.clipboardWrites.isEmpty)
        #expect(s.ignoredStrings == 1)
        #expect(s.lines[0] == "after")
    }

    // MARK: The terminal's identity: answers to a start-up probe

    private static let esc = "\u{1B}"
    private static let st = "\u{1B}\\"

    /// What a screen with `identity` answers to `input`, fed in parts.
    private func answers(_ identity: TerminalIdentity = TerminalIdentity(), _ input: String...) -> String {
        var screen = TerminalScreen(width: 20, height: 5, identity: identity)
        for part in input { screen.feed(Array(part.utf8)) }
        return String(decoding: screen.takeResponses(), as: UTF8.self)
    }

    private static let light = TerminalIdentity(
        background: TerminalColor(red: 255, green: 255, blue: 255), foreground: TerminalColor(red: 0, green: 0, blue: 0x80),
        version: "XTerm(390)", capabilities: TerminalIdentity.truecolor)

    @Test func theDefaultIdentityAnswersAsTheScreenAlwaysDid() {
        let esc = Self.esc, st = Self.st
        #expect(TerminalScreen().identity == TerminalIdentity())
        // Mode 2026 known (reset, then set), the kitty flags and DA1 answered; the colours, the
        // name and the capabilities not.
        let probe = "\(esc)]10;?\(st)\(esc)]11;?\(st)\(esc)[?2026$p\(esc)P+q524742\(st)\(esc)[>0q\(esc)[?u\(esc)[c"
        #expect(answers(TerminalIdentity(), probe) == "\(esc)[?2026;2$y\(esc)[?0u\(esc)[?62;22c")
        #expect(answers(TerminalIdentity(), "\(csi)?2026h\(csi)?2026$p") == "\(esc)[?2026;1$y")
        var screen = TerminalScreen(width: 10, height: 2)
        screen.feed(Array(probe.utf8))
        #expect(screen.lines == ["", ""], "no query shows")
    }

    @Test func answersEachProbeQueryAsItsIdentitySays() {
        let esc = Self.esc, st = Self.st
        #expect(answers(Self.light, "\(esc)]11;?\(st)") == "\(esc)]11;rgb:ffff/ffff/ffff\(st)")
        #expect(answers(Self.light, "\(esc)]10;?\(st)") == "\(esc)]10;rgb:0000/0000/8080\(st)")
        #expect(answers(Self.light, "\(esc)[>0q") == "\(esc)P>|XTerm(390)\(st)")
        #expect(answers(Self.light, "\(esc)[>q") == "\(esc)P>|XTerm(390)\(st)")
        #expect(answers(Self.light, "\(esc)P+q524742\(st)") == "\(esc)P1+r524742=382F382F38\(st)")
        #expect(answers(Self.light, "\(esc)[?2026$p") == "\(esc)[?2026;2$y")
        #expect(answers(Self.light, "\(esc)[c") == "\(esc)[?62;22c")
        // Without the mode: 0 (not recognised), set or not.
        var noSync = Self.light
        noSync.synchronizedOutput = false
        #expect(answers(noSync, "\(esc)[?2026$p\(esc)[?2026h\(esc)[?2026$p") == "\(esc)[?2026;0$y\(esc)[?2026;0$y")
        #expect(answers(noSync, "\(esc)[?2004$p") == "\(esc)[?2004;2$y", "other modes as before")
        // A terminal that answers neither the kitty flags nor DA1.
        let mute = TerminalIdentity(kittyKeyboard: false, answersPrimaryDeviceAttributes: false)
        #expect(answers(mute, "\(esc)[?u\(esc)[c\(esc)[5n") == "\(esc)[0n")
    }

    @Test func colourQueriesKeepTheirTerminatorAndMayAskForSeveral() {
        let esc = Self.esc, st = Self.st
        #expect(answers(Self.light, "\(esc)]11;?\u{07}") == "\(esc)]11;rgb:ffff/ffff/ffff\u{07}")
        // OSC 10 with two `?`: the foreground, then the background (xterm's dynamic colours).
        #expect(answers(Self.light, "\(esc)]10;?;?\(st)") == "\(esc)]10;rgb:0000/0000/8080\(st)\(esc)]11;rgb:ffff/ffff/ffff\(st)")
        // The cursor colour (12) is not known; only the background known here.
        let onlyBackground = TerminalIdentity(background: TerminalColor(red: 1, green: 2, blue: 3))
        #expect(answers(onlyBackground, "\(esc)]11;?;?\(st)\(esc)]10;?\(st)") == "\(esc)]11;rgb:0101/0202/0303\(st)")
        // Setting a colour is not a query: no answer, counted as ignored.
        var screen = TerminalScreen(width: 10, height: 1, identity: Self.light)
        screen.feed(Array("\(esc)]11;rgb:0/0/0\(st)\(esc)]11;?x\(st)ok".utf8))
        #expect(screen.takeResponses() == [])
        #expect(screen.ignoredStrings == 2)
        #expect(screen.lines == ["ok"])
    }

    @Test func xtgettcapAnswersEachNameOnItsOwn() {
        let esc = Self.esc, st = Self.st
        // RGB (a string), Tc (a boolean: no value, as kitty answers it), colors (unknown here).
        #expect(answers(Self.light, "\(esc)P+q524742;5463;636f6c6f7273\(st)")
                == "\(esc)P1+r524742=382F382F38\(st)\(esc)P1+r5463\(st)\(esc)P0+r636f6c6f7273\(st)")
        // A name that is not hex, or not printable, is not known; only hex is echoed.
        #expect(answers(Self.light, "\(esc)P+qZZ;0a0b\(st)") == "\(esc)P0+r\(st)\(esc)P0+r0a0b\(st)")
        // No capabilities: XTGETTCAP goes unanswered, as on a terminal without it.
        #expect(answers(TerminalIdentity(), "\(esc)P+q524742;5463\(st)") == "")
        #expect(answers(TerminalIdentity(capabilities: [:]), "\(esc)P+q524742\(st)") == "\(esc)P0+r524742\(st)")
        #expect(Self.light.advertisesTruecolor && !TerminalIdentity().advertisesTruecolor)
        // Other DCS strings (DECRQSS, sixel) are skipped and counted.
        var screen = TerminalScreen(width: 10, height: 1, identity: Self.light)
        screen.feed(Array("\(esc)P$qm\(st)\(esc)Pq#0;2;0;0;0#0~~\(st)\(esc)P+q524742\u{07}ok".utf8))
        #expect(screen.takeResponses() == Array("\(esc)P1+r524742=382F382F38\(st)".utf8), "BEL ends a DCS too")
        #expect(screen.ignoredStrings == 2)
        #expect(screen.lines == ["ok"])
    }

    @Test func queriesSplitAcrossWritesAreAnswered() {
        let esc = Self.esc, st = Self.st
        let probe = "\(esc)]10;?\(st)\(esc)]11;?\u{07}\(esc)[?2026$p\(esc)P+q524742;5463\(st)\(esc)[>0q\(esc)[c"
        let whole = answers(Self.light, probe)
        #expect(whole == "\(esc)]10;rgb:0000/0000/8080\(st)\(esc)]11;rgb:ffff/ffff/ffff\u{07}\(esc)[?2026;2$y"
                + "\(esc)P1+r524742=382F382F38\(st)\(esc)P1+r5463\(st)\(esc)P>|XTerm(390)\(st)\(esc)[?62;22c")
        // Byte by byte, and cut between the ESC and the backslash of each ST.
        var screen = TerminalScreen(width: 20, height: 2, identity: Self.light)
        for byte in probe.utf8 { screen.feed([byte]) }
        #expect(String(decoding: screen.takeResponses(), as: UTF8.self) == whole)
        let parts = probe.components(separatedBy: "\\")
        #expect(parts.count == 3)
        #expect(answers(Self.light, parts[0], "\\" + parts[1], "\\" + parts[2]) == whole)
    }

    @Test func malformedAndOverlongQueriesAreIgnored() {
        let esc = Self.esc, st = Self.st
        // A DCS longer than the limit is dropped whole, and what follows it is read as usual.
        let long = "\(esc)P+q" + String(repeating: "52", count: 4 * 1024) + st
        var screen = TerminalScreen(width: 10, height: 1, identity: Self.light)
        screen.feed(Array((long + "after\(esc)[>0q").utf8))
        #expect(String(decoding: screen.takeResponses(), as: UTF8.self) == "\(esc)P>|XTerm(390)\(st)")
        #expect(screen.ignoredStrings == 1)
        #expect(screen.lines == ["after"])
        // Cancelled (CAN, SUB) or abandoned (ESC then not `\`): no answer, the next sequence works.
        #expect(answers(Self.light, "\(esc)P+q524742\u{18}\(esc)]11;?\u{1A}\(esc)[c") == "\(esc)[?62;22c")
        #expect(answers(Self.light, "\(esc)P+q524742\(esc)[c") == "\(esc)[?62;22c")
        #expect(answers(Self.light, "\(esc)]11;?\(esc)[5n") == "\(esc)[0n")
        // An OSC after an abandoned DCS is an OSC (and the other way round).
        #expect(answers(Self.light, "\(esc)P+q52\u{18}\(esc)]11;?\(st)") == "\(esc)]11;rgb:ffff/ffff/ffff\(st)")
        #expect(answers(Self.light, "\(esc)]11;\u{18}\(esc)P+q5463\(st)") == "\(esc)P1+r5463\(st)")
        // Not queries: a colour number, XTVERSION with another parameter, SOS/PM/APC strings.
        #expect(answers(Self.light, "\(esc)]12;?\(st)\(esc)[>1q\(esc)X+q5463\(st)\(esc)^+q5463\(st)\(esc)_+q5463\(st)") == "")
        // The version is answered with its printable ASCII only, so it cannot end the DCS early.
        let sly = TerminalIdentity(version: "bad\(esc)\\\u{07}name")
        #expect(answers(sly, "\(esc)[>0q") == "\(esc)P>|bad\\name\(st)")
        // Answers are bounded however many names are asked.
        let many = "\(esc)P+q" + Array(repeating: "5463", count: 700).joined(separator: ";") + st
        #expect(answers(Self.light, many).utf8.count <= 4_096)
    }

    /// The framework's probe, answered by the screen and read by the framework's decoder.
    private func probed(_ identity: TerminalIdentity) -> TerminalCapabilities {
        var screen = TerminalScreen(width: 20, height: 5, identity: identity)
        screen.feed(TerminalProbe.queries(kittyKeyboard: true))
        var decoder = InputDecoder()
        let keys = decoder.feed(screen.takeResponses())
        #expect(keys.isEmpty, "answers read as keys: \(keys)")
        var probe = TerminalProbe(capabilities: TerminalCapabilities(term: "xterm-256color", terminfoColors: 256))
        for reply in decoder.takeReplies() { probe.receive(reply) }
        #expect(probe.isComplete)
        return probe.capabilities
    }

    @Test func theProbeReadsTheAnswersAsTheIdentitySays() {
        let light = probed(Self.light)
        #expect(light.answered && light.backgroundIsDark == false)
        #expect(light.background == TerminalColor(red: 255, green: 255, blue: 255))
        #expect(light.foreground == TerminalColor(red: 0, green: 0, blue: 0x80))
        #expect(light.synchronizedOutput == true && light.reportsTruecolor == true && light.kittyKeyboard)
        #expect(light.version == "XTerm(390)")
        let plain = probed(TerminalIdentity(synchronizedOutput: false, kittyKeyboard: false))
        #expect(plain.answered && plain.backgroundIsDark == nil && plain.version == nil)
        #expect(plain.synchronizedOutput == false && plain.reportsTruecolor == nil && !plain.kittyKeyboard)
        let dark = probed(TerminalIdentity(background: TerminalColor(red: 0x1e, green: 0x1e, blue: 0x2e)))
        #expect(dark.backgroundIsDark == true && dark.synchronizedOutput == true)
        // kitty's answers: Tc, a boolean, and no RGB; a terminal with neither.
        #expect(probed(TerminalIdentity(capabilities: ["Tc": ""])).reportsTruecolor == true)
        #expect(probed(TerminalIdentity(capabilities: ["colors": "256"])).reportsTruecolor == false)
    }

    // MARK: Synchronized updates

    @Test func synchronizedUpdatesAreCountedAndCheckedForBalance() {
        var s = screen("before\(csi)?2026hframe\(csi)?2026l")
        #expect(s.synchronizedUpdates.begun == 1 && s.synchronizedUpdates.ended == 1)
        #expect(s.synchronizedUpdates.isBalanced && !s.synchronizedUpdates.isOpen)
        #expect(s.synchronizedUpdates.charactersOutside == 6, "\(s.synchronizedUpdates)")
        s.feed(Array("\(csi)?2026h".utf8))
        #expect(s.synchronizedUpdates.isOpen && !s.synchronizedUpdates.isBalanced)
        s.feed(Array("\(csi)?2026hx\(csi)?2026l\(csi)?2026l".utf8))
        #expect(s.synchronizedUpdates.unmatched == 2, "a begin inside one, an end outside one")
        #expect(s.synchronizedUpdates.begun == 2 && s.synchronizedUpdates.ended == 2)
        #expect(s.synchronizedUpdates.charactersOutside == 6)
        #expect(s.unresetModes() == [])
        // Counted whether the terminal has the mode or not (the bytes are the program's).
        var without = TerminalScreen(width: 10, height: 1, identity: TerminalIdentity(synchronizedOutput: false))
        without.feed(Array("\(csi)?2026;25h\(csi)?2026l".utf8))
        #expect(without.synchronizedUpdates.begun == 1 && without.synchronizedUpdates.isBalanced)
        // A full reset closes an open one without ending it.
        var reset = screen("\(csi)?2026h\u{1B}c")
        #expect(!reset.synchronizedUpdates.isOpen && !reset.synchronizedUpdates.isBalanced)
        reset.feed(Array("\(csi)?2026$p".utf8))
        #expect(reset.takeResponses() == Array("\u{1B}[?2026;2$y".utf8), "the identity stays")
    }
}
