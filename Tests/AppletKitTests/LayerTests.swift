import AppletKit
import AppletTesting
import Foundation
import Testing

/// An applet with many commands (so help is taller than a small screen) and a button that counts
/// clicks (so a click that reaches it shows).
struct ManyCommandsApplet: Applet {
    let id = "many"
    let title = "Many"
    @StoredState(\.tally) private var tally

    var body: some View {
        VStack(spacing: 1) {
            Text("Count: \(tally.count)")
            Button("Bump") { tally.count += 1 }
        }
        .padding(1)
    }

    var commands: [Command] {
        let tally = $tally
        return (0..<26).map { index in
            let letter = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index)))
            return Command(id: "many.\(letter)", "Command \(letter.uppercased())", keys: [letter]) { tally.wrappedValue.count += 1 }
        }
    }
}

/// A presented view: a field and a button that hands its text back.
struct RenameView: View {
    let done: PresentationHandle<String>
    @State private var name = ""

    var body: some View {
        VStack {
            TextField("New name", text: $name)
            Button("Rename") { done.dismiss(returning: name) }
        }
    }
}

/// A field and commands on a function key and a letter.
struct FieldAndKeysApplet: Applet {
    let id = "fieldkeys"
    let title = "Field"
    @AppState(\.noteDraft) private var draft

    var body: some View { TextField("Name", text: $draft) }

    var commands: [Command] {
        [Command(id: "fieldkeys.hide", "Hide", keys: ["f2"]) {}, Command(id: "fieldkeys.x", "Letter", keys: ["x"]) {}]
    }
}

@Suite("Layers: the host as a stack")
@MainActor
struct LayerTests {
    /// The rows of the box the overlay drew: from its top border to its bottom border.
    static func box(_ h: AppletTestHost, titled title: String) throws -> Range<Int> {
        let top = try #require(h.lines.firstIndex { $0.contains("╭─ \(title)") }, "no box \(title):\n\(h.text)")
        let bottom = try #require(h.lines[(top + 1)...].firstIndex { $0.contains("╰") }, "no bottom border:\n\(h.text)")
        return top..<(bottom + 1)
    }

    // MARK: Help

    @Test func helpTallerThanTheScreenScrollsAndKeepsItsClosingLine() throws {
        let h = try AppletTestHost(tabs: [Tab(ManyCommandsApplet()), Tab(TallyApplet())], width: 80, height: 24)
        h.press("?")
        var rows = try Self.box(h, titled: "Keys: Many")
        // Inside the box, never over the top line or the footer.
        #expect(rows.lowerBound >= 1 && rows.upperBound <= 23, "\(rows)")
        let inner = h.lines[rows].joined(separator: "\n")
        #expect(inner.contains("↓") && inner.contains("more"), "a mark of what is hidden:\n\(h.text)")
        #expect(h.lines[rows.upperBound - 2].contains("Esc closes"), "the closing hint on the last row:\n\(h.text)")
        #expect(!h.contains("Ctrl-C"), "the Always section is below")
        // End goes to the bottom: the Always section, and a mark of what is above.
        h.press("end")
        rows = try Self.box(h, titled: "Keys: Many")
        #expect(h.contains("Ctrl-C") && h.contains("Quit, always"), "\(h.text)")
        #expect(h.lines[rows.lowerBound + 1].contains("↑") && h.lines[rows.lowerBound + 1].contains("more"), "\(h.text)")
        #expect(h.lines[rows.upperBound - 2].contains("Esc closes"))
        // Home, PgDn and the wheel move it too.
        h.press("home")
        #expect(!h.contains("Ctrl-C"))
        let before = h.text
        h.press("pgdn")
        #expect(h.text != before)
        h.press("home")
        h.send(.mouse(MouseEvent(kind: .scrollDown, position: Point(x: 40, y: 10))))
        #expect(h.text != before)
        // The keys that move it are in the footer; the tab's are not (they do nothing under help).
        let footer = h.lines.last ?? ""
        #expect(footer.contains("Scroll") && footer.contains("Esc Close"), "\(footer)")
        #expect(!footer.contains("Quit") && !footer.contains("Command A"), "\(footer)")
        h.press("b")                                        // a tab command: does nothing under help
        #expect(h.application.tally.value.count == 0)
        h.press("esc")
        #expect(!h.host.isShowingHelp)
        h.press("b")
        #expect(h.application.tally.value.count == 1)
    }

