import AppletKit
import AppletTesting
import Foundation
import Terminal
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Links, the clipboard, the mouse toggle and foreground programs on the wire: a real `AppletHost`
/// on `NcursesTerminal`, on a pseudo-terminal that records every byte (this test binary run again,
/// as `KittyKeyboardPtyTests` does it).
///
/// Nested in `PseudoTerminalTests`, so it is serialized with them.
extension PseudoTerminalTests {
    @Suite("Terminal features on a pseudo-terminal")
    struct TerminalFeaturesPtyTests {
        static let childVariable = "APPLETKIT_FEATURES_PTY_CHILD"
        static let childFilter = "TerminalFeaturesPtyTests/hostOnThisTerminal"
        static let programVariable = "APPLETKIT_PTY_PROGRAM"

        /// The app under test, in the second process: a list, a link, and `r`, which runs the
        /// program `APPLETKIT_PTY_PROGRAM` names and shows how it ended.
        @MainActor
        @Test(.enabled(if: ProcessInfo.processInfo.environment[TerminalFeaturesPtyTests.childVariable] == "1"))
        func hostOnThisTerminal() async throws {
            try await ChildHost.run([Tab(FeaturesApplet())])
        }

        // MARK: Links

        @Test func aLinkIsWrittenAgainInsideOSC8BetweenSaveAndRestoreCursor() async throws {
            guard let run = try Self.startHost() else { return }
            defer { run.terminal.close() }
            let screen = try await run.terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("docs") }
            let docs = try #require(screen.position(of: "docs"))
            // sc, cup to the link, OSC 8 with the address, the terminal's sgr0 (and op, with
            // colours: the text's plain style), the text, OSC 8 with none, rc.
            let opening = "\u{1B}7\u{1B}[\(docs.y + 1);\(docs.x + 1)H\u{1B}]8;;https://example.com/docs\u{1B}\\\u{1B}(B\u{1B}[m"
            let closing = "docs\u{1B}]8;;\u{1B}\\\u{1B}8"
            #expect(await eventually {
                let text = run.terminal.outputText
                guard let start = text.range(of: opening), let end = text.range(of: closing, range: start.upperBound..<text.endIndex) else { return false }
                return ["", "\u{1B}[39;49m"].contains(String(text[start.upperBound..<end.lowerBound]))
            }, "\(run.terminal.outputText.debugDescription)")
            #expect(run.terminal.screen.linkedRuns == [TerminalScreen.LinkedRun(
                y: docs.y, columns: docs.x..<(docs.x + 4), url: "https://example.com/docs", text: "docs")])
            #expect(run.terminal.screen.row(docs.y).trimmingCharacters(in: .whitespaces) == "docs")

            // `u` takes the link away: the cells are written again without one.
            try run.terminal.send("u")
            try await run.terminal.waitUntil { $0.contains("unlinked") && $0.linkedRuns.isEmpty }
            try run.terminal.send("q")
            #expect(await run.terminal.waitForExit(timeout: .seconds(20)) == .exited(0), "\(run.log)")
            #expect(run.terminal.screen.pen.hyperlink == nil, "no link left open")
            ReliabilityChecks.expectRestored(run.terminal)
        }

        // MARK: The clipboard

        @Test func altCWritesOSC52WithTheSelectedRowBetweenFrames() async throws {
            guard let run = try Self.startHost() else { return }
            defer { run.terminal.close() }
            try await run.terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("Alt-C Copy") }
            try run.terminal.send("j")
            let before = run.terminal.outputCount
            try run.terminal.send("\u{1B}c")   // Alt-C as a terminal sends it
            try await run.terminal.waitFor(text: "Copied 1 line")
            let written = String(decoding: run.terminal.output[before...], as: UTF8.self)
            // "beta" in base64, in one piece (no frame's bytes inside it), before the frame that
            // shows the toast.
            let sequence = "\u{1B}]52;c;YmV0YQ==\u{1B}\\"
            let found = try #require(written.range(of: sequence), "\(written.debugDescription)")
            let toast = try #require(written.range(of: "Copied 1 line"))
            #expect(found.upperBound <= toast.lowerBound)
            #expect(run.terminal.screen.clipboardWrites.map(\.text) == ["beta"])
            #expect(run.terminal.screen.clipboardWrites.map(\.selections) == ["c"])
            try run.terminal.send("q")
            #expect(await run.terminal.waitForExit(timeout: .seconds(20)) == .exited(0), "\(run.log)")
            ReliabilityChecks.expectRestored(run.terminal)
        }

        // MARK: The mouse

        static let mouseOff = "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l"
        static let mouseOn = "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h"

        @Test func altMResetsTheMouseModesAndSetsThemAgainAndQuitResetsNothingTwice() async throws {
            guard let run = try Self.startHost() else { return }
            defer { run.terminal.close() }
            try await run.terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("docs") }
            #expect(run.terminal.outputText.contains(Self.mouseOn), "set at start")

            var before = run.terminal.outputCount
            try run.terminal.send("\u{1B}m")
            try await run.terminal.waitFor(text: "Alt-M Mouse back on")
            var written = String(decoding: run.terminal.output[before...], as: UTF8.self)
            // The three resets, together and once, before the frame that says so.
            #expect(written.components(separatedBy: Self.mouseOff).count == 2, "\(written.debugDescription)")
            #expect(written.range(of: Self.mouseOff)!.upperBound <= written.range(of: "Mouse back on")!.lowerBound)
            #expect(!written.contains("\u{1B}[?1000h"))
            #expect(!run.terminal.screen.isModeOn(1000) && !run.terminal.screen.isModeOn(1002) && !run.terminal.screen.isModeOn(1006))

            before = run.terminal.outputCount
            try run.terminal.send("\u{1B}m")
            try await run.terminal.waitUntil { !$0.contains("Mouse back on") }
            written = String(decoding: run.terminal.output[before...], as: UTF8.self)
            #expect(written.components(separatedBy: Self.mouseOn).count == 2, "\(written.debugDescription)")
            #expect(!written.contains("\u{1B}[?1000l"))
            #expect(run.terminal.screen.isModeOn(1000) && run.terminal.screen.isModeOn(1002) && run.terminal.screen.isModeOn(1006))

            // Off again, then quit: the way out resets the other modes and not the mouse's twice.
            try run.terminal.send("\u{1B}m")
            try await run.terminal.waitFor(text: "Alt-M Mouse back on")
            before = run.terminal.outputCount
            try run.terminal.send("q")
            #expect(await run.terminal.waitForExit(timeout: .seconds(20)) == .exited(0), "\(run.log)")
            written = String(decoding: run.terminal.output[before...], as: UTF8.self)
            #expect(written.contains("\u{1B}[?2004l") && written.contains("\u{1B}[?1049l"), "\(written.debugDescription)")
            for mode in ["1000", "1002", "1006"] {
                #expect(!written.contains("\u{1B}[?\(mode)"), "?\(mode) on the way out: \(written.debugDescription)")
            }
            ReliabilityChecks.expectRestored(run.terminal)
            Self.expectEachMouseModeResetOncePerSet(run.terminal)
        }

        @Test func aQuitSignalAfterTheToggleLeavesNoModeSet() async throws {
            guard let run = try Self.startHost() else { return }
            defer { run.terminal.close() }
            try await run.terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("docs") }
            try run.terminal.send("\u{1B}m")
            try await run.terminal.waitFor(text: "Alt-M Mouse back on")
            try run.terminal.signal(SIGTERM)
            #expect(await run.terminal.waitForExit(timeout: .seconds(20)) == .exited(128 + SIGTERM), "\(run.log)")
            ReliabilityChecks.expectRestored(run.terminal)
            Self.expectEachMouseModeResetOncePerSet(run.terminal)
        }

        @Test func ctrlZAndFgLeaveTheMouseOffAsTheUserLeftIt() async throws {
            guard let binary = Self.testBinary else { return }
            let log = Self.logPath()
            defer { try? FileManager.default.removeItem(atPath: log) }
            var environment = PseudoTerminal.defaultEnvironment
            environment["PS1"] = "$ "
            environment["HISTFILE"] = "/dev/null"
            environment[Self.childVariable] = "1"
            let terminal = try PseudoTerminal.start("/bin/bash", arguments: ["--noprofile", "--norc", "--noediting", "-i"],
                                                    environment: environment)
            defer { terminal.close() }
            try await terminal.waitFor(text: "$")
            try terminal.send("'\(binary)' --testing-library swift-testing --filter '\(Self.childFilter)' >'\(log)' 2>&1\r")
            try await terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("docs") }
            try terminal.send("\u{1B}m")
            try await terminal.waitFor(text: "Alt-M Mouse back on")
            let before = terminal.outputCount
            try terminal.send("\u{1A}")   // Ctrl-Z
            try await terminal.waitUntil { !$0.isAlternateScreen && $0.contains("Stopped") }
            try terminal.send("fg\r")
            try await terminal.waitUntil { $0.isAlternateScreen && $0.contains("Alt-M Mouse back on") }
            let written = String(decoding: terminal.output[before...], as: UTF8.self)
            for mode in ["1000", "1002", "1006"] {
                #expect(!written.contains("\u{1B}[?\(mode)"), "?\(mode) on suspend or resume: \(written.debugDescription)")
            }
            #expect(written.contains("\u{1B}[?2004l") && written.contains("\u{1B}[?2004h"), "the other modes go and come back")
            try terminal.send("\u{1B}m")
            try await terminal.waitUntil { $0.isAlternateScreen && !$0.contains("Mouse back on") }
            #expect(terminal.screen.isModeOn(1000))
            try terminal.send("q")
            try await terminal.waitUntil { !$0.isAlternateScreen && $0.lines.last(where: { !$0.isEmpty }) == "$" }
            #expect(terminal.screen.unresetModes() == [])
            Self.expectEachMouseModeResetOncePerSet(terminal)
            // The modes that went on Ctrl-Z came back once on fg (the resume's SIGCONT does not
            // set them a second time).
            #expect(terminal.screen.modeChanges.filter { $0.mode == 2004 }.map(\.on) == [true, false, true, false])
        }

        /// Every `CSI ? 1000/1002/1006 h` is followed by exactly one `l` before the next `h`.
        static func expectEachMouseModeResetOncePerSet(_ terminal: PseudoTerminal, sourceLocation: SourceLocation = #_sourceLocation) {
            for mode in [1000, 1002, 1006] {
                let changes = terminal.screen.modeChanges.filter { $0.mode == mode }.map(\.on)
                var expected: [Bool] = []
                for _ in 0..<(changes.count / 2) { expected += [true, false] }
                #expect(changes == expected, "?\(mode): \(changes)", sourceLocation: sourceLocation)
            }
        }

        // MARK: Other programs

        @Test func aProgramGetsTheTerminalAsAForegroundJobAndTheAppTakesItBack() async throws {
            let folder = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // Says which process group it is in and which group has the terminal, reads a line,
            // and exits 3.
            let script = try Self.script(in: folder, """
                read -r stat < /proc/$$/stat
                set -- ${stat##*) }
                echo "child: pid=$$ pgrp=$3 foreground=$6"
                printf 'type something: '
                read -r line
                echo "child got $line"
                exit 3
                """)
            guard let run = try Self.startHost(program: script) else { return }
            defer { run.terminal.close() }
            try await run.terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("docs") }
            let before = run.terminal.outputCount
            try run.terminal.send("r")
            let screen = try await run.terminal.waitFor(text: "type something:")
            #expect(!screen.isAlternateScreen, "the program has the main screen")
            let handover = String(decoding: run.terminal.output[before...], as: UTF8.self)
            // The app's modes went before the program wrote anything.
            let programStart = try #require(handover.range(of: "child: pid="))
            let beforeProgram = handover[..<programStart.lowerBound]
            for reset in ["\u{1B}[?2004l", "\u{1B}[?1006l", "\u{1B}[?1002l", "\u{1B}[?1000l", "\u{1B}[?1049l"] {
                #expect(beforeProgram.contains(reset), "\(reset.debugDescription) before the program: \(beforeProgram.debugDescription)")
            }
            #expect(run.terminal.screen.unresetModes() == [], "while the program runs the terminal is the shell's: \(run.terminal.screen.unresetModes())")
            let line = try #require(screen.lines.first { $0.hasPrefix("child: pid=") })
            let fields = Dictionary(uniqueKeysWithValues: line.dropFirst("child: ".count).split(separator: " ").map {
                let pair = $0.split(separator: "=")
                return (String(pair[0]), String(pair[1]))
            })
            #expect(fields["pid"] == fields["pgrp"], "a process group of its own: \(line)")
            #expect(fields["pgrp"] == fields["foreground"], "the terminal's foreground group: \(line)")
            #expect(run.terminal.foregroundProcessGroup.map(String.init) == fields["pgrp"])

            try run.terminal.send("hello\r")
            try await run.terminal.waitUntil { $0.isAlternateScreen && $0.contains("Outcome: exited with status 3") }
            let after = String(decoding: run.terminal.output[before...], as: UTF8.self)
            let back = try #require(after.range(of: "child got hello"))
            let taken = after[back.upperBound...]
            for set in ["\u{1B}[?1049h", "\u{1B}[?1000h", "\u{1B}[?1002h", "\u{1B}[?1006h", "\u{1B}[?2004h"] {
                #expect(taken.contains(set), "\(set.debugDescription) after the program")
            }
            #expect(run.terminal.foregroundProcessGroup == run.terminal.processID, "the app has the terminal again")
            try run.terminal.send("q")
            #expect(await run.terminal.waitForExit(timeout: .seconds(20)) == .exited(0), "\(run.log)")
            ReliabilityChecks.expectRestored(run.terminal)
        }

        @Test func ctrlCReachesTheProgramNotTheApp() async throws {
            let folder = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let script = try Self.script(in: folder, """
                echo "waiting for Ctrl-C"
                exec sleep 60
                """)
            guard let run = try Self.startHost(program: script) else { return }
            defer { run.terminal.close() }
            try await run.terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("docs") }
            try run.terminal.send("r")
            try await run.terminal.waitFor(text: "waiting for Ctrl-C")
            try run.terminal.send("\u{03}")
            try await run.terminal.waitUntil { $0.isAlternateScreen && $0.contains("Outcome: ended by signal \(SIGINT)") }
            #expect(run.terminal.isRunning, "the app lives on")
            try run.terminal.send("q")
            #expect(await run.terminal.waitForExit(timeout: .seconds(20)) == .exited(0), "\(run.log)")
            ReliabilityChecks.expectRestored(run.terminal)
        }

        /// Ctrl-Z in the program stops it and the app with it, as a shell's job, and `fg` goes
        /// on with the program in the foreground.
        @Test func ctrlZInTheProgramStopsTheAppTooAndFgContinuesBoth() async throws {
            guard let binary = Self.testBinary else { return }
            let folder = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let script = try Self.script(in: folder, """
                echo "program ready"
                read -r line
                echo "program got $line"
                """)
            let log = Self.logPath()
            defer { try? FileManager.default.removeItem(atPath: log) }
            var environment = PseudoTerminal.defaultEnvironment
            environment["PS1"] = "$ "
            environment["HISTFILE"] = "/dev/null"
            environment[Self.childVariable] = "1"
            environment[Self.programVariable] = script
            let terminal = try PseudoTerminal.start("/bin/bash", arguments: ["--noprofile", "--norc", "--noediting", "-i"],
                                                    environment: environment)
            defer { terminal.close() }
            try await terminal.waitFor(text: "$")
            try terminal.send("'\(binary)' --testing-library swift-testing --filter '\(Self.childFilter)' >'\(log)' 2>&1\r")
            try await terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("docs") }
            try terminal.send("r")
            try await terminal.waitFor(text: "program ready")
            try terminal.send("\u{1A}")
            try await terminal.waitUntil { $0.contains("Stopped") && $0.lines.last(where: { !$0.isEmpty }) == "$" }
            let stopped = terminal.outputCount
            try terminal.send("fg\r")
            _ = await eventually { terminal.outputCount > stopped + 3 }
            try terminal.send("go on\r")
            try await terminal.waitUntil { $0.isAlternateScreen && $0.contains("Outcome: exited with status 0") }
            try terminal.send("q")
            try await terminal.waitUntil { !$0.isAlternateScreen && $0.lines.last(where: { !$0.isEmpty }) == "$" }
            try terminal.send("echo status:$?\r")
            let screen = try await terminal.waitFor(text: "status:0")
            #expect(screen.unresetModes() == [], "\(screen.unresetModes())")
            #expect(terminal.outputText.contains("program got go on"))
        }

        @Test func aMissingProgramIsAToastAndTheScreenNeverLeaves() async throws {
            guard let run = try Self.startHost(program: "/no/such/program") else { return }
            defer { run.terminal.close() }
            try await run.terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("docs") }
            let before = run.terminal.outputCount
            try run.terminal.send("r")
            try await run.terminal.waitUntil { $0.contains("Could not run") && $0.contains("Outcome: could not start: /no/such/program: not found") }
            let written = String(decoding: run.terminal.output[before...], as: UTF8.self)
            #expect(!written.contains("\u{1B}[?1049l") && !written.contains("\u{1B}[?1000l"), "\(written.debugDescription)")
            try run.terminal.send("q")
            #expect(await run.terminal.waitForExit(timeout: .seconds(20)) == .exited(0), "\(run.log)")
            ReliabilityChecks.expectRestored(run.terminal)
        }

        // MARK: Helpers

        static var testBinary: String? { ChildHost.testBinary }
        static func logPath() -> String { ChildHost.logPath() }

        static func scratchFolder() throws -> String {
            let path = temporaryPath("ak-features")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }

        static func script(in folder: String, _ body: String) throws -> String {
            let path = folder + "/program.sh"
            try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
            return path
        }

        static func startHost(program: String? = nil) throws -> ChildHost.Run? {
            try ChildHost.start(filter: childFilter, environment: [childVariable: "1", programVariable: program])
        }
    }
}

