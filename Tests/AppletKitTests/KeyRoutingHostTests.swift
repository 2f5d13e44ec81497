import AppletTesting
import Testing

/// An applet with a chord, a text field, and a command that is disabled until the count is high.
struct NotesLikeApplet: Applet {
    let id = "noteslike"
    let title = "Notes"
    @StoredState(\.tally) private var tally
    @AppState(\.noteDraft) private var draft

    var body: some View {
        VStack(spacing: 1) {
            Text("Count: \(tally.count)")
            TextField("Title", text: $draft)
        }
        .padding(1)
    }

    var commands: [Command] {
        let tally = $tally
        return [
            Command(id: "noteslike.top", "Top", keys: ["g g"]) { tally.wrappedValue.count = 100 },
            Command(id: "noteslike.add", "Add", keys: ["ctrl-a"]) { tally.wrappedValue.count += 1 },
            Command(id: "noteslike.halve", "Halve", keys: ["h"]) { tally.wrappedValue.count /= 2 }.enabled(self.tally.count >= 10),
        ]
    }
}

extension Application {
    var noteDraft: State<String> { state(initial: "", feature: "HostTests", id: "draft") }
}

@Suite("Keys through the registry")
@MainActor
struct KeyRoutingHostTests {
    @Test("Help lists exactly the registry: every command with its keys, grouped, disabled ones dimmed")
    func helpListsTheRegistry() throws {
        let h = try AppletTestHost(tabs: [Tab(NotesLikeApplet()), Tab(TallyApplet())], width: 100, height: 40)
        h.press("esc")                                // leave the text field that has focus at start
        // Help lists what the keys reach under it: the registry before it opened.
        let registry = h.host.activeRegistry()
        h.press("?")
        #expect(h.host.isShowingHelp)
        for entry in registry.entries {
            let keys = entry.keys.isEmpty ? "—" : entry.keys.map(\.label).joined(separator: " ")
            let row = h.lines.first { $0.contains(entry.title) && $0.contains(keys) }
            #expect(row != nil, "help lacks \(entry.id) (\(keys) \(entry.title)):\n\(h.text)")
        }
        #expect(h.contains("Applet") && h.contains("App") && h.contains("Ctrl-C"))
        let halve = try #require(h.position(of: "Halve"))
        #expect(h.cell(x: halve.x, y: halve.y).style.attributes.contains(.dim), "a disabled command is drawn dimmed")
        h.press("esc")
        #expect(!h.host.isShowingHelp)
    }

    @Test("Ctrl-P opens the palette; typing filters; Enter runs the command; the trace says so")
    func paletteRunsACommand() throws {
        let h = try AppletTestHost(tabs: [Tab(TallyApplet()), Tab(MirrorApplet())], width: 100, height: 30)
        h.press("ctrl-p")
        #expect(h.host.isShowingPalette)
        #expect(h.contains("Commands") && h.contains("Zero"))
        // The footer shows the palette's keys, not the tab's: q would be typed into the query.
        #expect(h.lines.last?.hasPrefix("Enter Run") == true && !h.lines.last!.contains("Quit"), "\(h.lines.last ?? "")")
        h.type("zero")
        h.press("+")            // typed into the query, not run
        #expect(h.application.tally.value.count == 0)
        h.press("backspace", "enter")
        #expect(!h.host.isShowingPalette)
        #expect(h.host.lastRoutingTrace?.commandID == "tally.zero")
        h.press("+", "+", "ctrl-p")
        h.type("up")
        h.press("enter")
        #expect(h.application.tally.value.count == 3)
        h.press("ctrl-p", "esc")
        #expect(!h.host.isShowingPalette && h.application.tally.value.count == 3)
    }

