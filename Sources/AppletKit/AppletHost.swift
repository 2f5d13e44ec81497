import AppletLogic
import AppletNavigation
import AppletState
import AppletUI
import Terminal
import Dispatch
import Observation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The host shell: a tab bar on top, the selected tab's applet panes, and a footer with the keys
/// that work right now. It owns the run loop: input becomes events, events change state, and a
/// state change draws one frame on the next turn of the main queue, however many changes came.
///
/// Apps do not use it directly: an `AppletApp` sets up the command line, storage and logging,
/// runs a host and maps every ending to an exit status. A host on its own is for tests (on a
/// `HeadlessTerminal`, usually through `AppletTesting`) and for embedding in a program that
/// does those things itself:
///
/// ```swift
/// let host = try AppletHost(tabs: [Tab(CounterApplet())], terminal: HeadlessTerminal(width: 80, height: 24))
/// try host.start()
/// host.handle(.key(KeyEvent(.char("+"))))
/// host.renderIfNeeded()
/// ```
///
/// `run()` on a real terminal throws `TerminalError` when there is none to use; after it returns,
/// `terminationSignal` says whether a signal (or Ctrl-C) ended it.
///
/// Keys go through one `KeyRouter` over one `CommandRegistry` (see `activeRegistry()`): a chord
/// in progress, priority commands, the focused widget, the focused applet's commands, then the
/// host's own (`HostCommands`: `1`–`9` and `alt-1`…`alt-9` select a tab, `]`/`[` and
/// `ctrl-pgdn`/`ctrl-pgup` next/previous tab, `Tab`/`Shift-Tab` move focus, `Ctrl-P` the command
/// palette, `?` help, `q` quits, `Ctrl-Z` suspends). `Ctrl-C` always quits. A `Keymap` rebinds
/// any command by id; the footer, help and palette are drawn from the same registry.
@MainActor
public final class AppletHost {
    // Fields every key or frame reads are `@exclusivity(unchecked)`: the host lives on the main
    // actor and none of them is accessed while another access to it is open, so the run-time
    // check proves nothing and costs about a hundred instructions each time.
    public let tabs: [Tab]
    public let application: Application
    /// The tab on screen (0-based).
    @exclusivity(unchecked) public private(set) var selectedTab: Int
    /// The focused pane of each tab.
    @exclusivity(unchecked) private var focusedPane: [Int]
    @exclusivity(unchecked) private var trees: [[ViewTree]]
    private let terminal: any Terminal
    /// Decides when a frame is drawn (`setNeedsDisplay`, the animation clock).
    private lazy var frames = FrameScheduler(animationInterval: Self.animationFrameInterval) { [unowned self] in
        self.terminal.present(self.drawFrame())
    }
    private var quitContinuation: CheckedContinuation<Void, Never>?
    private var flushTask: Task<Void, Never>?
    public private(set) var isRunning = false
    /// Whether the help overlay (`?`) is open.
    @exclusivity(unchecked) public private(set) var isShowingHelp = false
    /// The command palette (`Ctrl-P`), while it is open.
    @exclusivity(unchecked) public private(set) var palette: CommandPalette?
    /// Whether the command palette is open.
    public var isShowingPalette: Bool { palette != nil }
    /// The devtools' action log (`F12`), while it is open.
    @exclusivity(unchecked) public private(set) var actionLogOverlay: ActionLogOverlay?
    /// The store's logic module: what applets send requests and side effects through. The host
    /// shows its unhandled errors as error toasts and cancels its effects on quit.
    public var logic: LogicModule { application.logic.value }
    /// Where the session is recorded (`--record FILE`): every input event goes to it, with what
    /// the logic module did. Written every second and on quit.
    public var recorder: SessionRecorder? {
        didSet {
            guard let recorder else { return }
            logic.record(to: recorder)
            if isRunning {
                recorder.begin(size: ScreenSize(columns: terminal.size.width, rows: terminal.size.height))
                startFlushing(recorder)
            }
        }
    }
    /// The user's keymap: commands rebound by id.
    public let keymap: Keymap
    /// How the last key was routed: which level took it and why the others did not.
    @exclusivity(unchecked) public private(set) var lastRoutingTrace: RoutingTrace?
    /// Shows `lastRoutingTrace` on the line above the footer (`--debug-keys`).
    @exclusivity(unchecked) public var showsRoutingTrace = false
    private var router: KeyRouter
    /// Measures the chord timeout and how long a message stays (tests use a TestClock).
    private let chordTimer: ScheduledAction
    /// Sheets, the confirmation and toasts over the panes.
    private let modals: ModalLayer
    private lazy var hostCommands = HostCommands(host: self)
    /// The signal that ended the run (SIGTERM, SIGINT, SIGHUP), nil when the user quit.
    /// A command-line host exits with `128 + signal`, as shells expect.
    public private(set) var terminationSignal: Int32?

    /// The colour theme (its styles are resolved for the terminal's colours when the run starts).
    public let theme: Theme
    /// Whether widgets animate when shown or hidden (`--no-animation` turns it off).
    public let animationsEnabled: Bool
    /// How often the frame clock ticks while something animates.
    public static let animationFrameInterval = Duration.milliseconds(33)
    /// What the top line shows: the tab bar, nothing, or the app's own view.
    public var shell: HostShell = .tabBar {
        didSet { setNeedsDisplay() }
    }
    /// Draws a custom shell (its widgets keep their state).
    private let shellTree = ViewTree()

    /// The app's services as installed by `dependencies(_:)`, kept for the host's life.
    private var installedDependencies: Dependencies?

