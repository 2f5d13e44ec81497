import AppletState
import Terminal

/// What a `SplitView` reports: the user moved the divider; the new ratio (already written to
/// the binding).
public enum SplitViewEvent: Sendable, Equatable {
    case resized(Double)
}

/// Two panes side by side (`.horizontal`, divided by `│`) or one above the other (`.vertical`,
/// divided by `─`), sharing the space by `ratio`: the first pane's fraction of the space less
/// the one-cell divider. Each pane keeps at least `minimum` cells while there is room for both.
/// A split view takes all the space it is offered.
///
/// The divider takes focus (between the two panes in focus order) and is drawn in the theme's
/// focus style while it has it. With focus, `←`/`→` or `h`/`l` (`↑`/`↓` or `k`/`j` in a
/// vertical split) move it by one cell, and `=` puts it back in the middle; the ratio binding
/// is updated so the new ratio gives exactly that length. A click on the divider focuses it;
/// a drag (`.drag(.left)`) sent to it moves it to the pointer. A `ratio` that is NaN or
/// outside `0...1` is treated as 0.5 or clamped.
///
/// A pane with nothing in it (its views are all hidden widgets, or an `if` left it empty) takes
/// no space: the other pane has the whole split, without a divider, and the ratio is kept for
/// when the pane comes back.
///
/// ```swift
/// @AppState(\.sidebarRatio) var ratio     // a Double, 0.3 say
/// SplitView(.horizontal, ratio: $ratio, minimum: 10) {
///     List(count: folders.count, selection: $folder) { Text(folders[$0]) }
/// } second: {
///     Text(preview)
/// }
/// .onEvent { (event: SplitViewEvent) in log("resized to \(event)") }
/// ```
public struct SplitView<First: View, Second: View>: View {
    public typealias Body = Never
    let axis: Axis
    let ratio: Binding<Double>
    let minimum: Int
    let first: First
    let second: Second

    /// - Parameters:
    ///   - axis: `.horizontal` puts the panes left and right, `.vertical` top and bottom.
    ///   - ratio: the first pane's share of the space, `0...1`.
    ///   - minimum: the fewest cells either pane keeps when there is room (at least 0).
    public init(_ axis: Axis = .horizontal, ratio: Binding<Double>, minimum: Int = 1,
                @ViewBuilder first: () -> First, @ViewBuilder second: () -> Second) {
        self.axis = axis
        self.ratio = ratio
        self.minimum = max(0, minimum)
        self.first = first()
        self.second = second()
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var inner = context
        inner.axis = nil
        var firstNodes: [Node] = [], secondNodes: [Node] = []
        first._makeNodes(inner.child(0), into: &firstNodes)
        second._makeNodes(inner.child(1), into: &secondNodes)
        func single(_ nodes: [Node]) -> Node {
            nodes.count == 1 ? nodes[0] : StackNode(axis: .vertical, spacing: 0, alignment: .start, children: nodes)
        }
        // A pane of nothing (hidden widgets only) takes no space: the other has the whole split.
        let shown: SplitNode.Shown = firstNodes.isEmpty ? (secondNodes.isEmpty ? .both : .second)
                                                        : (secondNodes.isEmpty ? .first : .both)
        var style = context.style(.border)
        if context.isDisabled { style = context.style(.disabled) }
        let divider = SplitDividerNode(id: context.id, axis: axis, ratio: ratio, minimum: minimum,
                                       style: style, focusStyle: context.style(.focus),
                                       emit: context.emitter(SplitViewEvent.self))
        nodes.append(SplitNode(axis: axis, first: single(firstNodes), divider: divider, second: single(secondNodes), shown: shown))
    }
}

/// How a split of `length` cells along the axis is shared: the first pane's length and the
/// space for both panes (the length less the divider).
struct SplitGeometry: Equatable {
    let available: Int
    let minimum: Int

    init(length: Int, minimum: Int) {
        self.available = max(0, length - 1)
        self.minimum = minimum
    }

    /// The range the first pane's length may take: each side keeps `minimum` where possible.
    var firstRange: ClosedRange<Int> {
        let lo = min(minimum, available)
        return lo...max(lo, available - minimum)
    }

    static func sanitized(_ ratio: Double) -> Double {
        ratio.isNaN ? 0.5 : min(1, max(0, ratio))
    }

    func firstLength(ratio: Double) -> Int {
        let wanted = Int((Self.sanitized(ratio) * Double(available)).rounded())
        return min(max(wanted, firstRange.lowerBound), firstRange.upperBound)
    }

    /// The ratio that gives exactly `first` cells (clamped to the allowed range).
    func ratio(forFirst first: Int) -> Double {
        guard available > 0 else { return 0.5 }
        let f = min(max(first, firstRange.lowerBound), firstRange.upperBound)
        return Double(f) / Double(available)
    }
}

