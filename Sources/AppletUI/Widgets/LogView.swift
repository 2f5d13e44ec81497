import AppletState
import Terminal

/// What a `LogView` reports: following the tail was turned off (the user scrolled up) or on
/// again (`End`, or scrolled back to the bottom).
public enum LogViewEvent: Sendable, Equatable {
    case followChanged(Bool)
}

/// Lines of a log that follows the tail: it shows the last lines that fit and stays at the
/// bottom as lines arrive. Only the lines on screen are read, so a log of a million lines costs
/// what a screenful costs.
///
/// Scrolling up (`↑`/`k`, `PgUp`, `Home`/`g`, the wheel) stops following: the view stays on the
/// same lines as more arrive, and the bottom row says how many have arrived since, in the
/// theme's accent style: `↓ 12 new lines (End to follow)`. `End`/`G`, or scrolling back down to
/// the bottom (`↓`/`j`, `PgDn`, the wheel), follows again. Long lines are cut with `…` (no wrap);
/// control characters such as tabs are not drawn.
///
/// While it has focus, its right column (beside the lines, not the indicator row) is a scroll bar
/// whose thumb, in the theme's focus style, shows where the view is in the log; lines are cut
/// one column earlier meanwhile. A log one column wide has no room for the bar: the cells where
/// its thumb would be are drawn in the focus style instead. Directly inside a `Box`, the bar lies
/// on the box's right border (the border is the track, the thumb is drawn on it) and the lines
/// keep every column inside the box.
///
/// Whether it follows is the `follow` binding when given (so the applet can show or set it),
/// otherwise the view's own state, starting on. The log keeps whatever `lines` it is given:
/// capping the scrollback (keeping, say, the last 10,000 lines) is the data owner's job. Lines
/// are counted from the first, so when the owner drops old lines from the front, a view that is
/// not following shows the lines that move into its place.
///
/// ```swift
/// @AppState(\.buildLog) var log              // [String], capped by the code that appends
/// LogView(lines: log)
///
/// // A ring buffer or file index: lines are asked for only while on screen.
/// LogView(count: journal.count, follow: $following) { index in journal.line(index) }
///     .onEvent { (event: LogViewEvent) in
///         if case .followChanged(let on) = event { status = on ? "live" : "paused" }
///     }
/// ```
public struct LogView: View {
    public typealias Body = Never
    let count: Int
    let follow: Binding<Bool>?
    let line: @MainActor (Int) -> String

    /// A log of `lines`; `follow` (optional) holds whether it follows the tail.
    public init(lines: [String], follow: Binding<Bool>? = nil) {
        self.count = lines.count
        self.follow = follow
        self.line = { lines[$0] }
    }

    /// A log of `count` lines read with `line(index)`, only for the lines on screen.
    public init(count: Int, follow: Binding<Bool>? = nil, line: @escaping @MainActor (_ index: Int) -> String) {
        self.count = max(0, count)
        self.follow = follow
        self.line = line
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(LogViewNode(
            id: context.id, count: count, follow: follow, line: line, state: context.stateBox(LogViewState()),
            emit: context.emitter(LogViewEvent.self), style: context.style,
            indicatorStyle: context.style(.accent),
            barStyle: context.style(.border),
            focusStyle: context.style(.focus)))
    }
}

/// What a log view keeps between frames.
struct LogViewState {
    /// Whether it follows the tail (when there is no `follow` binding).
    var following = true
    /// The first line shown.
    var top = 0
    /// The number of lines when it last followed: lines after it are "new".
    var seen = 0
}

final class LogViewNode: Node, FocusableNode, BorderScrollBar {
    override var focusable: (any FocusableNode)? { self }
    let focusID: ViewID
    let count: Int
    let follow: Binding<Bool>?
    let line: @MainActor (Int) -> String
    let state: WidgetStateBox<LogViewState>
    let emit: EventEmitter<LogViewEvent>
    let style: Style
    let indicatorStyle: Style
    let barStyle: Style
    let focusStyle: Style
    var isFocused = false
    var barAxis: Axis { .vertical }
    /// Set by a `Box` around it: the last column is the box's border, for the bar only.
    var barOnBorder = false
    /// The columns for text and the indicator: all but the border column when on a box's border.
    private var contentWidth: Int { max(0, frame.width - (barOnBorder ? 1 : 0)) }

    init(id: ViewID, count: Int, follow: Binding<Bool>?, line: @escaping @MainActor (Int) -> String,
         state: WidgetStateBox<LogViewState>, emit: EventEmitter<LogViewEvent>, style: Style, indicatorStyle: Style,
         barStyle: Style, focusStyle: Style) {
        self.focusID = id
        self.count = count
        self.follow = follow
        self.line = line
        self.state = state
        self.emit = emit
        self.style = style
        self.indicatorStyle = indicatorStyle
        self.barStyle = barStyle
        self.focusStyle = focusStyle
    }

    private var isFollowing: Bool { follow?.wrappedValue ?? state.value.following }

    private func setFollowing(_ on: Bool) {
        guard on != isFollowing else { return }
        if let follow { follow.wrappedValue = on } else { state.value.following = on }
        if on { state.value.seen = count }
        emit(.followChanged(on))
    }

