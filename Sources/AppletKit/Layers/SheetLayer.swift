import AppletNavigation
import AppletState
import AppletUI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Terminal

/// The sheets of navigating applets, each over its pane with the pane dimmed behind it. The
/// focused pane's top sheet is modal: it has the keyboard (its widgets, then its commands and
/// `Esc`, which dismisses it), and a click outside it goes nowhere. A sheet's box is as tall as
/// its content (up to the pane) and as wide as two thirds of the pane.
@MainActor
final class SheetLayer: HostLayer {
    unowned let host: AppletHost
    private var trees: [String: ViewTree] = [:]

    init(host: AppletHost) { self.host = host }

    /// The focused pane's top sheet, with its applet.
    var top: (sheet: PresentedSheet, applet: any NavigationApplet)? {
        let pane = host.panes.info(host.selectedTab, host.panes.focused)
        guard let navigating = pane.navigating else { return nil }
        return host.inPane { navigating.presentedSheets.last.map { ($0, navigating) } }
    }

    var isPresented: Bool { !presentedKeys.isEmpty }
    var isModal: Bool { top != nil }

    /// The sheets up on the selected tab, by pane.
    private var presented: [(pane: Int, sheets: [PresentedSheet])] {
        host.panes.infos(of: host.selectedTab).enumerated().compactMap { index, info in
            guard let navigating = info.navigating else { return nil }
            let sheets = host.inPane(pane: index) { navigating.presentedSheets }
            return sheets.isEmpty ? nil : (index, sheets)
        }
    }

    /// What is up, for the host to know when the panes under it must be drawn again.
    var presentedKeys: [String] { presented.flatMap { $0.sheets.map(\.key) } }

    func commands() -> [Command] {
        guard let (sheet, applet) = top else { return [] }
        return sheet.commands + [Command(id: "sheet.dismiss", "Close", keys: ["esc"]) { applet.dismissTopSheet() }]
    }

    /// Tab and Shift-Tab move focus inside the sheet and never leave it.
    func handleKey(_ key: KeyEvent) -> String? {
        guard let (sheet, _) = top, let tree = trees[sheet.key] else { return nil }
        if host.inPane({ tree.handleKey(key) }) { return "the sheet's focused widget" }
        if key == KeyEvent(.tab) || key == KeyEvent(.tab, modifiers: .shift), tree.hasFocusableWidgets {
            tree.moveFocus(forward: key.modifiers.isEmpty, wrap: true)
            return "focus moved inside the sheet"
        }
        return nil
    }

    func handleMouse(_ mouse: MouseEvent, in context: LayerContext) -> Bool {
        guard let (sheet, _) = top, let tree = trees[sheet.key] else { return false }
        return host.inPane { tree.handleMouse(mouse) }
    }

    func handlePaste(_ text: String) -> Bool {
        guard let (sheet, _) = top, let tree = trees[sheet.key] else { return false }
        return host.inPane { tree.handlePaste(text) }
    }

    func coverage(in context: LayerContext) -> [Rect] {
        presented.compactMap { context.panes.indices.contains($0.pane) ? context.panes[$0.pane] : nil }
    }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        var used = Set<String>()
        for (pane, sheets) in presented where context.panes.indices.contains(pane) {
            let rect = context.panes[pane]
            let scope = host.paneScope(tab: host.selectedTab, pane: pane)
            for sheet in sheets {
                used.insert(sheet.key)
                context.dimBackdrop(rect, on: &canvas)
                let width = min(rect.width - 2, max(36, min(72, rect.width * 2 / 3)))
                guard width > 4, rect.height > 4 else { continue }
                // As tall as its content wants at that width, up to the pane.
                let wanted = host.inPane(pane: pane) {
                    ViewTree.idealSize(of: sheet.view, proposal: ProposedSize(width: width, height: nil))
                }
                let height = min(rect.height - 2, max(3, wanted.height))
                let box = Rect(x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2, width: width, height: height)
                let tree = trees[sheet.key] ?? ViewTree()
                trees[sheet.key] = tree
                tree.theme = context.theme
                canvas.fill(box, with: .blank())
                Application.withCurrent(host.application) { Scope.with(scope) { tree.render(sheet.view, in: box, on: &canvas) } }
            }
        }
        for key in trees.keys where !used.contains(key) { trees[key] = nil }
    }
}

/// The confirmation a request asked for (`Application.confirm`), over everything but the overlays,
/// with the screen dimmed behind it. Modal: `Esc` cancels, ← → and Tab move between its buttons.
@MainActor
final class ConfirmationLayer: HostLayer {
    private let application: Application
    private var tree: (id: UUID, tree: ViewTree)?
    /// The store's confirmations, resolved once (a handle keeps its box).
    private lazy var confirmations = application.confirmations

    init(application: Application) { self.application = application }

    var current: Confirmation? { confirmations.value.last }
    var isPresented: Bool { current != nil }
    var isModal: Bool { true }

    func commands() -> [Command] {
        guard let confirmation = current else { return [] }
        let application = self.application
        return [Command(id: "confirm.cancel", confirmation.cancelTitle, keys: ["esc"]) {
            application.answer(confirmation.id, confirmed: false)
        }]
    }

    func handleKey(_ key: KeyEvent) -> String? {
        guard let tree = tree?.tree else { return nil }
        if tree.handleKey(key) { return "the confirmation's focused button" }
        let moves: [KeyEvent: Bool] = [KeyEvent(.tab): true, KeyEvent(.tab, modifiers: .shift): false,
                                       KeyEvent(.right): true, KeyEvent(.left): false]
        if let forward = moves[key], tree.hasFocusableWidgets {
            tree.moveFocus(forward: forward, wrap: true)
            return "focus moved inside the confirmation"
        }
        return nil
    }

    func handleMouse(_ mouse: MouseEvent, in context: LayerContext) -> Bool {
        tree?.tree.handleMouse(mouse) ?? false
    }

    var fingerprint: [UUID] { confirmations.value.map(\.id) }

    func coverage(in context: LayerContext) -> [Rect] { isPresented ? [context.content] : [] }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        guard let confirmation = current else {
            tree = nil
            return
        }
        let area = context.content
        context.dimBackdrop(area, on: &canvas)
        let buttons = confirmation.cancelTitle.terminalWidth + confirmation.confirmTitle.terminalWidth + 12
        let width = min(area.width - 2, max(40, confirmation.message.terminalWidth + 6, buttons))
        let application = self.application
        let view = ConfirmationView(confirmation) { confirmed in application.answer(confirmation.id, confirmed: confirmed) }
        let wanted = ViewTree.idealSize(of: view, proposal: ProposedSize(width: width, height: nil))
        // Six rows at least (a blank row, the message, a blank row, the buttons), more when the
        // message wraps to more lines than that leaves room for.
        let height = min(area.height, max(6, wanted.height))
        guard width > 4, height > 2 else { return }
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
        canvas.fill(box, with: .blank())
        if tree?.id != confirmation.id {
            let made = ViewTree()
            made.theme = context.theme
            tree = (confirmation.id, made)
            made.render(view, in: box, on: &canvas)
            // The safe answer has the focus when the action cannot be undone; else the action.
            made.focusEdge(first: confirmation.destructive)
        }
        tree!.tree.theme = context.theme
        tree!.tree.render(view, in: box, on: &canvas)
    }
}
