import AppletNavigation
import AppletState
import AppletUI
import Terminal

/// Frames: once per turn of the main queue (however many changes asked for one), the frame is
/// laid out, each pane whose state changed is evaluated again, and the layers are composed into
/// one canvas bottom up; the terminal presents it as one diff (`Canvas.changedSpans`). Nothing
/// here handles input.
extension AppletHost {
    /// What decides which cells of the last frame can be kept: when it changes (a tab switch, an
    /// overlay opened or resized, a toast), every pane of the tab is drawn again, since a layer
    /// over them may have gone.
    struct Chrome: Hashable {
        var size: Size
        var tab: Int
        /// Each layer over the panes that is up, with what it covers.
        var layers: [LayerCoverage]
        var shellHeight: Int
        var statusBar: Bool

        /// Whether nothing is drawn over the panes.
        var showsBarePanes: Bool { layers.isEmpty }
    }

    struct LayerCoverage: Hashable {
        var layer: ObjectIdentifier
        var rects: [Rect]
        /// What else makes its drawing differ (which sheets, toasts, confirmation are up).
        var identity: Int
    }

    /// The layers above the panes as they are now.
    private func coverage(_ context: LayerContext) -> [LayerCoverage] {
        var result: [LayerCoverage] = []
        for layer in layers where !(layer is PanesLayer) && layer.isPresented {
            let rects = layer.coverage(in: context)
            guard !rects.isEmpty else { continue }
            var hasher = Hasher()
            switch layer {
            case let layer as SheetLayer: hasher.combine(layer.presentedKeys)
            case let layer as ToastLayer: hasher.combine(layer.fingerprint)
            case let layer as ConfirmationLayer: hasher.combine(layer.fingerprint)
            case let layer as PresentationLayer: hasher.combine(layer.fingerprint)
            default: break
            }
            result.append(LayerCoverage(layer: ObjectIdentifier(layer), rects: rects, identity: hasher.finalize()))
        }
        return result
    }

    /// Where everything goes on a screen of `size`.
    func layerContext(size: Size) -> LayerContext {
        let layout = paneLayout(in: size)
        return LayerContext(size: size, content: layout.area, panes: layout.rects, footerRow: size.height - 1,
                            theme: resolvedTheme, animations: animationsEnabled)
    }

    /// Where the selected tab's panes go: between the top line and the status bar (if any) and
    /// the footer.
    func paneLayout(in size: Size) -> PaneLayout {
        let bottom = 1 + (statusBar == nil ? 0 : 1)
        let area = Rect(x: 0, y: shell.height, width: size.width, height: max(0, size.height - shell.height - bottom))
        return PaneLayout(panes: tabs[selectedTab].panes.count, split: tabs[selectedTab].split, in: area)
    }

    private func currentChrome(_ context: LayerContext) -> Chrome {
        Chrome(size: context.size, tab: selectedTab, layers: coverage(context), shellHeight: shell.height, statusBar: statusBar != nil)
    }

    /// Composes the frame: the panes that changed, then every layer over them, bottom up.
    func drawFrame() -> Canvas {
        turn &+= 1
        let changesBefore = application.changes
        followTabRouter()
        let size = terminal.size
        let context = layerContext(size: size)
        let chrome = currentChrome(context)
        if chrome != lastChrome {
            // A tab switch with nothing over the panes: the tab left keeps what its panes drew, and
            // the tab shown puts back what it kept if nothing it reads changed meanwhile, rather
            // than evaluating and drawing its views again (see ViewTree.keepDrawnCells).
            let left = lastChrome.flatMap { $0.showsBarePanes && $0.size == chrome.size && $0.tab != chrome.tab ? $0.tab : nil }
            if let left { for tree in panes.trees[left] { tree.keepDrawnCells(from: frame) } }
            // Cleared in place when the size is the same: the terminal keeps its own copy of the
            // last frame, so this one is not shared and no new screen is allocated.
            if frame.size == size { frame.fill(frame.bounds) } else { frame = Canvas(size: size) }
            for tree in panes.trees[selectedTab] {
                if left != nil && chrome.showsBarePanes { tree.restoreKeptCells() } else { tree.invalidate() }
            }
        }
        // Each pane tracks the state it reads (ViewTree.renderIfNeeded): a change to it redraws that
        // pane alone, from whichever thread made it. The layers' own reads (the tab router, the
        // status bar, sheets, toasts, store issues) are observed by `compose`.
        Application.withCurrent(application) { compose(on: &frame, chrome: chrome, context: context) }
        lastChrome = currentChrome(context)
        renderedTab = selectedTab
        renderedLayout = Application.withCurrent(application) { layoutKey }
        if panes.trees[selectedTab].contains(where: \.needsAnimationFrame) { frames.scheduleAnimationFrame() }
        // A change on another thread while the frame was evaluated is in neither the frame nor the
        // observation that starts only now: draw once more. (The store tells observers only after
        // a value is stored, so a redraw they trigger never reads the old value.)
        if application.changes != changesBefore {
            for tree in panes.trees[selectedTab] { tree.invalidate() }
            setNeedsDisplay()
        }
        return frame
    }

