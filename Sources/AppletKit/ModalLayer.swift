import AppletNavigation
import AppletState
import AppletUI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Terminal

/// What sits over the panes: the sheets of navigating applets (each over its pane), the
/// confirmation on top of everything, and the toasts in the bottom-right corner. It draws them,
/// gives the top modal the keyboard, and times the toasts on the host's clock. The host keeps
/// the run loop; this type keeps the overlays.
///
/// Invariants: at most one modal has the keyboard, the confirmation if there is one, else the top
/// sheet of the focused pane; what is behind a modal is dimmed; an expiring toast goes
/// `Toast.duration` after it first showed, the others stay until dismissed.
@MainActor
final class ModalLayer {
    private let application: Application
    private let clock: any Clock<Duration>
    /// Called when an overlay changed by itself (a toast expired) and a frame is wanted.
    var onChange: () -> Void = {}
    var theme: ResolvedTheme = .standard

    private var sheetTrees: [String: ViewTree] = [:]
    private var confirmationTree: (id: UUID, tree: ViewTree)?
    private let toastTree = ViewTree()
    private var toastTimers: [UUID: ScheduledAction] = [:]

    init(application: Application, clock: any Clock<Duration>) {
        self.application = application
        self.clock = clock
    }

    /// The modal that has the keyboard.
    enum Modal {
        case confirmation(Confirmation)
        case sheet(PresentedSheet, any NavigationApplet)
    }

    /// The store's confirmations, resolved once (a handle keeps its box): read several times a
    /// frame, where going through the declaration would build its key and look it up each time.
    private lazy var confirmations = application.confirmations

    /// The modal on top, given the focused pane's navigation applet (nil if it is not one) and
    /// its scope (a sheet is the pane's navigation state: the store and the scope are entered
    /// only to read it).
    func topModal(navigating: (any NavigationApplet)?, scope: Scope) -> Modal? {
        if let confirmation = confirmations.value.last { return .confirmation(confirmation) }
        guard let navigating else { return nil }
        return Application.withCurrent(application) {
            Scope.with(scope) { navigating.presentedSheets.last.map { .sheet($0, navigating) } }
        }
    }


    /// The sheet-scope commands of a modal: `Esc` and the sheet's own.
    func commands(for modal: Modal) -> [Command] {
        switch modal {
        case .confirmation(let confirmation):
            let application = self.application
            return [Command(id: "confirm.cancel", confirmation.cancelTitle, keys: ["esc"]) {
                application.answer(confirmation.id, confirmed: false)
            }]
        case .sheet(let sheet, let applet):
            return sheet.commands + [Command(id: "sheet.dismiss", "Close", keys: ["esc"]) { applet.dismissTopSheet() }]
        }
    }

    /// Gives a key to the modal's widgets: what took it, or nil. Tab and Shift-Tab (and ← → in a
    /// confirmation) move focus inside it and never leave it.
    func handleKey(_ key: KeyEvent, in modal: Modal) -> String? {
        let tree: ViewTree?
        var moves: [KeyEvent: Bool] = [KeyEvent(.tab): true, KeyEvent(.tab, modifiers: .shift): false]
        switch modal {
        case .confirmation:
            tree = confirmationTree?.tree
            moves[KeyEvent(.right)] = true
            moves[KeyEvent(.left)] = false
        case .sheet(let sheet, _):
            tree = sheetTrees[sheet.key]
        }
        guard let tree else { return nil }
        if tree.handleKey(key) { return "the sheet's focused widget" }
        if let forward = moves[key], tree.hasFocusableWidgets {
            tree.moveFocus(forward: forward, wrap: true)
            return "focus moved inside the sheet"
        }
        return nil
    }

    /// A click while a modal is up: inside it goes to its widgets, outside it is swallowed.
    func handleMouse(_ mouse: MouseEvent, in modal: Modal) -> Bool {
        switch modal {
        case .confirmation: confirmationTree?.tree.handleMouse(mouse) ?? false
        case .sheet(let sheet, _): sheetTrees[sheet.key]?.handleMouse(mouse) ?? false
        }
    }

    /// What is on screen, for the host to know when every pane must be drawn again. Asked twice
    /// a frame: the store is entered (a task-local value) only for panes that navigate, and the
    /// confirmations and toasts are read through handles resolved once.
    func fingerprint(panes: [AppletHost.PaneInfo]) -> String {
        var parts: [String] = []
        for pane in panes {
            if let navigating = pane.navigating {
                parts += Application.withCurrent(application) { Scope.with(pane.scope) { navigating.presentedSheets.map(\.key) } }
            }
        }
        parts += confirmations.value.map(\.id.uuidString)
        parts += toasts.value.map(\.id.uuidString)
        return parts.joined(separator: ",")
    }