    @Test("A keymap rebinds by id: the new key works, the old one does not, the footer shows the new one")
    func keymapRebinds() throws {
        let keymap = Keymap(bindings: ["tally.up": [KeySequence("u")!], "host.quit": [KeySequence("ctrl-q")!]])
        let h = try AppletTestHost(tabs: [Tab(TallyApplet()), Tab(MirrorApplet())], width: 120, height: 20, keymap: keymap)
        h.press("+", "u", "u")
        #expect(h.application.tally.value.count == 2)
        h.expectRows(19..<20, toShow: "u Up  - Down  0 Zero  1-2 Tab  ]/[ Next/Prev  Tab Focus  ? Help  Ctrl-Q Quit")
        h.press("q")
        #expect(h.host.isRunning)
        h.press("ctrl-q")
        #expect(!h.host.isRunning)
    }

    @Test("Chords: the footer shows the prefix; the second key runs; the timeout on the host's clock cancels")
    func chords() async throws {
        let h = try AppletTestHost(NotesLikeApplet(), width: 80, height: 12)
        h.press("esc")
        h.press("g")
        #expect(h.host.pendingChord == "g")
        #expect(h.row(11).hasPrefix("g …"), "\(h.row(11))")
        h.press("g")
        #expect(h.application.tally.value.count == 100)
        h.press("g")
        await h.advance(by: .milliseconds(999))
        #expect(h.host.pendingChord == "g")
        await h.advance(by: .milliseconds(1))
        #expect(h.host.pendingChord == nil)
        #expect(!h.row(11).hasPrefix("g …"))
        h.press("g", "ctrl-a")                     // a wrong second key: swallowed, nothing runs
        #expect(h.application.tally.value.count == 100)
        h.press("ctrl-a")
        #expect(h.application.tally.value.count == 101)
    }

    @Test("A disabled command's key does nothing and is not in the footer; enabled, it runs")
    func enabledWhen() throws {
        let h = try AppletTestHost(NotesLikeApplet(), width: 80, height: 12)
        h.press("esc")
        #expect(!h.row(11).contains("Halve"))
        h.press("h")
        #expect(h.host.lastRoutingTrace?.commandID == nil)
        #expect(h.host.lastRoutingTrace?.description.contains("noteslike.halve disabled") == true, "\(String(describing: h.host.lastRoutingTrace))")
        for _ in 0..<10 { h.press("ctrl-a") }
        #expect(h.row(11).contains("h Halve"))
        h.press("h")
        #expect(h.application.tally.value.count == 5)
    }

    @Test("Alt-N and Ctrl-PgDn switch tabs even while a text field takes the digits")
    func priorityKeys() throws {
        let h = try AppletTestHost(tabs: [Tab(NotesLikeApplet()), Tab(TallyApplet())], width: 80, height: 12)
        h.type("2")                                   // the text field has focus at start
        #expect(h.application.noteDraft.value == "2")
        #expect(h.host.selectedTab == 0)
        h.press("alt-2")
        #expect(h.host.selectedTab == 1)
        h.press("ctrl-pgdn")
        #expect(h.host.selectedTab == 0)
        #expect(h.application.noteDraft.value == "2")
    }

    @Test("The footer leaves out keys the focused text field would type")
    func footerHidesTypedKeys() throws {
        let h = try AppletTestHost(NotesLikeApplet(), width: 100, height: 12)
        #expect(!h.row(11).contains("? Help") && !h.row(11).contains("q Quit"), "\(h.row(11))")
        // Ctrl-A moves the field's cursor to the start, so Add does not run from here: not shown.
        #expect(!h.row(11).contains("Ctrl-A Add") && h.row(11).contains("Esc Leave field"), "\(h.row(11))")
        h.press("esc")
        #expect(h.row(11).contains("? Help") && h.row(11).contains("q Quit") && h.row(11).contains("Ctrl-A Add"), "\(h.row(11))")
        #expect(!h.row(11).contains("Esc Leave field"))
        h.press("tab")
        #expect(!h.row(11).contains("? Help") && !h.row(11).contains("q Quit"), "\(h.row(11))")
    }