    @Test func helpThatFitsHasNoMarks() throws {
        let h = try AppletTestHost(tabs: [Tab(TallyApplet())], width: 100, height: 40)
        h.press("?")
        let rows = try Self.box(h, titled: "Keys: Tally")
        let inner = h.lines[rows].joined(separator: "\n")
        #expect(!inner.contains("more"), "\(inner)")
        #expect(h.lines[rows.upperBound - 2].contains("Esc closes") && !h.lines[rows.upperBound - 2].contains("scroll"))
    }

    // MARK: The footer never lies

    @Test func theFooterShowsOnlyTheModalLayersKeys() throws {
        let h = try AppletTestHost(tabs: [Tab(TallyApplet()), Tab(MirrorApplet())], width: 100, height: 30)
        #expect(h.lines.last?.hasPrefix("+ Up") == true)
        h.press("ctrl-p")
        var footer = h.lines.last ?? ""
        #expect(footer.hasPrefix("Enter Run") && footer.contains("Esc Close") && !footer.contains("Quit") && !footer.contains("+ Up"), "\(footer)")
        h.press("esc")
        h.press("f12")
        footer = h.lines.last ?? ""
        #expect(footer.contains("Esc Close") && footer.contains("Follow") && !footer.contains("Quit") && !footer.contains("+ Up"), "\(footer)")
        h.press("esc")
        h.press("?")
        footer = h.lines.last ?? ""
        #expect(footer.contains("Esc Close") && !footer.contains("Quit"), "\(footer)")
        h.press("esc")
        #expect(h.lines.last?.hasPrefix("+ Up") == true && h.lines.last?.hasSuffix("q Quit") == true)
    }

    @Test func theHelpOverAModalListsTheModalsKeys() throws {
        let h = try AppletTestHost(tabs: [Tab(TallyApplet())], width: 100, height: 30)
        h.host.openPalette()
        h.host.renderIfNeeded()
        h.host.openHelp()
        h.host.renderIfNeeded()
        // Help opened from the palette lists what worked there: the palette's keys, not the tab's.
        #expect(h.contains("Run") && h.contains("Close"))
        #expect(!h.contains("Zero"))
    }

    @Test func whileTypingTheFooterKeepsTheKeysThatStillWork() throws {
        let h = try AppletTestHost(tabs: [Tab(FieldAndKeysApplet())], width: 100, height: 10)
        let footer = h.lines.last ?? ""
        // F2 and Tab still work in a field; x would be typed.
        #expect(footer.contains("F2 Hide") && footer.contains("Esc Leave field") && !footer.contains("x Letter"), "\(footer)")
    }

    // MARK: Mouse under overlays

    @Test(arguments: ["ctrl-p", "?", "f12"])
    func aClickUnderAnOverlayReachesNothing(_ key: String) throws {
        let h = try AppletTestHost(tabs: [Tab(ManyCommandsApplet())], width: 100, height: 30)
        let bump = try #require(h.position(of: "Bump"))
        h.click(at: bump)
        #expect(h.application.tally.value.count == 1, "the button works")
        h.press(key)
        h.click(at: bump)
        #expect(h.application.tally.value.count == 1, "a click under \(key) reached the pane")
    }

    // MARK: Toasts

    @Test(arguments: [(Theme.light, ColorSupport.palette256), (Theme.dark, ColorSupport.palette256),
                      (Theme.light, ColorSupport.basic8), (Theme.dark, ColorSupport.basic8)])
    func toastsUseTheHostsThemeAtItsColourDepth(theme: Theme, support: ColorSupport) async throws {
        let h = try AppletTestHost(tabs: [Tab(TallyApplet())], width: 100, height: 30, colorSupport: support, theme: theme)
        await h.perform { h.application.toast("Saved", style: .success) }
        let mark = try #require(h.position(of: "✓ Saved"))
        let style = h.cell(x: mark.x, y: mark.y).style
        let success = theme.resolved(for: support)[.success]
        #expect(style.foreground == success.foreground && style.background == success.background, "\(style) is not \(success)")
    }

    // MARK: The action log

