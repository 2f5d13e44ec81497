import AppletState
import Dispatch
import Observation
import Synchronization
import Terminal

/// Renders a view into a region of a canvas and keeps what its widgets need between frames:
/// which widget has focus and per-widget state such as a list's scroll position.
///
/// A host keeps one per pane. Keys go to the focused widget of the last frame drawn.
///
/// Invariants:
/// - The focus chain is the widgets of the last frame that take focus, in reading order, less
///   those inside `.disabled()` or `.focusable(false)`; the focused widget is always in it
///   (or none is focused).
/// - `@FocusState`s bound with `.focused` say, after every frame and every focus move, which
///   widget has focus; one set by the program moves focus on the next frame.
/// - A view's `@State`s (and `@FocusState`s) live here under its identity, from the first frame
///   that holds the view until a frame evaluates the `if`, `ForEach`, `AnyView` or root view
///   around it without it (not while the tree is not drawn, nor while the view is inside a hidden
///   widget): see `State`.
/// - Exactly the `.task`s of the views in the last frame run (started after the frame that first
///   held them), until `disappear()` or until the tree is freed.
///
/// ```swift
/// let tree = ViewTree()
/// var canvas = Canvas(size: Size(width: 40, height: 10))
/// tree.render(Text("hello"), in: canvas.bounds, on: &canvas)
/// tree.handleKey(KeyEvent(.down))   // false: nothing focusable
/// ```
@MainActor
public final class ViewTree {
    // The fields a frame reads and writes most are `@exclusivity(unchecked)`: the tree lives on
    // the main actor and no access to one of them is ever open while another starts, so the
    // run-time check (about a hundred instructions an access, 30 a frame) proves nothing.
    @exclusivity(unchecked) private var widgetStates: [ViewID: Any] = [:]
    /// The focus chain of the last frame, in reading order: what Tab moves through.
    @exclusivity(unchecked) private(set) var focusables: [any FocusableNode] = []
    /// Every widget of the last frame that takes input, in reading order: the focus chain plus
    /// the widgets `.focusable(false)` took out of it (they still take clicks).
    @exclusivity(unchecked) private var inputWidgets: [any FocusableNode] = []
    /// Widgets `.focusable(false)` took out of the focus chain in the frame being (or last) drawn.
    @exclusivity(unchecked) private var unfocusableIDs: Set<ViewID> = []
    /// `.focused` bindings of the frame being (or last) drawn, in reading order.
    @exclusivity(unchecked) private var focusBindings: [FocusBinding] = []
    /// `.defaultFocus` choices of the frame being (or last) drawn, outermost last.
    @exclusivity(unchecked) private var defaultFocusChoices: [DefaultFocusChoice] = []
    /// `.task` modifiers met while evaluating the frame being drawn, in reading order.
    @exclusivity(unchecked) private var taskRegistrations: [TaskRegistration] = []
    /// The tasks started for views in the tree, by the identity of their `.task` modifier.
    @exclusivity(unchecked) private var runningTasks: [TaskKey: RunningTask] = [:]
    @exclusivity(unchecked) private var root: Node?
    /// The focused widget, if any. New trees focus the first focusable widget (or the one a
    /// `.defaultFocus` names); after `resignFocus()` (Esc in a text field) none has focus until
    /// Tab, a click, `focus(_:)` or a `@FocusState` gives it to one.
    @exclusivity(unchecked) public private(set) var focusedID: ViewID?
    /// Set by `resignFocus()`: the pane itself has the keyboard, so a frame must not focus the
    /// first widget again.
    @exclusivity(unchecked) private var focusResigned = false
    /// The theme's styles views draw with (a host sets it from its theme and the terminal).
    public var theme: ResolvedTheme = .standard
    /// Whether `.widget(_:in:transition:)` animates showing and hiding. Off unless a host turns
    /// it on (the demo does, except under `--no-animation`), so tests see final states at once.
    public var animationsEnabled = false
    /// The frame clock's time for the frame being drawn (transitions read it).
    @exclusivity(unchecked) public private(set) var frameTime = ContinuousClock.now
    /// Set while drawing when something is mid-animation: the host draws again a frame later.
    @exclusivity(unchecked) public private(set) var needsAnimationFrame = false
    /// Replaces the clock (tests step through a transition with it).
    public var clock: @MainActor () -> ContinuousClock.Instant = { ContinuousClock.now }
    /// False for a tree that only evaluates views to learn what they contain (the host finding
    /// the applets inside a pane it has not drawn yet): its `.task`s never start.
    package var startsTasks = true
    /// Whether the tree has drawn a view yet.
    package var hasRendered: Bool { root != nil }