    /// A list that takes j (and an empty one that does not), beside a command on j and one on x.
    struct ListAndCommandsApplet: Applet {
        let id = "listcmds"
        let title = "List"
        let rows: Int
        @AppState(\.listCommandsSelection) private var selection
        var body: some View {
            List(0..<rows, selection: $selection) { Text("row \($0)") }
        }
        var commands: [Command] {
            [Command(id: "listcmds.jump", "Jump", keys: ["j"]) {}, Command(id: "listcmds.mark", "Mark", keys: ["x"]) {}]
        }
    }

    @Test("The footer leaves out a command whose key the focused list takes itself")
    func footerHidesKeysTheFocusedWidgetUses() throws {
        let h = try AppletTestHost(ListAndCommandsApplet(rows: 5), width: 100, height: 12)
        #expect(h.row(11).contains("x Mark"), "\(h.row(11))")
        #expect(!h.row(11).contains("j Jump"), "the list moves on j: \(h.row(11))")
        let empty = try AppletTestHost(ListAndCommandsApplet(rows: 0), width: 100, height: 12)
        #expect(empty.row(11).contains("j Jump") && empty.row(11).contains("x Mark"), "\(empty.row(11))")
    }

    /// The trap a new user found: an applet whose only focusable widget is a text field.
    struct LoneFieldApplet: Applet {
        let id = "lone"
        let title = "Lone"
        @AppState(\.noteDraft) private var draft
        var body: some View { TextField("Title", text: $draft).padding(1) }
    }

    @Test("A lone text field never traps the keyboard: Esc leaves it, Tab steps out and back in")
    func loneFieldCanBeLeft() throws {
        let h = try AppletTestHost(tabs: [Tab(LoneFieldApplet()), Tab(TallyApplet())], width: 100, height: 12)
        h.type("2]?q")
        #expect(h.application.noteDraft.value == "2]?q")
        #expect(h.host.selectedTab == 0 && h.host.isRunning && !h.host.isShowingHelp)
        h.press("esc")
        #expect(h.host.lastRoutingTrace?.description.contains("Esc left it") == true)
        h.press("2")
        #expect(h.host.selectedTab == 1)
        h.press("1", "tab")                               // back into the field
        h.type("x")
        #expect(h.application.noteDraft.value == "2]?qx")
        h.press("tab", "?")                               // Tab steps out to the pane; ? is help again
        #expect(h.host.isShowingHelp)
        h.press("esc", "tab", "esc", "q")
        #expect(!h.host.isRunning)
    }

    @Test("Every key's route is recorded; --debug-keys shows it above the footer")
    func routingTrace() throws {
        let h = try AppletTestHost(tabs: [Tab(TallyApplet()), Tab(MirrorApplet())], width: 140, height: 20)
        h.press("+")
        #expect(h.host.lastRoutingTrace?.handler == .applet)
        #expect(h.host.lastRoutingTrace?.commandID == "tally.up")
        h.press("2")
        #expect(h.host.lastRoutingTrace?.handler == .host)
        h.host.showsRoutingTrace = true
        h.press("d")
        #expect(h.row(18).contains("keys: d:") && h.row(18).contains("applet took mirror.double"), "\(h.row(18))")
    }

    @Test("keyProblems names an unknown id in the keymap and keys that clash")
    func keyProblems() throws {
        let keymap = Keymap(bindings: ["tally.nope": [KeySequence("x")!], "tally.down": [KeySequence("+")!]])
        let h = try AppletTestHost(TallyApplet(), keymap: keymap)
        let problems = h.host.keyProblems()
        #expect(problems.contains { $0.contains("tally.nope") }, "\(problems)")
        #expect(problems.contains { $0.contains("+ is bound twice in Applet: tally.up, tally.down") }, "\(problems)")
    }
}

extension Application {
    var listCommandsSelection: State<Int> { state(initial: 0, feature: "HostTests", id: "listCommandsSelection") }
}