    /// Installs the app's services in one place, before the first frame: the values every applet
    /// reads through `@AppDependency`. Calling it again adds to (and may replace) what is there.
    ///
    /// ```swift
    /// let host = try AppletHost(tabs: tabs)
    /// host.dependencies {
    ///     $0.http = URLSessionClient(baseURL: server)
    ///     $0.clock = SystemAppClock()
    /// }
    /// try await host.run()
    /// ```
    @discardableResult
    public func dependencies(_ install: (inout Dependencies) -> Void) -> Self {
        var dependencies = installedDependencies ?? Dependencies(application)
        install(&dependencies)
        installedDependencies = dependencies
        redrawAll()
        return self
    }

    /// The app's own status bar (drawn from the store, between the panes and the footer), if any.
    ///
    /// ```swift
    /// host.statusBar = AnyView(SyncStatusView())   // e.g. "● synced 12:04   3 unread"
    /// ```
    public var statusBar: AnyView? {
        didSet { setNeedsDisplay() }
    }

    /// The smallest screen the layout fits in; below it the host shows a short message instead.
    public static let minimumSize = Size(width: 20, height: 5)

    /// - Parameters:
    ///   - tabs: the tabs, left to right.
    ///   - initialTab: the tab shown first (0-based); nil: the tab that was up when the store was
    ///     last saved (its `TabRouter`), else the first.
    ///   - application: the store the applets read and write (`Application.current` by default).
    ///   - terminal: where to draw; `nil` takes over the real terminal when `run()` starts.
    ///   - theme: the colour theme, `.dark` or `.light` or your own.
    ///   - animations: whether widget transitions animate; by default they do on a real terminal
    ///     and not on a headless one (tests see final states at once).
    ///   - keymap: the user's key bindings by command id (`Keymap.load(path:)`); none by default.
    ///   - clock: what chord timeouts and messages are timed with (a `TestClock` in tests).
    ///   - chordTimeout: how long a chord waits for its next key.
    public init(tabs: [Tab], initialTab: Int? = nil, application: Application = .current, terminal: (any Terminal)? = nil,
                theme: Theme = .dark, animations: Bool? = nil, keymap: Keymap = Keymap(),
                clock: any Clock<Duration> = ContinuousClock(), chordTimeout: Duration = ChordMatcher.defaultTimeout) throws {
        precondition(!tabs.isEmpty, "AppletHost needs at least one tab")
        self.tabs = tabs
        self.application = application
        let stored = application.tabRouter.value.selectedTab.flatMap { id in tabs.firstIndex { $0.id == id } }
        self.selectedTab = initialTab.flatMap { tabs.indices.contains($0) ? $0 : nil } ?? stored ?? 0
        self.focusedPane = tabs.map { _ in 0 }
        self.trees = tabs.map { $0.panes.map { _ in ViewTree() } }
        self.paneInfo = tabs.map { tab in
            tab.panes.indices.map { pane in
                PaneInfo(scope: Scope(name: tab.panes[pane].id, id: "\(tab.id).\(pane)"),
                         navigating: tab.panes[pane] as? any NavigationApplet)
            }
        }
        for (tab, trees) in zip(tabs, trees) {
            for (applet, tree) in zip(tab.panes, trees) { EmbeddedApplets.setOwner(applet.id, of: tree) }
        }
        let chosen = try terminal ?? NcursesTerminal(environment: ProcessEnvironment.current)
        self.terminal = chosen
        self.theme = theme
        self.animationsEnabled = animations ?? (chosen is NcursesTerminal)
        self.keymap = keymap
        self.router = KeyRouter(chordTimeout: chordTimeout)
        self.chordTimer = ScheduledAction(clock: clock)
        self.modals = ModalLayer(application: application, clock: clock)
        // The store says which tab is up from the start, so an applet's later choice is a change.
        let shown = tabs[selectedTab].id
        if application.tabRouter.value.selectedTab != shown { application.tabRouter.value.selectedTab = shown }
        self.routedTabID = shown
        logic.onUnhandledError = { [weak self] error in
            self?.application.toast("\(error)", style: .error)
        }
    }

    /// A host for one view, full screen, without a tab bar (`shell` is `.none`).
    ///
    /// ```swift
    /// try await AppletHost(root: EditorView()).run()
    /// ```
    public convenience init<V: View>(root: V, title: String = "Main", application: Application = .current,
                                     terminal: (any Terminal)? = nil, theme: Theme = .dark, keymap: Keymap = Keymap()) throws {
        try self.init(tabs: [Tab(title, view: root)], application: application, terminal: terminal, theme: theme, keymap: keymap)
        shell = .none
    }

    /// Runs until the user quits (or a SIGTERM/SIGINT/SIGHUP arrives); the terminal is given back
    /// as it was in every case, including when this throws.
    public func run() async throws {
        try start()
        await withCheckedContinuation { continuation in
            if isRunning { quitContinuation = continuation } else { continuation.resume() }
        }
    }