    public init() {
        openScopes.reserveCapacity(16)
    }

    isolated deinit {
        for running in runningTasks.values { running.task.cancel() }
    }

    // MARK: Incremental frames

    /// Called (on the main actor) when something this tree drew from has changed: state it read,
    /// or its own focus and widget state after input. A host schedules a frame.
    public var onInvalidate: (@MainActor () -> Void)?
    /// Whether the next `renderIfNeeded` must evaluate the view again.
    public private(set) var needsRender = true
    private var lastPlacement: (rect: Rect, isActive: Bool, theme: ResolvedTheme)?
    /// The observation of the last `renderIfNeeded`'s reads, ended when the next replaces it.
    private let lastObservation = ObservationSlot()
    /// Set from any thread when state the last render read changed.
    private let stateChanged = ChangeFlag()

    /// Marks the tree as needing a new evaluation (state it read changed, or input changed it).
    public func invalidate() {
        keptCells = nil
        guard !needsRender else { return }
        needsRender = true
        onInvalidate?()
    }

    // MARK: Hidden and shown again

    /// What this tree drew last, kept while something else covers its place (another tab); the
    /// next `renderIfNeeded` puts it back if nothing changed, and any evaluation drops it.
    private var keptCells: Canvas.SavedCells?

    /// Keeps the cells this tree drew last, read from `canvas`, where they still are: call it just
    /// before something else is drawn over the tree's place (a host switching to another tab).
    /// When the tree is shown again with nothing it depends on changed, `restoreKeptCells()` puts
    /// them back instead of evaluating, laying out and drawing the view again. Nothing is kept
    /// when the last render is out of date (the next one draws anew anyway).
    ///
    /// ```swift
    /// for tree in trees[oldTab] { tree.keepDrawnCells(from: frame) }   // leaving the tab
    /// for tree in trees[newTab] { tree.restoreKeptCells() }            // coming back to it
    /// tree.renderIfNeeded(applet, in: rect, on: &frame)                // the cells, or a render
    /// ```
    public func keepDrawnCells(from canvas: Canvas) {
        keptCells = nil
        if stateChanged.value.load(ordering: .acquiring) { needsRender = true }
        guard !needsRender, let last = lastPlacement, !last.rect.isEmpty,
              last.rect.maxX <= canvas.size.width, last.rect.maxY <= canvas.size.height else { return }
        keptCells = canvas.saved(last.rect)
    }

    /// Asks the next `renderIfNeeded` to draw the tree's place again: with the cells kept by
    /// `keepDrawnCells(from:)` when nothing changed since, by rendering the view otherwise.
    public func restoreKeptCells() {
        if keptCells == nil { invalidate() }
    }

