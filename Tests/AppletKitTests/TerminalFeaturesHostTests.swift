@testable import AppletKit
import AppletTesting
import Foundation
import Testing

extension Application {
    fileprivate var copyRow: State<Int> { state(initial: 1, feature: "CopyTests", id: "row") }
    fileprivate var copyMarked: State<Set<Int>> { state(initial: [], feature: "CopyTests", id: "marked") }
    fileprivate var copyTableRow: State<Int> { state(initial: 0, feature: "CopyTests", id: "tableRow") }
    fileprivate var copySort: State<TableSort> { state(initial: .none, feature: "CopyTests", id: "sort") }
    fileprivate var copyField: State<String> { state(initial: "", feature: "CopyTests", id: "field") }
    fileprivate var copySecret: State<String> { state(initial: "hunter2", feature: "CopyTests", id: "secret") }
    fileprivate var copyArea: State<String> { state(initial: "first\nsecond", feature: "CopyTests", id: "area") }
    fileprivate var copyRuns: State<Int> { state(initial: 0, feature: "CopyTests", id: "runs") }
}

/// One widget of each kind that copies, in focus order: a list (row 0), a table, a log, a
/// field, a secure field, a text area; and a link.
private struct CopyApplet: Applet {
    let id = "copy"
    let title = "Copy"
    @AppState(\.copyRow) private var row
    @AppState(\.copyMarked) private var marked
    @AppState(\.copyTableRow) private var tableRow
    @AppState(\.copySort) private var sort
    @AppState(\.copyField) private var field
    @AppState(\.copySecret) private var secret
    @AppState(\.copyArea) private var area

    static let fruits = ["apple", "banana", "cherry"]
    static let people = [("Ada", "36"), ("Grace", "85")]

    var body: some View {
        VStack {
            List(Self.fruits, selection: $row) { fruit in
                HStack(spacing: 1) { Text(fruit); Text("(fruit)").themed(.muted) }
            }
            .multiSelection($marked)
            .frame(height: 3)
            Table(Self.people, columns: [TableColumn("Name"), TableColumn("Age")], selection: $tableRow, sort: $sort) { person, column in
                column == 0 ? person.0 : person.1
            }
            .frame(height: 3)
            LogView(lines: (1...10).map { "log line \($0)" }).frame(height: 2)
            TextField("Name", text: $field)
            TextField("Password", text: $secret).secure()
            TextArea(text: $area).frame(height: 2)
            Text("the docs").link("https://example.com/docs")
        }
    }
}

@Suite("The terminal's own abilities, from the host")
@MainActor
struct TerminalFeaturesHostTests {
    private func host(width: Int = 80, height: Int = 24) throws -> AppletTestHost {
        try AppletTestHost(CopyApplet(), width: width, height: height)
    }

    private func footer(_ h: AppletTestHost) -> String { h.lines.last ?? "" }

    // MARK: Copy

    @Test func altCCopiesTheSelectedRowAndSaysSo() throws {
        let h = try host()
        #expect(footer(h).contains("Alt-C Copy"), "\(footer(h))")
        h.press("alt-c")
        #expect(h.terminal.clipboard == ["banana (fruit)"])
        #expect(h.contains("✓ Copied 1 line"))
    }

    @Test func withRowsMarkedAltCCopiesEveryMarkedRowInOrder() throws {
        let h = try host()
        h.press("space", "k", "k", "space")     // marks banana, then apple
        h.press("alt-c")
        #expect(h.terminal.clipboard == ["apple (fruit)\nbanana (fruit)"])
        #expect(h.contains("✓ Copied 2 lines"))
    }

    @Test func aTableCopiesItsSelectedRowsCellsJoinedByTabs() throws {
        let h = try host()
        h.press("tab", "j", "alt-c")
        #expect(h.terminal.clipboard == ["Grace\t85"])
    }

    @Test func aLogCopiesTheLinesOnScreen() throws {
        let h = try host()
        h.press("tab", "tab", "alt-c")
        #expect(h.terminal.clipboard == ["log line 9\nlog line 10"])
        #expect(h.contains("✓ Copied 2 lines"))
    }

    @Test func anEmptyFieldHasNothingToCopySoCopyIsNotInTheFooterAndItsKeyDoesNothing() throws {
        let h = try host(width: 120)
        h.press("tab", "tab", "tab")                    // the name field, empty
        #expect(!footer(h).contains("Copy"), "\(footer(h))")
        h.press("alt-c")
        #expect(h.terminal.clipboard.isEmpty)
        h.type("Ada")
        #expect(footer(h).contains("Alt-C Copy"), "the field has text now: \(footer(h))")
        h.press("alt-c")
        #expect(h.terminal.clipboard == ["Ada"])
        #expect(h.row(3).contains("Ada") || h.contains("Ada"), "the field kept its text (alt-c typed nothing)")
        #expect(Application.withCurrent(h.application) { Application.current.copyField.value } == "Ada")
    }

    @Test func aSecureFieldNeverCopies() throws {
        let h = try host(width: 120)
        h.press("tab", "tab", "tab", "tab")             // the password field
        #expect(!footer(h).contains("Copy"), "\(footer(h))")
        h.press("alt-c")
        #expect(h.terminal.clipboard.isEmpty)
    }

