import AppletTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal's own abilities in the real `appletkit`, on a pseudo-terminal that records every
/// byte: a note edited in `$EDITOR` (the terminal handed over and taken back), the mouse toggle
/// on every way out, and Copy.
@Suite("Terminal features of the real binary", .serialized, .timeLimit(.minutes(2)))
struct TerminalFeaturesEndToEndTests {
    /// A folder for the editor script and the state, removed after.
    static func folder() throws -> URL { try ReliabilityTests.stateFolder() }

    /// An executable script in `folder`.
    static func script(_ name: String, in folder: URL, _ body: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// The demo on the Notes tab with `EDITOR` set (nil: unset).
    static func launchNotes(editor: String?, in folder: URL) async throws -> ReliabilityTests.Run {
        var environment: [String: String] = [:]
        environment["EDITOR"] = editor
        let run = try ReliabilityTests.launch(arguments: ["--tab", "notes"], environment: environment,
                                              stateDirectory: folder.appendingPathComponent("state"))
        try await run.terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("3 notes") }
        return run
    }

    static let appModesOff = ["\u{1B}[?2004l", "\u{1B}[?1006l", "\u{1B}[?1002l", "\u{1B}[?1000l", "\u{1B}[?1049l"]
    static let appModesOn = ["\u{1B}[?1049h", "\u{1B}[?1000h", "\u{1B}[?1002h", "\u{1B}[?1006h", "\u{1B}[?2004h"]

    @Test("E hands the terminal to $EDITOR, takes it back and shows the edited note")
    func editInEditor() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // An editor that says what it was given, waits for Enter, and adds a line.
        let editor = try Self.script("editor.sh", in: folder, """
            echo "editor: editing $1"
            printf 'press Enter: '
            read -r _
            printf '%s\\n' "Added by the editor" >> "$1"
            """)
        let run = try await Self.launchNotes(editor: editor, in: folder)
        defer { run.terminal.close() }
        let before = run.terminal.outputCount
        try run.terminal.send("E")
        let screen = try await run.terminal.waitFor(text: "press Enter:")
        #expect(!screen.isAlternateScreen, "the editor has the main screen")
        #expect(screen.unresetModes() == [], "while the editor runs, no mode of the app's is set: \(screen.unresetModes())")
        let handover = String(decoding: run.terminal.output[before...], as: UTF8.self)
        let editorStart = try #require(handover.range(of: "editor: editing"))
        for reset in Self.appModesOff {
            #expect(handover[..<editorStart.lowerBound].contains(reset), "\(reset.debugDescription) before the editor ran")
        }
        let path = try #require(screen.lines.first { $0.hasPrefix("editor: editing ") }).dropFirst("editor: editing ".count)
        #expect(path.hasSuffix(".txt") && path.contains("/note-"))