    /// Draws `view` only if something it depends on changed since the last call: the state it read
    /// (tracked with Observation), input handled by its widgets, its rectangle, activity or theme.
    /// Otherwise the canvas keeps what this tree drew there last, and nothing is evaluated: a
    /// change in one pane costs that pane alone. Returns whether it drew.
    ///
    /// ```swift
    /// tree.onInvalidate = { host.setNeedsDisplay() }
    /// tree.renderIfNeeded(applet, in: paneRect, on: &frame)   // draws
    /// tree.renderIfNeeded(applet, in: paneRect, on: &frame)   // nothing changed: no work
    /// ```
    @discardableResult
    public func renderIfNeeded<V: View>(_ view: V, in rect: Rect, on canvas: inout Canvas, isActive: Bool = true) -> Bool {
        if stateChanged.value.exchange(false, ordering: .acquiring) { needsRender = true }
        if !needsRender, let last = lastPlacement, last.rect == rect, last.isActive == isActive, last.theme == theme {
            // Shown again with nothing changed: the cells it drew, not a new evaluation.
            if let kept = keptCells {
                canvas.restore(kept)
                keptCells = nil
            }
            return false
        }
        needsRender = false
        lastPlacement = (rect, isActive, theme)
        canvas.fill(rect, with: .blank())
        // Drawn again without its state changing (input, the chrome): the last observation would
        // stay registered until that state changes; it is ended, and this one replaces it.
        lastObservation.replace {
            render(view, in: rect, on: &canvas, isActive: isActive)
        } onChange: { [weak self, stateChanged] in
            // Stores tell observers after the value is stored, on the thread that set it. The flag
            // is seen by the very next render, even one in the same turn; the hop schedules one.
            stateChanged.value.store(true, ordering: .releasing)
            MainRunLoop.perform {
                // Unless a render in the meantime already took the change in.
                guard let self, self.stateChanged.value.exchange(false, ordering: .acquiring) else { return }
                self.needsRender = false
                self.invalidate()
            }
        }
        // Something is animating: draw again on the next frame.
        if needsAnimationFrame { needsRender = true }
        return true
    }

    /// Asks for another frame soon (a transition or other animation is in progress).
    public func requestAnimationFrame() { needsAnimationFrame = true }

    /// Evaluates `view`, lays it out in `rect` and draws it on `canvas`.
    ///
    /// The size `view` asks for under `proposal` (a width and no height: as tall as it wants at
    /// that width), measured in a tree of its own that draws nothing and starts no tasks. What a
    /// host sizes a sheet or a dialog by.
    ///
    /// ```swift
    /// ViewTree.idealSize(of: SheetFrame(title: "Tags") { TagPicker() }, proposal: ProposedSize(width: 40, height: nil))
    /// ```
    public static func idealSize<V: View>(of view: V, proposal: ProposedSize) -> Size {
        let tree = ViewTree()
        tree.startsTasks = false
        tree.enterScope(ViewScope(container: rootScope, branch: rootScope.child(ObjectIdentifier(V.self))))
        let node = view.makeSingleNode(ResolveContext(tree: tree))
        tree.leaveScope()
        return node.sizeThatFits(proposal)
    }

    /// After drawing, the `.task` modifiers of the views in the frame are brought up to date:
    /// tasks of views that appeared start, tasks of views that are gone are cancelled, and a task
    /// whose `id` changed is cancelled and started again.
    /// - Parameter isActive: whether this pane has the keyboard; focus is only shown when it has.
    public func render<V: View>(_ view: V, in rect: Rect, on canvas: inout Canvas, isActive: Bool = true) {
        keptCells = nil
        frameTime = clock()
        needsAnimationFrame = false
        keyHandlers.removeAll(keepingCapacity: true)
        focusBindings.removeAll(keepingCapacity: true)
        defaultFocusChoices.removeAll(keepingCapacity: true)
        unfocusableIDs.removeAll(keepingCapacity: true)
        taskRegistrations.removeAll(keepingCapacity: true)
        beginViewStateFrame()
        // Another type of root view drawn in this tree drops the state of the one before. Open
        // while drawing too: a list builds its rows then.
        enterScope(ViewScope(container: Self.rootScope, branch: Self.rootScope.child(ObjectIdentifier(V.self))))
        let node = view.makeSingleNode(ResolveContext(tree: self))
        // Before layout, so that a scroll view brings a widget focused by its state into view.
        let request = applyFocusStateRequest()
        node.place(in: rect)
        root = node
        focusables.removeAll(keepingCapacity: true)
        inputWidgets.removeAll(keepingCapacity: true)
        collectFocusables(node)
        if let request, focusedID == request.id, !isInFocusChain(request.id) {
            // The widget the state asked for cannot take focus: focus stays where it was.
            (focusedID, focusResigned) = (request.previous, request.wasResigned)
        }
        if focusedID == nil ? !focusResigned : !isInFocusChain(focusedID) {
            focusedID = defaultFocusTarget() ?? focusables.first?.focusID
        }
        writeFocusStates()
        for f in focusables { f.isFocused = isActive && f.focusID == focusedID }
        node.draw(in: &canvas, clip: rect)
        // After drawing: a list builds the rows on screen (and their tasks) while it draws.
        updateTasks()
        leaveScope()
        dropRemovedViewStates()
    }