    /// What decides which widgets the trees hold: the tab, each pane's screen and sheets, the
    /// confirmation, what applets presented. A key that changed it (Enter pushing a screen) makes
    /// the next key in the same read go to the new screen's widgets, laid out first, as a person
    /// typing ahead expects.
    private var layoutKey: Int {
        var hasher = Hasher()
        hasher.combine(selectedTab)
        for (pane, info) in panes.infos(of: selectedTab).enumerated() {
            if let navigating = info.navigating {
                hasher.combine(inPane(pane: pane) { navigating.navigationKey })
            }
        }
        hasher.combine(application.confirmations.value.last?.id)
        hasher.combine(presentationLayer.fingerprint)
        return hasher.finalize()
    }

    /// Whether the trees must be laid out again before they take an event.
    var needsLayout: Bool {
        renderedTab != selectedTab || Application.withCurrent(application) { layoutKey } != renderedLayout
    }

    /// Evaluates and lays out the selected tab without showing it, so that keys arriving in the
    /// same turn as a tab switch reach the right widgets. The frame still goes out once, at the
    /// end of the turn: a burst of keys costs one screen update.
    func layOutSelectedTab() {
        _ = drawFrame()
    }

    private func compose(on canvas: inout Canvas, chrome: Chrome, context: LayerContext) {
        let size = canvas.size
        guard size.width >= Self.minimumSize.width, size.height >= Self.minimumSize.height else {
            tooSmallTree.theme = resolvedTheme
            tooSmallTree.render(TooSmallView(size: size, minimum: Self.minimumSize), in: Rect(origin: .zero, size: size), on: &canvas)
            return
        }
        let key = chromeKey(chrome)
        shellObservation.run(key: key) {
            _ = application.tabRouter.value   // an applet may select a tab
            if shellLayer.isPresented { shellLayer.draw(on: &canvas, in: context) }
        }
        // Outside the layers' observation: each pane observes what it reads itself, and nested
        // tracking would register every pane's reads a second time, for the whole frame.
        panes.draw(on: &canvas, in: context, hasKeyboard: topModal == nil)
        // The footer also shows whether the focused widget, as just drawn, has something to copy,
        // and whether the mouse is off.
        var over = Hasher()
        over.combine(key)
        over.combine(panes.activeTree.focusedWidgetHasCopyableText)
        over.combine(terminal.mouseReporting)
        overPanesObservation.run(key: over.finalize()) {
            // Observed here, so that a problem reported later asks for a frame.
            toastLayer.showStoreIssues()
            toastLayer.showSyncStatus()
            panes.drawDividers(paneLayout(in: size), on: &canvas, theme: resolvedTheme)
            for layer in layers where !(layer is PanesLayer) && !(layer is ShellLayer) && layer.isPresented {
                layer.draw(on: &canvas, in: context)
            }
        }
    }

    /// The host state, not observable, that decides what the layers read: the chrome's shape
    /// (tab, layers, size..., as `drawFrame` found it), the focused pane (whose commands the
    /// footer shows), a chord in progress, the routing trace and the overlays' own state.
    private func chromeKey(_ chrome: Chrome) -> Int {
        var hasher = Hasher()
        hasher.combine(chrome)
        hasher.combine(panes.focused)
        hasher.combine(router.pendingChord)
        hasher.combine(showsRoutingTrace ? lastRoutingTrace?.summary : nil)
        return hasher.finalize()
    }

    /// How many observations of the chrome were installed (tests).
    var chromeObservationsInstalled: Int { shellObservation.installed + overPanesObservation.installed }
}

extension AppletHost {
    /// What keeps the host from resting, one line each: a pane with `.task`s running (a pane of
    /// a hidden tab should have none: its tasks are cancelled when the tab goes) and a pane of the
    /// selected tab mid-animation. Empty when the app is at rest: with no input it then wakes
    /// no thread, uses no CPU and writes nothing until something changes.
    ///
    /// ```swift
    /// host.activity   // ["Processes › processes: 1 task running"]
    /// ```
    public var activity: [String] {
        var lines: [String] = []
        for (tab, trees) in panes.trees.enumerated() {
            for (pane, tree) in trees.enumerated() {
                let name = "\(tabs[tab].title) › \(tabs[tab].panes[pane].id)"
                let tasks = tree.activeTaskCount
                if tasks > 0 {
                    lines.append("\(name): \(tasks) task\(tasks == 1 ? "" : "s") running\(tab == selectedTab ? "" : " while its tab is hidden")")
                }
                if tab == selectedTab, tree.needsAnimationFrame { lines.append("\(name): animating") }
            }
        }
        return lines
    }
}