    /// Takes over the terminal and draws the first frame. `run()` calls this; tests call it directly.
    /// Throws `TerminalError` (the terminal given back) when the terminal cannot be used or is
    /// smaller than `minimumSize`; once running, a terminal made smaller shows a short message.
    public func start() throws {
        guard !isRunning else { return }
        do {
            try terminal.start { [weak self] event in self?.handle(event) }
        } catch {
            terminal.stop()
            throw error
        }
        let size = terminal.size
        guard size.width >= Self.minimumSize.width, size.height >= Self.minimumSize.height else {
            terminal.stop()
            throw TerminalError("the terminal is \(size.width)x\(size.height), smaller than the \(Self.minimumSize.width)x\(Self.minimumSize.height) this app needs; make the window larger")
        }
        isRunning = true
        ScreenSize.current = ScreenSize(columns: size.width, rows: size.height)
        if let recorder {
            recorder.begin(size: ScreenSize(columns: size.width, rows: size.height))
            startFlushing(recorder)
        }
        // Colours are known only once the terminal has started.
        let resolved = theme.resolved(for: terminal.colorSupport)
        modals.theme = resolved
        chromeTree.theme = resolved
        shellTree.theme = resolved
        statusTree.theme = resolved
        modals.onChange = { [weak self] in self?.setNeedsDisplay() }
        for (tab, panes) in trees.enumerated() {
            for tree in panes {
                tree.theme = resolved
                tree.animationsEnabled = animationsEnabled
                // State a pane read changed: only a pane on screen needs a frame.
                tree.onInvalidate = { [weak self] in
                    guard let self, tab == self.selectedTab else { return }
                    self.setNeedsDisplay()
                }
            }
        }
        frames.isActive = true
        frames.setNeedsDisplay()
        frames.renderIfNeeded()
    }

    /// Ends the run: gives the terminal back, writes pending state to disk, and lets `run()` return.
    public func quit() {
        guard isRunning else { return }
        isRunning = false
        frames.isActive = false
        for tree in trees.joined() { tree.disappear() }
        chordTimer.cancel()
        modals.cancelTimers()
        logic.cancelAll()
        flushTask?.cancel()
        recorder?.close()
        terminal.stop()
        // After the terminal is back: a slow disk must not leave the shell raw.
        application.flush()
        quitContinuation?.resume()
        quitContinuation = nil
    }

    // MARK: Events

    /// Routes one event (see the type's documentation for the order keys go through).
    public func handle(_ event: Event) {
        guard isRunning else { return }
        if case .terminate = event {} else { recorder?.input(event) }
        inPane {
            switch event {
            case .key(let key): handleKey(key)
            case .mouse(let mouse): handleMouse(mouse)
            case .paste(let text):
                // Only a text-taking widget gets pasted text; it never reaches key bindings.
                if needsLayout { layOutSelectedTab() }
                if var palette {
                    palette.paste(text)
                    self.palette = palette
                    setNeedsDisplay()
                } else if var overlay = actionLogOverlay {
                    overlay.paste(text)
                    actionLogOverlay = overlay
                    setNeedsDisplay()
                } else if !isShowingHelp, activeTree.handlePaste(text) {
                    setNeedsDisplay()
                }
            case .resize(let size):
                ScreenSize.current = ScreenSize(columns: size.width, rows: size.height)
                setNeedsDisplay()
            case .terminate(let signal):
                terminationSignal = signal
                quit()
            }
        }
    }

    private func handleKey(_ key: KeyEvent) {
        if key == KeyEvent(.char("c"), modifiers: .ctrl) {
            // An interrupt, as if SIGINT had arrived: the command line exits with 130. Not a
            // command: no keymap can take away the one key that always ends the app.
            terminationSignal = SIGINT
            quit()
            return
        }
        // Keys typed right after a tab switch (in the same read) go to the new tab's widgets,
        // which need laying out first.
        if needsLayout { layOutSelectedTab() }
        defer { setNeedsDisplay() }
        // The palette and the help overlay are modal: they take every key.
        if var palette {
            switch palette.handle(key) {
            case .stay:
                self.palette = palette
            case .close:
                self.palette = nil
            case .run(let entry):
                self.palette = nil
                var trace = RoutingTrace(key: key)
                trace.record(took: .sheet, "palette ran \(entry.id)", command: entry.id)
                lastRoutingTrace = trace
                inPane { entry.command.action() }
            }
            return
        }
        if var overlay = actionLogOverlay {
            switch overlay.handle(key, log: logic.actionLog, page: max(1, terminal.size.height - 10)) {
            case .stay: actionLogOverlay = overlay
            case .close: actionLogOverlay = nil
            }
            return
        }
        if isShowingHelp {
            switch key.code {
            case .escape, .enter, .char("?"), .char("q"): isShowingHelp = false
            default: break
            }
            return
        }
        let modal = topModal
        // Esc first dismisses a message that would not go by itself (an error).
        if modal == nil, key == KeyEvent(.escape), modals.dismissStickyToast() {
            var trace = RoutingTrace(key: key)
            trace.record(took: .host, "dismissed a message")
            lastRoutingTrace = trace
            return
        }
        let registry = activeRegistry()
        let tree = activeTree
        let modals = self.modals
        let sheet: KeyRouter.LevelHandler? = modal.map { modal in { key in modals.handleKey(key, in: modal) } }
        let trace = router.route(key, registry: registry, sheet: sheet) { key in
            let inText = tree.focusedWidgetTakesText
            guard tree.handleKey(key) else { return nil }
            return inText && tree.focusedID == nil ? "the text field: Esc left it" : "the focused widget"
        }
        lastRoutingTrace = trace
        if router.pendingChord != nil {
            chordTimer.schedule(after: router.chords.timeout) { [weak self] in
                guard let self else { return }
                self.router.expireChord()
                self.setNeedsDisplay()
            }
        } else {
            chordTimer.cancel()
        }
    }