    private func collectFocusables(_ node: Node) {
        // Disabled widgets take neither focus nor input; hidden ones have no nodes at all.
        if node is DisabledNode { return }
        if let f = node.focusable, f.acceptsFocus {
            inputWidgets.append(f)
            if !unfocusableIDs.contains(f.focusID) { focusables.append(f) }
        }
        for child in node.children { collectFocusables(child) }
    }

    // Loops, not `contains`/`first(where:)`: a closure written here is main-actor isolated and
    // checks so at run time on every call, several times a key.
    private func isInFocusChain(_ id: ViewID?) -> Bool {
        for focusable in focusables where focusable.focusID == id { return true }
        return false
    }

    /// Sends pasted text to the focused widget; false if it does not take text.
    @discardableResult
    public func handlePaste(_ text: String) -> Bool {
        let taken = focusedWidget?.handlePaste(text) ?? false
        if taken { invalidate() }
        return taken
    }

    /// Whether the focused widget takes typed text (then printable keys are not commands).
    public var focusedWidgetTakesText: Bool { focusedWidget?.takesTextInput ?? false }

    /// Whether the focused widget would take `key` itself (see `FocusableNode.usesKey`): a
    /// command on that key does not run while it has focus.
    ///
    /// ```swift
    /// tree.focusedWidgetUses(KeyEvent(.char("r")))   // true while a sortable Table has focus
    /// ```
    public func focusedWidgetUses(_ key: KeyEvent) -> Bool {
        Self.uses(key, widget: focusedWidget)
    }

    /// `focusedWidgetUses` for many keys (the footer, help), with the focused widget found once:
    /// the answer for the tree as it is now, not as it will be after the next render.
    ///
    /// ```swift
    /// let takes = tree.focusedWidgetKeyFilter()
    /// let hints = commands.filter { !takes($0.key) }
    /// ```
    public func focusedWidgetKeyFilter() -> (KeyEvent) -> Bool {
        let widget = focusedWidget
        return { Self.uses($0, widget: widget) }
    }

    private static func uses(_ key: KeyEvent, widget: (any FocusableNode)?) -> Bool {
        guard let widget else { return false }
        // A widget taking text (a field, a list's search) takes every printable key, and says
        // which others it uses: the footer keeps the function keys, Tab and Esc that still work.
        if widget.takesTextInput, case .char = key.code, key.modifiers.isDisjoint(with: [.ctrl, .alt]) { return true }
        return widget.usesKey(key)
    }

    /// What the focused widget would copy (`FocusableNode.copyableText`), nil when nothing.
    public var focusedWidgetCopyableText: String? {
        guard let text = focusedWidget?.copyableText, !text.isEmpty else { return nil }
        return text
    }

    /// Whether the focused widget has something to copy (cheap: asked on every frame).
    public var focusedWidgetHasCopyableText: Bool { focusedWidget?.hasCopyableText ?? false }

    private var focusedWidget: (any FocusableNode)? {
        guard let id = focusedID else { return nil }
        for focusable in focusables where focusable.focusID == id { return focusable }
        return nil
    }

    /// Focuses the widget with this identity if it is in the last frame; false if not.
    @discardableResult
    public func focus(_ id: ViewID) -> Bool {
        guard isInFocusChain(id) else { return false }
        focusResigned = false
        if focusedID != id { focusedID = id; writeFocusStates(); invalidate() }
        return true
    }

    /// Takes focus away from every widget: the pane keeps the keyboard, so keys a text field
    /// would have typed reach commands again. Tab, a click or `focus(_:)` focuses a widget again.
    public func resignFocus() {
        focusResigned = true
        guard focusedID != nil else { return }
        focusedID = nil
        writeFocusStates()
        invalidate()
    }

