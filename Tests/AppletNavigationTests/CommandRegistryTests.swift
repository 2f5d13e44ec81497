import AppletNavigation
import Terminal
import Testing

@MainActor
@Suite("CommandRegistry")
struct CommandRegistryTests {
    static func command(_ id: String?, _ title: String, _ keys: [String], enabled: Bool = true, priority: Bool = false,
                        ran: ((String) -> Void)? = nil) -> Command {
        Command(id: id, title, keys: keys, isEnabled: enabled, isPriority: priority) { ran?(title) }
    }

    @Test("A command without an id gets the owner's id and its title as a slug")
    func derivedIDs() {
        #expect(Command("+", "Increment") {}.id(owner: "counter") == "counter.increment")
        #expect(Command("d", "Delete note!") {}.id(owner: "notes") == "notes.delete-note")
        #expect(Command("x", "") {}.id(owner: "a") == "a.command")
        #expect(Command(id: "notes.remove", "Delete", keys: ["d"]) {}.id(owner: "notes") == "notes.remove")
        // + is a word, so titles that differ only by it keep different ids.
        #expect(Command(">", "Goal+5") {}.id(owner: "dash") == "dash.goal-plus-5")
        #expect(Command("<", "Goal-5") {}.id(owner: "dash") == "dash.goal-5")
    }

    @Test("Lookups by id find the first entry with it, wherever later scopes inserted theirs")
    func lookupByID() {
        var registry = CommandRegistry()
        registry.register([Self.command("host.quit", "Quit", ["q"])], scope: .host, owner: "host")
        registry.register([Self.command("x.go", "Go", ["g"]), Self.command("x.go", "Go again", ["h"])], scope: .applet, owner: "x")
        registry.register([Self.command("sheet.close", "Close", ["esc"])], scope: .sheet, owner: "sheet")
        for id in ["host.quit", "x.go", "sheet.close"] {
            let index = registry.index(ofID: id)
            #expect(index == registry.entries.firstIndex { $0.id == id }, "\(id)")
            #expect(registry.entry(id: id)?.id == id)
        }
        #expect(registry.entry(id: "x.go")?.title == "Go")
        #expect(registry.index(ofID: "nobody") == nil && registry.entry(id: "nobody") == nil)
    }

    @Test("Two commands with one id are found, with their titles")
    func duplicateIDs() {
        var registry = CommandRegistry()
        registry.register([Command("a", "Go!") {}, Command("b", "Go?") {}, Command("c", "Stop") {}], scope: .applet, owner: "x")
        let duplicates = registry.duplicateIDs()
        #expect(duplicates.count == 1)
        #expect(duplicates.first?.id == "x.go" && duplicates.first?.titles == ["Go!", "Go?"])
    }

    @Test("Entries stay in scope order whatever the order of registration")
    func scopeOrder() {
        var registry = CommandRegistry()
        registry.register([Self.command("h.q", "Quit", ["q"])], scope: .host, owner: "host")
        registry.register([Self.command("a.x", "X", ["x"])], scope: .applet, owner: "a")
        registry.register([Self.command("s.ok", "OK", ["enter"])], scope: .sheet, owner: "sheet")
        registry.register([Self.command("a.y", "Y", ["y"])], scope: .applet, owner: "a")
        #expect(registry.entries.map(\.id) == ["s.ok", "a.x", "a.y", "h.q"])
    }

    @Test("The inner scope wins a key; a disabled command passes it on")
    func lookup() {
        var registry = CommandRegistry()
        registry.register([Self.command("h.refresh", "Refresh all", ["r"])], scope: .host, owner: "host")
        registry.register([Self.command("a.reset", "Reset", ["r"])], scope: .applet, owner: "a")
        #expect(registry.entry(for: KeySequence("r")!)?.id == "a.reset")
        var disabled = CommandRegistry()
        disabled.register([Self.command("h.refresh", "Refresh all", ["r"])], scope: .host, owner: "host")
        disabled.register([Self.command("a.reset", "Reset", ["r"], enabled: false)], scope: .applet, owner: "a")
        #expect(disabled.entry(for: KeySequence("r")!)?.id == "h.refresh")
        #expect(disabled.entry(for: KeySequence("z")!) == nil)
        #expect(disabled.entry(for: KeySequence("r")!, in: [.applet]) == nil)
        #expect(disabled.boundSequences().map(\.label) == ["r"])
    }

    @Test("Priority lookups see only priority commands")
    func priority() {
        var registry = CommandRegistry()
        registry.register([Self.command("h.tab", "Tab 1", ["1"]), Self.command("h.tab-always", "Tab 1", ["alt-1"], priority: true)],
                          scope: .host, owner: "host")
        #expect(registry.entry(for: KeySequence("1")!, priorityOnly: true) == nil)
        #expect(registry.entry(for: KeySequence("alt-1")!, priorityOnly: true)?.id == "h.tab-always")
    }

    @Test("A keymap replaces a command's keys by id; an empty list unbinds")
    func keymap() {
        var registry = CommandRegistry()
        registry.register([Self.command("notes.delete", "Delete", ["d"]), Self.command("notes.archive", "Archive", ["a"])],
                          scope: .applet, owner: "notes")
        registry.apply(Keymap(bindings: ["notes.delete": [KeySequence("ctrl-d")!, KeySequence("x x")!], "notes.archive": []]))
        #expect(registry.entry(id: "notes.delete")?.keys.map(\.label) == ["Ctrl-D", "x x"])
        #expect(registry.entry(id: "notes.delete")?.isRebound == true)
        #expect(registry.entry(for: KeySequence("d")!) == nil)
        #expect(registry.entry(id: "notes.archive")?.keys == [])
        #expect(registry.entry(id: "notes.archive")?.keyLabel == "")
    }

    @Test("Conflicts: one key twice for one owner in one scope, and a key that starts a chord")
    func conflicts() {
        var registry = CommandRegistry()
        registry.register([Self.command("n.delete", "Delete", ["d"]), Self.command("n.duplicate", "Duplicate", ["d"]),
                           Self.command("n.top", "Top", ["g g"]), Self.command("n.go", "Go", ["g"])],
                          scope: .applet, owner: "n")
        registry.register([Self.command("h.d", "Host d", ["d"])], scope: .host, owner: "host")
        let conflicts = registry.conflicts()
        #expect(conflicts.count == 2, "\(conflicts)")
        #expect(conflicts.contains(KeyConflict(kind: .sameKey, keys: KeySequence("d")!, ids: ["n.delete", "n.duplicate"], scope: .applet)))
        #expect(conflicts.contains { $0.kind == .prefixShadows && $0.ids == ["n.go", "n.top"] })
        #expect(conflicts.map(\.description).contains("d is bound twice in Applet: n.delete, n.duplicate"))
        #expect(conflicts.map(\.description).contains { $0.hasPrefix("g (n.go) never runs: it starts the chord g g (n.top)") })
        // A chord can shadow a longer chord too.
        var chords = CommandRegistry()
        chords.register([Self.command("c.three", "Three", ["z z z"]), Self.command("c.two", "Two", ["z z"]), Self.command("c.x", "X", ["x"])],
                        scope: .applet, owner: "c")
        #expect(chords.conflicts().map(\.ids) == [["c.two", "c.three"]])
        // The same key in an inner and an outer scope is no conflict: the inner one wins by design.
        var layered = CommandRegistry()
        layered.register([Self.command("a.r", "R", ["r"])], scope: .applet, owner: "a")
        layered.register([Self.command("h.r", "R", ["r"])], scope: .host, owner: "host")
        #expect(layered.conflicts().isEmpty)
    }
}
