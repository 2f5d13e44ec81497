import Foundation
import Terminal

// What each character, control character and escape sequence does to a `TerminalScreen`, as xterm
// does it. `VTParser` calls in here; everything keeps the screen's invariants (see TerminalScreen).

extension TerminalScreen {
    // MARK: Printing

    /// Puts a printable character at the cursor (or joins a zero-width one to the one before).
    mutating func printCharacter(_ input: Unicode.Scalar) {
        var scalar = input
        if characterSets.active == .decSpecialGraphics, let mapped = Self.decSpecialGraphics(scalar) {
            scalar = mapped
        }
        let width = scalar.value < 0x7F ? 1 : scalar.terminalWidth   // ASCII here is printable
        guard width > 0 else { combine(scalar); return }
        lastPrinted = input
        if !synchronizedUpdates.isOpen { synchronizedUpdates.charactersOutside += 1 }
        let screenWidth = size.width
        if pendingWrap {
            pendingWrap = false
            if autowrap { wrapLine() }
        }
        if width == 2 && x == screenWidth - 1 {
            // A wide character does not fit in the last column.
            guard screenWidth >= 2 else { return }
            if autowrap { wrapLine() } else { x = screenWidth - 2 }
        }
        if isInsertMode { insertBlankCharacters(width) }
        prepareOverwrite(x: x)
        if width == 2 { prepareOverwrite(x: x + 1) }
        var cell = pen
        cell.character = Character(scalar)
        cell.width = width
        rows[y][x] = cell
        if width == 2 {
            var continuation = pen
            continuation.width = 0
            rows[y][x + 1] = continuation
        }
        if x + width >= screenWidth {
            x = screenWidth - 1
            pendingWrap = autowrap
        } else {
            x += width
        }
    }

    /// Joins a zero-width scalar (a combining mark, a variation selector, ZWJ) to the character
    /// before the cursor, when the result is still one character (and a short one).
    private mutating func combine(_ scalar: Unicode.Scalar) {
        guard scalar.value >= 0xA0 else { return }   // C1 controls decoded from UTF-8: ignored
        var target = pendingWrap ? x : x - 1
        guard target >= 0 else { return }
        if rows[y][target].isContinuation && target > 0 { target -= 1 }
        var text = String(rows[y][target].character)
        text.unicodeScalars.append(scalar)
        guard text.utf8.count <= 32, text.count == 1, let character = text.first else { return }
        rows[y][target].character = character
    }

    /// Goes to the start of the next line for autowrap (scrolling at the bottom margin).
    private mutating func wrapLine() {
        x = 0
        index()
    }

    /// Before a cell is overwritten: a wide character it is half of loses its other half.
    private mutating func prepareOverwrite(x column: Int) {
        guard column < size.width else { return }
        let cell = rows[y][column]
        if cell.isContinuation && column > 0 {
            rows[y][column - 1] = .blank(rows[y][column - 1].background)
        } else if cell.width == 2 && column + 1 < size.width {
            rows[y][column + 1] = .blank(rows[y][column + 1].background)
        }
    }

    /// Makes row `row` whole again after cells moved: a wide character without its right half, or a
    /// right half without its character, becomes blank.
    private mutating func repairRow(_ row: Int) {
        let width = size.width
        for column in 0..<width {
            let cell = rows[row][column]
            if cell.width == 2 && (column == width - 1 || !rows[row][column + 1].isContinuation) {
                rows[row][column] = .blank(cell.background)
            } else if cell.isContinuation && (column == 0 || rows[row][column - 1].width != 2) {
                rows[row][column] = .blank(cell.background)
            }
        }
    }

    /// The blank erasing leaves: the current background, nothing else (xterm's `bce`).
    private var eraseCell: Cell { .blank(pen.background) }

    // MARK: Control characters

    mutating func executeControl(_ byte: UInt8) {
        switch byte {
        case 0x08:   // BS
            pendingWrap = false
            if x > 0 { x -= 1 }
        case 0x09:   // HT
            tab(forward: 1)
        case 0x0A, 0x0B, 0x0C:   // LF, VT, FF
            pendingWrap = false
            index()
        case 0x0D:   // CR
            pendingWrap = false
            x = 0
        case 0x0E:   // SO: G1
            characterSets.usesG1 = true
        case 0x0F:   // SI: G0
            characterSets.usesG1 = false
        default:
            break    // BEL, NUL and the rest: nothing to show
        }
    }