        try run.terminal.send("\r")
        try await run.terminal.waitUntil {
            $0.isAlternateScreen && $0.contains("Updated “Groceries” from the editor")
        }
        let after = String(decoding: run.terminal.output[before...], as: UTF8.self)
        let back = try #require(after.range(of: "press Enter: "))
        for set in Self.appModesOn {
            #expect(after[back.upperBound...].contains(set), "\(set.debugDescription) after the editor")
        }
        #expect(!FileManager.default.fileExists(atPath: String(path)), "the note's file was removed")
        // The note says what the editor wrote.
        try run.terminal.send("\r")
        try await run.terminal.waitUntil { $0.contains("Notes › Groceries") && $0.contains("Added by the editor") }
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        ReliabilityTests.expectRestored(run.terminal)
    }

    @Test("An editor that exits 3 leaves the note as it was, and says so")
    func editorFails() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let editor = try Self.script("failing.sh", in: folder, """
            echo "garbage" >> "$1"
            exit 3
            """)
        let run = try await Self.launchNotes(editor: editor, in: folder)
        defer { run.terminal.close() }
        try run.terminal.send("E")
        try await run.terminal.waitUntil { $0.isAlternateScreen && $0.contains("The editor exited with status 3") }
        try run.terminal.send("\r")
        try await run.terminal.waitUntil { $0.contains("Notes › Groceries") && $0.contains("Coffee") }
        #expect(!run.terminal.screen.contains("garbage"))
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        ReliabilityTests.expectRestored(run.terminal)
    }

    @Test("A missing editor is an error toast; the screen never leaves")
    func missingEditor() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("no-such-editor").path
        let run = try await Self.launchNotes(editor: missing, in: folder)
        defer { run.terminal.close() }
        let before = run.terminal.outputCount
        try run.terminal.send("E")
        try await run.terminal.waitFor(text: "Could not run")
        let written = String(decoding: run.terminal.output[before...], as: UTF8.self)
        #expect(!written.contains("\u{1B}[?1049l"), "the alternate screen was never left: \(written.debugDescription)")
        #expect(run.terminal.screen.isAlternateScreen)
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        ReliabilityTests.expectRestored(run.terminal)
    }

    // MARK: The mouse toggle on every way out

    static let mouseOff = "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l"

    /// After Alt-M, the mouse modes' resets went out once; nothing after repeats them.
    static func expectMouseResetOnce(_ terminal: PseudoTerminal, sourceLocation: SourceLocation = #_sourceLocation) {
        for mode in [1000, 1002, 1006] {
            let changes = terminal.screen.modeChanges.filter { $0.mode == mode }.map(\.on)
            #expect(changes == [true, false], "?\(mode): \(changes)", sourceLocation: sourceLocation)
        }
    }

    @Test("Alt-M, then q: the modes are reset once and none is left set")
    func mouseToggleThenQuit() async throws {
        let run = try await ReliabilityTests.launchDemo()
        defer { run.terminal.close() }
        try run.terminal.send("\u{1B}m")
        try await run.terminal.waitFor(text: "Alt-M Mouse back on")
        #expect(run.terminal.outputText.contains(Self.mouseOff))
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        ReliabilityTests.expectRestored(run.terminal)
        Self.expectMouseResetOnce(run.terminal)
    }

    @Test("Alt-M, then SIGTERM: the same")
    func mouseToggleThenSignal() async throws {
        let run = try await ReliabilityTests.launchDemo()
        defer { run.terminal.close() }
        try run.terminal.send("\u{1B}m")
        try await run.terminal.waitFor(text: "Alt-M Mouse back on")
        try run.terminal.signal(SIGTERM)
        #expect(await run.terminal.waitForExit() == .exited(128 + SIGTERM))
        ReliabilityTests.expectRestored(run.terminal)
        Self.expectMouseResetOnce(run.terminal)
    }

    @Test("Alt-M, then a crash: the crash handler leaves the mouse alone and resets the rest")
    func mouseToggleThenCrash() async throws {
        let run = try await ReliabilityTests.launchFixture()
        defer { run.terminal.close() }
        try run.terminal.send("\u{1B}m")
        try await run.terminal.waitFor(text: "Alt-M Mouse back on")
        try run.terminal.send("!")
        let ended = await run.terminal.waitForExit()
        #expect(ended == .signalled(SIGILL) || ended == .signalled(SIGTRAP), "ended: \(String(describing: ended))")
        ReliabilityTests.expectRestored(run.terminal)
        Self.expectMouseResetOnce(run.terminal)
    }

    @Test("Alt-M twice sets the modes again, and q resets them once more")
    func mouseToggleTwice() async throws {
        let run = try await ReliabilityTests.launchDemo()
        defer { run.terminal.close() }
        try run.terminal.send("\u{1B}m")
        try await run.terminal.waitFor(text: "Alt-M Mouse back on")
        try run.terminal.send("\u{1B}m")
        try await run.terminal.waitUntil { !$0.contains("Mouse back on") && $0.isModeOn(1000) }
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        ReliabilityTests.expectRestored(run.terminal)
        for mode in [1000, 1002, 1006] {
            #expect(run.terminal.screen.modeChanges.filter { $0.mode == mode }.map(\.on) == [true, false, true, false])
        }
    }

    // MARK: Copy

    @Test("Alt-C on the Notes list copies the selected note's row with OSC 52")
    func copyARow() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await Self.launchNotes(editor: nil, in: folder)
        defer { run.terminal.close() }
        try run.terminal.send("j")
        try run.terminal.send("\u{1B}c")
        try await run.terminal.waitFor(text: "Copied 1 line")
        #expect(run.terminal.outputText.contains("\u{1B}]52;c;"))
        let copied = try #require(run.terminal.screen.clipboardWrites.last?.text)
        #expect(copied.hasPrefix("Standup") && copied.hasSuffix("work"), "\(copied)")
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        ReliabilityTests.expectRestored(run.terminal)
    }
}
