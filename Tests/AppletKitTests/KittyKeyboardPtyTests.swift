import AppletKit
import AppletTesting
import Foundation
import Terminal
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The kitty keyboard protocol on the wire: a real `AppletHost` on `NcursesTerminal`, on a
/// pseudo-terminal that records every byte it writes. The host is this test binary run again
/// (`hostOnThisTerminal`, enabled only in that second process), with swift-testing's own output
/// sent to a file so that the terminal sees the app's bytes alone.
///
/// What must hold: the app asks (`CSI ? u`, then DA1 `CSI c`) once at start; it pushes
/// "disambiguate" (`CSI > 1 u`) only for a terminal that answered the first question before the
/// second, and only on the alternate screen (kitty keeps one stack per screen); it pops
/// (`CSI < u`) before every `CSI ? 1049 l` (quit, a quit signal, Ctrl-Z), and pushes again after
/// `fg`. A terminal that answers only DA1, or nothing, never sees a push or a pop.
///
/// Nested in `PseudoTerminalTests`, so it is serialized with them: their checks count this
/// process's pseudo-terminals and reader threads.
extension PseudoTerminalTests {
    @Suite("Kitty keyboard protocol on a pseudo-terminal")
    struct KittyKeyboardPtyTests {
        // MARK: The host, in the second process

        static let childVariable = "APPLETKIT_KITTY_PTY_CHILD"
        static let childFilter = "KittyKeyboardPtyTests/hostOnThisTerminal"
        static let featuresVariable = "APPLETKIT_PTY_FEATURES"

        /// The app under test: an AppletHost with one applet that counts Ctrl-Enter, Enter and
        /// Ctrl-I, on the real terminal. Runs only in the process the tests below start.
        @MainActor
        @Test(.enabled(if: ProcessInfo.processInfo.environment[KittyKeyboardPtyTests.childVariable] == "1"))
        func hostOnThisTerminal() async throws {
            // `APPLETKIT_PTY_FEATURES=none`: an app that leaves every optional mode off.
            let features: TerminalFeatures = ProcessInfo.processInfo.environment[Self.featuresVariable] == "none" ? [] : .all
            try await ChildHost.run([Tab(KeyProbeApplet())], features: features)
        }

        // MARK: A terminal with the protocol

        @Test func aKittyTerminalGetsThePushAndQPopsItBeforeLeavingTheAlternateScreen() async throws {
            guard let host = try Self.startHost() else { return }
            defer { host.terminal.close() }
            try await host.terminal.waitUntil(timeout: .seconds(30)) {
                $0.isAlternateScreen && $0.contains("Ctrl-Enter x0") && $0.kittyKeyboardDepth == 1
            }
            #expect(host.terminal.screen.kittyKeyboardFlags == 1)
            // Kitty keys reach the app: Ctrl-Enter and Enter are two keys, Ctrl-I is not Tab.
            try host.terminal.send("\u{1B}[13;5u")
            try await host.terminal.waitFor(text: "Ctrl-Enter x1")
            try host.terminal.send("\r\u{1B}[105;5u")
            try await host.terminal.waitUntil { $0.contains("Enter alone x1") && $0.contains("Ctrl-I x1") && $0.contains("Ctrl-Enter x1") }
            try host.terminal.send("q")
            #expect(await host.terminal.waitForExit(timeout: .seconds(20)) == .exited(0), "\(host.log)")
            let wire = Self.wire(host.terminal.output)
            #expect(wire.filter(\.isQuery) == [.kittyQuery, .deviceAttributesQuery], "\(wire)")
            #expect(wire.filter { !$0.isQuery } == [.alternateScreen(true), .push(1), .pop(1), .alternateScreen(false)], "\(wire)")
            #expect(host.terminal.screen.kittyKeyboardDepth == 0)
            #expect(!host.terminal.screen.isAlternateScreen)
        }

        /// `TerminalFeatures []`: no mouse, paste or kitty keyboard bytes on the wire, at start or
        /// on the way out, and the app works as before on a terminal that would answer.
        @Test func anAppWithoutOptionalFeaturesWritesNoneOfTheirModes() async throws {
            guard let host = try Self.startHost(features: "none") else { return }
            defer { host.terminal.close() }
            try await host.terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("Ctrl-Enter x0") }
            try host.terminal.send("\r")
            try await host.terminal.waitFor(text: "Enter alone x1")
            try host.terminal.send("q")
            #expect(await host.terminal.waitForExit(timeout: .seconds(20)) == .exited(0), "\(host.log)")
            let output = String(decoding: host.terminal.output, as: UTF8.self)
            for mode in ["?1000", "?1002", "?1006", "?2004"] {
                #expect(!output.contains("\u{1B}[\(mode)"), "\(mode) on the wire: \(output.debugDescription)")
            }
            #expect(Self.wire(host.terminal.output).filter { $0 != .alternateScreen(true) && $0 != .alternateScreen(false) } == [])
            #expect(host.terminal.screen.kittyKeyboardDepth == 0)
            #expect(!host.terminal.screen.isAlternateScreen)
        }