final class SplitNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    /// Which panes take space: both, or only one when the other has nothing in it.
    enum Shown { case both, first, second }
    let axis: Axis
    let first: Node
    let divider: SplitDividerNode
    let second: Node
    let shown: Shown

    init(axis: Axis, first: Node, divider: SplitDividerNode, second: Node, shown: Shown = .both) {
        self.axis = axis
        self.first = first
        self.divider = divider
        self.second = second
        self.shown = shown
    }

    /// The one pane shown when the other is empty.
    private var alone: Node? {
        switch shown {
        case .both: nil
        case .first: first
        case .second: second
        }
    }

    override var children: [Node] { alone.map { [$0] } ?? [first, divider, second] }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        // Greedy: the whole offer. Ideally both panes at their ideal lengths plus the divider.
        let a = first.measure(.make(axis, main: nil, cross: proposal.across(axis)))
        let b = second.measure(.make(axis, main: nil, cross: proposal.across(axis)))
        let ideal: (main: Int, cross: Int)
        switch shown {
        case .both: ideal = (a.along(axis) + 1 + b.along(axis), max(a.across(axis), b.across(axis), 1))
        case .first: ideal = (a.along(axis), a.across(axis))
        case .second: ideal = (b.along(axis), b.across(axis))
        }
        let main = proposal.along(axis) ?? ideal.main
        let cross = proposal.across(axis) ?? ideal.cross
        return Size.make(axis, main: min(max(0, main), unboundedLength), cross: min(max(0, cross), unboundedLength))
    }

    override func place(in rect: Rect) {
        frame = rect
        if let alone {
            // The empty pane and the divider take nothing (the divider keeps no focus).
            let nowhere = Rect(origin: rect.origin, size: .zero)
            divider.place(in: nowhere)
            (alone === first ? second : first).place(in: nowhere)
            alone.place(in: rect)
            return
        }
        let length = rect.size.along(axis), cross = rect.size.across(axis)
        let geometry = SplitGeometry(length: length, minimum: divider.minimum)
        let firstLength = geometry.firstLength(ratio: divider.ratio.wrappedValue)
        let secondLength = geometry.available - firstLength
        let start = axis == .horizontal ? rect.x : rect.y
        func slice(_ offset: Int, _ main: Int) -> Rect {
            let s = Size.make(axis, main: max(0, main), cross: cross)
            return axis == .horizontal ? Rect(x: start + offset, y: rect.y, width: s.width, height: s.height)
                                       : Rect(x: rect.x, y: start + offset, width: s.width, height: s.height)
        }
        divider.geometry = geometry
        divider.firstLength = firstLength
        divider.origin = start
        first.place(in: slice(0, firstLength))
        divider.place(in: slice(firstLength, length > 0 ? 1 : 0))
        second.place(in: slice(firstLength + 1, secondLength))
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        for pane in children where !pane.frame.intersection(area).isEmpty {
            pane.draw(in: &canvas, clip: area)
        }
    }
}

/// The line between a split view's panes: it takes focus, and keys and drags move it.
final class SplitDividerNode: Node, FocusableNode {
    override var focusable: (any FocusableNode)? { self }
    let focusID: ViewID
    let axis: Axis
    let ratio: Binding<Double>
    let minimum: Int
    let style: Style
    let focusStyle: Style
    let emit: EventEmitter<SplitViewEvent>
    var isFocused = false
    /// Set by the split view when it places the panes.
    var geometry = SplitGeometry(length: 0, minimum: 0)
    var firstLength = 0
    /// Where the split view starts along its axis (for drags).
    var origin = 0

    init(id: ViewID, axis: Axis, ratio: Binding<Double>, minimum: Int, style: Style, focusStyle: Style,
         emit: EventEmitter<SplitViewEvent>) {
        self.focusID = id
        self.axis = axis
        self.ratio = ratio
        self.minimum = minimum
        self.style = style
        self.focusStyle = focusStyle
        self.emit = emit
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size.make(axis, main: 1, cross: min(proposal.across(axis) ?? 1, unboundedLength))
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        let line: Character = axis == .horizontal ? "│" : "─"
        let s = isFocused ? focusStyle : style
        for y in area.minY..<area.maxY {
            for x in area.minX..<area.maxX { canvas.put(line, at: Point(x: x, y: y), style: s, clip: area) }
        }
    }

    /// Moves the divider so the first pane is `first` cells long; false if nothing changed.
    @discardableResult
    private func move(toFirst first: Int) -> Bool {
        guard geometry.available > 0 else { return false }
        let clamped = min(max(first, geometry.firstRange.lowerBound), geometry.firstRange.upperBound)
        guard clamped != firstLength else { return false }
        setRatio(geometry.ratio(forFirst: clamped))
        firstLength = clamped
        return true
    }

    private func setRatio(_ value: Double) {
        guard value != ratio.wrappedValue else { return }
        ratio.wrappedValue = value
        emit(.resized(value))
    }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard key.modifiers.subtracting(.shift).isEmpty else { return false }
        let horizontal = axis == .horizontal
        switch key.code {
        case .left where horizontal, .char("h") where horizontal, .up where !horizontal, .char("k") where !horizontal:
            move(toFirst: firstLength - 1)
        case .right where horizontal, .char("l") where horizontal, .down where !horizontal, .char("j") where !horizontal:
            move(toFirst: firstLength + 1)
        case .char("="):
            setRatio(0.5)
            firstLength = geometry.firstLength(ratio: 0.5)
        default:
            return false
        }
        return true
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        switch mouse.kind {
        case .press(.left):
            return true          // the tree has focused the divider
        case .drag(.left):
            let pointer = axis == .horizontal ? mouse.position.x : mouse.position.y
            move(toFirst: pointer - origin)
            return true
        default:
            return false
        }
    }
}