    /// Sends a key to the focused widget and, if it does not take it, to the `.onKeyPress`
    /// handlers around it, innermost first (all of them when nothing has focus); false if none took it.
    ///
    /// `Esc` that a text-taking widget does not use leaves it (`resignFocus()`): a text field can
    /// never trap the keyboard.
    @discardableResult
    public func handleKey(_ key: KeyEvent) -> Bool {
        let focused = focusedWidget
        var taken = focused?.handleKey(key) ?? false
        if !taken, key == KeyEvent(.escape), let focused, focused.takesTextInput {
            resignFocus()
            return true
        }
        if !taken {
            for scope in keyHandlers where focused == nil || scope.nodes.contains(where: { Self.contains($0, focused!) }) {
                if scope.handler(key) == .handled { taken = true; break }
            }
        }
        if taken { invalidate() }
        return taken
    }

    /// `.onKeyPress` handlers of the last frame, innermost first, with the nodes each covers.
    @exclusivity(unchecked) private var keyHandlers: [(handler: @MainActor (KeyEvent) -> KeyPressResult, nodes: [Node])] = []

    func addKeyHandler(_ handler: @escaping @MainActor (KeyEvent) -> KeyPressResult, covering nodes: [Node]) {
        keyHandlers.append((handler, nodes))
    }

    private static func contains(_ node: Node, _ target: Node) -> Bool {
        node === target || node.children.contains { contains($0, target) }
    }

    /// The widget a mouse button went down on: it gets the drags and the release that follow,
    /// wherever the pointer goes (a split view's divider being dragged).
    @exclusivity(unchecked) private var capturedID: ViewID?

    /// Sends a mouse event to the widget under it (a press also focuses it, unless
    /// `.focusable(false)` took it out of the focus chain); false if none took it.
    /// A wheel event a widget does not take goes on to the widgets around it (a button inside a
    /// scroll view lets the scroll view scroll).
    @discardableResult
    public func handleMouse(_ mouse: MouseEvent) -> Bool {
        switch mouse.kind {
        case .drag, .release:
            if let id = capturedID, let target = inputWidgets.first(where: { $0.focusID == id }) {
                if case .release = mouse.kind { capturedID = nil }
                let taken = target.handleMouse(mouse)
                if taken { invalidate() }
                return taken
            }
        default: break
        }
        let hits = inputWidgets.filter { $0.frame.contains(mouse.position) }
        guard let target = hits.last else { return false }
        if case .press = mouse.kind {
            capturedID = target.focusID
            if !unfocusableIDs.contains(target.focusID) {
                focusResigned = false
                if focusedID != target.focusID {
                    focusedID = target.focusID
                    writeFocusStates()
                    invalidate()
                }
            }
        }
        var taken = target.handleMouse(mouse)
        if !taken, mouse.kind == .scrollUp || mouse.kind == .scrollDown {
            for outer in hits.dropLast().reversed() where outer.handleMouse(mouse) {
                taken = true
                break
            }
        }
        if taken { invalidate() }
        return taken
    }

    /// Moves focus to the next (or previous) focusable widget. At the last (or first) one it wraps
    /// around when `wrap` is true and otherwise returns false, so a host can move on to the next pane.
    @discardableResult
    public func moveFocus(forward: Bool = true, wrap: Bool = true) -> Bool {
        guard !focusables.isEmpty else { return false }
        focusResigned = false
        let current = focusables.firstIndex { $0.focusID == focusedID }
        var next: Int
        if let current { next = current + (forward ? 1 : -1) } else { next = forward ? 0 : focusables.count - 1 }
        if next < 0 || next >= focusables.count {
            guard wrap, focusables.count > 1 else { return false }
            next = (next + focusables.count) % focusables.count
        }
        focusedID = focusables[next].focusID
        writeFocusStates()
        invalidate()
        return true
    }

    /// Focuses the first (or last) focusable widget.
    public func focusEdge(first: Bool) {
        focusResigned = false
        focusedID = (first ? focusables.first : focusables.last)?.focusID
        writeFocusStates()
        invalidate()
    }

    /// Whether any widget can take focus in the last frame.
    public var hasFocusableWidgets: Bool { !focusables.isEmpty }

    /// How many widgets can take focus in the last frame.
    public var focusableCount: Int { focusables.count }