        /// The default: every mode set at start is reset on the way out.
        @Test func theDefaultFeaturesSetAndResetMouseAndPaste() async throws {
            guard let host = try Self.startHost() else { return }
            defer { host.terminal.close() }
            try await host.terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("Ctrl-Enter x0") }
            try host.terminal.send("q")
            #expect(await host.terminal.waitForExit(timeout: .seconds(20)) == .exited(0), "\(host.log)")
            let output = String(decoding: host.terminal.output, as: UTF8.self)
            for mode in ["?1000", "?1002", "?1006", "?2004"] {
                #expect(output.contains("\u{1B}[\(mode)h") && output.contains("\u{1B}[\(mode)l"), "\(mode): \(output.debugDescription)")
            }
        }

        @Test func aQuitSignalPopsBeforeLeavingTheAlternateScreen() async throws {
            guard let host = try Self.startHost() else { return }
            defer { host.terminal.close() }
            try await host.terminal.waitUntil(timeout: .seconds(30)) {
                $0.isAlternateScreen && $0.contains("Ctrl-Enter x0") && $0.kittyKeyboardDepth == 1
            }
            try host.terminal.signal(SIGTERM)
            #expect(await host.terminal.waitForExit(timeout: .seconds(20)) == .exited(128 + SIGTERM), "\(host.log)")
            let wire = Self.wire(host.terminal.output)
            #expect(wire.filter { !$0.isQuery } == [.alternateScreen(true), .push(1), .pop(1), .alternateScreen(false)], "\(wire)")
            #expect(host.terminal.screen.kittyKeyboardDepth == 0)
        }

        @Test func ctrlZPopsAndFgPushesAgainOnTheAlternateScreen() async throws {
            guard let binary = Self.testBinary else { return }
            let log = Self.logPath()
            defer { try? FileManager.default.removeItem(atPath: log) }
            var environment = PseudoTerminal.defaultEnvironment
            environment["PS1"] = "$ "
            environment["HISTFILE"] = "/dev/null"
            environment[Self.childVariable] = "1"
            // From an interactive shell, which runs the app as a job that Ctrl-Z can stop.
            let terminal = try PseudoTerminal.start("/bin/bash", arguments: ["--noprofile", "--norc", "--noediting", "-i"],
                                                    environment: environment)
            defer { terminal.close() }
            try await terminal.waitFor(text: "$")
            try terminal.send("'\(binary)' --testing-library swift-testing --filter '\(Self.childFilter)' >'\(log)' 2>&1\r")
            try await terminal.waitUntil(timeout: .seconds(30)) {
                $0.isAlternateScreen && $0.contains("Ctrl-Enter x0") && $0.kittyKeyboardDepth == 1
            }
            try terminal.send("\u{1B}[13;5u")
            try await terminal.waitFor(text: "Ctrl-Enter x1")

            // Ctrl-Z as kitty sends it in disambiguate mode.
            try terminal.send("\u{1B}[122;5u")
            var screen = try await terminal.waitUntil { !$0.isAlternateScreen && $0.contains("Stopped") }
            #expect(screen.kittyKeyboardDepth == 0, "kitty flags left pushed while stopped")
            #expect(Self.wire(terminal.output).filter { !$0.isQuery }
                    == [.alternateScreen(true), .push(1), .pop(1), .alternateScreen(false)])

            try terminal.send("fg\r")
            screen = try await terminal.waitUntil {
                $0.isAlternateScreen && $0.contains("Ctrl-Enter x1") && $0.kittyKeyboardDepth == 1
            }
            try terminal.send("\u{1B}[13;5u")
            try await terminal.waitFor(text: "Ctrl-Enter x2")
            try terminal.send("q")
            try await terminal.waitUntil { !$0.isAlternateScreen && $0.lines.last(where: { !$0.isEmpty }) == "$" }
            try terminal.send("echo status:$?\r")
            screen = try await terminal.waitFor(text: "status:0")
            #expect(screen.kittyKeyboardDepth == 0)
            let wire = Self.wire(terminal.output)
            // Asked once: a resume does not ask again.
            #expect(wire.filter(\.isQuery) == [.kittyQuery, .deviceAttributesQuery], "\(wire)")
            #expect(wire.filter { !$0.isQuery } == [
                .alternateScreen(true), .push(1), .pop(1), .alternateScreen(false),   // Ctrl-Z
                .alternateScreen(true), .push(1), .pop(1), .alternateScreen(false),   // fg, then q
            ], "\(wire)\n\(Self.read(log))")
        }

        /// An app that gives the terminal back at once (here: too small to run) reads the answers
        /// to its query first: answers that came after it would be typed into the shell.
        @Test func aQuickExitLeavesNoAnswerForTheShell() async throws {
            guard let binary = Self.testBinary else { return }
            let log = Self.logPath()
            defer { try? FileManager.default.removeItem(atPath: log) }
            var environment = PseudoTerminal.defaultEnvironment
            environment["PS1"] = "$ "
            environment["HISTFILE"] = "/dev/null"
            environment[Self.childVariable] = "1"
            // 4 rows: one fewer than the host's minimum (`AppletHost.minimumSize`).
            let terminal = try PseudoTerminal.start("/bin/bash", arguments: ["--noprofile", "--norc", "--noediting", "-i"],
                                                    environment: environment, width: 80, height: 4)
            defer { terminal.close() }
            try await terminal.waitFor(text: "$")
            try terminal.send("'\(binary)' --testing-library swift-testing --filter '\(Self.childFilter)' >'\(log)' 2>&1; echo status:$?\r")
            try await terminal.waitUntil(timeout: .seconds(30)) {
                $0.contains("status:1") && $0.lines.last(where: { !$0.isEmpty }) == "$"
            }
            #expect(Self.wire(terminal.output).filter(\.isQuery) == [.kittyQuery, .deviceAttributesQuery])
            // The next command line is the user's alone.
            try terminal.send("echo clean\r")
            let screen = try await terminal.waitUntil { $0.lines.contains("clean") || $0.contains("not found") }
            #expect(screen.lines.contains("clean"), "\(screen)")
            #expect(!screen.contains("62;22c") && !screen.contains("?0u"), "\(screen)")
        }

        // MARK: Terminals without it

        @Test func aTerminalThatAnswersOnlyDA1NeverSeesAPushOrAPop() async throws {
            guard let host = try Self.startHost(answersQueries: false) else { return }
            defer { host.terminal.close() }
            #expect(await eventually(timeout: .seconds(30)) {
                host.terminal.outputText.contains("\u{1B}[?u\u{1B}[c")
            }, "the app did not ask: \(host.log)")
            // DA1 only, then a late flags answer (after DA1, so not an answer to our question).
            try host.terminal.send("\u{1B}[?62;22c")
            try host.terminal.send("\u{1B}[?0u")
            // A key after both: once the app shows it, it has read both answers.
            try host.terminal.send("\u{1B}[13;5u")
            try await host.terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("Ctrl-Enter x1") }
            try host.terminal.send("q")
            #expect(await host.terminal.waitForExit(timeout: .seconds(20)) == .exited(0), "\(host.log)")
            let wire = Self.wire(host.terminal.output)
            #expect(wire.filter(\.isQuery) == [.kittyQuery, .deviceAttributesQuery], "\(wire)")
            #expect(wire.filter { !$0.isQuery } == [.alternateScreen(true), .alternateScreen(false)], "\(wire)")
            #expect(host.terminal.screen.kittyKeyboardDepth == 0)
        }

        @Test func aTerminalThatAnswersNothingNeverSeesAPushOrAPop() async throws {
            guard let host = try Self.startHost(answersQueries: false) else { return }
            defer { host.terminal.close() }
            try await host.terminal.waitUntil(timeout: .seconds(30)) { $0.isAlternateScreen && $0.contains("Ctrl-Enter x0") }
            try host.terminal.send("\u{1B}[13;5u")
            try await host.terminal.waitFor(text: "Ctrl-Enter x1")
            try host.terminal.send("q")
            #expect(await host.terminal.waitForExit(timeout: .seconds(20)) == .exited(0), "\(host.log)")
            let wire = Self.wire(host.terminal.output)
            #expect(wire.filter(\.isQuery) == [.kittyQuery, .deviceAttributesQuery], "\(wire)")
            #expect(wire.filter { !$0.isQuery } == [.alternateScreen(true), .alternateScreen(false)], "\(wire)")
        }

        // MARK: Helpers

        /// This test binary, to run the host in (nil, and the test is skipped, when it is not an
        /// `.xctest` executable on Linux).
        static var testBinary: String? { ChildHost.testBinary }
        static func logPath() -> String { ChildHost.logPath() }

        static func read(_ path: String) -> String {
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }

        /// The host on a new 80x24 pseudo-terminal, as the session's leader. With `answersQueries`
        /// the terminal answers as a kitty-capable one (`TerminalScreen` replies to `CSI ? u` with
        /// its flags, then to DA1); without, it answers nothing unless the test types a reply.
        static func startHost(answersQueries: Bool = true, features: String? = nil) throws -> ChildHost.Run? {
            try ChildHost.start(filter: childFilter, environment: [childVariable: "1", featuresVariable: features],
                                answersQueries: answersQueries)
        }

        /// The sequences that matter here, in the order the app wrote them.
        enum Wire: Equatable, CustomStringConvertible {
            /// `CSI ? u`: the kitty keyboard flags query.
            case kittyQuery
            /// `CSI c`: DA1.
            case deviceAttributesQuery
            /// `CSI ? 1049 h` / `l`.
            case alternateScreen(Bool)
            /// `CSI > flags u`.
            case push(Int)
            /// `CSI < count u`.
            case pop(Int)
            /// `CSI = flags ; mode u`, which the app never sends.
            case set

            var isQuery: Bool { self == .kittyQuery || self == .deviceAttributesQuery }

            var description: String {
                switch self {
                case .kittyQuery: "CSI?u"
                case .deviceAttributesQuery: "CSIc"
                case .alternateScreen(let on): on ? "CSI?1049h" : "CSI?1049l"
                case .push(let flags): "CSI>\(flags)u"
                case .pop(let count): "CSI<\(count)u"
                case .set: "CSI=u"
                }
            }
        }

        /// Scans `output` for CSI sequences and keeps the ones `Wire` names.
        static func wire(_ output: [UInt8]) -> [Wire] {
            var result: [Wire] = []
            var i = 0
            while i + 1 < output.count {
                guard output[i] == 0x1B, output[i + 1] == UInt8(ascii: "[") else { i += 1; continue }
                var j = i + 2
                var marker: UInt8 = 0
                if j < output.count, (0x3C...0x3F).contains(output[j]) { marker = output[j]; j += 1 }
                let start = j
                while j < output.count, (0x30...0x3B).contains(output[j]) { j += 1 }
                guard j < output.count else { break }
                let parameters = String(decoding: output[start..<j], as: UTF8.self)
                let number = Int(parameters.split(separator: ";").first ?? "")
                switch (marker, output[j]) {
                case (UInt8(ascii: "?"), UInt8(ascii: "u")) where parameters.isEmpty: result.append(.kittyQuery)
                case (0, UInt8(ascii: "c")) where parameters.isEmpty || parameters == "0": result.append(.deviceAttributesQuery)
                case (UInt8(ascii: "?"), UInt8(ascii: "h")) where parameters == "1049": result.append(.alternateScreen(true))
                case (UInt8(ascii: "?"), UInt8(ascii: "l")) where parameters == "1049": result.append(.alternateScreen(false))
                case (UInt8(ascii: ">"), UInt8(ascii: "u")): result.append(.push(number ?? 0))
                case (UInt8(ascii: "<"), UInt8(ascii: "u")): result.append(.pop(number ?? 1))
                case (UInt8(ascii: "="), UInt8(ascii: "u")): result.append(.set)
                default: break
                }
                i = j + 1
            }
            return result
        }
    }
}

