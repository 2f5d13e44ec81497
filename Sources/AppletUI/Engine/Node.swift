import AppletState
import Terminal

/// A stable identity for a view in the tree: its structural position (or an explicit id).
/// Widgets keep their own state (a list's scroll offset, focus) under it from frame to frame.
public struct ViewID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    static let root = ViewID(rawValue: 0x5EED)

    func child<H: Hashable>(_ component: H) -> ViewID {
        child(component.hashValue)
    }

    /// The identity of the child at `index` (a position, a row): made for every view of every
    /// frame, so a multiply-and-shift mix rather than a SipHash. Distinct indices under one parent
    /// never collide: the first step is one-to-one in `index` and the finalizer (SplitMix64's) is
    /// one-to-one. ViewIDs are dictionary keys only; the dictionary hashes them with its own seed.
    func child(_ index: Int) -> ViewID {
        let parent = UInt64(bitPattern: Int64(rawValue))
        var z = parent ^ (UInt64(bitPattern: Int64(index)) &+ 0x9E37_79B9_7F4A_7C15 &+ (parent << 6) &+ (parent >> 2))
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return ViewID(rawValue: Int(Int64(bitPattern: z ^ (z >> 31))))
    }
    public var description: String { String(rawValue, radix: 16) }
}

/// The main axis of a stack.
public enum Axis: Sendable { case horizontal, vertical }

/// What a view is given while it is turned into nodes: its identity, the enclosing stack's
/// axis, the inherited text style, the theme, whether it is disabled, which widget id it belongs
/// to (for events), and the tree that keeps widget state between frames.
@MainActor
public struct ResolveContext {
    public internal(set) var id: ViewID
    /// The axis of the stack the view is laid out in (nil outside one). Setting it, as every
    /// container laying out children does, also ends `isGridRow`.
    public internal(set) var axis: Axis? {
        didSet { isGridRow = false }
    }
    /// True for the views a `Grid` lays out as its rows (up to the next container): a hidden
    /// `GridRow` there leaves a placeholder that keeps its columns' widths.
    var isGridRow = false
    public internal(set) var style: Style
    /// True inside a disabled widget: draw dimmed; the tree gives it no focus and no input.
    public internal(set) var isDisabled: Bool
    /// What changes rarely (the tree, theme, widget id, event handlers) sits in one shared
    /// object, so that the context copied for every child view costs one reference, not several.
    private var environment: ResolveEnvironment

    init(tree: ViewTree, id: ViewID = .root) {
        self.id = id
        self.axis = nil
        self.style = .plain
        self.isDisabled = false
        self.environment = ResolveEnvironment(tree: tree, theme: tree.theme)
    }

    /// The tree that keeps widget state between frames. Like nodes, a context refers to its tree
    /// without keeping it alive (a list keeps a context to make rows lazily, and the tree keeps
    /// the list): using a context after its tree is gone stops with a clear error.
    public var tree: ViewTree { environment.tree }

    /// The styles of the theme's roles for this terminal.
    public internal(set) var theme: ResolvedTheme {
        get { environment.theme }
        set { environment = environment.with { $0.theme = newValue } }
    }

    /// A theme role drawn over the style inherited here (see `ResolvedTheme.style(_:over:)`).
    ///
    /// ```swift
    /// let placeholder = context.style(.muted)
    /// ```
    public func style(_ role: Theme.Role) -> Style { theme.style(role, over: style) }

    /// The id and manager of the enclosing `.widget(_:in:)`, where events are also sent.
    public internal(set) var widget: (id: String, manager: WidgetManager)? {
        get { environment.widget }
        set { environment = environment.with { $0.widget = newValue } }
    }

    /// Event handlers installed with `.onEvent`, by event type.
    var eventHandlers: [ObjectIdentifier: Any] {
        get { environment.eventHandlers }
        set { environment = environment.with { $0.eventHandlers = newValue } }
    }

    /// What a widget calls to send one of its events: to the `.onEvent` handlers around it and,
    /// when it carries a `.widget` id, to the manager's subscribers.
    ///
    /// ```swift
    /// let emit = context.emitter(TextFieldEvent.self)
    /// emit(.submitted(text))
    /// ```
    public func emitter<Event: Sendable>(_ type: Event.Type = Event.self) -> EventEmitter<Event> {
        EventEmitter(local: eventHandlers[ObjectIdentifier(type)] as? @MainActor (Event) -> Void, widget: widget)
    }