    // MARK: Operating system commands

    /// An OSC string, without its `ESC ]` and terminator: OSC 8 (a hyperlink for the characters
    /// written next) and OSC 52 (the clipboard) are kept, OSC 10 and 11 queries answered (see
    /// `answerColorQuery`); others are counted in `ignoredStrings`.
    mutating func dispatchOSC(_ string: [UInt8], endedByBEL: Bool) {
        guard let separator = string.firstIndex(of: UInt8(ascii: ";")) else { ignoredStrings += 1; return }
        let command = String(decoding: string[..<separator], as: UTF8.self)
        let rest = string[(separator + 1)...]
        switch command {
        case "10", "11":
            if !answerColorQuery(first: command == "10" ? 10 : 11, rest, endedByBEL: endedByBEL) { ignoredStrings += 1 }
        case "8":
            // `8 ; params ; URI`: an empty URI ends the link.
            guard let paramsEnd = rest.firstIndex(of: UInt8(ascii: ";")) else { ignoredStrings += 1; return }
            let uri = String(decoding: rest[(paramsEnd + 1)...], as: UTF8.self)
            pen.hyperlink = uri.isEmpty ? nil : uri
        case "52":
            guard let selectionEnd = rest.firstIndex(of: UInt8(ascii: ";")) else { ignoredStrings += 1; return }
            let selections = String(decoding: rest[..<selectionEnd], as: UTF8.self)
            let payload = String(decoding: rest[(selectionEnd + 1)...], as: UTF8.self)
            let text = payload == "?" ? nil : Data(base64Encoded: payload).flatMap { String(data: $0, encoding: .utf8) }
            clipboardWrites.append(ClipboardWrite(selections: selections, text: text, payload: payload))
            if clipboardWrites.count > Self.maxClipboardWrites { clipboardWrites.removeFirst() }
        default:
            ignoredStrings += 1
        }
    }

    // MARK: Escape sequences

    mutating func dispatchEscape(intermediates: UInt16, final: UInt8) {
        switch (intermediates, final) {
        case (0, UInt8(ascii: "7")):
            saveCursor()
        case (0, UInt8(ascii: "8")):
            restoreCursor()
        case (0, UInt8(ascii: "D")):   // IND
            pendingWrap = false
            index()
        case (0, UInt8(ascii: "E")):   // NEL
            pendingWrap = false
            x = 0
            index()
        case (0, UInt8(ascii: "M")):   // RI
            pendingWrap = false
            reverseIndex()
        case (0, UInt8(ascii: "H")):   // HTS
            tabStops[x] = true
        case (0, UInt8(ascii: "c")):   // RIS
            fullReset()
        case (0, UInt8(ascii: "=")):   // DECKPAM
            isKeypadApplicationMode = true
        case (0, UInt8(ascii: ">")):   // DECKPNM
            isKeypadApplicationMode = false
        case (UInt16(UInt8(ascii: "(")), _):
            characterSets.g0 = final == UInt8(ascii: "0") ? .decSpecialGraphics : .ascii
        case (UInt16(UInt8(ascii: ")")), _):
            characterSets.g1 = final == UInt8(ascii: "0") ? .decSpecialGraphics : .ascii
        case (UInt16(UInt8(ascii: "#")), UInt8(ascii: "8")):   // DECALN
            rows = Self.blankRows(width: size.width, height: size.height)
            for row in rows.indices { for column in rows[row].indices { rows[row][column].character = "E" } }
            scrollTop = 0
            scrollBottom = size.height - 1
            moveCursor(x: 0, y: 0)
        default:
            break
        }
    }

    // MARK: Control sequences

