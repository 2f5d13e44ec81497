import AppletState
import Terminal

/// Where children sit across a stack's axis.
public enum StackAlignment: Sendable { case start, center, end }

/// Children top to bottom, with `spacing` empty rows between them.
///
/// ```swift
/// VStack(spacing: 1) {
///     Text("Title").bold()
///     Text("Body")
/// }
/// ```
public struct VStack<Content: View>: View {
    public typealias Body = Never
    let spacing: Int
    let alignment: StackAlignment
    let content: Content

    public init(alignment: StackAlignment = .start, spacing: Int = 0, @ViewBuilder content: () -> Content) {
        self.spacing = spacing
        self.alignment = alignment
        self.content = content()
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(StackNode.make(.vertical, spacing, alignment, content, context))
    }
}

/// Children left to right, with `spacing` empty columns between them.
///
/// ```swift
/// HStack(spacing: 2) {
///     Text("Name")
///     Spacer()
///     Text("42")
/// }
/// ```
public struct HStack<Content: View>: View {
    public typealias Body = Never
    let spacing: Int
    let alignment: StackAlignment
    let content: Content

    public init(alignment: StackAlignment = .start, spacing: Int = 0, @ViewBuilder content: () -> Content) {
        self.spacing = spacing
        self.alignment = alignment
        self.content = content()
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(StackNode.make(.horizontal, spacing, alignment, content, context))
    }
}

/// Lays children out along an axis. Space is shared out least-flexible child first, so fixed
/// content gets what it needs and spacers and lists take what is left (SwiftUI's rule).
final class StackNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let axis: Axis
    let spacing: Int
    let alignment: StackAlignment
    let items: [Node]

    init(axis: Axis, spacing: Int, alignment: StackAlignment, children: [Node]) {
        self.axis = axis
        self.spacing = max(0, spacing)
        self.alignment = alignment
        self.items = children
    }

    static func make<Content: View>(_ axis: Axis, _ spacing: Int, _ alignment: StackAlignment, _ content: Content, _ context: ResolveContext) -> StackNode {
        var inner = context
        inner.axis = axis
        var children: [Node] = []
        content._makeNodes(inner, into: &children)
        return StackNode(axis: axis, spacing: spacing, alignment: alignment, children: children)
    }

    override var children: [Node] { items }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let layout = layout(proposal)
        var total = spacing(between: layout.shown), widest = 0
        for m in layout.main { total += m }
        for c in layout.cross where c > widest { widest = c }
        return Size.make(axis, main: total, cross: widest)
    }

    private func spacing(between count: Int) -> Int { count == 0 ? 0 : spacing * (count - 1) }
    private var totalSpacing: Int { spacing(between: items.count) }

    /// Main-axis and cross-axis lengths of every child, and how many children (from the first)
    /// are shown: when even one row (column) each does not fit, the last children are left out,
    /// with the spacing before them, rather than squeezing the first ones to nothing.
    private struct Layout {
        var main: [Int]
        var cross: [Int]
        var shown: Int
    }

    /// The last layout computed: `place` asks for the one `sizeThatFits` just did.
    private var lastLayout: (proposal: ProposedSize, layout: Layout)?

    private func layout(_ proposal: ProposedSize) -> Layout {
        if let last = lastLayout, last.proposal == proposal { return last.layout }
        let result = computeLayout(proposal)
        lastLayout = (proposal, result)
        return result
    }

    private func computeLayout(_ proposal: ProposedSize) -> Layout {
        let crossProposal = proposal.across(axis)
        var main = Array(repeating: 0, count: items.count)
        var cross = Array(repeating: 0, count: items.count)
        guard let available = proposal.along(axis) else {
            for (i, child) in items.enumerated() {
                let s = child.measure(.make(axis, main: nil, cross: crossProposal))
                main[i] = s.along(axis)
                cross[i] = s.across(axis)
            }
            return Layout(main: main, cross: cross, shown: items.count)
        }
        // The usual case: every child fits at its largest. Each gets that and the spacers share
        // what is left, with one measurement per child.
        var total = totalSpacing
        var fits = true
        for (i, child) in items.enumerated() where !child.isSpacer {
            let s = child.measure(.make(axis, main: unboundedLength, cross: crossProposal))
            main[i] = s.along(axis)
            cross[i] = s.across(axis)
            total += main[i]
            if total > available { fits = false; break }
        }
        if fits {
            var left = available - total
            var spacersLeft = 0
            for item in items where item.isSpacer { spacersLeft += 1 }
            for (i, child) in items.enumerated() where child.isSpacer {
                let s = child.measure(.make(axis, main: left / spacersLeft, cross: crossProposal))
                main[i] = min(s.along(axis), left)
                cross[i] = s.across(axis)
                left -= main[i]
                spacersLeft -= 1
            }
            return Layout(main: main, cross: cross, shown: items.count)
        }
        // Least flexible first; spacers always last so they get only what is left over.
        var order: [(index: Int, flexibility: Int)] = []
        order.reserveCapacity(items.count)
        var shown = 0, needed = 0
        for (i, child) in items.enumerated() {
            if child.isSpacer { order.append((i, Int.max)); continue }
            let smallest = child.measure(.make(axis, main: 0, cross: crossProposal)).along(axis)
            let largest = child.measure(.make(axis, main: unboundedLength, cross: crossProposal)).along(axis)
            order.append((i, largest - smallest))
        }
        // The children that get a row at least (or their smallest length), in order: the rest are
        // cut, as a screen cuts what is below its last row.
        for child in items {
            let least = child.isSpacer || child.measure(.make(axis, main: unboundedLength, cross: crossProposal)).along(axis) == 0 ? 0 : 1
            let more = least + (shown > 0 ? spacing : 0)
            if needed + more > available, shown > 0 { break }
            needed += more
            shown += 1
        }
        order.removeAll { $0.index >= shown }
        Self.sortByFlexibility(&order)
        var remaining = max(0, available - spacing(between: shown))
        // Content shares the space first; spacers then split what is left between them.
        var contentLeft = 0
        for item in items.prefix(shown) where !item.isSpacer { contentLeft += 1 }
        var spacersLeft = shown - contentLeft
        for entry in order {
            let isSpacer = items[entry.index].isSpacer
            // Content rounds its share up, so when not everything fits the earlier children keep
            // their rows and the last ones are cut (a title is never dropped for a footnote).
            // and every shown child keeps a row for itself until it is served.
            let reserved = isSpacer ? 0 : contentLeft - 1
            let share = isSpacer ? remaining / max(1, spacersLeft)
                : min((remaining + max(1, contentLeft) - 1) / max(1, contentLeft), max(0, remaining - reserved))
            let s = items[entry.index].measure(.make(axis, main: share, cross: crossProposal))
            let length = min(s.along(axis), max(0, remaining - reserved))
            main[entry.index] = length
            cross[entry.index] = s.across(axis)
            remaining -= length
            if isSpacer { spacersLeft -= 1 } else { contentLeft -= 1 }
        }
        return Layout(main: main, cross: cross, shown: shown)
    }

    /// Stable insertion sort, least flexible first (a handful of children; no closures, so no
    /// per-comparison actor checks).
    private nonisolated static func sortByFlexibility(_ order: inout [(index: Int, flexibility: Int)]) {
        guard order.count > 1 else { return }
        for i in 1..<order.count {
            let entry = order[i]
            var j = i - 1
            while j >= 0, order[j].flexibility > entry.flexibility {
                order[j + 1] = order[j]
                j -= 1
            }
            order[j + 1] = entry
        }
    }

    override func place(in rect: Rect) {
        frame = rect
        let layout = layout(ProposedSize(rect.size))
        let (main, cross) = (layout.main, layout.cross)
        var offset = axis == .horizontal ? rect.x : rect.y
        let crossAvailable = rect.size.across(axis)
        for (i, child) in items.enumerated() {
            guard i < layout.shown else {
                // Cut: nothing, at the end of the stack.
                child.place(in: Rect(origin: axis == .horizontal ? Point(x: rect.maxX, y: rect.y) : Point(x: rect.x, y: rect.maxY), size: .zero))
                continue
            }
            // The layout measured each child at (or above) the length it got: its cross length
            // from then holds.
            let crossLength = min(cross[i], crossAvailable)
            let crossStart: Int
            switch alignment {
            case .start: crossStart = 0
            case .center: crossStart = (crossAvailable - crossLength) / 2
            case .end: crossStart = crossAvailable - crossLength
            }
            if axis == .horizontal {
                child.place(in: Rect(x: offset, y: rect.y + crossStart, width: main[i], height: crossLength))
            } else {
                child.place(in: Rect(x: rect.x + crossStart, y: offset, width: crossLength, height: main[i]))
            }
            offset += main[i] + spacing
        }
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        for child in items where !child.frame.isEmpty {
            child.draw(in: &canvas, clip: area)
        }
    }
}