// MARK: - The applet the host shows

extension Application {
    fileprivate var kittyCtrlEnterCount: State<Int> { state(initial: 0, feature: "KittyPtyTests", id: "ctrlEnter") }
    fileprivate var kittyEnterCount: State<Int> { state(initial: 0, feature: "KittyPtyTests", id: "enter") }
    fileprivate var kittyCtrlICount: State<Int> { state(initial: 0, feature: "KittyPtyTests", id: "ctrlI") }
}

/// Counts the keys a legacy terminal cannot tell apart: Ctrl-Enter and Enter, Ctrl-I and Tab.
private struct KeyProbeApplet: Applet {
    let id = "keyprobe"
    let title = "Keys"
    @AppState(\.kittyCtrlEnterCount) private var ctrlEnter
    @AppState(\.kittyEnterCount) private var enter
    @AppState(\.kittyCtrlICount) private var ctrlI

    var body: some View {
        VStack {
            Text("Ctrl-Enter x\(ctrlEnter)")
            Text("Enter alone x\(enter)")
            Text("Ctrl-I x\(ctrlI)")
        }
    }

    var commands: [Command] {
        let ctrlEnter = $ctrlEnter, enter = $enter, ctrlI = $ctrlI
        return [
            Command("ctrl-enter", "Ctrl-Enter") { ctrlEnter.wrappedValue += 1 },
            Command("enter", "Enter") { enter.wrappedValue += 1 },
            Command("ctrl-i", "Ctrl-I") { ctrlI.wrappedValue += 1 },
        ]
    }
}