    /// The store's toasts, resolved once (see `confirmations`).
    private lazy var toasts = application.toasts

    // MARK: Drawing

    /// Draws every pane's sheets over it, dimming what is behind each.
    func drawSheets(panes: [AppletHost.PaneInfo], rects: [Rect], on canvas: inout Canvas) {
        var used = Set<String>()
        for (pane, rect) in zip(panes, rects) {
            guard let navigating = pane.navigating else { continue }
            let scope = pane.scope
            for sheet in Scope.with(scope, { navigating.presentedSheets }) {
                used.insert(sheet.key)
                canvas.restyle(rect) { $0.attributes.insert(.dim) }
                let width = min(rect.width - 2, max(36, min(72, rect.width * 2 / 3)))
                let height = min(rect.height - 2, max(8, rect.height * 2 / 3))
                guard width > 4, height > 2 else { continue }
                let box = Rect(x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2, width: width, height: height)
                let tree = sheetTrees[sheet.key] ?? makeTree()
                sheetTrees[sheet.key] = tree
                canvas.fill(box, with: .blank())
                Scope.with(scope) { tree.render(sheet.view, in: box, on: &canvas) }
            }
        }
        for key in sheetTrees.keys where !used.contains(key) { sheetTrees[key] = nil }
    }

    /// Draws the confirmation on top, if one waits, over a dimmed screen.
    func drawConfirmation(in area: Rect, on canvas: inout Canvas) {
        guard let confirmation = confirmations.value.last else {
            confirmationTree = nil
            return
        }
        canvas.restyle(area) { $0.attributes.insert(.dim) }
        let buttons = confirmation.cancelTitle.terminalWidth + confirmation.confirmTitle.terminalWidth + 12
        let width = min(area.width - 2, max(40, confirmation.message.terminalWidth + 6, buttons))
        let height = 6
        guard width > 4, area.height >= height else { return }
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
        let application = self.application
        let view = ConfirmationView(confirmation) { confirmed in application.answer(confirmation.id, confirmed: confirmed) }
        canvas.fill(box, with: .blank())
        if confirmationTree?.id != confirmation.id {
            let tree = makeTree()
            confirmationTree = (confirmation.id, tree)
            tree.render(view, in: box, on: &canvas)
            // The safe answer has the focus when the action cannot be undone; else the action.
            tree.focusEdge(first: confirmation.destructive)
        }
        confirmationTree!.tree.render(view, in: box, on: &canvas)
    }

    /// Draws the toasts bottom right, above `bottom`, and starts the timers of new ones.
    func drawToasts(above bottom: Int, width: Int, on canvas: inout Canvas) {
        let toasts = self.toasts.value
        for toast in toasts where toast.style.expires && toastTimers[toast.id] == nil {
            let timer = ScheduledAction(clock: clock)
            let application = self.application
            timer.schedule(after: Toast.duration) { [weak self] in
                application.dismissToast(toast.id)
                self?.toastTimers[toast.id] = nil
                self?.onChange()
            }
            toastTimers[toast.id] = timer
        }
        let live = Set(toasts.map(\.id))
        for id in toastTimers.keys where !live.contains(id) { toastTimers[id]?.cancel(); toastTimers[id] = nil }
        guard !toasts.isEmpty else { return }
        // As wide as the longest toast, up to two thirds of the screen; longer ones wrap (at most
        // four lines each), stacked up from `bottom` (the row above the footer).
        let textWidth = toasts.map { ToastStackView.width(of: $0) }.max() ?? 0
        let w = min(width - 2, textWidth, max(40, width * 2 / 3))
        guard w > 4, bottom > 2 else { return }
        let rect = Rect(x: width - w - 1, y: 1, width: w, height: bottom - 1)
        toastTree.render(ToastStackView(toasts), in: rect, on: &canvas)
    }

    /// Dismisses the newest toast that would not go by itself; false if none.
    func dismissStickyToast() -> Bool {
        guard let sticky = toasts.value.last(where: { !$0.style.expires }) else { return false }
        application.dismissToast(sticky.id)
        return true
    }

    func cancelTimers() {
        for timer in toastTimers.values { timer.cancel() }
        toastTimers.removeAll()
    }

    private func makeTree() -> ViewTree {
        let tree = ViewTree()
        tree.theme = theme
        return tree
    }
}