    /// Every command the keys can reach now, in routing order, with the keymap applied: the
    /// focused applet's commands, then the host's. The footer, help and palette list from it.
    public func activeRegistry() -> CommandRegistry {
        var registry = CommandRegistry()
        let applet = activeApplet
        if let modal = topModal {
            // Modal: the sheet's keys, and only the host keys no widget or sheet can take.
            registry.register(modals.commands(for: modal), scope: .sheet, owner: "sheet")
            let priority = hostCommands.commands(tabCount: tabs.count, focusStops: true).filter(\.isPriority)
            registry.register(priority, scope: .host, owner: "host")
            registry.apply(keymap)
            return registry
        }
        let tab = selectedTab, pane = focusedPane[selectedTab], tree = activeTree
        let focusStops = tree.hasFocusableWidgets || tabs[tab].panes.count > 1
        let embedded = tree.hasRendered ? EmbeddedApplets.applets(in: tree) : nil
        let key = RegistryCache.Key(
            tab: tab, pane: pane, focusStops: focusStops,
            embedded: embedded?.map { $0.applet.id + ($0.hasFocus ? "*" : "") } ?? ["(not drawn yet)"],
            embeddingRender: embedded?.isEmpty == false ? tree.frameTime : nil)
        return registryCache.registry(for: key) {
            var registry = CommandRegistry()
            registerAppletCommands(tab: tab, pane: pane, in: &registry)
            registry.register(navigationCommands(tab: tab, pane: pane), scope: .navigation, owner: applet.id)
            registry.register(hostCommands.commands(tabCount: tabs.count, focusStops: focusStops), scope: .host, owner: "host")
            registry.apply(keymap)
            return registry
        }
    }

    /// The active registry between keys and frames (see `RegistryCache`): state its commands read
    /// changing asks for a frame, which shows the new footer.
    private lazy var registryCache = RegistryCache(onChange: frameOnNextTurn)

    /// What an observer of the chrome or the registry calls when what it read changes (on the
    /// thread that changed it): a frame, asked for at once on the main run loop's thread, else
    /// on the next turn of the main queue (see `MainRunLoop.perform`). Made once.
    private lazy var frameOnNextTurn: @Sendable () -> Void = { [weak self] in
        MainRunLoop.perform { self?.setNeedsDisplay() }
    }

    /// The commands of the pane's applet and of the applets shown inside its view, so an applet
    /// embedded in another works as it does in a pane of its own: the embedded applet holding the
    /// focused widget first, then the pane's applet, then the other embedded ones in drawing order.
    private func registerAppletCommands(tab: Int, pane: Int, in registry: inout CommandRegistry) {
        let applet = tabs[tab].panes[pane]
        let embedded = embeddedApplets(tab: tab, pane: pane)
        let order = embedded.filter(\.hasFocus).map(\.applet) + [applet] + embedded.filter { !$0.hasFocus }.map(\.applet)
        for item in order {
            registry.register(inPane(tab: tab, pane: pane) { item.commands }, scope: .applet, owner: item.id)
        }
    }

    /// The applets inside a pane's view. A pane not drawn yet (another tab, or before the first
    /// frame, when the keymap is checked) is evaluated once in a tree of its own that starts no
    /// tasks and is thrown away, so its embedded commands are known and can be rebound.
    private func embeddedApplets(tab: Int, pane: Int) -> [(applet: any Applet, hasFocus: Bool)] {
        let tree = trees[tab][pane]
        if tree.hasRendered { return EmbeddedApplets.applets(in: tree) }
        let applet = tabs[tab].panes[pane]
        let probe = ViewTree()
        probe.startsTasks = false
        EmbeddedApplets.setOwner(applet.id, of: probe)
        var canvas = Canvas(size: terminal.size)
        let rect = Rect(origin: .zero, size: terminal.size)
        inPane(tab: tab, pane: pane) {
            if let navigating = applet as? any NavigationApplet {
                probe.render(navigating.stackView, in: rect, on: &canvas, isActive: false)
            } else {
                probe.render(applet, in: rect, on: &canvas, isActive: false)
            }
        }
        return EmbeddedApplets.applets(in: probe).map { ($0.applet, false) }
    }

    /// `Esc` (and `Backspace`, which a focused text widget takes first) goes back one screen.
    private func navigationCommands(tab: Int, pane: Int) -> [Command] {
        guard let navigating = tabs[tab].panes[pane] as? any NavigationApplet else { return [] }
        let depth = inPane(tab: tab, pane: pane) { navigating.navigationDepth }
        let scope = paneScope(tab: tab, pane: pane)
        return [Command(id: "navigation.back", "Back", keys: ["esc", "backspace"], isEnabled: depth > 0) { [application] in
            Application.withCurrent(application) { Scope.with(scope) { navigating.popNavigation(toDepth: depth - 1) } }
        }]
    }

    /// Every command of every tab and pane as the registry sees it there (for `keys --check` and
    /// conflict tests): one registry per pane.
    public func allRegistries() -> [(tab: Int, pane: Int, registry: CommandRegistry)] {
        var result: [(Int, Int, CommandRegistry)] = []
        for (t, tab) in tabs.enumerated() {
            for (p, applet) in tab.panes.enumerated() {
                var registry = CommandRegistry()
                registerAppletCommands(tab: t, pane: p, in: &registry)
                registry.register(navigationCommands(tab: t, pane: p), scope: .navigation, owner: applet.id)
                registry.register(hostCommands.commands(tabCount: tabs.count, focusStops: true), scope: .host, owner: "host")
                registry.apply(keymap)
                result.append((t, p, registry))
            }
        }
        return result
    }