    mutating func dispatchControlSequence(_ sequence: VTParser.ControlSequence) {
        let final = sequence.final
        switch (sequence.prefix, sequence.intermediates) {
        case (0, 0):
            dispatchPlain(sequence)
        case (UInt8(ascii: "?"), 0):
            switch final {
            case UInt8(ascii: "h"), UInt8(ascii: "l"):
                for mode in sequence.parameters { setPrivateMode(mode, on: final == UInt8(ascii: "h")) }
            case UInt8(ascii: "J"):   // DECSED: as ED here
                eraseInDisplay(sequence.parameter(0, default: 0))
            case UInt8(ascii: "K"):   // DECSEL: as EL here
                eraseInLine(sequence.parameter(0, default: 0))
            case UInt8(ascii: "n") where sequence.parameter(0, default: 0) == 6:   // DECXCPR
                respond("\u{1B}[?\(y + 1 - (originMode ? scrollTop : 0));\(x + 1)R")
            case UInt8(ascii: "u"):   // kitty: query flags
                if identity.kittyKeyboard { respond("\u{1B}[?\(kittyKeyboardFlags)u") }
            default:
                break
            }
        case (UInt8(ascii: "?"), UInt16(UInt8(ascii: "$"))) where final == UInt8(ascii: "p"):   // DECRQM
            let mode = sequence.parameter(0, default: 0)
            let status = mode == 2026 && !identity.synchronizedOutput ? 0 : isModeOn(mode) ? 1 : 2
            respond("\u{1B}[?\(mode);\(status)$y")
        case (0, UInt16(UInt8(ascii: "$"))) where final == UInt8(ascii: "p"):   // DECRQM, ANSI modes
            let mode = sequence.parameter(0, default: 0)
            let state = mode == 4 ? (isInsertMode ? 1 : 2) : mode == 20 ? 2 : 0
            respond("\u{1B}[\(mode);\(state)$y")
        case (0, UInt16(UInt8(ascii: "!"))) where final == UInt8(ascii: "p"):   // DECSTR
            softReset()
        case (0, UInt16(UInt8(ascii: " "))) where final == UInt8(ascii: "q"):   // DECSCUSR
            cursorShape = sequence.parameter(0, default: 0)
        case (UInt8(ascii: ">"), 0):
            if final == UInt8(ascii: "u") {   // kitty: push
                pushKittyFlags(sequence.parameter(0, default: 0))
            } else if final == UInt8(ascii: "c") {   // DA2
                respond("\u{1B}[>41;389;0c")
            } else if final == UInt8(ascii: "q") && sequence.parameter(0, default: 0) == 0 {   // XTVERSION
                answerVersionQuery()
            }
        case (UInt8(ascii: "<"), 0) where final == UInt8(ascii: "u"):   // kitty: pop
            popKittyFlags(sequence.parameter(0, default: 1))
        case (UInt8(ascii: "="), 0) where final == UInt8(ascii: "u"):   // kitty: set
            setKittyFlags(sequence.parameter(0, default: 0), mode: sequence.parameter(1, default: 1))
        default:
            break   // XTMODKEYS (`CSI > 4;1 m`) and the rest: not SGR, nothing to show
        }
    }