    /// A widget's own state kept between frames under this context's id (a text field's cursor,
    /// a list's scroll offset). Keep the returned box: reads and writes go straight to the tree.
    public func stateBox<T>(_ initial: @autoclosure () -> T) -> WidgetStateBox<T> {
        tree.stateBox(for: id, initial: initial())
    }

    func child(_ index: Int) -> ResolveContext {
        var copy = self
        copy.id = id.child(index)
        return copy
    }

    func child<H: Hashable>(hashing value: H) -> ResolveContext {
        var copy = self
        copy.id = id.child(value)
        return copy
    }

    func child(hashing value: Int) -> ResolveContext { child(value) }
}

/// The rarely changing part of a `ResolveContext`; replaced, never mutated, when a modifier
/// changes it.
final class ResolveEnvironment {
    /// Unowned, not strong: nodes the tree keeps may keep a context, which would make a cycle.
    unowned let tree: ViewTree
    var theme: ResolvedTheme
    var widget: (id: String, manager: WidgetManager)?
    var eventHandlers: [ObjectIdentifier: Any] = [:]

    init(tree: ViewTree, theme: ResolvedTheme) {
        self.tree = tree
        self.theme = theme
    }

    func with(_ change: (ResolveEnvironment) -> Void) -> ResolveEnvironment {
        let copy = ResolveEnvironment(tree: tree, theme: theme)
        copy.widget = widget
        copy.eventHandlers = eventHandlers
        change(copy)
        return copy
    }
}

/// A size offered to a node by its parent; `nil` on an axis asks for the node's ideal size.
public struct ProposedSize: Hashable, Sendable {
    public var width: Int?
    public var height: Int?
    public init(width: Int?, height: Int?) { self.width = width; self.height = height }
    public init(_ size: Size) { self.init(width: size.width, height: size.height) }
    static let ideal = ProposedSize(width: nil, height: nil)

    func along(_ axis: Axis) -> Int? { axis == .horizontal ? width : height }
    func across(_ axis: Axis) -> Int? { axis == .horizontal ? height : width }
    static func make(_ axis: Axis, main: Int?, cross: Int?) -> ProposedSize {
        axis == .horizontal ? ProposedSize(width: main, height: cross) : ProposedSize(width: cross, height: main)
    }
}

extension Size {
    func along(_ axis: Axis) -> Int { axis == .horizontal ? width : height }
    func across(_ axis: Axis) -> Int { axis == .horizontal ? height : width }
    static func make(_ axis: Axis, main: Int, cross: Int) -> Size {
        axis == .horizontal ? Size(width: main, height: cross) : Size(width: cross, height: main)
    }
}

/// "As much as you like": what a stack proposes to learn a child's largest useful size.
let unboundedLength = 1 << 20

/// A laid-out element of a frame. Views resolve into a tree of nodes each frame; nodes measure
/// themselves (`sizeThatFits`), are placed (`place`), then draw into the canvas (`draw`).
@MainActor
open class Node {
    /// Where the node was placed, in screen cells. (Read and written on the main actor only, never
    /// during another access: exempt from the run-time exclusivity check, a tenth of a text's draw.)
    @exclusivity(unchecked) public internal(set) var frame: Rect = .zero
    /// The last few measurements, inline (no allocation per node): stacks ask the same child the
    /// same question several times.
    private var cache = MeasureCache()

    public init() {}

    /// The size the node wants given a proposal. Must not exceed a non-nil proposed length
    /// unless the node cannot be smaller (then the parent clips it).
    open func sizeThatFits(_ proposal: ProposedSize) -> Size { .zero }

    /// Positions the node (and its children) inside `rect`.
    open func place(in rect: Rect) { frame = rect }

    /// Draws the node; nothing may be drawn outside `clip`.
    open func draw(in canvas: inout Canvas, clip: Rect) {}

    /// Child nodes, in reading order (used to find focusable widgets).
    open var children: [Node] { [] }

    /// True for `Spacer`: stacks give it what is left over.
    open var isSpacer: Bool { false }

    /// This node as a focusable widget, or nil. The framework's nodes say which they are (its
    /// widgets return themselves, its other nodes nil); for a class of the app's own the answer
    /// is learned once per class (`FocusableClasses`), because a cast to `any FocusableNode`
    /// asks the runtime's conformance cache (superclasses included) every time, and this is
    /// asked of every node of every frame.
    ///
    /// ```swift
    /// if let widget = node.focusable, widget.focusID == focused { ... }
    /// ```
    public var focusable: (any FocusableNode)? { FocusableClasses.focusable(self) }