    @Test func aTextAreaCopiesItsWholeText() throws {
        let h = try host()
        h.press("tab", "tab", "tab", "tab", "tab", "alt-c")
        #expect(h.terminal.clipboard == ["first\nsecond"])
        #expect(h.contains("✓ Copied 2 lines"))
    }

    @Test func copyIsInHelpAndThePaletteWithItsIdForKeymaps() throws {
        let h = try host()
        let registry = h.host.activeRegistry()
        #expect(registry.ids.contains("host.copy") && registry.ids.contains("host.mouse"))
        #expect(h.host.keyProblems() == [])
    }

    @Test func aCopyTooLargeForATerminalSaysWhatFit() {
        let line = String(repeating: "x", count: 99) + "\n"
        let copy = OSC52.sequence(for: String(repeating: line, count: 1000)).copy
        #expect(AppletHost.copyMessage(copy) == "Copied the first 750 of 1000 lines (a terminal takes 100 KB at most)")
        #expect(AppletHost.copyMessage(OSC52.sequence(for: "a\nb").copy) == "Copied 2 lines")
    }

    // MARK: Links

    @Test func aLinkChangesNothingOnTheScreenButItsCellsCarryIt() throws {
        let h = try host()
        let position = try #require(h.position(of: "the docs"))
        #expect(h.row(position.y) == "the docs")
        let runs = h.screen.linkedRuns
        #expect(runs.map(\.text) == ["the docs"])
        #expect(runs.first?.hyperlink.url == "https://example.com/docs")
        #expect(runs.first?.y == position.y && runs.first?.columns == position.x..<(position.x + 8))
    }

    // MARK: The mouse

    @Test func altMTurnsTheMouseOffAndTheFooterSaysSoUntilItIsBack() throws {
        let h = try host()
        #expect(h.terminal.mouseReporting == .on)
        #expect(!footer(h).contains("Mouse"), "the footer does not list it while the mouse works")
        h.press("alt-m")
        #expect(h.terminal.mouseReporting == .off)
        #expect(footer(h).hasPrefix("Alt-M Mouse back on"), "\(footer(h))")
        #expect(h.host.toasts.map(\.message) == ["Mouse off: drag to select text; Alt-M turns it back on"])
        // From under an overlay too.
        h.press("?")
        #expect(footer(h).hasPrefix("Alt-M Mouse back on"), "\(footer(h))")
        h.press("alt-m")
        #expect(h.terminal.mouseReporting == .on)
        #expect(!footer(h).contains("Mouse back on"), "\(footer(h))")
        #expect(h.host.activeRegistry().entries.contains { $0.id == "host.mouse" && $0.title == "Select text (mouse off)" })
    }

    @Test func anAppWithoutTheMouseHasNoMouseCommand() throws {
        let h = try host()
        h.terminal.mouseReporting = .unavailable
        h.host.setNeedsDisplay()
        h.host.renderIfNeeded()
        #expect(!h.host.activeRegistry().ids.contains("host.mouse"))
        h.press("alt-m")
        #expect(h.terminal.mouseReporting == .unavailable)
    }

    // MARK: Other programs

    @Test func aProgramThatCannotStartIsAnErrorToastAndTheScreenStays() async throws {
        let h = try host()
        let before = h.lines
        let outcome = await h.host.runProgram("no-such-editor", arguments: ["/tmp/x"])
        h.host.renderIfNeeded()
        #expect(outcome == .couldNotStart("no-such-editor: not found (a headless terminal runs no programs)"))
        #expect(h.terminal.programsRun == [ExternalProgram("no-such-editor", arguments: ["/tmp/x"])])
        #expect(h.host.toasts.map(\.message) == ["Could not run no-such-editor: not found (a headless terminal runs no programs)"])
        #expect(h.host.toasts.map(\.style) == [.error])
        #expect(h.contains("✗ Could not run"), "\(h.text)")
        #expect(h.lines.prefix(12) == before.prefix(12), "the panes are as they were")
    }

    @Test func aProgramsOutcomeComesBackAndThePanesAreDrawnAgain() async throws {
        let h = try host()
        h.terminal.programRunner = { program in
            // What the program did meanwhile (as an editor changes a file the app shows).
            Application.withCurrent(h.application) { Application.current.copyArea.value = "edited by \(program.executable)" }
            return .exited(3)
        }
        let outcome = await h.host.runProgram("ed")
        h.host.renderIfNeeded()
        #expect(outcome == .exited(3))
        #expect(h.contains("edited by ed"))
    }

    @Test func runProgramIsASideEffectTheHostPerforms() async throws {
        let h = try host()
        h.terminal.programRunner = { _ in .signalled(2) }
        let task = h.host.logic.send(.effect(RunProgram("less", arguments: ["notes.txt"])) { outcome in
            .request(UpdateRequest("count") { store in store.copyRuns.value = outcome == .signalled(2) ? 1 : -1 })
        })
        #expect(await task.finished() == .succeeded)
        #expect(h.terminal.programsRun == [ExternalProgram("less", arguments: ["notes.txt"])])
        #expect(Application.withCurrent(h.application) { Application.current.copyRuns.value } == 1)
    }
}
