import AppletState
import Terminal

/// How a widget appears and disappears when its state changes between visible and hidden.
///
/// Transitions run on the host's frame clock (about 30 frames a second, only while one is
/// running) and are off under `--no-animation` and in tests, where state changes show at once.
public struct WidgetTransition: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No animation.
        case none
        /// Rows are revealed top down (and taken away bottom up), drawn dim until complete.
        case reveal
        /// Drawn dim for the duration, then shown (or removed).
        case fade
    }
    public var kind: Kind
    public var duration: Duration

    public static let none = WidgetTransition(kind: .none, duration: .zero)
    public static let reveal = WidgetTransition(kind: .reveal, duration: .milliseconds(180))
    public static let fade = WidgetTransition(kind: .fade, duration: .milliseconds(150))

    public static func reveal(_ duration: Duration) -> WidgetTransition { WidgetTransition(kind: .reveal, duration: duration) }
    public static func fade(_ duration: Duration) -> WidgetTransition { WidgetTransition(kind: .fade, duration: duration) }

    /// A reveal lasting `duration`: `.reveal(duration: .milliseconds(300))`.
    public static func reveal(duration: Duration) -> WidgetTransition { .reveal(duration) }
    /// A fade lasting `duration`: `.fade(duration: .milliseconds(300))`.
    public static func fade(duration: Duration) -> WidgetTransition { .fade(duration) }
    /// A reveal lasting `seconds`: `.reveal(duration: 0.3)`.
    public static func reveal(duration seconds: Double) -> WidgetTransition { .reveal(.seconds(seconds)) }
    /// A fade lasting `seconds`: `.fade(duration: 0.3)`. A terminal cell has no opacity: a fading
    /// widget is drawn dim (and takes no input) for the duration, then shown or removed.
    public static func fade(duration seconds: Double) -> WidgetTransition { .fade(.seconds(seconds)) }
}

extension View {
    /// Gives this view a widget id in `manager`: its state there (visible, hidden, disabled)
    /// decides whether it is drawn and takes input, and the events of the widgets inside go to the
    /// manager's subscribers for `id`. An id the manager does not know counts as visible.
    ///
    /// ```swift
    /// Toggle("Wrap lines", isOn: $wrap).widget("wrap", in: .editor, transition: .fade)
    /// ```
    public func widget(_ id: String, in manager: WidgetManager, transition: WidgetTransition = .none) -> ManagedWidget<Self> {
        ManagedWidget(content: self, id: id, manager: manager, transition: transition)
    }

    /// Disables this view when `disabled` is true: drawn dimmed, skipped by focus, no keys or clicks.
    ///
    /// ```swift
    /// Button("Save") { save() }.disabled(!isDirty)
    /// ```
    public func disabled(_ disabled: Bool = true) -> DisabledView<Self> { DisabledView(content: self, isDisabled: disabled) }

    /// Calls `handler` for every event of type `Event` sent by the widgets inside this view.
    ///
    /// ```swift
    /// TextField("Name", text: $name)
    ///     .onEvent { (event: TextFieldEvent) in
    ///         if case .submitted(let name) = event { greet(name) }
    ///     }
    /// ```
    public func onEvent<Event: Sendable>(_ type: Event.Type = Event.self, _ handler: @escaping @MainActor (Event) -> Void) -> EventHandlerView<Self, Event> {
        EventHandlerView(content: self, handler: handler)
    }
}

/// A view with an event handler (see `View.onEvent`).
public struct EventHandlerView<Content: View, Event: Sendable>: View {
    public typealias Body = Never
    let content: Content
    let handler: @MainActor (Event) -> Void

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var inner = context
        let key = ObjectIdentifier(Event.self)
        if let outer = context.eventHandlers[key] as? @MainActor (Event) -> Void {
            let own = handler
            inner.eventHandlers[key] = { (event: Event) in own(event); outer(event) } as @MainActor (Event) -> Void
        } else {
            inner.eventHandlers[key] = handler
        }
        content._makeNodes(inner, into: &nodes)
    }
}

/// A view that may be disabled (see `View.disabled`).
public struct DisabledView<Content: View>: View {
    public typealias Body = Never
    let content: Content
    let isDisabled: Bool

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        guard isDisabled, !context.isDisabled else { content._makeNodes(context, into: &nodes); return }
        var inner = context
        inner.isDisabled = true
        nodes.append(DisabledNode(child: content.makeSingleNode(inner), style: context.theme[.disabled]))
    }
}

/// A view tagged with a widget id (see `View.widget(_:in:transition:)`).
public struct ManagedWidget<Content: View>: View {
    public typealias Body = Never
    let content: Content
    let id: String
    let manager: WidgetManager
    let transition: WidgetTransition

