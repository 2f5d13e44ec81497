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

/// The host shell: a stack of layers over the terminal. At the bottom the selected tab's applet
/// panes, then the top line (the tab bar), sheets, the status bar and the footer, toasts, views
/// applets presented, the confirmation, and the overlays (`Ctrl-P` palette, `?` help, `F12` action
/// log). Each is a `HostLayer` with one contract: input goes top down to the first layer that
/// takes it (a modal one takes everything), drawing goes bottom up, and the commands a layer
/// offers are what the router runs and the footer, help and palette list.
///
/// One way through a frame: input becomes an event; the event is routed (`AppletHost+Input`) and
/// changes state; state marks trees dirty; once per turn the frame is laid out and the layers are
/// composed into one canvas (`AppletHost+Frame`), which the terminal presents as one diff.
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
/// in progress, priority commands, the top modal layer (or the focused widget), then commands:
/// the focused applet's, the navigation stack's, the host's own (`HostCommands`: `1`–`9` and
/// `alt-1`…`alt-9` select a tab, `]`/`[` and `ctrl-pgdn`/`ctrl-pgup` next/previous tab,
/// `Tab`/`Shift-Tab` move focus, `Ctrl-P` the command palette, `?` help, `q` quits, `Ctrl-Z`
/// suspends). `Ctrl-C` always quits. A `Keymap` rebinds any command by id.
@MainActor
public final class AppletHost {
    // Fields every key or frame reads are `@exclusivity(unchecked)`: the host lives on the main
    // actor and none of them is accessed while another access to it is open, so the run-time
    // check proves nothing and costs about a hundred instructions each time.
    public let tabs: [Tab]
    public let application: Application
    /// The tab on screen (0-based).
    @exclusivity(unchecked) public internal(set) var selectedTab: Int
    let terminal: any Terminal
    /// Decides when a frame is drawn (`setNeedsDisplay`, the animation clock).
    lazy var frames = FrameScheduler(animationInterval: Self.animationFrameInterval) { [unowned self] in
        self.terminal.present(self.drawFrame())
    }
    private var quitContinuation: CheckedContinuation<Void, Never>?
    private var flushTask: Task<Void, Never>?
    public private(set) var isRunning = false
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
                recorder.begin(size: TerminalSize(columns: terminal.size.width, rows: terminal.size.height))
                startFlushing(recorder)
            }
        }
    }
    /// The user's keymap: commands rebound by id.
    public let keymap: Keymap
    /// How the last key was routed: which level took it and why the others did not.
    @exclusivity(unchecked) public internal(set) var lastRoutingTrace: RoutingTrace?
    /// What a layer says the key did, in place of the router's trace (the palette ran a command).
    @exclusivity(unchecked) var traceOverride: RoutingTrace?
    /// Shows `lastRoutingTrace` on the line above the footer (`--debug-keys`).
    @exclusivity(unchecked) public var showsRoutingTrace = false
    var router: KeyRouter
    /// Measures the chord timeout (tests use a TestClock).
    let chordTimer: ScheduledAction
    lazy var hostCommands = HostCommands(host: self)
    /// The signal that ended the run (SIGTERM, SIGINT, SIGHUP), nil when the user quit.
    /// A command-line host exits with `128 + signal`, as shells expect.
    public internal(set) var terminationSignal: Int32?

    /// The colour theme in use (its styles are resolved for the terminal's colours when the run
    /// starts). With `themes`, the one of the pair that fits the terminal's background, chosen at
    /// start.
    public private(set) var theme: Theme
    /// The dark and light themes to choose from by the terminal's background (nil: `theme` as given).
    public let themes: (dark: Theme, light: Theme)?
    /// The theme resolved for this terminal's colours (set when the run starts).
    public internal(set) var resolvedTheme: ResolvedTheme = .standard
    /// Whether widgets animate when shown or hidden (`--no-animation` turns it off).
    public let animationsEnabled: Bool
    /// How often the frame clock ticks while something animates.
    public static let animationFrameInterval = Duration.milliseconds(33)
    /// What the top line shows: the tab bar, nothing, or the app's own view.
    public var shell: HostShell = .tabBar {
        didSet { setNeedsDisplay() }
    }

    // MARK: The layers, bottom to top

    /// The selected tab's panes.
    private(set) lazy var panes = PanesLayer(host: self, tabs: tabs)
    /// The top line.
    private(set) lazy var shellLayer = ShellLayer(host: self)
    /// The sheets of navigating applets.
    private(set) lazy var sheets = SheetLayer(host: self)
    /// The app's status bar.
    private(set) lazy var statusLayer = StatusBarLayer(host: self)
    /// The keys that work now.
    private(set) lazy var footer = FooterLayer(host: self)
    /// `--debug-keys`.
    private(set) lazy var traceLayer = RoutingTraceLayer(host: self)
    /// Toasts and store problems.
    let toastLayer: ToastLayer
    /// Views applets presented.
    private(set) lazy var presentationLayer = PresentationLayer(host: self)
    /// The confirmation a request asked for.
    let confirmationLayer: ConfirmationLayer
    /// The palette, help and action log, bottom first: each modal while it is on top.
    @exclusivity(unchecked) private(set) var overlays: [any HostLayer] = []

    /// Every layer, bottom to top (what is drawn in that order, and asked for input the other way).
    var layers: [any HostLayer] {
        [panes, shellLayer, sheets, statusLayer, footer, traceLayer, toastLayer, presentationLayer, confirmationLayer] + overlays
    }

    /// What the frame pipeline keeps between frames (see `AppletHost+Frame`).
    final class FrameState {
        var canvas = Canvas(size: .zero)
        /// What was over the panes last frame; when it changes, every pane is drawn again.
        @exclusivity(unchecked) var lastChrome: Chrome?
        /// The tab the last frame showed, and `layoutKey` then.
        @exclusivity(unchecked) var renderedTab = -1
        @exclusivity(unchecked) var renderedLayout = 0
        /// Counts events and frames: a modal layer's registry is kept within one.
        @exclusivity(unchecked) var turn = 0
    }
    let frameState = FrameState()
    var lastChrome: Chrome? {
        get { frameState.lastChrome }
        set { frameState.lastChrome = newValue }
    }
    var renderedTab: Int {
        get { frameState.renderedTab }
        set { frameState.renderedTab = newValue }
    }
    var renderedLayout: Int {
        get { frameState.renderedLayout }
        set { frameState.renderedLayout = newValue }
    }
    var turn: Int {
        get { frameState.turn }
        set { frameState.turn = newValue }
    }

    /// The panes' registry between keys and frames (see `RegistryCache`): state its commands read
    /// changing asks for a frame, which shows the new footer.
    lazy var registryCache = RegistryCache(onChange: frameOnNextTurn)
    let modalRegistries = ModalRegistries()

    /// What an observer of the layers or the registry calls when what it read changes (on the
    /// thread that changed it): a frame, asked for at once on the main run loop's thread, else
    /// on the next turn of the main queue (see `MainRunLoop.perform`). Made once.
    lazy var frameOnNextTurn: @Sendable () -> Void = { [weak self] in
        MainRunLoop.perform { self?.setNeedsDisplay() }
    }

    /// What the top line and the layers over the panes read is observed, a change asks for a
    /// frame; an observation is installed again only when it fired or the chrome changed (see
    /// `ChromeObservation`).
    lazy var shellObservation = ChromeObservation(onChange: frameOnNextTurn)
    lazy var overPanesObservation = ChromeObservation(onChange: frameOnNextTurn)
    /// Draws the message shown when the terminal is too small.
    let tooSmallTree = ViewTree()

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
    ///   - theme: the colour theme, `.dark` or `.light` or your own; nil follows the terminal's
    ///     background with `themes` (`.dark` on a dark background or when the terminal does not
    ///     say, `.light` on a light one).
    ///   - themes: the pair a `theme` of nil chooses from.
    ///   - animations: whether widget transitions animate; by default they do on a real terminal
    ///     and not on a headless one (tests see final states at once).
    ///   - keymap: the user's key bindings by command id (`Keymap.load(path:)`); none by default.
    ///   - clock: what chord timeouts and messages are timed with (a `TestClock` in tests).
    ///   - chordTimeout: how long a chord waits for its next key.
    public init(tabs: [Tab], initialTab: Int? = nil, application: Application = .current, terminal: (any Terminal)? = nil,
                theme: Theme? = .dark, themes: (dark: Theme, light: Theme) = (.dark, .light),
                animations: Bool? = nil, keymap: Keymap = Keymap(),
                clock: any Clock<Duration> = MainQueueClock(), chordTimeout: Duration = ChordMatcher.defaultTimeout) throws {
        precondition(!tabs.isEmpty, "AppletHost needs at least one tab")
        self.tabs = tabs
        self.application = application
        let stored = application.tabRouter.value.selectedTab.flatMap { id in tabs.firstIndex { $0.id == id } }
        self.selectedTab = initialTab.flatMap { tabs.indices.contains($0) ? $0 : nil } ?? stored ?? 0
        let chosen = try terminal ?? NcursesTerminal(environment: ProcessEnvironment.current)
        self.terminal = chosen
        self.theme = theme ?? themes.dark
        self.themes = theme == nil ? themes : nil
        self.animationsEnabled = animations ?? (chosen is NcursesTerminal)
        self.keymap = keymap
        self.router = KeyRouter(chordTimeout: chordTimeout)
        self.chordTimer = ScheduledAction(clock: clock)
        self.toastLayer = ToastLayer(application: application, clock: clock)
        self.confirmationLayer = ConfirmationLayer(application: application)
        // The store says which tab is up from the start, so an applet's later choice is a change.
        let shown = tabs[selectedTab].id
        if application.tabRouter.value.selectedTab != shown { application.tabRouter.value.selectedTab = shown }
        self.routedTabID = shown
        _ = panes
        logic.onUnhandledError = { [weak self] error in
            self?.application.toast("\(error)", style: .error)
        }
        performRunProgram()
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

    // MARK: Running

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
        TerminalSize.current = TerminalSize(columns: size.width, rows: size.height)
        if let recorder {
            recorder.begin(size: TerminalSize(columns: size.width, rows: size.height))
            startFlushing(recorder)
        }
        // Colours are known only once the terminal has started.
        if let themes { theme = terminal.backgroundIsDark == false ? themes.light : themes.dark }
        resolvedTheme = theme.resolved(for: terminal.colorSupport)
        toastLayer.onChange = { [weak self] in self?.setNeedsDisplay() }
        for (tab, trees) in panes.trees.enumerated() {
            for tree in trees {
                tree.theme = resolvedTheme
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
        for tree in panes.trees.joined() { tree.disappear() }
        chordTimer.cancel()
        toastLayer.cancelTimers()
        logic.cancelAll()
        flushTask?.cancel()
        recorder?.close()
        terminal.stop()
        // After the terminal is back: a slow disk must not leave the shell raw.
        application.flush()
        quitContinuation?.resume()
        quitContinuation = nil
    }

    /// Writes the recording every second while the app runs (and `quit` closes it).
    private func startFlushing(_ recorder: SessionRecorder) {
        flushTask = Task.detached(priority: .utility) {
            while !Task.isCancelled {
                try? await MainQueueClock().sleep(for: .seconds(1))
                recorder.flush()
            }
        }
    }

    /// Suspends the app as Ctrl-Z does (the shell's `fg` resumes it).
    public func suspend() {
        terminal.suspend()
    }

    // MARK: Overlays

    /// Puts an overlay on top of the stack (it has the keyboard until it closes).
    func open(_ overlay: any HostLayer) {
        overlays.append(overlay)
        setNeedsDisplay()
    }

    /// Takes an overlay off the stack.
    func close(_ overlay: any HostLayer) {
        overlays.removeAll { $0 === overlay }
        setNeedsDisplay()
    }

    /// Opens the command palette over the screen: the commands that work now.
    public func openPalette() {
        let entries = activeRegistry().entries.filter { $0.id != "host.palette" }
        closeOverlays()
        open(PaletteLayer(host: self, entries: entries))
    }

    /// Opens the help overlay: the keys that work now, and the ones that always do.
    public func openHelp() {
        let registry = activeRegistry()
        let takes = topModal == nil ? panes.activeTree.focusedWidgetKeyFilter() : { _ in false }
        closeOverlays()
        open(HelpLayer(host: self, title: "Keys: \(tabs[selectedTab].title)", registry: registry, widgetTakes: takes))
    }

    /// Opens the devtools' action log over the screen (`F12`).
    public func openActionLog() {
        closeOverlays()
        open(ActionLogLayer(host: self))
    }

    private func closeOverlays() {
        overlays.removeAll()
    }

    /// Whether the help overlay (`?`) is open.
    public var isShowingHelp: Bool { overlays.contains { $0 is HelpLayer } }
    /// The command palette (`Ctrl-P`), while it is open.
    public var palette: CommandPalette? { overlays.lazy.compactMap { ($0 as? PaletteLayer)?.palette }.last }
    /// Whether the command palette is open.
    public var isShowingPalette: Bool { palette != nil }
    /// The devtools' action log (`F12`), while it is open.
    public var actionLogOverlay: ActionLogOverlay? { overlays.lazy.compactMap { ($0 as? ActionLogLayer)?.overlay }.last }

    /// Shows a warning toast that stays until `Esc` (a problem the user should read).
    public func notify(_ message: String) {
        application.toast(message, style: .warning)
        setNeedsDisplay()
    }

    /// The toasts on screen, oldest first.
    public var toasts: [Toast] { application.toasts.value }

    /// Whether a modal layer (a sheet, a confirmation, a presented view, an overlay) has the keyboard.
    public var isShowingModal: Bool { topModal != nil }

    /// The typed keys of an unfinished chord (`g`), while it waits for the rest.
    public var pendingChord: String? { router.pendingChord }

    // MARK: Tabs and focus

    /// Selects a tab (0-based); out-of-range indexes are ignored.
    public func select(tab index: Int) {
        guard tabs.indices.contains(index), index != selectedTab else { return }
        // The tab going away is no longer shown: its views' tasks end (and start again on return).
        for tree in panes.trees[selectedTab] { tree.disappear() }
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
    func followTabRouter() {
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
        let trees = panes.trees[selectedTab]
        var pane = panes.focused
        let tree = trees[pane]
        if trees.count == 1, tree.focusableCount == 1, tree.focusedID != nil {
            // One widget alone (a lone text field): Tab steps out to the pane, where the app's
            // keys work, and Tab again steps back in. Nothing traps the keyboard.
            tree.resignFocus()
            setNeedsDisplay()
            return
        }
        if tree.moveFocus(forward: forward, wrap: trees.count == 1) { setNeedsDisplay(); return }
        guard trees.count > 1 else { return }
        pane = (pane + (forward ? 1 : -1) + trees.count) % trees.count
        panes.focusedPane[selectedTab] = pane
        trees[pane].focusEdge(first: forward)
        setNeedsDisplay()
    }

    var activeApplet: any Applet { tabs[selectedTab].panes[panes.focused] }

    /// The instance scope of a pane: `scopedState` an applet declares is kept per pane, so two
    /// instances of one applet (two counters in a split) do not share it.
    func paneScope(tab: Int, pane: Int) -> Scope {
        panes.info(tab, pane).scope
    }

    /// Runs `body` in the store with a pane's scope in effect (the focused pane of the selected
    /// tab by default): how the host evaluates an applet's views, commands and actions.
    func inPane<R>(tab: Int? = nil, pane: Int? = nil, _ body: () throws -> R) rethrows -> R {
        let t = tab ?? selectedTab
        let p = pane ?? panes.focusedPane[t]
        return try Application.withCurrent(application) { try Scope.with(paneScope(tab: t, pane: p), body) }
    }

    /// The modal layer that has the keyboard, if any: the topmost one that is up.
    var topModal: (any HostLayer)? {
        if let overlay = overlays.last { return overlay }
        if confirmationLayer.isPresented { return confirmationLayer }
        if presentationLayer.isModal { return presentationLayer }
        if sheets.isModal { return sheets }
        return nil
    }

    // MARK: Frames

    /// The last frame, kept so that panes whose state did not change are not drawn again.
    var frame: Canvas {
        get { frameState.canvas }
        set { frameState.canvas = newValue }
    }

    /// Asks for a frame on the next turn of the main queue; many calls in one turn draw once.
    public func setNeedsDisplay() {
        frames.setNeedsDisplay()
    }

    /// Evaluates every pane of the selected tab again on the next frame, whether or not the state
    /// it read changed (for views that draw from something the store does not track).
    public func redrawAll() {
        for tree in panes.trees[selectedTab] { tree.invalidate() }
        setNeedsDisplay()
    }

    /// Whether a frame is wanted and not yet drawn (the test harness waits for none to be).
    package var hasPendingFrame: Bool { frames.hasPendingFrame }

    /// Draws a frame now if anything changed since the last one (tests call this after events).
    public func renderIfNeeded() {
        frames.renderIfNeeded()
    }
}
