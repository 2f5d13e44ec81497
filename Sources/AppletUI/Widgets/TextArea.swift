import AppletState
import Terminal

/// What a `TextArea` reports to `.onEvent` handlers and its widget manager.
public enum TextAreaEvent: Sendable, Equatable {
    /// The text after an edit by the user (typing, deleting, pasting); cursor moves send nothing.
    case changed(String)
}

/// A multi-line text editor bound to a `String`. Lines are split at `"\n"` (a `"\r\n"` ends a
/// line too, and is written back as `"\n"` after an edit).
///
/// Lines are not wrapped: the view scrolls down and sideways to keep the cursor visible, and
/// only the lines on screen are drawn. The cursor moves by grapheme cluster and is drawn in the
/// theme's focus style while the editor has focus. It takes all the space it is offered
/// (ideally 40 x 5). While the text is empty the placeholder shows in the theme's muted style.
///
/// Keys with focus:
/// - printable characters insert; `Enter` starts a new line;
/// - `Backspace` / `Delete` delete before / at the cursor, joining lines at a line's start / end;
/// - arrows move (`↑`/`↓` keep the column you were aiming for across short lines);
///   `Home`/`Ctrl-A` and `End`/`Ctrl-E` go to the line's start and end, `Ctrl-Home` and
///   `Ctrl-End` to the start and end of the text; `PgUp`/`PgDn` move by the visible height;
/// - `Ctrl-←`/`Alt-B` and `Ctrl-→`/`Alt-F` jump by words;
/// - `Ctrl-W` (or `Alt-Backspace`) deletes the word before the cursor, `Alt-D` the word after;
///   `Ctrl-U` deletes to the line's start, `Ctrl-K` to its end (at the end: joins the next line).
///
/// `Tab` and `Esc` pass on, so focus can move on. A click puts the cursor where it lands; the
/// wheel scrolls the view by 3 lines without moving the cursor. Pasted text is inserted as is,
/// line breaks included (`"\r\n"` becomes `"\n"`, a tab four spaces). Every edit writes the
/// binding, then sends `.changed(text)`.
///
/// ```swift
/// @AppState(\.notes) var notes
/// Box(title: "Notes") {
///     TextArea(text: $notes, placeholder: "Write something…")
///         .onEvent { (event: TextAreaEvent) in
///             if case .changed = event { isDirty = true }
///         }
/// }
/// ```
public struct TextArea: View {
    public typealias Body = Never
    let text: Binding<String>
    let placeholder: String

    /// - Parameters:
    ///   - text: the text being edited; the editor writes it on every edit.
    ///   - placeholder: shown, muted, while the text is empty.
    public init(text: Binding<String>, placeholder: String = "") {
        self.text = text
        self.placeholder = placeholder
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        let text = self.text
        let state = context.stateBox(TextEditState(text: text.wrappedValue, multiline: true, cursorAtEnd: false))
        nodes.append(TextAreaNode(
            id: context.id, placeholder: placeholder, text: text, state: state,
            emit: context.emitter(TextAreaEvent.self), style: context.style,
            placeholderStyle: context.style(.muted),
            cursorStyle: cursorStyle(base: context.style, theme: context.theme)))
    }
}

final class TextAreaNode: Node, FocusableNode {
    override var focusable: (any FocusableNode)? { self }
    let focusID: ViewID
    let placeholder: String
    let text: Binding<String>
    let state: WidgetStateBox<TextEditState>
    let emit: EventEmitter<TextAreaEvent>
    let style: Style
    let placeholderStyle: Style
    let cursorStyle: Style
    var isFocused = false
    /// The whole text (the editor has no selection).
    var copyableText: String? { hasCopyableText ? text.wrappedValue : nil }
    var hasCopyableText: Bool { !text.wrappedValue.isEmpty }
    var takesTextInput: Bool { true }
    /// The keys it edits with: every key `TextEditCommand` reads (not Tab, Esc or function keys).
    func usesKey(_ key: KeyEvent) -> Bool { TextEditCommand(key) != nil }
    /// The lines drawn in the last frame (only those on screen are drawn).
    private(set) var drawnLines: Range<Int> = 0..<0

    /// Lines the wheel scrolls at a time.
    static let wheelStep = 3

