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
    /// The theme's styles views draw with (a host sets it from its theme and the terminal).
    public var theme: ResolvedTheme = .standard
    /// Whether `.widget(_:in:transition:)` animates showing and hiding. Off unless a host turns
    /// it on (the demo does, except under `--no-animation`), so tests see final states at once.
    public var animationsEnabled = false
    /// The frame clock's time for the frame being drawn (transitions read it).
    public private(set) var frameTime = ContinuousClock.now
    /// Set while drawing when something is mid-animation: the host draws again a frame later.
    public private(set) var needsAnimationFrame = false
    /// Replaces the clock (tests step through a transition with it).
    public var clock: @MainActor () -> ContinuousClock.Instant = { ContinuousClock.now }

    public init() {}

    /// Asks for another frame soon (a transition or other animation is in progress).
    public func requestAnimationFrame() { needsAnimationFrame = true }

    /// Evaluates `view`, lays it out in `rect` and draws it on `canvas`.
    /// - Parameter isActive: whether this pane has the keyboard; focus is only shown when it has.
    public func render<V: View>(_ view: V, in rect: Rect, on canvas: inout Canvas, isActive: Bool = true) {
        frameTime = clock()
        needsAnimationFrame = false
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
        // Disabled widgets take neither focus nor input; hidden ones have no nodes at all.
        if node is DisabledNode { return }
        if let f = node as? any FocusableNode { focusables.append(f) }
        for child in node.children { collectFocusables(child) }
    }

    /// Sends pasted text to the focused widget; false if it does not take text.
    @discardableResult
    public func handlePaste(_ text: String) -> Bool {
        focusedWidget?.handlePaste(text) ?? false
    }

    /// Whether the focused widget takes typed text (then printable keys are not commands).
    public var focusedWidgetTakesText: Bool { focusedWidget?.takesTextInput ?? false }

    private var focusedWidget: (any FocusableNode)? {
        guard let id = focusedID else { return nil }
        return focusables.first { $0.focusID == id }
    }

    /// Focuses the widget with this identity if it is in the last frame; false if not.
    @discardableResult
    public func focus(_ id: ViewID) -> Bool {
        guard focusables.contains(where: { $0.focusID == id }) else { return false }
        focusedID = id
        return true
    }

    /// Sends a key to the focused widget; false if it did not take it.
    @discardableResult
    public func handleKey(_ key: KeyEvent) -> Bool {
        focusedWidget?.handleKey(key) ?? false
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

    /// A box for a widget's state, made on first use and kept between frames (and while the widget
    /// is hidden). Reads and writes through the box skip the dictionary.
    public func stateBox<T>(for id: ViewID, initial: @autoclosure () -> T) -> WidgetStateBox<T> {
        if let box = widgetStates[id] as? WidgetStateBox<T> { return box }
        let box = WidgetStateBox(initial())
        widgetStates[id] = box
        return box
    }
}

/// A widget's own state between frames (see `ResolveContext.stateBox`).
@MainActor
public final class WidgetStateBox<T> {
    public var value: T
    init(_ value: T) { self.value = value }
}
