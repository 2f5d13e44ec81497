import AppletState
import Terminal

/// What a `TextField` reports to `.onEvent` handlers and its widget manager.
public enum TextFieldEvent: Sendable, Equatable {
    /// The text after an edit by the user (typing, deleting, pasting); cursor moves send nothing.
    case changed(String)
    /// `Enter` was pressed; the text at that moment.
    case submitted(String)
}

/// A one-line text input bound to a `String`.
///
/// The cursor moves by grapheme cluster and is drawn as a cell in the theme's focus style while
/// the field has focus; there is no cursor without focus. Text wider than the field scrolls
/// sideways so the cursor always shows; wide characters are never cut in half. When the text is
/// empty the placeholder shows in the theme's muted style. The field takes the width it is
/// offered (ideally the text plus a cell for the cursor, at least the placeholder's width and
/// 10 columns) and one row.
///
/// Keys with focus:
/// - printable characters insert at the cursor;
/// - `Backspace` / `Delete` delete before / at the cursor;
/// - `←` `→` move; `Home`/`Ctrl-A` and `End`/`Ctrl-E` go to the start and end;
/// - `Ctrl-←`/`Alt-B` and `Ctrl-→`/`Alt-F` jump by words;
/// - `Ctrl-W` (or `Alt-Backspace`) deletes the word before the cursor, `Alt-D` the word after;
///   `Ctrl-U` deletes to the start, `Ctrl-K` to the end;
/// - `Enter` sends `.submitted(text)`.
///
/// `Tab`, `Esc`, `↑`/`↓` and other keys pass on (to move focus, or to the applet). A click
/// puts the cursor where it lands. Pasted text is inserted at the cursor with newlines and tabs
/// turned into spaces. Every edit writes the binding, then sends `.changed(text)`.
///
/// ```swift
/// @AppState(\.name) var name
/// HStack(spacing: 1) {
///     Text("Name:")
///     TextField("Your name", text: $name)
///         .onEvent { (event: TextFieldEvent) in
///             if case .submitted(let name) = event { greet(name) }
///         }
/// }
/// TextField("Password", text: $password).secure()
/// ```
public struct TextField: View {
    public typealias Body = Never
    let placeholder: String
    let text: Binding<String>
    var isSecure = false

    /// - Parameters:
    ///   - placeholder: shown, muted, while the text is empty.
    ///   - text: the text being edited; the field writes it on every edit.
    public init(_ placeholder: String, text: Binding<String>) {
        self.placeholder = placeholder
        self.text = text
    }

    /// Hides the text: each grapheme shows as one `•`. Word jumps and `Ctrl-W` treat the
    /// whole text as one word, so even the positions of spaces stay hidden.
    ///
    /// ```swift
    /// TextField("Password", text: $password).secure()
    /// ```
    public func secure(_ on: Bool = true) -> TextField {
        var copy = self
        copy.isSecure = on
        return copy
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        let text = self.text
        let state = context.stateBox(TextEditState(text: text.wrappedValue, multiline: false, cursorAtEnd: true))
        nodes.append(TextFieldNode(
            id: context.id, placeholder: placeholder, text: text, isSecure: isSecure, state: state,
            emit: context.emitter(TextFieldEvent.self), style: context.style,
            placeholderStyle: context.style(.muted),
            cursorStyle: cursorStyle(base: context.style, theme: context.theme)))
    }
}

final class TextFieldNode: Node, FocusableNode {
    override var focusable: (any FocusableNode)? { self }
    let focusID: ViewID
    let placeholder: String
    let text: Binding<String>
    let isSecure: Bool
    let state: WidgetStateBox<TextEditState>
    let emit: EventEmitter<TextFieldEvent>
    let style: Style
    let placeholderStyle: Style
    let cursorStyle: Style
    var isFocused = false
    var takesTextInput: Bool { true }
    /// The whole text (a field has no selection); nothing from a secure field, ever.
    var copyableText: String? { hasCopyableText ? text.wrappedValue : nil }
    var hasCopyableText: Bool { !isSecure && !text.wrappedValue.isEmpty }

    /// The keys it edits with: typing, moving and deleting, and Enter (which submits); not the
    /// line moves a one-line field has no use for, nor Tab, Esc or function keys.
    func usesKey(_ key: KeyEvent) -> Bool {
        guard let command = TextEditCommand(key) else { return false }
        switch command {
        case .up, .down, .pageUp, .pageDown: return false
        default: return true
        }
    }

