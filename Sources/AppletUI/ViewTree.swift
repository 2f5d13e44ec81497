import AppletState
import Terminal

/// Renders a view into a region of a canvas and keeps what its widgets need between frames:
/// which widget has focus and per-widget state such as a list's scroll position.
///
/// A host keeps one per pane. Keys go to the focused widget of the last frame drawn.
///
/// ```swift
/// let tree = ViewTree()
/// var canvas = Canvas(size: Size(width: 40, height: 10))
/// tree.render(Text("hello"), in: canvas.bounds, on: &canvas)
/// tree.handleKey(KeyEvent(.down))   // false: nothing focusable
/// ```
@MainActor
public final class ViewTree {
    private var widgetStates: [ViewID: Any] = [:]
    private var focusables: [any FocusableNode] = []
    private var root: Node?
    /// The focused widget, if any. New trees focus the first focusable widget.
    public private(set) var focusedID: ViewID?

    public init() {}

    /// Evaluates `view`, lays it out in `rect` and draws it on `canvas`.
    /// - Parameter isActive: whether this pane has the keyboard; focus is only shown when it has.
    public func render<V: View>(_ view: V, in rect: Rect, on canvas: inout Canvas, isActive: Bool = true) {
        let node = view.makeSingleNode(ResolveContext(tree: self))
        node.place(in: rect)
        root = node
        focusables.removeAll(keepingCapacity: true)
        collectFocusables(node)
        if focusedID == nil || !focusables.contains(where: { $0.focusID == focusedID }) {
            focusedID = focusables.first?.focusID
        }
        for f in focusables { f.isFocused = isActive && f.focusID == focusedID }
        node.draw(in: &canvas, clip: rect)
    }

    private func collectFocusables(_ node: Node) {
        if let f = node as? any FocusableNode { focusables.append(f) }
        for child in node.children { collectFocusables(child) }
    }

    /// Sends a key to the focused widget; false if it did not take it.
    @discardableResult
    public func handleKey(_ key: KeyEvent) -> Bool {
        guard let id = focusedID, let focused = focusables.first(where: { $0.focusID == id }) else { return false }
        return focused.handleKey(key)
    }

    /// Sends a mouse event to the widget under it (a press also focuses it); false if none took it.
    @discardableResult
    public func handleMouse(_ mouse: MouseEvent) -> Bool {
        guard let target = focusables.last(where: { $0.frame.contains(mouse.position) }) else { return false }
        if case .press = mouse.kind { focusedID = target.focusID }
        return target.handleMouse(mouse)
    }

    /// Moves focus to the next (or previous) focusable widget. At the last (or first) one it wraps
    /// around when `wrap` is true and otherwise returns false, so a host can move on to the next pane.
    @discardableResult
    public func moveFocus(forward: Bool = true, wrap: Bool = true) -> Bool {
        guard !focusables.isEmpty else { return false }
        let current = focusables.firstIndex { $0.focusID == focusedID }
        var next: Int
        if let current { next = current + (forward ? 1 : -1) } else { next = forward ? 0 : focusables.count - 1 }
        if next < 0 || next >= focusables.count {
            guard wrap, focusables.count > 1 else { return false }
            next = (next + focusables.count) % focusables.count
        }
        focusedID = focusables[next].focusID
        return true
    }

    /// Focuses the first (or last) focusable widget.
    public func focusEdge(first: Bool) {
        focusedID = (first ? focusables.first : focusables.last)?.focusID
    }

    /// Whether any widget can take focus in the last frame.
    public var hasFocusableWidgets: Bool { !focusables.isEmpty }

    // MARK: Widget state

    /// State a widget keeps between frames under its identity (e.g. a list's first visible row).
    public func widgetState<T>(for id: ViewID, default value: T) -> T {
        widgetStates[id] as? T ?? value
    }

    public func setWidgetState<T>(_ value: T, for id: ViewID) {
        widgetStates[id] = value
    }
}