    private mutating func dispatchPlain(_ sequence: VTParser.ControlSequence) {
        let n = sequence.parameter(0)
        switch sequence.final {
        case UInt8(ascii: "@"):   // ICH
            pendingWrap = false
            insertBlankCharacters(n)
        case UInt8(ascii: "A"):   // CUU
            let top = y >= scrollTop ? scrollTop : 0
            moveCursor(x: x, y: max(top, y - n))
        case UInt8(ascii: "B"), UInt8(ascii: "e"):   // CUD, VPR
            let bottom = y <= scrollBottom ? scrollBottom : size.height - 1
            moveCursor(x: x, y: min(bottom, y + n))
        case UInt8(ascii: "C"), UInt8(ascii: "a"):   // CUF, HPR
            moveCursor(x: min(size.width - 1, x + n), y: y)
        case UInt8(ascii: "D"):   // CUB
            moveCursor(x: max(0, x - n), y: y)
        case UInt8(ascii: "E"):   // CNL
            let bottom = y <= scrollBottom ? scrollBottom : size.height - 1
            moveCursor(x: 0, y: min(bottom, y + n))
        case UInt8(ascii: "F"):   // CPL
            let top = y >= scrollTop ? scrollTop : 0
            moveCursor(x: 0, y: max(top, y - n))
        case UInt8(ascii: "G"), UInt8(ascii: "`"):   // CHA, HPA
            moveCursor(x: min(size.width - 1, n - 1), y: y)
        case UInt8(ascii: "H"), UInt8(ascii: "f"):   // CUP, HVP
            setCursor(row: sequence.parameter(0), column: sequence.parameter(1))
        case UInt8(ascii: "I"):   // CHT
            tab(forward: n)
        case UInt8(ascii: "Z"):   // CBT
            tab(forward: -n)
        case UInt8(ascii: "J"):   // ED
            eraseInDisplay(sequence.parameter(0, default: 0))
        case UInt8(ascii: "K"):   // EL
            eraseInLine(sequence.parameter(0, default: 0))
        case UInt8(ascii: "L"):   // IL
            insertLines(n)
        case UInt8(ascii: "M"):   // DL
            deleteLines(n)
        case UInt8(ascii: "P"):   // DCH
            deleteCharacters(n)
        case UInt8(ascii: "S"):   // SU
            scrollUp(n)
        case UInt8(ascii: "T") where sequence.parameters.count <= 1:   // SD (5 parameters: mouse highlighting)
            scrollDown(n)
        case UInt8(ascii: "X"):   // ECH
            pendingWrap = false
            erase(row: y, from: x, to: min(size.width, x + n))
        case UInt8(ascii: "b"):   // REP
            if let character = lastPrinted {
                for _ in 0..<min(n, size.width * size.height) { printCharacter(character) }
            }
        case UInt8(ascii: "c") where sequence.parameter(0, default: 0) == 0:   // DA1
            if identity.answersPrimaryDeviceAttributes { respond("\u{1B}[?62;22c") }
        case UInt8(ascii: "d"):   // VPA
            setCursor(row: n, column: x + 1)
        case UInt8(ascii: "g"):   // TBC
            switch sequence.parameter(0, default: 0) {
            case 0: tabStops[x] = false
            case 3: tabStops = Array(repeating: false, count: size.width)
            default: break
            }
        case UInt8(ascii: "h"), UInt8(ascii: "l"):   // SM, RM
            if sequence.parameters.contains(4) { isInsertMode = sequence.final == UInt8(ascii: "h") }
        case UInt8(ascii: "m"):
            selectGraphicRendition(sequence)
        case UInt8(ascii: "n"):   // DSR
            switch sequence.parameter(0, default: 0) {
            case 5: respond("\u{1B}[0n")
            case 6: respond("\u{1B}[\(y + 1 - (originMode ? scrollTop : 0));\(x + 1)R")
            default: break
            }
        case UInt8(ascii: "r"):   // DECSTBM
            let top = sequence.parameter(0) - 1
            let bottom = min(size.height, sequence.parameter(1, default: size.height)) - 1
            guard top < bottom else { return }
            scrollTop = top
            scrollBottom = bottom
            moveCursor(x: 0, y: originMode ? scrollTop : 0)
        case UInt8(ascii: "s"):   // SCOSC (DECSLRM when left/right margins are on: not emulated)
            if !isModeOn(69) { saveCursor() }
        case UInt8(ascii: "u"):   // SCORC
            restoreCursor()
        case UInt8(ascii: "t"):   // XTWINOPS: only the size report
            if sequence.parameter(0, default: 0) == 18 { respond("\u{1B}[8;\(size.height);\(size.width)t") }
        default:
            break
        }
    }

    // MARK: Cursor

    /// Moves the cursor (already clamped by the caller), clearing a pending wrap.
    private mutating func moveCursor(x newX: Int, y newY: Int) {
        x = max(0, min(size.width - 1, newX))
        y = max(0, min(size.height - 1, newY))
        pendingWrap = false
    }

    /// CUP: 1-based, relative to the scroll region and kept inside it in origin mode.
    private mutating func setCursor(row: Int, column: Int) {
        if originMode {
            moveCursor(x: column - 1, y: min(scrollBottom, scrollTop + row - 1))
        } else {
            moveCursor(x: column - 1, y: row - 1)
        }
    }

    private mutating func tab(forward count: Int) {
        pendingWrap = false
        if count > 0 {
            for _ in 0..<min(count, size.width) {
                var next = x + 1
                while next < size.width && !tabStops[next] { next += 1 }
                x = min(next, size.width - 1)
            }
        } else {
            for _ in 0..<min(-count, size.width) {
                var previous = x - 1
                while previous > 0 && !tabStops[previous] { previous -= 1 }
                x = max(previous, 0)
            }
        }
    }

    private mutating func saveCursor() {
        savedCursor = SavedCursor(x: x, y: y, pendingWrap: pendingWrap, pen: pen,
                                  characterSets: characterSets, originMode: originMode)
    }

