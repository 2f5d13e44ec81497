import AppletNavigation
import AppletTesting
import Testing

@MainActor
@Suite("Command palette")
struct CommandPaletteTests {
    static func registry() -> CommandRegistry {
        var registry = CommandRegistry()
        registry.register([
            Command(id: "notes.new", "New note", keys: ["n"]) {},
            Command(id: "notes.delete", "Delete note", keys: ["d"], isEnabled: false) {},
            Command(id: "notes.sort", "Sort by date", keys: []) {},
        ], scope: .applet, owner: "notes")
        registry.register([Command(id: "host.quit", "Quit", keys: ["q"]) {}], scope: .host, owner: "host")
        return registry
    }

    static func type(_ text: String, into palette: inout CommandPalette) {
        for character in text { _ = palette.handle(KeyEvent(.char(character))) }
    }

    @Test("Typing filters, best match first; Enter runs the selection; Esc closes")
    func filterAndRun() {
        var palette = CommandPalette(entries: Self.registry().entries)
        #expect(palette.results.map(\.entry.id) == ["notes.new", "notes.delete", "notes.sort", "host.quit"])
        Self.type("sort", into: &palette)
        #expect(palette.results.first?.entry.id == "notes.sort")
        guard case .run(let entry) = palette.handle(KeyEvent(.enter)) else {
            Issue.record("Enter did not run")
            return
        }
        #expect(entry.id == "notes.sort")
        guard case .close = palette.handle(KeyEvent(.escape)) else {
            Issue.record("Esc did not close")
            return
        }
    }

    @Test("A disabled command is listed but Enter does not run it")
    func disabledStays() {
        var palette = CommandPalette(entries: Self.registry().entries)
        Self.type("delete", into: &palette)
        #expect(palette.results.first?.entry.id == "notes.delete")
        guard case .stay = palette.handle(KeyEvent(.enter)) else {
            Issue.record("a disabled command ran")
            return
        }
    }

    @Test("Arrows move and wrap; Backspace widens the search; nothing matches shows none")
    func moving() {
        var palette = CommandPalette(entries: Self.registry().entries)
        _ = palette.handle(KeyEvent(.up))
        #expect(palette.selection == 3)
        _ = palette.handle(KeyEvent(.down))
        #expect(palette.selection == 0)
        Self.type("zzz", into: &palette)
        #expect(palette.results.isEmpty)
        guard case .stay = palette.handle(KeyEvent(.enter)) else {
            Issue.record("Enter with no results should stay")
            return
        }
        for _ in 0..<3 { _ = palette.handle(KeyEvent(.backspace)) }
        #expect(palette.results.count == 4)
    }

    @Test("The view shows the query, the commands with their keys, and the count")
    func view() {
        var palette = CommandPalette(entries: Self.registry().entries)
        Self.type("no", into: &palette)
        let canvas = renderView(CommandPaletteView(palette: palette, visibleRows: 5), width: 40, height: 10)
        let lines = canvas.lines(in: canvas.bounds)
        #expect(lines[0].contains("Commands"))
        #expect(lines[1].contains("› no"))
        #expect(lines[2].contains("New note") && lines[2].contains("n"))
        #expect(lines.contains { $0.contains("of 4") })
    }
}
