import AppletNavigation
import AppletState
import AppletUI
import Terminal
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Input: an event goes top down through the layers to the first that takes it. While a modal
/// layer is up it takes everything (its commands and what it handles itself, with the keys that
/// work from anywhere); otherwise a layer that is not modal may take what it uses (`Esc` on a
/// message that stays), and the rest reaches the panes through the router. Nothing is drawn
/// here: a handled event asks for a frame.
extension AppletHost {
    /// Routes one event (see the type's documentation for the order keys go through).
    public func handle(_ event: Event) {
        guard isRunning else { return }
        turn &+= 1
        if case .terminate = event {} else { recorder?.input(event) }
        inPane {
            switch event {
            case .key(let key): handleKey(key)
            case .mouse(let mouse): handleMouse(mouse)
            case .paste(let text): handlePaste(text)
            case .resize(let size):
                TerminalSize.current = TerminalSize(columns: size.width, rows: size.height)
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
        let registry = activeRegistry()
        if let modal = topModal {
            // Modal: its commands (in the registry's sheet scope) and its own handling; what it
            // does not use goes no further.
            lastRoutingTrace = router.route(key, registry: registry, sheet: { key in modal.handleKey(key) }, widget: { _ in nil })
            if let override = traceOverride {
                lastRoutingTrace = override
                traceOverride = nil
            }
        } else {
            // The layers over the panes that take a key without being modal, top first.
            for layer in layers.reversed() where !(layer is PanesLayer) && layer.isPresented {
                if let what = layer.handleKey(key) {
                    var trace = RoutingTrace(key: key)
                    trace.record(took: .host, what)
                    lastRoutingTrace = trace
                    return
                }
            }
            let panes = self.panes
            lastRoutingTrace = router.route(key, registry: registry, sheet: nil) { key in panes.handleKey(key) }
        }
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

    /// A modal layer gets every click, drag and wheel (a click outside its box goes nowhere);
    /// otherwise the top line takes its row and the panes the rest.
    private func handleMouse(_ mouse: MouseEvent) {
        if needsLayout { layOutSelectedTab() }
        let context = layerContext(size: terminal.size)
        if let modal = topModal {
            if modal.handleMouse(mouse, in: context) { setNeedsDisplay() }
            return
        }
        for layer in layers.reversed() where layer.isPresented {
            if layer.handleMouse(mouse, in: context) {
                setNeedsDisplay()
                return
            }
        }
    }

    /// Pasted text goes to the modal layer if one is up (a filter, a sheet's text field), else
    /// to a text widget with focus; it never reaches key bindings.
    private func handlePaste(_ text: String) {
        if needsLayout { layOutSelectedTab() }
        let taken = topModal.map { $0.handlePaste(text) } ?? panes.handlePaste(text)
        if taken { setNeedsDisplay() }
    }
}