    /// Restores what `saveCursor` saved, or homes the cursor and resets the pen when nothing was.
    private mutating func restoreCursor() {
        let saved = savedCursor ?? SavedCursor(x: 0, y: 0, pendingWrap: false, pen: Cell(),
                                               characterSets: CharacterSets(), originMode: false)
        x = min(saved.x, size.width - 1)
        y = min(saved.y, size.height - 1)
        pendingWrap = saved.pendingWrap && x == size.width - 1
        pen = saved.pen
        characterSets = saved.characterSets
        originMode = saved.originMode
    }

    // MARK: Scrolling

    /// Down a line, scrolling the region up at its bottom margin (IND, LF).
    private mutating func index() {
        if y == scrollBottom {
            scrollUp(1)
        } else if y < size.height - 1 {
            y += 1
        }
    }

    /// Up a line, scrolling the region down at its top margin (RI).
    private mutating func reverseIndex() {
        if y == scrollTop {
            scrollDown(1)
        } else if y > 0 {
            y -= 1
        }
    }

    private func blankLines(_ count: Int) -> [[Cell]] {
        Array(repeating: Array(repeating: eraseCell, count: size.width), count: count)
    }

    /// The scroll region's lines move up `count`, blank lines come in at the bottom.
    private mutating func scrollUp(_ count: Int) {
        let count = min(count, scrollBottom - scrollTop + 1)
        rows.removeSubrange(scrollTop..<scrollTop + count)
        rows.insert(contentsOf: blankLines(count), at: scrollBottom - count + 1)
    }

    /// The scroll region's lines move down `count`, blank lines come in at the top.
    private mutating func scrollDown(_ count: Int) {
        let count = min(count, scrollBottom - scrollTop + 1)
        rows.removeSubrange(scrollBottom - count + 1...scrollBottom)
        rows.insert(contentsOf: blankLines(count), at: scrollTop)
    }

    private mutating func insertLines(_ count: Int) {
        guard y >= scrollTop && y <= scrollBottom else { return }
        let count = min(count, scrollBottom - y + 1)
        rows.removeSubrange(scrollBottom - count + 1...scrollBottom)
        rows.insert(contentsOf: blankLines(count), at: y)
        moveCursor(x: 0, y: y)
    }

    private mutating func deleteLines(_ count: Int) {
        guard y >= scrollTop && y <= scrollBottom else { return }
        let count = min(count, scrollBottom - y + 1)
        rows.removeSubrange(y..<y + count)
        rows.insert(contentsOf: blankLines(count), at: scrollBottom - count + 1)
        moveCursor(x: 0, y: y)
    }

    // MARK: Characters in a line

    private mutating func insertBlankCharacters(_ count: Int) {
        let count = min(count, size.width - x)
        guard count > 0 else { return }
        rows[y].removeSubrange(size.width - count..<size.width)
        rows[y].insert(contentsOf: repeatElement(eraseCell, count: count), at: x)
        repairRow(y)
    }

    private mutating func deleteCharacters(_ count: Int) {
        pendingWrap = false
        let count = min(count, size.width - x)
        guard count > 0 else { return }
        rows[y].removeSubrange(x..<x + count)
        rows[y].append(contentsOf: repeatElement(eraseCell, count: count))
        repairRow(y)
    }

    // MARK: Erasing

    /// Blanks columns `start..<end` of `row`; a wide character cut by either end goes entirely.
    private mutating func erase(row: Int, from start: Int, to end: Int) {
        guard start < end else { return }
        let blank = eraseCell
        if rows[row][start].isContinuation && start > 0 { rows[row][start - 1] = .blank(rows[row][start - 1].background) }
        if end < size.width && rows[row][end].isContinuation { rows[row][end] = .blank(rows[row][end].background) }
        for column in start..<end { rows[row][column] = blank }
    }

    private mutating func eraseInLine(_ mode: Int) {
        pendingWrap = false
        switch mode {
        case 0: erase(row: y, from: x, to: size.width)
        case 1: erase(row: y, from: 0, to: x + 1)
        case 2: erase(row: y, from: 0, to: size.width)
        default: break
        }
    }

    private mutating func eraseInDisplay(_ mode: Int) {
        pendingWrap = false
        switch mode {
        case 0:
            erase(row: y, from: x, to: size.width)
            for row in y + 1..<size.height { erase(row: row, from: 0, to: size.width) }
        case 1:
            for row in 0..<y { erase(row: row, from: 0, to: size.width) }
            erase(row: y, from: 0, to: x + 1)
        case 2:
            rows = blankLines(size.height)
        default:
            break   // 3: the scrollback, which is not kept
        }
    }