    // MARK: Focus state

    /// Adds a `.focused` binding of the frame being drawn.
    func addFocusBinding(_ binding: FocusBinding) { focusBindings.append(binding) }

    /// Adds a `.defaultFocus` choice of the frame being drawn.
    func addDefaultFocus(_ choice: DefaultFocusChoice) { defaultFocusChoices.append(choice) }

    /// Takes every widget in `node` out of the focus chain of the frame being drawn.
    func removeFromFocusChain(_ node: Node) {
        if let f = node.focusable { unfocusableIDs.insert(f.focusID) }
        for child in node.children { removeFromFocusChain(child) }
    }

    /// Focuses the widget a program asked for by setting a `@FocusState` since the last frame
    /// (or takes focus away when it set the state to `nil`/`false` while one of its widgets had
    /// focus). Returns the request, so that it can be undone if that widget cannot take focus.
    private func applyFocusStateRequest() -> (id: ViewID, previous: ViewID?, wasResigned: Bool)? {
        var release = false
        for binding in focusBindings where binding.storage.changedByProgram {
            if binding.isChosen() {
                let request = (id: binding.focusID, previous: focusedID, wasResigned: focusResigned)
                focusedID = binding.focusID
                focusResigned = false
                return request
            }
            if binding.storage.holdsEmptyValue, binding.focusID == focusedID { release = true }
        }
        if release {
            focusedID = nil
            focusResigned = true
        }
        return nil
    }

    /// The widget a `.defaultFocus` names, if it is in the focus chain.
    private func defaultFocusTarget() -> ViewID? {
        for choice in defaultFocusChoices {
            for binding in focusBindings where binding.storage === choice.storage && binding.value == choice.value
                && isInFocusChain(binding.focusID) {
                return binding.focusID
            }
        }
        return nil
    }

    /// Writes which widget has focus into the `@FocusState`s bound to widgets of the last frame:
    /// the value of the focused widget's binding, the empty value (`nil`, `false`) for the others.
    private func writeFocusStates() {
        guard !focusBindings.isEmpty else { return }
        var claimed: [any FocusStateSyncing] = []
        if let focusedID {
            for binding in focusBindings where binding.focusID == focusedID && !claimed.contains(where: { $0 === binding.storage }) {
                binding.write()
                claimed.append(binding.storage)
            }
        }
        for binding in focusBindings where !claimed.contains(where: { $0 === binding.storage }) {
            binding.storage.writeEmptyValue()
        }
    }

    // MARK: Tasks

    /// Adds a `.task` met while evaluating the frame being drawn.
    func addTask(_ registration: TaskRegistration) { taskRegistrations.append(registration) }

    /// Starts the tasks of views new in this frame, restarts those whose id changed and cancels
    /// those whose views are gone. A view met twice in one frame keeps one task.
    private func updateTasks() {
        guard startsTasks else { return taskRegistrations.removeAll(keepingCapacity: true) }
        var seen = Set<TaskKey>()
        for registration in taskRegistrations where seen.insert(registration.key).inserted {
            if let running = runningTasks[registration.key] {
                if registration.hasSameID(running.id) { continue }
                running.task.cancel()
            }
            let completion = TaskCompletion()
            runningTasks[registration.key] = RunningTask(id: registration.id, task: registration.start(completion), completion: completion)
        }
        taskRegistrations.removeAll(keepingCapacity: true)
        let gone = runningTasks.keys.filter { !seen.contains($0) }
        for key in gone {
            runningTasks.removeValue(forKey: key)?.task.cancel()
        }
    }

    /// How many `.task`s the tree has started and not cancelled (finished ones count until
    /// their views go away).
    var taskCount: Int { runningTasks.count }

    /// How many `.task`s are running now: started, not cancelled, their action not returned. A
    /// tree that is not shown has none, and neither has a still screen; a host reports them in
    /// `AppletHost.activity`.
    public var activeTaskCount: Int { runningTasks.values.count { !$0.completion.isDone } }