    init(id: ViewID, placeholder: String, text: Binding<String>, isSecure: Bool, state: WidgetStateBox<TextEditState>,
         emit: EventEmitter<TextFieldEvent>, style: Style, placeholderStyle: Style, cursorStyle: Style) {
        self.focusID = id
        self.placeholder = placeholder
        self.text = text
        self.isSecure = isSecure
        self.state = state
        self.emit = emit
        self.style = style
        self.placeholderStyle = placeholderStyle
        self.cursorStyle = cursorStyle
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        // Greedy across: takes the width offered. Ideally the text and a cell for the cursor.
        let current = text.wrappedValue
        let textWidth = isSecure ? current.count : current.terminalWidth
        let ideal = max(textWidth + 1, placeholder.terminalWidth, 10)
        return Size(width: min(max(0, proposal.width ?? ideal), unboundedLength), height: proposal.height == 0 ? 0 : 1)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let row = Rect(x: frame.x, y: frame.y, width: frame.width, height: min(1, frame.height))
        let area = clip.intersection(row)
        guard !area.isEmpty else { return }
        state.value.sync(with: text.wrappedValue)
        canvas.fill(area, with: .blank(style))
        let buffer = state.value.buffer
        let cursorCell: Int, cursorWidth: Int
        if buffer.isEmpty {
            state.value.scrollX = 0
            drawTextRow(placeholder, scroll: 0, at: row.origin, width: row.width, style: placeholderStyle, in: &canvas, clip: area)
            (cursorCell, cursorWidth) = (0, placeholder.first.map { max(1, $0.terminalWidth) } ?? 1)
        } else {
            state.value.reveal = true
            state.value.scroll(toFit: Size(width: row.width, height: 1), masked: isSecure)
            let shown = buffer.displayCharacters(masked: isSecure)
            drawTextRow(shown, scroll: state.value.scrollX, at: row.origin, width: row.width, style: style, in: &canvas, clip: area)
            (cursorCell, cursorWidth) = (cellColumn(of: buffer.column, in: shown) - state.value.scrollX, cursorCells(at: buffer.column, in: shown))
        }
        guard isFocused, cursorCell >= 0, cursorCell < row.width else { return }
        let cursor = Rect(x: row.x + cursorCell, y: row.y, width: min(cursorWidth, row.width - cursorCell), height: 1)
        let look = cursorStyle
        canvas.restyle(cursor.intersection(area)) { $0 = look }
    }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard let command = TextEditCommand(key) else { return false }
        state.value.sync(with: text.wrappedValue)
        var b = state.value.buffer
        var changed = false
        switch command {
        case .insert(let c): changed = b.insert(String(c))
        case .left: b.moveLeft()
        case .right: b.moveRight()
        case .wordLeft: isSecure ? b.moveToLineStart() : b.moveWordLeft()
        case .wordRight: isSecure ? b.moveToLineEnd() : b.moveWordRight()
        case .lineStart, .bufferStart: b.moveToLineStart()
        case .lineEnd, .bufferEnd: b.moveToLineEnd()
        case .deleteBackward: changed = b.deleteBackward()
        case .deleteForward: changed = b.deleteForward()
        case .deleteWordBackward: changed = isSecure ? b.deleteToLineStart() : b.deleteWordBackward()
        case .deleteWordForward: changed = isSecure ? b.deleteToLineEnd() : b.deleteWordForward()
        case .deleteToLineStart: changed = b.deleteToLineStart()
        case .deleteToLineEnd: changed = b.deleteToLineEnd()
        case .enter:
            emit(.submitted(b.text))
            return true
        case .up, .down, .pageUp, .pageDown:
            return false
        }
        commit(b, changed: changed)
        return true
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        switch mouse.kind {
        case .press(.left), .drag(.left):
            state.value.sync(with: text.wrappedValue)
            var b = state.value.buffer
            let cell = max(0, mouse.position.x - frame.x + state.value.scrollX)
            b.column = graphemeIndex(atCell: cell, in: b.displayCharacters(masked: isSecure))
            commit(b, changed: false)
            return true
        default:
            return false
        }
    }

    func handlePaste(_ pasted: String) -> Bool {
        state.value.sync(with: text.wrappedValue)
        var b = state.value.buffer
        let changed = b.insert(sanitizedForInsertion(pasted, multiline: false))
        commit(b, changed: changed)
        return true
    }

    /// Keeps the edited buffer and, when the text changed, writes the binding and reports it.
    private func commit(_ buffer: TextBuffer, changed: Bool) {
        state.value.buffer = buffer
        guard changed else { return }
        let new = buffer.text
        state.value.source = new
        text.wrappedValue = new
        emit(.changed(new))
    }
}

extension View {
    /// Runs `action` when `Enter` is pressed in a text field inside this view (the field's
    /// `TextFieldEvent.submitted`), as SwiftUI's `onSubmit` does.
    ///
    /// ```swift
    /// TextField("New note", text: $draft)
    ///     .onSubmit { notes.append(draft); draft = "" }
    /// ```
    public func onSubmit(_ action: @escaping @MainActor () -> Void) -> EventHandlerView<Self, TextFieldEvent> {
        onEvent(TextFieldEvent.self) { event in
            if case .submitted = event { action() }
        }
    }
}