    // MARK: Modes

    private mutating func setPrivateMode(_ mode: Int, on: Bool) {
        modes[mode] = on
        if modeChanges.count >= Self.maxModeChanges { modeChanges.removeFirst(modeChanges.count / 2) }
        modeChanges.append(ModeChange(mode: mode, on: on))
        switch mode {
        case 6:
            originMode = on
            moveCursor(x: 0, y: on ? scrollTop : 0)
        case 7:
            autowrap = on
            if !on { pendingWrap = false }
        case 47:
            switchBuffer(toAlternate: on)
        case 1047:
            if !on && isAlternateScreen { rows = blankLines(size.height) }
            switchBuffer(toAlternate: on)
        case 1048:
            if on { saveCursor() } else { restoreCursor() }
        case 2026:
            synchronizedUpdates.record(on: on)
        case 1049:
            if on {
                saveCursor()
                if !isAlternateScreen {
                    switchBuffer(toAlternate: true)
                    rows = blankLines(size.height)
                }
            } else {
                switchBuffer(toAlternate: false)
                restoreCursor()
            }
        default:
            break
        }
    }

    private mutating func switchBuffer(toAlternate alternate: Bool) {
        guard alternate != isAlternateScreen else { return }
        swap(&rows, &otherRows)
        swap(&savedCursor, &otherSavedCursor)
        isAlternateScreen = alternate
        pendingWrap = false
    }

    /// DECSTR: modes, margins, the pen and the saved cursor as at power-on; the screen stays.
    private mutating func softReset() {
        isInsertMode = false
        originMode = false
        autowrap = true
        isKeypadApplicationMode = false
        for mode in [1, 6, 7, 25] where modes[mode] != nil { modes[mode] = Self.defaultModes[mode] ?? false }
        scrollTop = 0
        scrollBottom = size.height - 1
        pen = Cell()
        characterSets = CharacterSets()
        savedCursor = nil
        pendingWrap = false
    }

    /// RIS: everything as at power-on but the size, the identity and the records (mode changes,
    /// synchronized updates: one left open is closed, not counted as ended).
    private mutating func fullReset() {
        let changes = modeChanges
        let pending = responses
        var updates = synchronizedUpdates
        updates.isOpen = false
        self = TerminalScreen(width: size.width, height: size.height, identity: identity)
        modeChanges = changes
        responses = pending
        synchronizedUpdates = updates
    }

    // MARK: Kitty keyboard protocol

    private mutating func pushKittyFlags(_ flags: Int) {
        kittyKeyboardDepth += 1
        if kittyFlagsStack.count >= 64 { kittyFlagsStack.removeFirst() }
        kittyFlagsStack.append(flags)
        kittyKeyboardFlags = flags
    }

    private mutating func popKittyFlags(_ count: Int) {
        kittyKeyboardDepth = max(0, kittyKeyboardDepth - count)
        kittyFlagsStack.removeLast(min(count, kittyFlagsStack.count))
        kittyKeyboardFlags = kittyKeyboardDepth == 0 ? 0 : kittyFlagsStack.last ?? 0
    }

    /// `CSI = flags ; mode u`: 1 sets the flags, 2 adds them, 3 takes them away.
    private mutating func setKittyFlags(_ flags: Int, mode: Int) {
        switch mode {
        case 1: kittyKeyboardFlags = flags
        case 2: kittyKeyboardFlags |= flags
        case 3: kittyKeyboardFlags &= ~flags
        default: return
        }
        if !kittyFlagsStack.isEmpty { kittyFlagsStack[kittyFlagsStack.count - 1] = kittyKeyboardFlags }
    }

    // MARK: SGR