/// Flexible empty space: in a stack it takes whatever the other children leave.
///
/// ```swift
/// HStack { Text("left"); Spacer(); Text("right") }
/// ```
public struct Spacer: View {
    public typealias Body = Never
    let minLength: Int
    public init(minLength: Int = 0) { self.minLength = max(0, minLength) }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(SpacerNode(axis: context.axis ?? .vertical, minLength: minLength))
    }
}

final class SpacerNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let axis: Axis
    let minLength: Int
    init(axis: Axis, minLength: Int) { self.axis = axis; self.minLength = minLength }
    override var isSpacer: Bool { true }
    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let main = max(minLength, proposal.along(axis) ?? minLength)
        return Size.make(axis, main: main, cross: 0)
    }
}

/// A thin line across a stack: horizontal in a `VStack`, vertical in an `HStack`.
///
/// ```swift
/// VStack { Text("Above"); Divider(); Text("Below") }
/// ```
public struct Divider: View {
    public typealias Body = Never
    public init() {}
    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var style = context.style
        if style.foreground == .default { style.attributes.insert(.dim) }
        // A divider runs across its stack's axis.
        nodes.append(DividerNode(lineAxis: context.axis == .horizontal ? .vertical : .horizontal, style: style))
    }
}

final class DividerNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let lineAxis: Axis
    let style: Style
    init(lineAxis: Axis, style: Style) { self.lineAxis = lineAxis; self.style = style }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let along = proposal.along(lineAxis) ?? 1
        return Size.make(lineAxis, main: min(along, unboundedLength), cross: 1)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        canvas.fill(area, with: Cell(lineAxis == .horizontal ? "─" : "│", style: style))
    }
}