    /// Tells the tree that it is no longer shown (its tab was switched away, its pane removed):
    /// every task started by a `.task` modifier is cancelled. The next render draws the view again
    /// and starts the tasks anew, as for views that appeared. Freeing the tree cancels them too.
    ///
    /// ```swift
    /// tree.render(screen, in: paneRect, on: &frame)   // the screen's tasks start
    /// tree.disappear()                                // its tab was switched away: cancelled
    /// tree.render(screen, in: paneRect, on: &frame)   // shown again: they start anew
    /// ```
    public func disappear() {
        guard !runningTasks.isEmpty else { return }
        for running in runningTasks.values { running.task.cancel() }
        runningTasks.removeAll()
        // The next `renderIfNeeded` must evaluate the view again to start the tasks. (A tree with
        // none is shown again as it was: its kept cells, see `keepDrawnCells`.)
        needsRender = true
    }

    // MARK: View state (`@State`, `@FocusState`)

    /// Storage of the `@State`s and `@FocusState`s of the views drawn, by the view's identity
    /// plus the property's name.
    @exclusivity(unchecked) private var viewStates: [ViewID: ViewStateRecord] = [:]
    /// Counts frames, to tell which view states the last one met.
    @exclusivity(unchecked) private var frameNumber = 0
    /// The scopes (`if`, `ForEach`...) around the view being evaluated, outermost first.
    @exclusivity(unchecked) private var openScopes: [ViewScope] = []
    /// The scopes evaluated in this frame, and the branches entered (only while some view state
    /// exists: nothing else needs them).
    @exclusivity(unchecked) private var evaluatedScopes: Set<ViewID> = []
    @exclusivity(unchecked) private var enteredBranches: Set<ViewID> = []
    /// Stands for the root view's place, as the scope whose branch is the root view's type.
    private static let rootScope = ViewID.root.child("root view type")

    /// The storage of the view state property at `id`, made with `make` if there is none (or one of
    /// another type). Marks it as met in the frame being drawn.
    func viewState<S: AnyObject>(for id: ViewID, make: () -> S) -> S {
        if let record = viewStates[id], let storage = record.storage as? S {
            record.lastSeen = frameNumber
            return storage
        }
        let storage = make()
        viewStates[id] = ViewStateRecord(storage: storage, scopes: openScopes, lastSeen: frameNumber)
        return storage
    }

    /// How many `@State`/`@FocusState` storages the tree keeps.
    var viewStateCount: Int { viewStates.count }

    func enterScope(_ scope: ViewScope) {
        openScopes.append(scope)
        guard !viewStates.isEmpty else { return }
        evaluatedScopes.insert(scope.container)
        enteredBranches.insert(scope.branch)
    }

    func leaveScope() {
        openScopes.removeLast()
    }

    func noteScopeEvaluated(_ container: ViewID) {
        guard !viewStates.isEmpty else { return }
        evaluatedScopes.insert(container)
    }

    private func beginViewStateFrame() {
        frameNumber &+= 1
        openScopes.removeAll(keepingCapacity: true)
        evaluatedScopes.removeAll(keepingCapacity: true)
        enteredBranches.removeAll(keepingCapacity: true)
    }

    /// Frees the storage of view states whose views left the tree in this frame: not met, and one
    /// of the scopes around them evaluated without entering their branch. Views not met for
    /// another reason (inside a hidden widget, an unselected `Tabs` page, a list row out of sight)
    /// keep theirs.
    private func dropRemovedViewStates() {
        guard !viewStates.isEmpty, !evaluatedScopes.isEmpty else { return }
        var removed: [ViewID] = []
        for (id, record) in viewStates where record.lastSeen != frameNumber {
            if record.scopes.contains(where: { evaluatedScopes.contains($0.container) && !enteredBranches.contains($0.branch) }) {
                removed.append(id)
            }
        }
        for id in removed { viewStates.removeValue(forKey: id) }
    }

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
    /// Main actor only: no run-time exclusivity check on each of a widget's reads (the compiler
    /// still rejects overlapping accesses it can see).
    @exclusivity(unchecked) public var value: T
    init(_ value: T) { self.value = value }
}

/// A flag set from any thread (by an observation's change callback) and taken on the main actor.
final class ChangeFlag: Sendable {
    let value = Atomic<Bool>(false)
}