    /// What is wrong with the keys: commands of the keymap that do not exist, keys bound twice in
    /// one scope, keys that start a chord and so never run alone. Empty when all is well.
    public func keyProblems() -> [String] {
        let registries = allRegistries()
        var known = Set<String>()
        for (_, _, registry) in registries { known.formUnion(registry.ids) }
        var problems = keymap.unknownIDs(known: known).map(\.description)
        var seen = Set<String>()
        for (tab, _, registry) in registries {
            for conflict in registry.conflicts() where seen.insert(conflict.description).inserted {
                problems.append("tab \(tab + 1): \(conflict)")
            }
            for (id, titles) in registry.duplicateIDs() where seen.insert(id).inserted {
                problems.append("tab \(tab + 1): \(titles.count) commands have the id \(id) (\(titles.joined(separator: ", "))); give them ids of their own")
            }
        }
        return problems
    }

    /// Shows a warning toast that stays until `Esc` (a problem the user should read).
    public func notify(_ message: String) {
        application.toast(message, style: .warning)
        setNeedsDisplay()
    }

    /// The toasts on screen, oldest first.
    public var toasts: [Toast] { application.toasts.value }

    /// Whether a sheet or a confirmation has the keyboard.
    public var isShowingModal: Bool { topModal != nil }

    /// The typed keys of an unfinished chord (`g`), while it waits for the rest.
    public var pendingChord: String? { router.pendingChord }

    /// Opens the command palette over the screen.
    public func openPalette() {
        isShowingHelp = false
        palette = CommandPalette(entries: activeRegistry().entries.filter { $0.id != "host.palette" })
        setNeedsDisplay()
    }

    /// Opens the devtools' action log over the screen (`F12`).
    public func openActionLog() {
        palette = nil
        isShowingHelp = false
        actionLogOverlay = ActionLogOverlay()
        setNeedsDisplay()
    }