/// The restoration checks of the reliability suite, for a host run here.
enum ReliabilityChecks {
    static func expectRestored(_ terminal: PseudoTerminal, sourceLocation: SourceLocation = #_sourceLocation) {
        let screen = terminal.screen
        #expect(screen.unresetModes() == [], "modes left set: \(screen.unresetModes())", sourceLocation: sourceLocation)
        #expect(screen.kittyKeyboardDepth == 0, sourceLocation: sourceLocation)
        #expect(!screen.isAlternateScreen && screen.cursorVisible, sourceLocation: sourceLocation)
        if let now = try? terminal.termios() {
            #expect(now == terminal.initialTermios, sourceLocation: sourceLocation)
        }
        var open: Set<Int> = []
        for change in screen.modeChanges where TerminalScreen.defaultModes[change.mode] != true {
            if change.on { open.insert(change.mode) } else { open.remove(change.mode) }
        }
        #expect(open.isEmpty, "CSI ? N h never answered for \(open.sorted())", sourceLocation: sourceLocation)
    }
}

// MARK: - The applet the host shows

extension Application {
    fileprivate var featuresRow: State<Int> { state(initial: 0, feature: "FeaturesPty", id: "row") }
    fileprivate var featuresLinked: State<Bool> { state(initial: true, feature: "FeaturesPty", id: "linked") }
    fileprivate var featuresOutcome: State<String> { state(initial: "none", feature: "FeaturesPty", id: "outcome") }
}

private struct FeaturesApplet: Applet {
    let id = "features"
    let title = "Features"
    @AppState(\.featuresRow) private var row
    @AppState(\.featuresLinked) private var linked
    @AppState(\.featuresOutcome) private var outcome

    static let rows = ["alpha", "beta", "gamma"]

    var body: some View {
        VStack {
            Text(linked ? "docs" : "unlinked").link(linked ? "https://example.com/docs" : nil)
            Text("Outcome: \(outcome)")
            List(Self.rows, selection: $row) { Text("› \($0)") }.searchable { Self.rows[$0] }
        }
        .padding(.horizontal, 1)
    }

    var commands: [Command] {
        let linked = $linked
        let store = Application.current
        return [
            Command("u", "Unlink") { linked.wrappedValue = false },
            Command("r", "Run") {
                let program = ProcessInfo.processInfo.environment[TerminalFeaturesProgram.variable] ?? "true"
                store.logic.value.send(.effect(RunProgram(program)) { outcome in
                    .request(UpdateRequest("outcome") { $0.featuresOutcome.value = "\(outcome)" })
                })
            },
        ]
    }
}

private enum TerminalFeaturesProgram {
    static let variable = PseudoTerminalTests.TerminalFeaturesPtyTests.programVariable
}
