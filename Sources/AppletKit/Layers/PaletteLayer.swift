import AppletNavigation
import AppletUI
import Terminal

/// The command palette (`Ctrl-P`): every command that worked when it opened, filtered by a fuzzy
/// search as the user types. Modal: typing edits the query; `↑`/`↓` select, `Enter` runs the
/// selected command (after the palette closes), `Esc` closes. Its box is as wide as the screen
/// allows up to 72 columns and as tall as its results, up to the rows there are.
@MainActor
final class PaletteLayer: HostLayer {
    unowned let host: AppletHost
    private(set) var palette: CommandPalette
    private let tree = ViewTree()

    init(host: AppletHost, entries: [CommandRegistry.Entry]) {
        self.host = host
        palette = CommandPalette(entries: entries)
    }

    var isPresented: Bool { true }
    var isModal: Bool { true }

    func commands() -> [Command] {
        [
            Command(id: "palette.run", "Run", keys: ["enter"]) { [self] in run() },
            Command(id: "palette.next", "Select", keys: ["down", "ctrl-j"]) { [self] in step(.down) },
            Command(id: "palette.previous", "Select previous", keys: ["up", "ctrl-k"], showsInFooter: false) { [self] in step(.up) },
            Command(id: "palette.close", "Close", keys: ["esc"]) { [self] in host.close(self) },
        ]
    }

    private func step(_ code: KeyCode) { _ = palette.handle(KeyEvent(code)) }

    private func run() {
        guard case .run(let entry) = palette.handle(KeyEvent(.enter)) else { return }
        host.close(self)
        var trace = RoutingTrace(key: KeyEvent(.enter))
        trace.record(took: .sheet, "palette ran \(entry.id)", command: entry.id)
        // What the trace says: the command the palette ran, not the palette's Enter.
        host.traceOverride = trace
        host.inPane { entry.command.action() }
    }

    /// Typing edits the query (the commands above take Enter, the arrows and Esc first).
    func handleKey(_ key: KeyEvent) -> String? {
        switch palette.handle(key) {
        case .stay: return "the palette's query"
        case .close:
            host.close(self)
            return "closed the palette"
        case .run: return nil
        }
    }

    func handlePaste(_ text: String) -> Bool {
        palette.paste(text)
        return true
    }

    func handleMouse(_ mouse: MouseEvent, in context: LayerContext) -> Bool {
        switch mouse.kind {
        case .scrollUp: step(.up)
        case .scrollDown: step(.down)
        default: return false
        }
        return true
    }

    /// The box: the query, up to 12 result rows (fewer when fewer match or fit), the status line.
    func box(in context: LayerContext) -> (rect: Rect, rows: Int)? {
        let rows = max(1, min(12, context.content.height - 4, max(1, palette.results.count)))
        guard let rect = context.overlayBox(wanted: Size(width: 72, height: rows + 4)) else { return nil }
        return (rect, max(1, rect.height - 4))
    }

    func coverage(in context: LayerContext) -> [Rect] { box(in: context).map { [$0.rect] } ?? [] }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        guard let (rect, rows) = box(in: context) else { return }
        canvas.fill(rect, with: .blank())
        tree.theme = context.theme
        tree.render(CommandPaletteView(palette: palette, visibleRows: rows), in: rect, on: &canvas)
    }
}