    init(id: ViewID, placeholder: String, text: Binding<String>, state: WidgetStateBox<TextEditState>,
         emit: EventEmitter<TextAreaEvent>, style: Style, placeholderStyle: Style, cursorStyle: Style) {
        self.focusID = id
        self.placeholder = placeholder
        self.text = text
        self.state = state
        self.emit = emit
        self.style = style
        self.placeholderStyle = placeholderStyle
        self.cursorStyle = cursorStyle
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        // Greedy: takes all the space it is offered (ideally 40 x 5).
        Size(width: min(max(0, proposal.width ?? 40), unboundedLength),
             height: min(max(0, proposal.height ?? 5), unboundedLength))
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        state.value.sync(with: text.wrappedValue)
        state.value.scroll(toFit: frame.size)
        canvas.fill(area, with: .blank(style))
        let (top, left) = (state.value.scrollY, state.value.scrollX)
        let buffer = state.value.buffer
        if buffer.isEmpty && !placeholder.isEmpty {
            for (row, line) in TextBuffer.splitLines(placeholder).prefix(frame.height).enumerated() {
                drawTextRow(line, scroll: 0, at: Point(x: frame.x, y: frame.y + row), width: frame.width,
                            style: placeholderStyle, in: &canvas, clip: area)
            }
        } else {
            // Only the lines on screen.
            drawnLines = top..<max(top, min(buffer.lines.count, top + frame.height))
            for index in drawnLines {
                drawTextRow(buffer.lines[index], scroll: left, at: Point(x: frame.x, y: frame.y + index - top),
                            width: frame.width, style: style, in: &canvas, clip: area)
            }
        }
        guard isFocused, buffer.line >= top, buffer.line < top + frame.height else { return }
        let chars = buffer.currentCharacters
        var width = cursorCells(at: buffer.column, in: chars)
        if buffer.isEmpty, let first = placeholder.first { width = max(1, first.terminalWidth) }
        let x = cellColumn(of: buffer.column, in: chars) - left
        guard x >= 0, x < frame.width else { return }
        let cursor = Rect(x: frame.x + x, y: frame.y + buffer.line - top, width: min(width, frame.width - x), height: 1)
        let look = cursorStyle
        canvas.restyle(cursor.intersection(area)) { $0 = look }
    }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard let command = TextEditCommand(key) else { return false }
        state.value.sync(with: text.wrappedValue)
        let page = max(1, state.value.viewport.height)
        var changed = false
        var goal: Int? = nil
        // The buffer is edited in place in the state box (no copy of its lines).
        func vertical(_ delta: Int) {
            let b = state.value.buffer
            let last = b.lines.count - 1
            if (delta < 0 && b.line == 0) || (delta > 0 && b.line == last) {
                // Past the first or last line: to its start or end.
                delta < 0 ? state.value.buffer.moveToLineStart() : state.value.buffer.moveToLineEnd()
                return
            }
            let aim = state.value.goal ?? b.cursorCell
            state.value.buffer.moveToLine(b.line + delta, goal: aim)
            goal = aim
        }
        switch command {
        case .insert(let c): changed = state.value.buffer.insert(String(c))
        case .enter: changed = state.value.buffer.insert("\n")
        case .left: state.value.buffer.moveLeft()
        case .right: state.value.buffer.moveRight()
        case .wordLeft: state.value.buffer.moveWordLeft()
        case .wordRight: state.value.buffer.moveWordRight()
        case .lineStart: state.value.buffer.moveToLineStart()
        case .lineEnd: state.value.buffer.moveToLineEnd()
        case .bufferStart: state.value.buffer.moveToStart()
        case .bufferEnd: state.value.buffer.moveToEnd()
        case .up: vertical(-1)
        case .down: vertical(1)
        case .pageUp:
            // The view moves by a page with the cursor, so the cursor keeps its row on screen.
            vertical(-page)
            state.value.scrollY = max(0, state.value.scrollY - page)
        case .pageDown:
            vertical(page)
            state.value.scrollY = max(0, min(state.value.scrollY + page, state.value.buffer.lines.count - page))
        case .deleteBackward: changed = state.value.buffer.deleteBackward()
        case .deleteForward: changed = state.value.buffer.deleteForward()
        case .deleteWordBackward: changed = state.value.buffer.deleteWordBackward()
        case .deleteWordForward: changed = state.value.buffer.deleteWordForward()
        case .deleteToLineStart: changed = state.value.buffer.deleteToLineStart()
        case .deleteToLineEnd: changed = state.value.buffer.deleteToLineEnd()
        }
        state.value.goal = goal
        state.value.reveal = true
        if changed { commit() }
        return true
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        state.value.sync(with: text.wrappedValue)
        switch mouse.kind {
        case .press(.left), .drag(.left):
            let row = state.value.scrollY + mouse.position.y - frame.y
            if row >= state.value.buffer.lines.count {
                state.value.buffer.moveToEnd()
            } else {
                state.value.buffer.line = max(0, row)
                let cell = max(0, mouse.position.x - frame.x + state.value.scrollX)
                state.value.buffer.column = graphemeIndex(atCell: cell, in: state.value.buffer.currentCharacters)
            }
            state.value.goal = nil
            state.value.reveal = true
        case .scrollUp:
            state.value.scrollY = max(0, state.value.scrollY - Self.wheelStep)
        case .scrollDown:
            let bottom = max(0, state.value.buffer.lines.count - state.value.viewport.height)
            state.value.scrollY = min(bottom, state.value.scrollY + Self.wheelStep)
        default:
            return false
        }
        return true
    }

    func handlePaste(_ pasted: String) -> Bool {
        state.value.sync(with: text.wrappedValue)
        if state.value.buffer.insert(sanitizedForInsertion(pasted, multiline: true)) { commit() }
        state.value.goal = nil
        state.value.reveal = true
        return true
    }

    /// Writes the edited text to the binding and reports it.
    private func commit() {
        let new = state.value.buffer.text
        state.value.source = new
        text.wrappedValue = new
        emit(.changed(new))
    }
}