    private mutating func selectGraphicRendition(_ sequence: VTParser.ControlSequence) {
        let parameters = sequence.parameters
        if parameters.isEmpty { resetPen(); return }
        var index = 0
        while index < parameters.count {
            let parameter = parameters[index]
            index += 1
            switch parameter {
            case 0: resetPen()
            case 1: pen.attributes.insert(.bold)
            case 2: pen.attributes.insert(.dim)
            case 3: pen.attributes.insert(.italic)
            case 4:
                // `4:0` is "no underline"; `4:1`...`4:5` are underline styles.
                if sequence.isSubparameter(index) && parameters[index] == 0 {
                    pen.attributes.remove(.underline)
                } else {
                    pen.attributes.insert(.underline)
                }
            case 5, 6: pen.attributes.insert(.blink)
            case 7: pen.attributes.insert(.reverse)
            case 8: pen.attributes.insert(.invisible)
            case 9: pen.attributes.insert(.strikethrough)
            case 21: pen.attributes.insert(.underline)
            case 22: pen.attributes.subtract([.bold, .dim])
            case 23: pen.attributes.remove(.italic)
            case 24: pen.attributes.remove(.underline)
            case 25: pen.attributes.remove(.blink)
            case 27: pen.attributes.remove(.reverse)
            case 28: pen.attributes.remove(.invisible)
            case 29: pen.attributes.remove(.strikethrough)
            case 30...37: pen.foreground = .ansi(ANSIColor(rawValue: UInt8(parameter - 30))!)
            case 38: if let color = Self.extendedColor(sequence, at: &index) { pen.foreground = color }
            case 39: pen.foreground = .default
            case 40...47: pen.background = .ansi(ANSIColor(rawValue: UInt8(parameter - 40))!)
            case 48: if let color = Self.extendedColor(sequence, at: &index) { pen.background = color }
            case 49: pen.background = .default
            case 58: _ = Self.extendedColor(sequence, at: &index)   // underline colour: not kept
            case 90...97: pen.foreground = .ansi(ANSIColor(rawValue: UInt8(parameter - 90 + 8))!)
            case 100...107: pen.background = .ansi(ANSIColor(rawValue: UInt8(parameter - 100 + 8))!)
            default: break
            }
            // Sub-parameters nothing above used belong to the parameter before them.
            while sequence.isSubparameter(index) { index += 1 }
        }
    }

    private mutating func resetPen() {
        pen.foreground = .default
        pen.background = .default
        pen.attributes = []
    }

    /// The colour after a 38, 48 or 58 at `index - 1`: `5;n`, `2;r;g;b`, or their `:` forms
    /// (`5:n`, `2:r:g:b`, `2::r:g:b` with a colour space). Moves `index` past what it used.
    private static func extendedColor(_ sequence: VTParser.ControlSequence, at index: inout Int) -> Color? {
        let parameters = sequence.parameters
        guard index < parameters.count else { return nil }
        func byte(_ value: Int) -> UInt8 { UInt8(clamping: value) }
        if sequence.isSubparameter(index) {
            var values: [Int] = []
            while sequence.isSubparameter(index) { values.append(parameters[index]); index += 1 }
            switch values.first {
            case 5 where values.count >= 2: return .indexed(byte(values[1]))
            case 2 where values.count >= 5: return .rgb(byte(values[2]), byte(values[3]), byte(values[4]))
            case 2 where values.count == 4: return .rgb(byte(values[1]), byte(values[2]), byte(values[3]))
            default: return nil
            }
        }
        switch parameters[index] {
        case 5:
            guard index + 1 < parameters.count else { index = parameters.count; return nil }
            defer { index += 2 }
            return .indexed(byte(parameters[index + 1]))
        case 2:
            guard index + 3 < parameters.count else { index = parameters.count; return nil }
            defer { index += 4 }
            return .rgb(byte(parameters[index + 1]), byte(parameters[index + 2]), byte(parameters[index + 3]))
        default:
            index += 1
            return nil
        }
    }

    // MARK: Replies

    mutating func respond(_ reply: String) {
        guard responses.count + reply.utf8.count <= 4_096 else { return }
        responses.append(contentsOf: reply.utf8)
    }

    // MARK: DEC Special Graphics

    /// The box-drawing and other characters `ESC ( 0` puts on 0x5F–0x7E.
    static func decSpecialGraphics(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        guard scalar.value >= 0x5F && scalar.value <= 0x7E else { return nil }
        return decSpecialGraphicsTable[Int(scalar.value - 0x5F)]
    }

    private static let decSpecialGraphicsTable: [Unicode.Scalar] = [
        " ", "◆", "▒", "␉", "␌", "␍", "␊", "°", "±", "␤", "␋", "┘", "┐", "┌", "└", "┼",
        "⎺", "⎻", "─", "⎼", "⎽", "├", "┤", "┴", "┬", "│", "≤", "≥", "π", "≠", "£", "·",
    ]
}
