import AppletState
import Terminal

/// What a `RadioGroup` sends when the user selects an option (a key or a click), with its index.
public enum RadioGroupEvent: Sendable, Equatable {
    case selected(Int)
}

/// One choice among several options, drawn `(•) One` for the selected option and `( ) Two` for
/// the others, one per row (`.vertical`) or side by side (`.horizontal`).
///
/// The whole group is one focusable widget. As in native radio groups, moving selects:
/// `↑`/`↓` or `k`/`j` (vertical), `←`/`→` or `h`/`l` (horizontal) move to the previous or next
/// option and select it, `Home`/`End` to the first or last; moves stop at the ends. `Space` or
/// `Enter` selects the highlighted option (useful when nothing is selected yet, e.g. a
/// selection of `-1`); a click selects the clicked option. The highlighted option's marker is
/// drawn in the theme's focus style while the group has focus. Keys along the other axis are
/// left to the host. A group too short or narrow for its options scrolls to keep the
/// highlighted one visible. Sends `RadioGroupEvent.selected(_:)` after updating `selection`,
/// only when the selection changes.
///
/// ```swift
/// @AppState(\.sortOrder) var order
/// RadioGroup(["Name", "Size", "Date"], selection: $order)
/// RadioGroup(["Low", "Medium", "High"], selection: $level, axis: .horizontal)
/// ```
public struct RadioGroup: View {
    public typealias Body = Never
    let options: [String]
    let selection: Binding<Int>
    let axis: Axis

    public init(_ options: [String], selection: Binding<Int>, axis: Axis = .vertical) {
        self.options = options
        self.selection = selection
        self.axis = axis
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        // With no options there is nothing to choose: nothing to focus either.
        nodes.append(options.isEmpty ? Node() : RadioGroupNode(options: options, selection: selection, axis: axis, context: context))
    }
}

final class RadioGroupNode: Node, FocusableNode {
    override var focusable: (any FocusableNode)? { self }
    /// Kept between frames: the highlighted option (the selected one when the selection is
    /// valid) and the first option shown when they do not all fit.
    struct State {
        var highlight = 0
        var first = 0
    }

    let focusID: ViewID
    let options: [String]
    let selection: Binding<Int>
    let axis: Axis
    let style: Style
    let focusStyle: Style
    let mutedStyle: Style
    let emit: EventEmitter<RadioGroupEvent>
    let state: WidgetStateBox<State>
    var isFocused = false
    /// The selected option, or nil when the selection is out of range.
    private let selected: Int?
    private let widths: [Int]
    private var strip = StripLayout()

    /// `(•)` then a space: the title starts four columns in.
    static let markerWidth = 3
    /// Columns between options side by side.
    static let gap = 2

    init(options: [String], selection: Binding<Int>, axis: Axis, context: ResolveContext) {
        self.focusID = context.id
        self.options = options
        self.selection = selection
        self.axis = axis
        self.style = context.style
        self.focusStyle = context.style(.focus)
        self.mutedStyle = context.style(.muted)
        self.emit = context.emitter(RadioGroupEvent.self)
        self.state = context.stateBox(State())
        let value = selection.wrappedValue
        self.selected = options.indices.contains(value) ? value : nil
        self.widths = options.map { Self.markerWidth + ($0.isEmpty ? 0 : 1 + $0.terminalWidth) }
        super.init()
        if let selected { state.value.highlight = selected }
        state.value.highlight = options.isEmpty ? 0 : min(max(0, state.value.highlight), options.count - 1)
    }

    private var highlight: Int { state.value.highlight }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let ideal: Size
        switch axis {
        case .vertical: ideal = Size(width: widths.max() ?? 0, height: options.count)
        case .horizontal: ideal = Size(width: widths.reduce(0, +) + Self.gap * max(0, options.count - 1), height: options.isEmpty ? 0 : 1)
        }
        return Size(width: min(ideal.width, max(0, proposal.width ?? ideal.width)),
                    height: min(ideal.height, max(0, proposal.height ?? ideal.height)))
    }

    override func place(in rect: Rect) {
        frame = rect
        guard !options.isEmpty else { return }
        switch axis {
        case .vertical:
            // Scroll only as far as needed to keep the highlighted option on screen.
            let rows = max(1, rect.height)
            var first = state.value.first
            if highlight < first { first = highlight }
            if highlight >= first + rows { first = highlight - rows + 1 }
            state.value.first = max(0, min(first, options.count - rows))
        case .horizontal:
            strip = StripLayout(widths: widths, gap: Self.gap, width: rect.width, keep: highlight, first: state.value.first)
            state.value.first = strip.first
        }
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty, !options.isEmpty else { return }
        switch axis {
        case .vertical:
            let first = state.value.first
            for index in first..<min(options.count, first + frame.height) {
                drawOption(index, at: Point(x: frame.x, y: frame.y + index - first), width: frame.width, in: &canvas, clip: area)
            }
        case .horizontal:
            if strip.hasLeadingMarker { canvas.put("…", at: frame.origin, style: mutedStyle, clip: area) }
            for item in strip.items {
                drawOption(item.index, at: Point(x: frame.x + item.offset, y: frame.y), width: item.width, in: &canvas, clip: area)
            }
            if let x = strip.trailingMarker { canvas.put("…", at: Point(x: frame.x + x, y: frame.y), style: mutedStyle, clip: area) }
        }
    }

    /// `(•) Title` in at most `width` columns.
    private func drawOption(_ index: Int, at p: Point, width: Int, in canvas: inout Canvas, clip: Rect) {
        let clip = clip.intersection(Rect(x: p.x, y: p.y, width: max(0, width), height: 1))
        guard !clip.isEmpty else { return }
        let marker = index == selected ? "(•)" : "( )"
        canvas.write(marker, at: p, style: isFocused && index == highlight ? focusStyle : style, clip: clip)
        let title = options[index]
        let room = width - Self.markerWidth - 1
        guard !title.isEmpty, room > 0 else { return }
        let shown = title.terminalWidth <= room ? title : title.truncated(toColumns: room, ellipsis: true)
        canvas.write(shown, at: Point(x: p.x + Self.markerWidth + 1, y: p.y), style: style, clip: clip)
    }

    /// Highlights and selects an option (clamped to the options).
    private func select(_ index: Int) {
        let target = min(max(0, index), options.count - 1)
        state.value.highlight = target
        guard target != selection.wrappedValue else { return }
        selection.wrappedValue = target
        emit(.selected(target))
    }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard !options.isEmpty, key.modifiers.isEmpty else { return false }
        let vertical = axis == .vertical
        switch key.code {
        case .up where vertical, .char("k") where vertical, .left where !vertical, .char("h") where !vertical:
            select(highlight - 1)
        case .down where vertical, .char("j") where vertical, .right where !vertical, .char("l") where !vertical:
            select(highlight + 1)
        case .home: select(0)
        case .end: select(options.count - 1)
        case .enter, .char(" "): select(highlight)
        default: return false
        }
        return true
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        guard case .press(.left) = mouse.kind, !options.isEmpty else { return false }
        switch axis {
        case .vertical:
            let index = state.value.first + mouse.position.y - frame.y
            guard options.indices.contains(index) else { return false }
            select(index)
        case .horizontal:
            let x = mouse.position.x - frame.x
            guard let item = strip.items.first(where: { x >= $0.offset && x < $0.offset + $0.width }) else { return false }
            select(item.index)
        }
        return true
    }
}