    /// What the tree remembers per widget: the state last drawn and a running transition.
    struct Presence {
        var shown: WidgetState?
        var from: WidgetState = .visible
        var start: ContinuousClock.Instant?
        var transition: WidgetTransition = .none
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        let state = manager.states.value[id] ?? .visible
        var inner = context
        inner.widget = (id, manager)
        let tree = context.tree
        var progress = 1.0       // how far the transition is (1: done)
        var appearing = true
        var running = transition
        // A row of a grid keeps the widths its cells had when last shown, so that hiding it
        // leaves the grid's columns (and the rows that stay) where they were.
        let columns = context.isGridRow
            ? tree.stateBox(for: context.id.child("AppletUI.ManagedWidget.columns"), initial: [Int]())
            : nil
        if tree.animationsEnabled {
            // Under an id of its own: the content may keep state under the context's id.
            let presence = tree.stateBox(for: context.id.child("AppletUI.ManagedWidget.presence"), initial: Presence())
            let wasHidden = presence.value.shown == .hidden
            let isHidden = state == .hidden
            if let shown = presence.value.shown, wasHidden != isHidden {
                // The transition the change asked for (`hide(_:transition:)`), else the view's.
                let chosen = manager.requestedTransition(for: id, to: state) ?? transition
                if chosen.kind == .none || chosen.duration <= .zero {
                    presence.value.start = nil
                } else {
                    presence.value.from = shown
                    presence.value.start = tree.frameTime
                    presence.value.transition = chosen
                }
            }
            presence.value.shown = state
            if let start = presence.value.start {
                running = presence.value.transition
                let elapsed = tree.frameTime - start
                if elapsed >= running.duration {
                    presence.value.start = nil
                } else {
                    progress = max(0, min(1, elapsed / running.duration))
                    appearing = !isHidden
                    tree.requestAnimationFrame()
                }
            }
            // Mid-way through hiding, the widget is still drawn as it was before.
            if isHidden, progress < 1 {
                let before = presence.value.from
                return appendTransitioning(before, inner, running, progress: 1 - progress, into: &nodes)
            }
        }
        if state == .hidden {
            if let columns, !columns.value.isEmpty { nodes.append(HiddenGridRowNode(columnWidths: columns.value)) }
            return
        }
        if progress < 1, appearing { return appendTransitioning(state, inner, running, progress: progress, into: &nodes) }
        let start = nodes.count
        if state == .disabled {
            DisabledView(content: content, isDisabled: true)._makeNodes(inner, into: &nodes)
        } else {
            content._makeNodes(inner, into: &nodes)
        }
        if let columns, nodes.count == start + 1, let row = Self.gridRow(nodes[start]) {
            columns.value = row.cells.map { min($0.measure(.ideal).width, unboundedLength) }
        }
    }

    /// The grid row a widget's node is, plain or disabled.
    private static func gridRow(_ node: Node) -> GridRowNode? {
        (node as? GridRowNode) ?? ((node as? DisabledNode)?.child as? GridRowNode)
    }

    /// A widget part-way in or out: `progress` is how much of it shows (0 to 1).
    private func appendTransitioning(_ state: WidgetState, _ context: ResolveContext, _ transition: WidgetTransition,
                                     progress: Double, into nodes: inout [Node]) {
        var inner = context
        inner.isDisabled = true   // no focus or input while it moves
        let child = content.makeSingleNode(inner)
        let revealed = transition.kind == .reveal ? progress : 1
        nodes.append(TransitionNode(child: child, revealed: revealed, style: context.theme[.disabled]))
    }
}

/// Draws its child dimmed and keeps it out of focus and input.
class DisabledNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let child: Node
    let style: Style
    init(child: Node, style: Style) { self.child = child; self.style = style }
    override var children: [Node] { [child] }
    override var isSpacer: Bool { child.isSpacer }
    override func sizeThatFits(_ proposal: ProposedSize) -> Size { child.measure(proposal) }
    override func place(in rect: Rect) { frame = rect; child.place(in: rect) }
    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        child.draw(in: &canvas, clip: area)
        let dim = style
        canvas.restyle(area) { s in
            s.attributes.insert(.dim)
            s.attributes.remove(.reverse)
            s.attributes.remove(.bold)
            if dim.foreground != .default { s.foreground = dim.foreground }
        }
    }
}

/// A widget mid-transition: only the top `revealed` fraction of its rows takes space and shows,
/// dimmed. A `DisabledNode` subclass, so it takes no focus or input while it moves.
final class TransitionNode: DisabledNode {
    let revealed: Double
    init(child: Node, revealed: Double, style: Style) {
        self.revealed = revealed
        super.init(child: child, style: style)
    }

    private func shownHeight(_ full: Int) -> Int {
        revealed >= 1 || full == 0 ? full : max(revealed > 0 ? 1 : 0, Int((Double(full) * revealed).rounded(.up)))
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        // A fraction of the rows the widget would have at this width, whatever height is offered.
        let full = child.measure(ProposedSize(width: proposal.width, height: nil))
        let height = min(shownHeight(min(full.height, unboundedLength)), proposal.height ?? Int.max)
        return Size(width: full.width, height: max(0, height))
    }

    override func place(in rect: Rect) {
        frame = rect
        let full = child.measure(ProposedSize(width: rect.width, height: nil))
        child.place(in: Rect(x: rect.x, y: rect.y, width: rect.width, height: max(rect.height, min(full.height, unboundedLength))))
    }
}
