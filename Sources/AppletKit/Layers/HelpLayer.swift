import AppletNavigation
import AppletUI
import Terminal

/// The help overlay (`?`): every command that worked when it opened (the registry of the layers
/// under it), grouped by scope, and the keys that always work. Modal; taller than the screen it
/// scrolls with `↑`/`↓`, `PgUp`/`PgDn`, `Home`/`End` and the wheel, marks what is hidden
/// ("↓ 12 more"), and its closing hint is never cut.
@MainActor
final class HelpLayer: HostLayer {
    unowned let host: AppletHost
    let title: String
    let registry: CommandRegistry
    private let widgetTakes: (KeyEvent) -> Bool
    /// The first line shown.
    private(set) var offset = 0
    private let tree = ViewTree()
    /// The window as last drawn (for paging by what is on screen).
    private var window = ScrollWindow(total: 0, capacity: 0, offset: 0)

    init(host: AppletHost, title: String, registry: CommandRegistry, widgetTakes: @escaping (KeyEvent) -> Bool) {
        self.host = host
        self.title = title
        self.registry = registry
        self.widgetTakes = widgetTakes
    }

    var isPresented: Bool { true }
    var isModal: Bool { true }

    private func scroll(by rows: Int) {
        window = window.scrolled(by: rows)
        offset = window.offset
    }

    func commands() -> [Command] {
        [
            Command(id: "help.down", "Scroll", keys: ["down", "j"]) { [self] in scroll(by: 1) },
            Command(id: "help.up", "Scroll up", keys: ["up", "k"], showsInFooter: false) { [self] in scroll(by: -1) },
            Command(id: "help.page-down", "Page", keys: ["pgdn", "space"]) { [self] in scroll(by: window.page) },
            Command(id: "help.page-up", "Page up", keys: ["pgup"], showsInFooter: false) { [self] in scroll(by: -window.page) },
            Command(id: "help.top", "Top", keys: ["home"], showsInFooter: false) { [self] in scroll(by: Int.min) },
            Command(id: "help.bottom", "Bottom", keys: ["end"], showsInFooter: false) { [self] in scroll(by: Int.max) },
            Command(id: "help.close", "Close", keys: ["esc", "?", "q", "enter"]) { [self] in host.close(self) },
        ]
    }

    func handleMouse(_ mouse: MouseEvent, in context: LayerContext) -> Bool {
        switch mouse.kind {
        case .scrollUp: scroll(by: -3)
        case .scrollDown: scroll(by: 3)
        default: return false
        }
        return true
    }

    private func view(visibleRows: Int?) -> CommandHelpView {
        CommandHelpView(title: title, registry: registry, fixed: AppletHost.fixedHelpRows, widgetTakes: widgetTakes,
                        offset: offset, visibleRows: visibleRows)
    }

    /// The box: as large as the help wants, up to the rows between the top line and the footer.
    func box(in context: LayerContext) -> Rect? {
        context.overlayBox(wanted: view(visibleRows: nil).idealSize)
    }

    func coverage(in context: LayerContext) -> [Rect] { box(in: context).map { [$0] } ?? [] }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        guard let rect = box(in: context) else { return }
        // Inside the border, one row is the closing hint.
        let rows = max(1, rect.height - 3)
        let view = view(visibleRows: rows)
        window = view.window
        offset = window.offset
        canvas.fill(rect, with: .blank())
        tree.theme = context.theme
        tree.render(view, in: rect, on: &canvas)
    }
}
