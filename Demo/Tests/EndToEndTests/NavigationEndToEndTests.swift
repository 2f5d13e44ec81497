import Foundation
import Testing

/// The command palette, the Notes flow and the keymap, in the real binary in tmux, as a person
/// would use them.
@Suite("Navigation and keys, end to end", .timeLimit(.minutes(2)))
struct NavigationEndToEndTests {
    @Test("Ctrl-P opens the palette; typing finds a command and Enter runs it")
    func paletteRunsACommand() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let tmux = shell.tmux
        let (run, _) = try await shell.launchAndWait()
        try await tmux.waitFor(text: "Count: 0")
        try await tmux.type("++")
        try await tmux.waitFor(text: "Count: 2")
        try await tmux.press("C-p")
        try await tmux.waitUntil("the palette, listing the counter's commands") {
            $0.contains("╭─ Commands") && $0.contains("Increment") && $0.contains("Reset")
        }
        try await tmux.type("rset")                    // fuzzy: the letters in order
        try await tmux.waitUntil("the palette narrowed to Reset") { $0.contains("│Reset") && !$0.contains("│Increment") }
        try await tmux.press("Enter")
        try await tmux.waitUntil("the palette closed and the count reset") { $0.contains("Count: 0") && !$0.contains("╭─ Commands") }
        try await tmux.type("q")
        #expect(try await shell.waitForExit(run).status == 0)
    }

    @Test("Notes: open a note, edit it, save with Ctrl-S, and find it again after a restart")
    func notesFlowSurvivesARestart() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let tmux = shell.tmux
        var (run, _) = try await shell.launchAndWait(["--tab", "notes"])
        try await Self.editGroceriesTitle(in: tmux)
        try await tmux.type(" run")
        try await tmux.press("C-s")
        // Back on the note, with the toast.
        try await tmux.waitUntil("the saved toast over the note") { $0.contains("Saved “Groceries run”") && $0.contains("Notes › Groceries run") }
        try await tmux.type("q")
        #expect(try await shell.waitForExit(run).status == 0)

        // Started again without --tab: the same tab, the same screen.
        (run, _) = try await shell.launchAndWait()
        try await tmux.waitFor(text: "Notes › Groceries run")
        try await tmux.press("Escape")
        try await tmux.waitFor(text: "3 notes")
        try await tmux.type("q")
        #expect(try await shell.waitForExit(run).status == 0)
    }

    /// From the notes list: opens the first note ("Groceries"), starts editing it and puts the
    /// cursor at the end of its title.
    static func editGroceriesTitle(in tmux: Tmux) async throws {
        try await tmux.waitFor(text: "3 notes")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Notes › Groceries")
        try await tmux.type("e")
        try await tmux.waitFor(text: "Notes › Groceries › Edit")
        try await tmux.press("End")
    }

    @Test("Wide and combining characters typed into a field are drawn in their columns by the real terminal")
    func wideAndCombiningCharactersOnScreen() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let tmux = shell.tmux
        let (run, _) = try await shell.launchAndWait(["--tab", "notes"])
        try await Self.editGroceriesTitle(in: tmux)
        // Two wide characters, a precomposed é, a decomposed e + U+0301, then ASCII after them:
        // ncurses gets them in runs of cells (ak_put_cells), each wide one covering two columns.
        try await tmux.type(" 日本 café e\u{301} ok")
        // The rows below are where they were: nothing shifted by a column.
        try await tmux.waitUntil("the title in its columns, the rows below unmoved") {
            $0.row(2) == " Groceries 日本 café e\u{301} ok" && $0.lines.contains(" Milk") && $0.lines.contains(" Bread")
        }
        try await tmux.press("C-s")
        try await tmux.waitUntil("the saved title in the breadcrumb") { $0.row(1) == " Notes › Groceries 日本 café e\u{301} ok" }
        try await tmux.press("Escape")
        try await tmux.waitFor(text: "3 notes")
        try await tmux.type("q")
        #expect(try await shell.waitForExit(run).status == 0)
    }

    @Test("A keymap naming a command that does not exist: the app starts, says so once, and the other keys work")
    func aBadKeymapIsReportedAfterTheFirstFrame() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let keymap = folder.appendingPathComponent("keys.toml")
        try "[keys]\n\"counter.incremnt\" = [\"=\"]\n\"counter.increment\" = [\"+\", \"i\"]\n".write(to: keymap, atomically: true, encoding: .utf8)
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let tmux = shell.tmux
        let (run, _) = try await shell.launchAndWait(["--keymap", keymap.path])
        // The warning names the likely id.
        try await tmux.waitUntil("the keymap warning with a suggestion") {
            $0.contains("counter.incremnt") && $0.contains("did you mean \"counter.increment\"")
        }
        try await tmux.type("i")
        try await tmux.waitFor(text: "Count: 1")
        try await tmux.type("q")
        #expect(try await shell.waitForExit(run).status == 0)
    }

    @Test("`appletkit keys --check` finds no conflicts in the demo; the example keymap loads clean")
    func demoKeysHaveNoConflicts() async throws {
        let result = try await CommandLineTests.run(["keys", "--check"])
        #expect(result.exitedNormally && result.status == 0, "status \(result.status): \(result.stdoutText) \(result.stderrText)")
        #expect(result.stdoutText.contains("no key clashes"), "\(result.stdoutText)")

        // The documented example, copied where the app reads it: every id exists, every key parses.
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        let folder = config.appendingPathComponent("appletkit")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let example = AppBinary.repositoryRoot.appendingPathComponent("Docs/keys.example.toml")
        try FileManager.default.copyItem(at: example, to: folder.appendingPathComponent("keys.toml"))
        var environment = CommandLineTests.environment
        environment["XDG_CONFIG_HOME"] = config.path
        let checked = try await runProcess(try AppBinary.path(), ["keys", "--check"], environment: environment, stdin: nil, timeout: .seconds(10))
        #expect(checked.exitedNormally && checked.status == 0, "status \(checked.status): \(checked.stdoutText) \(checked.stderrText)")
        #expect(!checked.stdoutText.contains("unknown"), "\(checked.stdoutText)")
        let listed = try await runProcess(try AppBinary.path(), ["keys"], environment: environment, stdin: nil, timeout: .seconds(10))
        #expect(listed.stdoutText.contains("notes.save"), "\(listed.stdoutText)")
    }
}