    /// Measures with a small cache: stacks ask the same child the same question several times.
    public final func measure(_ proposal: ProposedSize) -> Size {
        if let size = cache.lookup(proposal) { return size }
        let size = sizeThatFits(proposal)
        cache.insert(proposal, size)
        return size
    }
}

/// Four (proposal, size) pairs in a ring, stored inline.
struct MeasureCache {
    private var p0 = ProposedSize.ideal, p1 = ProposedSize.ideal, p2 = ProposedSize.ideal, p3 = ProposedSize.ideal
    private var s0 = Size.zero, s1 = Size.zero, s2 = Size.zero, s3 = Size.zero
    private var count = 0
    private var next = 0

    func lookup(_ p: ProposedSize) -> Size? {
        if count > 0, p0 == p { return s0 }
        if count > 1, p1 == p { return s1 }
        if count > 2, p2 == p { return s2 }
        if count > 3, p3 == p { return s3 }
        return nil
    }

    mutating func insert(_ p: ProposedSize, _ s: Size) {
        switch next {
        case 0: p0 = p; s0 = s
        case 1: p1 = p; s1 = s
        case 2: p2 = p; s2 = s
        default: p3 = p; s3 = s
        }
        next = (next + 1) & 3
        count = min(4, count + 1)
    }
}

/// Which node classes (outside the framework's own widgets, which say so themselves) are
/// `FocusableNode`s: the classes seen so far, each asked once (an app defines a handful).
@MainActor
enum FocusableClasses {
    @exclusivity(unchecked) private static var known: [(type: ObjectIdentifier, isFocusable: Bool)] = []

    static func focusable(_ node: Node) -> (any FocusableNode)? {
        let type = ObjectIdentifier(Swift.type(of: node))
        for entry in known where entry.type == type {
            return entry.isFocusable ? node as? any FocusableNode : nil
        }
        let widget = node as? any FocusableNode
        known.append((type, widget != nil))
        return widget
    }
}

/// A node that can take keyboard focus and handle keys and clicks.
@MainActor
public protocol FocusableNode: Node {
    var focusID: ViewID { get }
    var isFocused: Bool { get set }
    /// Handles a key; returns false to pass it on (to the applet's commands, then the host).
    func handleKey(_ key: KeyEvent) -> Bool
    /// Whether `handleKey` would take `key` now, without doing anything: the footer and help
    /// leave out a command whose key the focused widget would take first (a focused table's `r`).
    /// False by default; widgets that take letter keys say which.
    func usesKey(_ key: KeyEvent) -> Bool
    /// Handles a mouse event inside the node's frame; returns false to pass it on.
    func handleMouse(_ mouse: MouseEvent) -> Bool
    /// Handles pasted text (bracketed paste); returns false to pass it on. Only text-taking
    /// widgets take it: pasted text never triggers key bindings.
    func handlePaste(_ text: String) -> Bool
    /// True for widgets that take typed text: while one has focus, printable keys are text,
    /// not commands.
    var takesTextInput: Bool { get }
    /// False while the widget has nothing to do with keys, so Tab and clicks pass it by (a
    /// scroll view whose content fits). Asked after layout, on every frame; true by default.
    var acceptsFocus: Bool { get }
    /// What the host's Copy (`Alt-C`) puts on the system clipboard while this widget has focus:
    /// its selection (a list's selected or marked rows, a table's selected row, a field's text),
    /// or nil when it has nothing to copy. Nil by default.
    var copyableText: String? { get }
    /// Whether `copyableText` would give something, answered cheaply: the host asks on every
    /// frame, to show Copy in the footer exactly when it would work. By default, whether
    /// `copyableText` is not nil.
    var hasCopyableText: Bool { get }
}

extension FocusableNode {
    public func handlePaste(_ text: String) -> Bool { false }
    public var takesTextInput: Bool { false }
    public var acceptsFocus: Bool { true }
    public func usesKey(_ key: KeyEvent) -> Bool { false }
    public var copyableText: String? { nil }
    public var hasCopyableText: Bool { copyableText != nil }
}

/// Sends a widget's events to the `.onEvent` handlers around it and to its manager's subscribers.
@MainActor
public struct EventEmitter<Event: Sendable> {
    let local: (@MainActor (Event) -> Void)?
    let widget: (id: String, manager: WidgetManager)?

    public func callAsFunction(_ event: Event) {
        local?(event)
        if let widget { widget.manager.send(event, from: widget.id) }
    }
}