    /// Rows of lines: all of them while following; one fewer when the indicator is shown
    /// (unless there is only one row).
    private func lineRows(following: Bool) -> Int {
        following || frame.height < 2 ? max(0, frame.height) : frame.height - 1
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        // Greedy like List: ideally 40 columns and up to 10 rows.
        Size(width: min(max(0, proposal.width ?? 40), unboundedLength),
             height: min(max(0, proposal.height ?? min(count, 10)), unboundedLength))
    }

    override func place(in rect: Rect) {
        frame = rect
        if isFollowing {
            state.value.top = max(0, count - rect.height)
            state.value.seen = count
        } else {
            state.value.top = max(0, min(state.value.top, count - lineRows(following: false)))
        }
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        let following = isFollowing
        let top = state.value.top
        let rows = lineRows(following: following)
        // The focus bar takes the right column (when there is a column left for text), or lies
        // on the box's border.
        let showsBar = isFocused && frame.width >= 2
        let room = barOnBorder ? contentWidth : frame.width - (showsBar ? 1 : 0)
        let textArea = Rect(x: frame.minX, y: frame.minY, width: room, height: frame.height).intersection(area)
        if showsBar { drawBar(rows: rows, top: top, in: &canvas, clip: area) }
        for i in 0..<rows {
            let index = top + i
            guard index < count else { break }
            let text = line(index)
            let shown = text.terminalWidth <= room ? text : text.truncated(toColumns: room, ellipsis: true)
            canvas.write(shown, at: Point(x: frame.minX, y: frame.minY + i), style: style, clip: textArea)
        }
        if isFocused, !showsBar {
            // One column: no room for the bar, so the thumb's cells are drawn in the focus style.
            let (start, length) = scrollThumb(track: rows, content: count, offset: top)
            let look = focusStyle
            canvas.restyle(Rect(x: frame.minX + room - 1, y: frame.minY + start, width: 1, height: length).intersection(area)) { $0 = look }
        }
        if !following, frame.height >= 2 {
            let fresh = max(0, count - state.value.seen)
            let text: String
            switch fresh {
            case 0: text = "↓ paused (End to follow)"
            case 1: text = "↓ 1 new line (End to follow)"
            default: text = "↓ \(fresh) new lines (End to follow)"
            }
            let y = frame.maxY - 1
            let width = contentWidth
            canvas.fill(Rect(x: frame.minX, y: y, width: width, height: 1).intersection(area), with: .blank(indicatorStyle))
            let shown = text.terminalWidth <= width ? text : text.truncated(toColumns: width, ellipsis: true)
            canvas.write(shown, at: Point(x: frame.minX, y: y), style: indicatorStyle, clip: area)
        }
    }

    /// The scroll bar beside the line rows: `┃` for the part of the log on screen, in the focus
    /// style, over a `│` track.
    private func drawBar(rows: Int, top: Int, in canvas: inout Canvas, clip: Rect) {
        let (start, length) = scrollThumb(track: rows, content: count, offset: top)
        let x = frame.maxX - 1
        for i in 0..<rows {
            let isThumb = i >= start && i < start + length
            // On a box's border the border itself is the track.
            if barOnBorder, !isThumb { continue }
            canvas.put(isThumb ? "┃" : "│", at: Point(x: x, y: frame.minY + i), style: isThumb ? focusStyle : barStyle, clip: clip)
        }
    }

    // MARK: Copy

    var hasCopyableText: Bool { count > 0 && frame.height > 0 }

    /// The lines on screen (a log has no selection of its own): what the user is looking at.
    var copyableText: String? {
        guard hasCopyableText else { return nil }
        let top = state.value.top
        let rows = lineRows(following: isFollowing)
        let shown = top..<min(count, top + max(1, rows))
        guard !shown.isEmpty else { return nil }
        return shown.map { line($0) }.joined(separator: "\n")
    }

    // MARK: Input

    /// Scrolls by `delta` lines (negative: up). Scrolling up stops following; reaching the
    /// bottom follows again.
    private func scroll(by delta: Int) {
        if isFollowing {
            // Nothing above the screen: nothing to scroll to, keep following.
            guard delta < 0, count > frame.height else { return }
            state.value.top = max(0, state.value.top + delta)
            setFollowing(false)
        } else {
            let top = state.value.top + delta
            if top + lineRows(following: false) >= count {
                setFollowing(true)
                state.value.top = max(0, count - frame.height)
            } else {
                state.value.top = max(0, top)
            }
        }
    }

    private var page: Int { max(1, lineRows(following: false)) }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard key.modifiers.subtracting(.shift).isEmpty else { return false }
        switch key.code {
        case .up, .char("k"): scroll(by: -1)
        case .down, .char("j"): scroll(by: 1)
        case .pageUp: scroll(by: -page)
        case .pageDown: scroll(by: page)
        case .home, .char("g"):
            guard count > frame.height || !isFollowing else { break }
            state.value.top = 0
            setFollowing(false)
        case .end, .char("G"):
            setFollowing(true)
            state.value.top = max(0, count - frame.height)
        default:
            return false
        }
        return true
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        switch mouse.kind {
        case .scrollUp: scroll(by: -3)
        case .scrollDown: scroll(by: 3)
        default: return false
        }
        return true
    }
}
