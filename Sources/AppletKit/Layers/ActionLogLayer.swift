import AppletLogic
import AppletNavigation
import AppletUI
import Terminal

/// The devtools' action log (`F12`): what the logic module did, over the whole width between the
/// top line and the footer (a box as wide as the screen, so nothing of the panes shows beside it).
/// Modal: typing filters; `↑`/`↓`/`PgUp`/`PgDn` and the wheel scroll back, `End` follows the
/// newest, `Ctrl-L` clears the log, `Esc` or `F12` closes.
@MainActor
final class ActionLogLayer: HostLayer {
    unowned let host: AppletHost
    private(set) var overlay = ActionLogOverlay()
    private let tree = ViewTree()
    /// The rows a page scrolls (the rows shown last frame).
    private var page = 10

    init(host: AppletHost) { self.host = host }

    var isPresented: Bool { true }
    var isModal: Bool { true }

    private func send(_ key: KeyEvent) {
        if case .close = overlay.handle(key, log: host.logic.actionLog, page: page) { host.close(self) }
    }

    func commands() -> [Command] {
        [
            Command(id: "log.back", "Scroll back", keys: ["up"]) { [self] in send(KeyEvent(.up)) },
            Command(id: "log.forward", "Scroll forward", keys: ["down"], showsInFooter: false) { [self] in send(KeyEvent(.down)) },
            Command(id: "log.page-back", "Page back", keys: ["pgup"], showsInFooter: false) { [self] in send(KeyEvent(.pageUp)) },
            Command(id: "log.page-forward", "Page forward", keys: ["pgdn"], showsInFooter: false) { [self] in send(KeyEvent(.pageDown)) },
            Command(id: "log.follow", "Follow", keys: ["end"]) { [self] in send(KeyEvent(.end)) },
            Command(id: "log.clear", "Clear", keys: ["ctrl-l"]) { [self] in send(KeyEvent(.char("l"), modifiers: .ctrl)) },
            Command(id: "log.close", "Close", keys: ["esc", "f12"]) { [self] in host.close(self) },
        ]
    }

    /// Typing edits the filter.
    func handleKey(_ key: KeyEvent) -> String? {
        send(key)
        return "the action log's filter"
    }

    func handlePaste(_ text: String) -> Bool {
        overlay.paste(text)
        return true
    }

    func handleMouse(_ mouse: MouseEvent, in context: LayerContext) -> Bool {
        switch mouse.kind {
        case .scrollUp: for _ in 0..<3 { send(KeyEvent(.up)) }
        case .scrollDown: for _ in 0..<3 { send(KeyEvent(.down)) }
        default: return false
        }
        return true
    }

    /// The whole width, every row between the top line and the footer.
    private func box(in context: LayerContext) -> Rect? {
        let rect = context.content
        return rect.width > 4 && rect.height > 4 ? rect : nil
    }

    func coverage(in context: LayerContext) -> [Rect] { box(in: context).map { [$0] } ?? [] }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        guard let rect = box(in: context) else { return }
        // The border, the filter line and the status line.
        let rows = max(1, rect.height - 4)
        page = max(1, rows - 1)
        canvas.fill(rect, with: .blank())
        tree.theme = context.theme
        tree.render(ActionLogView(overlay: overlay, log: host.logic.actionLog, visibleRows: rows), in: rect, on: &canvas)
    }
}