    /// Writes the recording every second while the app runs (and `quit` closes it).
    private func startFlushing(_ recorder: SessionRecorder) {
        flushTask = Task.detached(priority: .utility) {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                recorder.flush()
            }
        }
    }

    /// Opens the help overlay.
    public func openHelp() {
        palette = nil
        actionLogOverlay = nil
        isShowingHelp = true
        setNeedsDisplay()
    }

    /// Suspends the app as Ctrl-Z does (the shell's `fg` resumes it).
    public func suspend() {
        terminal.suspend()
    }

    private func handleMouse(_ mouse: MouseEvent) {
        if let modal = topModal {
            // Modal: clicks reach the sheet's widgets and nothing behind it.
            if modals.handleMouse(mouse, in: modal) { setNeedsDisplay() }
            return
        }
        if mouse.position.y < shell.height {
            switch shell {
            case .tabBar:
                if case .press(.left) = mouse.kind,
                   let index = TabBarView.hitRanges(titles: tabs.map(\.title)).firstIndex(where: { $0.contains(mouse.position.x) }) {
                    select(tab: index)
                }
            case .custom:
                if shellTree.handleMouse(mouse) { setNeedsDisplay() }
            case .none:
                break
            }
            return
        }
        if needsLayout { layOutSelectedTab() }
        let rects = paneLayout(in: terminal.size).rects
        // Drags and the release go to the pane the button went down in, wherever the pointer is.
        var captured: Int?
        switch mouse.kind {
        case .drag, .release: captured = mouseCapturePane
        case .press: mouseCapturePane = nil
        default: break
        }
        guard let pane = captured ?? rects.firstIndex(where: { $0.contains(mouse.position) }) else { return }
        if case .press = mouse.kind { mouseCapturePane = pane }
        if case .release = mouse.kind { mouseCapturePane = nil }
        if case .press = mouse.kind, focusedPane[selectedTab] != pane {
            focusedPane[selectedTab] = pane
            setNeedsDisplay()
        }
        // A click on the breadcrumb goes back to that level.
        let rect = rects[pane]
        if case .press(.left) = mouse.kind, mouse.position.y == rect.y,
           let navigating = tabs[selectedTab].panes[pane] as? any NavigationApplet,
           inPane(pane: pane, { navigating.navigationDepth }) > 0 {
            let crumbs = Breadcrumb(inPane(pane: pane) { navigating.breadcrumbTitles })
            if let level = crumbs.level(at: mouse.position.x - rect.x - 1, width: rect.width - 2) {
                inPane(pane: pane) { navigating.popNavigation(toDepth: level) }
                setNeedsDisplay()
            }
            return
        }
        if inPane(pane: pane, { trees[selectedTab][pane].handleMouse(mouse) }) { setNeedsDisplay() }
    }

    /// The pane a mouse button went down in, until it is released.
    private var mouseCapturePane: Int?

    /// Selects a tab (0-based); out-of-range indexes are ignored.
    public func select(tab index: Int) {
        guard tabs.indices.contains(index), index != selectedTab else { return }
        // The tab going away is no longer shown: its views' tasks end (and start again on return).
        for tree in trees[selectedTab] { tree.disappear() }
        selectedTab = index
        // The store says which tab is up, so it comes back after a restart and applets can switch.
        let id = tabs[index].id
        routedTabID = id
        if application.tabRouter.value.selectedTab != id { application.tabRouter.value.selectedTab = id }
        setNeedsDisplay()
    }

    /// The tab id the host last took from or wrote to the store's `TabRouter`.
    private var routedTabID: String?

    /// An applet selected a tab through the store's `TabRouter`: show it.
    private func followTabRouter() {
        let wanted = application.tabRouter.value.selectedTab
        guard wanted != routedTabID else { return }
        routedTabID = wanted
        if let wanted, let index = tabs.firstIndex(where: { $0.id == wanted }), index != selectedTab { select(tab: index) }
    }

    /// Selects the tab `offset` places to the right (negative: left), wrapping around.
    public func selectNextTab(by offset: Int) {
        select(tab: ((selectedTab + offset) % tabs.count + tabs.count) % tabs.count)
    }

    /// Moves focus to the next (or previous) widget, then to the next pane, as Tab does.
    public func moveFocus(forward: Bool) {
        let panes = trees[selectedTab]
        var pane = focusedPane[selectedTab]
        let tree = panes[pane]
        if panes.count == 1, tree.focusableCount == 1, tree.focusedID != nil {
            // One widget alone (a lone text field): Tab steps out to the pane, where the app's
            // keys work, and Tab again steps back in. Nothing traps the keyboard.
            tree.resignFocus()
            setNeedsDisplay()
            return
        }
        if tree.moveFocus(forward: forward, wrap: panes.count == 1) { setNeedsDisplay(); return }
        guard panes.count > 1 else { return }
        pane = (pane + (forward ? 1 : -1) + panes.count) % panes.count
        focusedPane[selectedTab] = pane
        panes[pane].focusEdge(first: forward)
        setNeedsDisplay()
    }

    private var activeTree: ViewTree { trees[selectedTab][focusedPane[selectedTab]] }
    private var activeApplet: any Applet { tabs[selectedTab].panes[focusedPane[selectedTab]] }

    /// The instance scope of a pane: `scopedState` an applet declares is kept per pane, so two
    /// instances of one applet (two counters in a split) do not share it.
    func paneScope(tab: Int, pane: Int) -> Scope {
        paneInfo[tab][pane].scope
    }

    /// What the host asks of a pane on every key and frame, worked out once (the tabs never
    /// change): its scope, and its applet as a `NavigationApplet` if it is one (a string
    /// interpolation and a dynamic cast each were paid several times a key).
    struct PaneInfo {
        let scope: Scope
        let navigating: (any NavigationApplet)?
    }

    private let paneInfo: [[PaneInfo]]

    /// Runs `body` in the store with a pane's scope in effect (the focused pane of the selected
    /// tab by default): how the host evaluates an applet's views, commands and actions.
    func inPane<R>(tab: Int? = nil, pane: Int? = nil, _ body: () throws -> R) rethrows -> R {
        let t = tab ?? selectedTab
        let p = pane ?? focusedPane[t]
        return try Application.withCurrent(application) { try Scope.with(paneScope(tab: t, pane: p), body) }
    }

    /// The modal that has the keyboard, if any (the focused pane's sheet, or a confirmation).
    private var topModal: ModalLayer.Modal? {
        let pane = paneInfo[selectedTab][focusedPane[selectedTab]]
        return modals.topModal(navigating: pane.navigating, scope: pane.scope)
    }

    // MARK: Frames

    /// Asks for a frame on the next turn of the main queue; many calls in one turn draw once.
    public func setNeedsDisplay() {
        frames.setNeedsDisplay()
    }

    /// Evaluates every pane of the selected tab again on the next frame, whether or not the state
    /// it read changed (for views that draw from something the store does not track).
    public func redrawAll() {
        for tree in trees[selectedTab] { tree.invalidate() }
        setNeedsDisplay()
    }

    /// Whether a frame is wanted and not yet drawn (the test harness waits for none to be).
    package var hasPendingFrame: Bool { frames.hasPendingFrame }

    /// Draws a frame now if anything changed since the last one (tests call this after events).
    public func renderIfNeeded() {
        frames.renderIfNeeded()
    }

    /// Evaluates and lays out the selected tab without showing it, so that keys arriving in the
    /// same turn as a tab switch reach the right widgets. The frame still goes out once, at the
    /// end of the turn: a burst of keys costs one screen update.
    private func layOutSelectedTab() {
        _ = drawFrame()
    }

    /// The last frame, kept so that panes whose state did not change are not drawn again.
    private var frame = Canvas(size: .zero)
    /// What the chrome around the panes looked like last frame; when it changes, every pane of
    /// the tab is drawn again (the help overlay, sheets and toasts sit over panes).
    @exclusivity(unchecked) private var lastChrome: Chrome?
    private struct Chrome: Hashable {
        var size: Size
        var tab: Int
        var help: Bool
        var palette: Bool
        var actionLog: Bool
        var overlays: String
        var trace: String?
        var shellHeight: Int
        var statusBar: Bool

        /// Whether nothing is drawn over the panes: no overlay, sheet, toast, confirmation or trace.
        var showsBarePanes: Bool { !help && !palette && !actionLog && overlays.isEmpty && trace == nil }
    }

    private var currentChrome: Chrome {
        Chrome(size: terminal.size, tab: selectedTab, help: isShowingHelp, palette: palette != nil, actionLog: actionLogOverlay != nil,
               overlays: modals.fingerprint(panes: paneInfo[selectedTab]),
               trace: showsRoutingTrace ? lastRoutingTrace?.summary : nil,
               shellHeight: shell.height, statusBar: statusBar != nil)
    }

    private func drawFrame() -> Canvas {
        let changesBefore = application.changes
        followTabRouter()
        let chrome = currentChrome
        if chrome != lastChrome {
            // A tab switch with nothing over the panes: the tab left keeps what its panes drew, and
            // the tab shown puts back what it kept if nothing it reads changed meanwhile, rather
            // than evaluating and drawing its views again (see ViewTree.keepDrawnCells).
            let left = lastChrome.flatMap { $0.showsBarePanes && $0.size == chrome.size && $0.tab != chrome.tab ? $0.tab : nil }
            if let left { for tree in trees[left] { tree.keepDrawnCells(from: frame) } }
            // Cleared in place when the size is the same: the terminal keeps its own copy of the
            // last frame, so this one is not shared and no new screen is allocated.
            if frame.size == terminal.size { frame.fill(frame.bounds) } else { frame = Canvas(size: terminal.size) }
            for tree in trees[selectedTab] {
                if left != nil && chrome.showsBarePanes { tree.restoreKeptCells() } else { tree.invalidate() }
            }
        }
        // Each pane tracks the state it reads (ViewTree.renderIfNeeded): a change to it redraws that
        // pane alone, from whichever thread made it. The chrome's own reads (the tab router, the
        // status bar, sheets, toasts, store issues) are observed by `draw`.
        Application.withCurrent(application) { draw(on: &frame, chrome: chrome) }
        lastChrome = currentChrome
        renderedTab = selectedTab
        renderedLayout = Application.withCurrent(application) { layoutKey }
        if trees[selectedTab].contains(where: \.needsAnimationFrame) { frames.scheduleAnimationFrame() }
        // A change on another thread while the frame was evaluated is in neither the frame nor the
        // observation that starts only now: draw once more. (The store tells observers only after
        // a value is stored, so a redraw they trigger never reads the old value.)
        if application.changes != changesBefore {
            for tree in trees[selectedTab] { tree.invalidate() }
            setNeedsDisplay()
        }
        return frame
    }

    /// The tab the last frame showed.
    @exclusivity(unchecked) private var renderedTab = -1
    /// `layoutKey` when the last frame was drawn.
    @exclusivity(unchecked) private var renderedLayout = 0

    /// What decides which widgets the trees hold: the tab, each pane's screen and sheets, the
    /// confirmation. A key that changed it (Enter pushing a screen) makes the next key in the same
    /// read go to the new screen's widgets, laid out first, as a person typing ahead expects.
    private var layoutKey: Int {
        var hasher = Hasher()
        hasher.combine(selectedTab)
        for (pane, info) in paneInfo[selectedTab].enumerated() {
            if let navigating = info.navigating {
                hasher.combine(inPane(pane: pane) { navigating.navigationKey })
            }
        }
        hasher.combine(application.confirmations.value.last?.id)
        return hasher.finalize()
    }

    /// Whether the trees must be laid out again before they take an event.
    private var needsLayout: Bool {
        renderedTab != selectedTab || Application.withCurrent(application) { layoutKey } != renderedLayout
    }

    private func draw(on canvas: inout Canvas, chrome: Chrome) {
        let size = canvas.size
        guard size.width >= Self.minimumSize.width, size.height >= Self.minimumSize.height else {
            chromeTree.render(TooSmallView(size: size, minimum: Self.minimumSize), in: Rect(origin: .zero, size: size), on: &canvas)
            return
        }
        let layout = paneLayout(in: size)
        let chromeKey = self.chromeKey(chrome)
        shellObservation.run(key: chromeKey) {
            _ = application.tabRouter.value   // an applet may select a tab
            drawShell(on: &canvas)
        }
        // Outside the chrome's observation: each pane observes what it reads itself, and nested
        // tracking would register every pane's reads a second time, for the whole frame.
        let modalUp = topModal != nil
        for (i, applet) in tabs[selectedTab].panes.enumerated() {
            let tree = trees[selectedTab][i]
            let isActive = i == focusedPane[selectedTab] && !modalUp
            _ = Scope.with(paneInfo[selectedTab][i].scope) {
                if let navigating = paneInfo[selectedTab][i].navigating {
                    tree.renderIfNeeded(navigating.stackView, in: layout.rects[i], on: &canvas, isActive: isActive)
                } else {
                    tree.renderIfNeeded(applet, in: layout.rects[i], on: &canvas, isActive: isActive)
                }
            }
        }
        overPanesObservation.run(key: chromeKey) { drawOverPanes(layout, on: &canvas) }
    }

    /// What the chrome reads is observed, a change asks for a frame; an observation is installed
    /// again only when it fired or `chromeKey` changed (see `ChromeObservation`).
    private lazy var shellObservation = ChromeObservation(onChange: frameOnNextTurn)
    private lazy var overPanesObservation = ChromeObservation(onChange: frameOnNextTurn)
    /// How many observations of the chrome were installed (tests).
    var chromeObservationsInstalled: Int { shellObservation.installed + overPanesObservation.installed }

    /// The host state, not observable, that decides what the chrome reads: the chrome's shape
    /// (tab, overlays, size..., as `drawFrame` found it), the focused pane (whose commands the
    /// footer shows) and a chord in progress.
    private func chromeKey(_ chrome: Chrome) -> Int {
        var hasher = Hasher()
        hasher.combine(chrome)
        hasher.combine(focusedPane[selectedTab])
        hasher.combine(router.pendingChord)
        return hasher.finalize()
    }

    /// The top line: the tab bar, the app's own shell view, or nothing.
    private func drawShell(on canvas: inout Canvas) {
        let top = Rect(x: 0, y: 0, width: canvas.size.width, height: shell.height)
        switch shell {
        case .tabBar:
            tabBarLine.draw(TabBarView(titles: tabs.map(\.title), selected: selectedTab), in: top, on: &canvas, tree: chromeTree)
        case .custom(let makeView):
            canvas.fill(top)
            shellTree.render(makeView(ShellState(titles: tabs.map(\.title), ids: tabs.map(\.id), selected: selectedTab)),
                             in: top, on: &canvas, isActive: false)
        case .none:
            break
        }
    }

    /// What is drawn over and around the panes: dividers, sheets, the status bar, the footer,
    /// toasts, the confirmation and the overlays.
    private func drawOverPanes(_ layout: PaneLayout, on canvas: inout Canvas) {
        let size = canvas.size
        layout.drawDividers(with: chromeTree, on: &canvas)
        modals.drawSheets(panes: paneInfo[selectedTab], rects: layout.rects, on: &canvas)
        if let statusBar {
            let y = size.height - 2
            canvas.fill(Rect(x: 0, y: y, width: size.width, height: 1))
            statusTree.render(statusBar, in: Rect(x: 0, y: y, width: size.width, height: 1), on: &canvas)
        }
        drawFooter(on: &canvas)
        showStoreIssues()
        modals.drawToasts(above: layout.area.maxY, width: size.width, on: &canvas)
        if showsRoutingTrace, let trace = lastRoutingTrace {
            chromeTree.render(RoutingTraceLine(summary: trace.summary, width: size.width),
                              in: Rect(x: 0, y: layout.area.maxY - 1, width: size.width, height: 1), on: &canvas)
        }
        modals.drawConfirmation(in: Rect(x: 0, y: shell.height, width: size.width, height: size.height - 1 - shell.height), on: &canvas)
        if isShowingHelp { drawHelp(on: &canvas) }
        if let palette { drawPalette(palette, on: &canvas) }
        if let actionLogOverlay { drawActionLog(actionLogOverlay, on: &canvas) }
    }

    /// Draws the host's own views (tab bar, dividers, footer): their widgets hold no state.
    private let chromeTree = ViewTree()
    /// Draws the app's status bar.
    private let statusTree = ViewTree()

    /// Where the selected tab's panes go: between the tab bar and the status bar (if any) and
    /// the footer.
    private func paneLayout(in size: Size) -> PaneLayout {
        let bottom = 1 + (statusBar == nil ? 0 : 1)
        let area = Rect(x: 0, y: shell.height, width: size.width, height: max(0, size.height - shell.height - bottom))
        return PaneLayout(panes: tabs[selectedTab].panes.count, split: tabs[selectedTab].split, in: area)
    }

    // MARK: Store problems

    /// How many store issues have been shown; each is shown once.
    private var issuesShown = 0

    /// A problem with stored state (a corrupt file moved aside, an unwritable folder) shows once,
    /// as an error toast that stays until `Esc`.
    private func showStoreIssues() {
        let issues = application.storeIssues.value
        guard issues.count > issuesShown else { return }
        for issue in issues[issuesShown...] { application.toast(issue.message, style: .error) }
        issuesShown = issues.count
    }

    /// The footer: the keys that reach their command now, or the pending chord.
    private func drawFooter(on canvas: inout Canvas) {
        let size = canvas.size
        let view: FooterView
        if let pending = router.pendingChord {
            view = FooterView(pendingChord: pending, width: size.width)
        } else {
            let tree = activeTree
            let items = FooterItem.items(registry: activeRegistry(), tabCount: tabs.count, typing: tree.focusedWidgetTakesText,
                                         consumes: tree.focusedWidgetKeyFilter())
            view = FooterView(items: items, width: size.width)
        }
        footerLine.draw(view, in: Rect(x: 0, y: size.height - 1, width: size.width, height: 1), on: &canvas, tree: chromeTree)
    }

    /// The tab bar and the footer as last drawn: on most frames neither changes.
    private var tabBarLine = ChromeLine<TabBarView>()
    private var footerLine = ChromeLine<FooterView>()

    /// Keys that are not commands, listed in help.
    static let fixedHelpRows: [(keys: String, title: String)] = [
        ("Ctrl-C", "Quit, always"), ("Enter Space", "Press the focused button"), ("↑↓ j k", "Move in lists"),
        ("Esc", "Leave a text field; close this"),
    ]

    /// The help overlay: every command of the registry, grouped by scope, in a box over the panes.
    private func drawHelp(on canvas: inout Canvas) {
        let tree = activeTree
        let view = CommandHelpView(title: "Keys: \(tabs[selectedTab].title)", registry: activeRegistry(), fixed: Self.fixedHelpRows,
                                   widgetTakes: tree.focusedWidgetKeyFilter())
        drawOverlay(view, wanted: view.idealSize, on: &canvas, tree: helpTree)
    }

    /// The command palette, in a box near the top.
    private func drawPalette(_ palette: CommandPalette, on canvas: inout Canvas) {
        let size = canvas.size
        let rows = max(1, min(12, size.height - 8))
        let view = CommandPaletteView(palette: palette, visibleRows: rows)
        drawOverlay(view, wanted: Size(width: min(72, size.width - 4), height: rows + 5), on: &canvas, tree: paletteTree)
    }

    /// The action log, in a box over most of the screen; it redraws as entries arrive.
    private func drawActionLog(_ overlay: ActionLogOverlay, on canvas: inout Canvas) {
        let size = canvas.size
        let rows = max(1, size.height - 8)
        let view = ActionLogView(overlay: overlay, log: logic.actionLog, visibleRows: rows)
        drawOverlay(view, wanted: Size(width: min(110, size.width - 2), height: rows + 5), on: &canvas, tree: actionLogTree)
    }

    private let actionLogTree = ViewTree()
    private let helpTree = ViewTree()
    private let paletteTree = ViewTree()

    /// Draws an overlay view centred over the panes, on a cleared box.
    private func drawOverlay<V: View>(_ view: V, wanted: Size, on canvas: inout Canvas, tree: ViewTree) {
        let size = canvas.size
        let width = min(size.width - 2, wanted.width)
        let height = min(size.height - 2, wanted.height)
        guard width > 4, height > 2 else { return }
        let box = Rect(x: (size.width - width) / 2, y: max(1, (size.height - height) / 2), width: width, height: height)
        canvas.fill(box, with: .blank())
        tree.theme = theme.resolved(for: terminal.colorSupport)
        tree.render(view, in: box, on: &canvas)
    }
}