    @Test func theActionLogTakesTheWholeWidth() throws {
        let h = try AppletTestHost(tabs: [Tab(TallyApplet())], width: 120, height: 30)
        h.press("f12")
        let rows = try Self.box(h, titled: "Action log")
        #expect(h.lines[rows.lowerBound].hasPrefix("╭─ Action log"), "\(h.lines[rows.lowerBound])")
        #expect(h.row(rows.lowerBound).hasSuffix("╮") && h.row(rows.lowerBound).terminalWidth == 120)
        #expect(rows.lowerBound == 1 && rows.upperBound == 29, "between the tab bar and the footer: \(rows)")
        for y in rows { #expect(h.cell(x: 0, y: y).grapheme != " " && h.cell(x: 119, y: y).grapheme != " ", "row \(y): \(h.row(y))") }
    }

    // MARK: The palette

    @Test func thePaletteHasNoBlankRowAboveItsHint() throws {
        let h = try AppletTestHost(tabs: [Tab(TallyApplet()), Tab(MirrorApplet())], width: 100, height: 40)
        h.press("ctrl-p")
        h.type("zero")
        let rows = try Self.box(h, titled: "Commands")
        let inner = Array(h.lines[(rows.lowerBound + 1)..<(rows.upperBound - 1)])
        #expect(inner.count == 3, "query, one result, hint:\n\(inner.joined(separator: "\n"))")
        #expect(inner.last?.contains("Enter runs") == true)
        #expect(!inner.contains { $0.trimmingCharacters(in: CharacterSet(charactersIn: " │")).isEmpty })
    }

    // MARK: Presented layers

    @Test func anAppletPresentsAViewAndGetsItsResult() async throws {
        let h = try AppletTestHost(tabs: [Tab(TallyApplet())], width: 80, height: 24)
        var results: [String?] = []
        await h.perform {
            h.application.present("Rename", returning: String.self) { done in
                RenameView(done: done)
            } onResult: { results.append($0) }
        }
        #expect(h.host.isShowingModal)
        #expect(h.contains("╭─ Rename") && h.contains("New name"))
        #expect(h.lines.last?.contains("Esc Close") == true && h.lines.last?.contains("Quit") == false, "\(h.lines.last ?? "")")
        // Modal: out of its field, the tab's keys still do not reach the tally.
        h.press("esc")
        h.press("+")
        #expect(h.application.tally.value.count == 0)
        h.press("tab")
        h.type("Ada")
        h.press("tab")
        h.press("enter")
        #expect(results == ["Ada"])
        #expect(!h.host.isShowingModal && !h.contains("╭─ Rename"))
        // Esc closes it without a result.
        await h.perform {
            h.application.present("Rename", returning: String.self) { done in
                RenameView(done: done)
            } onResult: { results.append($0) }
        }
        h.press("esc")   // leaves the field
        h.press("esc")   // closes
        #expect(results == ["Ada", nil])
        #expect(!h.host.isShowingModal)
        h.press("+")
        #expect(h.application.tally.value.count == 1)
    }

    @Test func aModalLayersOwnHandlingComesBeforeItsCommands() async throws {
        let h = try AppletTestHost(tabs: [Tab(TallyApplet())], width: 80, height: 24)
        await h.perform {
            h.application.present("Rename", returning: String.self, commands: { _ in
                [Command(id: "rename.ex", "Ex", keys: ["x"]) {}]
            }) { done in
                RenameView(done: done)
            } onResult: { _ in }
        }
        h.press("x")     // the field has focus: it takes x before the command sees it
        #expect(h.host.lastRoutingTrace?.handler == .sheet && h.host.lastRoutingTrace?.commandID == nil,
                "\(String(describing: h.host.lastRoutingTrace))")
        h.press("esc")   // leaves the field
        h.press("x")
        #expect(h.host.lastRoutingTrace?.commandID == "rename.ex", "\(String(describing: h.host.lastRoutingTrace))")
    }

    @Test func aPresentedViewIsAsTallAsItsContent() async throws {
        let h = try AppletTestHost(tabs: [Tab(TallyApplet())], width: 80, height: 40)
        await h.perform {
            h.application.present("Rename", returning: String.self) { done in
                RenameView(done: done)
            } onResult: { _ in }
        }
        let rows = try Self.box(h, titled: "Rename")
        // Border, field, button, the spacer's nothing, "Esc closes", border.
        #expect(rows.count <= 6, "\(rows.count) rows:\n\(h.text)")
    }
}
