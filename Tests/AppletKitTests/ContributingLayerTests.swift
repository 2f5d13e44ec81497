// Docs/Contributing.md, "Add a layer to the host": a small modal layer and its tests, compiled and
// run here. `@testable`, as a layer is the host's own: `open(_:)` and `close(_:)` are internal.
// DocSnippetsTests checks that each block marked
// `<!-- tested in Tests/AppletKitTests/ContributingLayerTests.swift -->` appears in this file
// line for line.
import AppletTesting
import Testing
@testable import AppletKit

// MARK: The layer, as Sources/AppletKit/Layers/TabPickerLayer.swift would hold it

/// A small modal that picks a tab: `↑`/`↓` choose, `Enter` goes there, a tab's number goes there
/// at once, a click on a tab goes there, `Esc` closes. The screen behind it is dimmed.
@MainActor
final class TabPickerLayer: HostLayer {
    unowned let host: AppletHost
    /// The highlighted tab.
    private(set) var choice: Int
    private let tree = ViewTree()

    init(host: AppletHost) {
        self.host = host
        choice = host.selectedTab
    }

    var isPresented: Bool { true }
    var isModal: Bool { true }

    func commands() -> [Command] {
        let last = host.tabs.count - 1
        return [
            Command(id: "tab-picker.next", "Next", keys: ["down", "j"]) { [self] in choice = min(choice + 1, last) },
            Command(id: "tab-picker.previous", "Previous", keys: ["up", "k"], showsInFooter: false) { [self] in choice = max(choice - 1, 0) },
            Command(id: "tab-picker.go", "Go", keys: ["enter"]) { [self] in go(to: choice) },
            Command(id: "tab-picker.close", "Close", keys: ["esc"]) { [self] in host.close(self) },
        ]
    }

    /// A tab's number: one key per tab, so a key of its own rather than nine commands in the footer.
    func handleKey(_ key: KeyEvent) -> String? {
        guard key.modifiers.isEmpty, case .char(let character) = key.code, let number = character.wholeNumberValue,
              host.tabs.indices.contains(number - 1) else { return nil }
        go(to: number - 1)
        return "the tab picker: tab \(number)"
    }

    func handleMouse(_ mouse: MouseEvent, in context: LayerContext) -> Bool {
        guard case .press(.left) = mouse.kind, let box = box(in: context) else { return false }
        let row = mouse.position.y - box.y - 1
        guard box.contains(mouse.position), host.tabs.indices.contains(row) else { return false }
        go(to: row)
        return true
    }

    private func go(to tab: Int) {
        host.close(self)
        host.select(tab: tab)
    }

    /// A row per tab, then the closing hint as the last row.
    private var view: some View {
        let titles = host.tabs.map(\.title), choice = self.choice
        return Box(title: "Go to tab", style: .rounded) {
            VStack {
                ForEach(0..<titles.count) { index in
                    Text("\(index + 1) \(titles[index])").themed(index == choice ? .selection : .text)
                }
                Text("Enter goes · Esc closes").themed(.muted)
            }
        }
    }

    func box(in context: LayerContext) -> Rect? {
        context.overlayBox(wanted: Size(width: 30, height: host.tabs.count + 3))
    }

    /// The whole content area: it is dimmed, so closing must draw the panes under it again.
    func coverage(in context: LayerContext) -> [Rect] { [context.content] }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        context.dimBackdrop(context.content, on: &canvas)
        guard let box = box(in: context) else { return }
        canvas.fill(box, with: .blank())
        tree.theme = context.theme
        tree.render(view, in: box, on: &canvas)
    }
}

extension AppletHost {
    /// Opens the tab picker over the screen.
    public func openTabPicker() {
        open(TabPickerLayer(host: self))
    }

    /// Whether the tab picker is open.
    public var isShowingTabPicker: Bool { overlays.contains { $0 is TabPickerLayer } }
}

// MARK: Its tests

/// One tab of the picker's host: a line of text and a command of its own.
struct PickerTabApplet: Applet {
    let id: String
    let title: String
    var body: some View { Text("This is \(title)") }
    var commands: [Command] { [Command(id: "\(id).refresh", "Refresh", keys: ["r"]) {}] }
}

@Suite("Docs/Contributing.md: a layer")
@MainActor
struct ContributingLayerTests {
    static func host() throws -> AppletTestHost {
        try AppletTestHost(tabs: ["Mail", "News", "Notes"].map { Tab(PickerTabApplet(id: $0.lowercased(), title: $0)) },
                           width: 60, height: 14)
    }

    @Test func itDrawsOverTheTabAndTheFooterShowsOnlyItsKeys() throws {
        let h = try Self.host()
        h.host.openTabPicker()                       // a host command's action: `h.press("ctrl-g")`
        h.host.renderIfNeeded()
        #expect(h.host.isShowingTabPicker && h.host.isShowingModal)
        #expect(h.contains("╭─ Go to tab"), "\(h.text)")
        #expect(h.contains("2 News") && h.contains("Enter goes · Esc closes"), "\(h.text)")
        let footer = h.row(13)
        #expect(footer.contains("↓ Next") && footer.contains("Enter Go") && footer.contains("Esc Close"), "\(footer)")
        #expect(!footer.contains("Refresh") && !footer.contains("Quit"), "only the modal's keys: \(footer)")
    }

    @Test func itKeepsEveryKeyAndGoesWhereItIsTold() throws {
        let h = try Self.host()
        h.host.openTabPicker()
        h.press("r", "q")                            // the tab's and the host's keys: kept by the modal
        #expect(h.host.isShowingTabPicker && h.host.isRunning)
        #expect(h.host.lastRoutingTrace?.handler == .sheet, "\(String(describing: h.host.lastRoutingTrace))")
        h.press("down", "down", "enter")
        #expect(!h.host.isShowingTabPicker && h.host.selectedTab == 2)
        #expect(h.contains("This is Notes") && !h.contains("Go to tab"), "\(h.text)")
    }
}

extension ContributingLayerTests {
    @Test func aTabsNumberGoesThereAtOnceAndEscCloses() throws {
        let h = try Self.host()
        h.host.openTabPicker()
        h.press("2")                                 // a tab's number, through handleKey
        #expect(h.host.selectedTab == 1 && !h.host.isShowingTabPicker)
        #expect(h.host.lastRoutingTrace?.summary.hasPrefix("2: sheet took the tab picker: tab 2") == true,
                "\(String(describing: h.host.lastRoutingTrace))")

        h.host.openTabPicker()
        h.press("esc")
        #expect(!h.host.isShowingTabPicker && h.host.selectedTab == 1)
    }

    @Test func aClickOnATabGoesThere() throws {
        let h = try Self.host()
        h.host.openTabPicker()
        h.host.renderIfNeeded()
        let row = try #require(h.position(of: "│1 Mail"), "\(h.text)")   // in the box, not the tab bar
        h.click(at: Point(x: row.x + 1, y: row.y))
        #expect(h.host.selectedTab == 0 && !h.host.isShowingTabPicker)
        #expect(h.contains("This is Mail"))
    }
}
