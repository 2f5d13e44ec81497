import AppletTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal, negotiated: the real `appletkit` on a pseudo-terminal that answers its start-up
/// probe as a configured terminal would (`TerminalIdentity`), checked in the bytes it writes. The
/// probe's queries go out before the first frame and end with DA1; no answer reaches the screen or
/// the app as keys; the theme follows the background the terminal reports unless `--theme` says
/// otherwise; with synchronized output every frame is inside `CSI ? 2026 h` … `CSI ? 2026 l`, and
/// without it no such byte is written; a terminal that answers nothing costs the probe's timeout,
/// never a hang; and `--diagnose` says what was found and what is used, on a pseudo-terminal and
/// under tmux (which answers some queries itself).
@Suite("The start-up probe on a pseudo-terminal", .timeLimit(.minutes(2)))
struct TerminalProbeEndToEndTests {
    // MARK: Terminals

    static let white = TerminalColor(red: 255, green: 255, blue: 255)
    static let black = TerminalColor(red: 0, green: 0, blue: 0)
    static let night = TerminalColor(red: 0x1E, green: 0x1E, blue: 0x2E)

    /// A light xterm that has everything: synchronized output, its name, 24-bit colour.
    static let lightXterm = TerminalIdentity(background: white, foreground: black, version: "XTerm(390)",
                                             capabilities: TerminalIdentity.truecolor)
    /// A dark terminal with synchronized output and a name that answers XTGETTCAP as kitty does:
    /// `Tc` a boolean, no `RGB`.
    static let darkTerminal = TerminalIdentity(background: night, foreground: white, version: "kitty(0.36.1)",
                                               capabilities: ["Tc": ""])

    /// The start-up queries, byte for byte (TerminalProbe.queries with the kitty keyboard, which
    /// the demo uses): OSC 10 and 11, DECRQM 2026, XTGETTCAP RGB and Tc, XTVERSION, the kitty
    /// flags, DA1.
    static let probe = Array("\u{1B}]10;?\u{1B}\\\u{1B}]11;?\u{1B}\\\u{1B}[?2026$p\u{1B}P+q524742;5463\u{1B}\\\u{1B}[>0q\u{1B}[?u\u{1B}[c".utf8)

    // MARK: Launching

    struct Run {
        let terminal: PseudoTerminal
        let stateDirectory: URL

        func cleanUp() {
            terminal.close()
            try? FileManager.default.removeItem(at: stateDirectory)
        }
    }

    /// The environment with nothing that says what the terminal is but `TERM` (the answers must).
    static var environment: [String: String] {
        var environment = PseudoTerminal.defaultEnvironment
        for name in ["TMUX", "TMUX_PANE", "COLORTERM", "COLORFGBG", "NO_COLOR"] { environment[name] = nil }
        return environment
    }

    static func launch(_ arguments: [String] = [], identity: TerminalIdentity, answersQueries: Bool = true,
                       environment extra: [String: String] = [:], width: Int = 80, height: Int = 24) throws -> Run {
        let binary = try AppBinary.path()
        let directory = try ReliabilityTests.stateFolder()
        var environment = Self.environment
        for (name, value) in extra { environment[name] = value }
        let terminal = try PseudoTerminal.start(binary, arguments: ["--state-dir", directory.path] + arguments,
                                                environment: environment, width: width, height: height,
                                                answersQueries: answersQueries, identity: identity)
        return Run(terminal: terminal, stateDirectory: directory)
    }

    /// How many times in all a run is started whose probe went unanswered for want of time. On a
    /// machine with five times more work than processors about one start in twenty-five is such.
    static let attempts = 4

    /// Before starting again: a moment for a burst of load to pass (not a check of anything).
    static func pause(before attempt: Int) async throws {
        try await Task.sleep(for: .milliseconds(200 * attempt))
    }

    /// The demo on its first tab, drawn, having read the terminal's answers.
    ///
    /// The app waits `TerminalProbe.timeout` (150 ms) for them, and a loaded machine can keep this
    /// process's reader or the app off the processor that long: then the app rightly goes on
    /// without them and the run checks nothing. The app's log says what the probe found; such a
    /// run is started again, after a pause (at most `attempts` times in all; the last one is kept,
    /// and fails).
    static func launchDemo(_ arguments: [String] = [], identity: TerminalIdentity, answersQueries: Bool = true) async throws -> Run {
        for attempt in 1...attempts {
            let run = try launch(arguments, identity: identity, answersQueries: answersQueries)
            do {
                try await run.terminal.waitUntil { $0.isAlternateScreen && $0.row(0).hasPrefix(" 1 Counter") && $0.contains("Count: 0") }
                let probe = try await probeLog(run)
                if attempt == attempts || heard(identity, answersQueries: answersQueries, in: probe) { return run }
                print("TerminalProbeEndToEndTests: the probe was not answered in time (a loaded machine); starting again: \(probe)")
            } catch {
                run.cleanUp()
                throw error
            }
            run.cleanUp()
            try await pause(before: attempt + 1)
        }
        throw HarnessError("not reached")
    }

    /// The app's account of its probe in its log (`terminal probe=…`), once it is there (it is
    /// written once the first frame is out).
    static func probeLog(_ run: Run) async throws -> String {
        let log = run.stateDirectory.appendingPathComponent("appletkit.log")
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.contains(" terminal probe=") }) { return String(line) }
            guard ContinuousClock.now < deadline else { throw HarnessError("the log has no account of the probe after 10 s:\n\(text)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Whether the probe (as the log or --diagnose reports it) got the answers `identity` gives
    /// in time: DA1's, which comes last, or for a terminal that never answers DA1 its background.
    static func heard(_ identity: TerminalIdentity, answersQueries: Bool, in report: String) -> Bool {
        guard answersQueries else { return true }
        if identity.answersPrimaryDeviceAttributes { return report.contains("the terminal answered in") }
        if identity.background != nil { return report.contains("from the terminal (OSC 11)") }
        return true
    }

    // MARK: Reading the bytes

    /// Where `needle` first occurs in `bytes` at or after `start`, if it does.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count) where bytes[index] == needle[0] {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }

    /// How many times `needle` occurs in `bytes`.
    static func count(_ needle: String, in bytes: [UInt8]) -> Int {
        let pattern = Array(needle.utf8)
        var found = 0
        var start = 0
        while let index = find(pattern, in: bytes, from: start) {
            found += 1
            start = index + pattern.count
        }
        return found
    }

    /// One thing a terminal reads: a run of text, a control character, an escape or control
    /// sequence, or a string (OSC, DCS…), at `range` in the output.
    struct Token: CustomStringConvertible {
        enum Kind { case text, control, escape, controlSequence, string }
        let kind: Kind
        let range: Range<Int>
        let bytes: ArraySlice<UInt8>

        var text: String { String(decoding: bytes, as: UTF8.self) }
        var description: String { "\(text.debugDescription) at \(range.lowerBound)" }

        /// A control sequence's final byte.
        var final: UInt8? { kind == .controlSequence ? bytes.last : nil }

        /// What draws a frame: text, and the sequences that erase, insert, delete, scroll, repeat
        /// or colour cells. Cursor moves, mode changes and plain SGR resets are not (ncurses' way
        /// out writes those between the last frame and the main screen).
        var isFrameContent: Bool {
            switch kind {
            case .text: return true
            case .controlSequence:
                guard let final else { return false }
                if Array("JKX@PLMSTb".utf8).contains(final) { return !text.hasPrefix("\u{1B}[?") }
                if final == UInt8(ascii: "m") {
                    let parameters = String(text.dropFirst(2).dropLast())
                    return !["", "0", "39;49"].contains(parameters)
                }
                return false
            default: return false
            }
        }
    }

    /// The output cut into tokens (an unfinished sequence at the end is one token).
    static func tokens(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        func add(_ kind: Token.Kind, _ end: Int) {
            tokens.append(Token(kind: kind, range: index..<end, bytes: bytes[index..<end]))
            index = end
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                guard index + 1 < bytes.count else { add(.escape, bytes.count); continue }
                let next = bytes[index + 1]
                switch next {
                case UInt8(ascii: "["):
                    var end = index + 2
                    while end < bytes.count && !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                    add(.controlSequence, min(end + 1, bytes.count))
                case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
                    var end = index + 2
                    while end < bytes.count {
                        if bytes[end] == 0x07 { end += 1; break }
                        if bytes[end] == 0x1B && end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: "\\") { end += 2; break }
                        end += 1
                    }
                    add(.string, min(end, bytes.count))
                case 0x20...0x2F:   // ESC ( B and the like
                    add(.escape, min(index + 3, bytes.count))
                default:
                    add(.escape, index + 2)
                }
            } else if byte < 0x20 || byte == 0x7F {
                add(.control, index + 1)
            } else {
                var end = index + 1
                while end < bytes.count && bytes[end] != 0x1B && bytes[end] >= 0x20 && bytes[end] != 0x7F { end += 1 }
                add(.text, end)
            }
        }
        return tokens
    }

    /// How the frames after the probe were wrapped: the synchronized updates begun, and what is
    /// wrong (a begin inside one, an end outside one, frame content outside one, one left open).
    static func synchronizedFrames(_ output: [UInt8], after start: Int) -> (updates: Int, problems: [String]) {
        var open = false
        var updates = 0
        var problems: [String] = []
        for token in tokens(output) where token.range.lowerBound >= start {
            if token.kind == .controlSequence && token.text.contains("2026") && token.final != UInt8(ascii: "p") {
                switch token.text {
                case "\u{1B}[?2026h":
                    if open { problems.append("a begin inside an update: \(token)") }
                    open = true
                    updates += 1
                case "\u{1B}[?2026l":
                    if !open { problems.append("an end outside an update: \(token)") }
                    open = false
                default:
                    problems.append("mode 2026 set with others: \(token)")
                }
            } else if token.isFrameContent && !open {
                problems.append("frame content outside an update: \(token)")
            }
        }
        if open { problems.append("an update left open at the end") }
        return (updates, Array(problems.prefix(8)))
    }

    /// Where the probe's queries end in the output (they are written once, whole).
    static func probeEnd(_ terminal: PseudoTerminal, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let output = terminal.output
        let start = try #require(find(probe, in: output), "the probe's queries are not in the output: \(terminal.outputText.debugDescription)",
                                 sourceLocation: sourceLocation)
        #expect(find(probe, in: output, from: start + 1) == nil, "the probe was written twice", sourceLocation: sourceLocation)
        return start + probe.count
    }

    /// Checks that every frame after the probe is inside a synchronized update, the updates are
    /// balanced, and at least `atLeast` frames went out.
    static func expectEveryFrameSynchronized(_ terminal: PseudoTerminal, atLeast: Int,
                                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let end = try probeEnd(terminal, sourceLocation: sourceLocation)
        let (updates, problems) = synchronizedFrames(terminal.output, after: end)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(updates >= atLeast, "\(updates) synchronized updates", sourceLocation: sourceLocation)
        let screen = terminal.screen
        #expect(screen.synchronizedUpdates.isBalanced && screen.synchronizedUpdates.begun == updates,
                "\(screen.synchronizedUpdates)", sourceLocation: sourceLocation)
        #expect(screen.synchronizedUpdates.charactersOutside == 0, "\(screen.synchronizedUpdates)", sourceLocation: sourceLocation)
    }

    // MARK: The probe

    @Test("The probe's queries go out before the first frame, end with DA1, and no answer leaks onto the screen or into the app")
    func queriesBeforeTheFirstFrameAndNoAnswerLeaks() async throws {
        let run = try await Self.launchDemo(identity: Self.lightXterm)
        defer { run.cleanUp() }
        let output = run.terminal.output
        let start = try #require(Self.find(Self.probe, in: output), "\(run.terminal.outputText.debugDescription)")
        #expect(Self.probe.suffix(3).elementsEqual(Array("\u{1B}[c".utf8)), "DA1 is the last query")
        // Nothing drawn before the queries: the first text and the first frame come after them.
        let tokens = Self.tokens(output)
        let firstText = try #require(tokens.first { $0.kind == .text })
        #expect(firstText.range.lowerBound >= start + Self.probe.count, "drawn before the probe: \(firstText)")
        let firstBegin = try #require(Self.find(Array("\u{1B}[?2026h".utf8), in: output))
        #expect(firstBegin >= start + Self.probe.count)
        // The log says what was found, as --diagnose does.
        let log = try await Self.probeLog(run)
        for found in ["terminal: TERM=xterm-256color (terminfo: 256 colours), \"XTerm(390)\" (XTVERSION)",
                      "; background: light: #ffffff from the terminal (OSC 11)", "; theme: light (--theme auto, the background is light)",
                      "; sync output: yes (DECRQM 2026)"] {
            #expect(log.contains(found), "\(found) is not in the log's line: \(log)")
        }

        // Every answer came back as typed bytes: none shows, none was a key. The answers hold
        // digits (the tab keys) and letters; the app is still on tab 1, at 0, and takes keys.
        let screen = run.terminal.screen
        for leaked in ["rgb", "XTerm", "2026", "62;22", "524742", "$y", "+r"] {
            #expect(!screen.contains(leaked), "an answer shows: \(leaked)\n\(screen)")
        }
        try run.terminal.send("+")
        let after = try await run.terminal.waitFor(text: "Count: 1")
        #expect(after.row(0).hasPrefix(" 1 Counter"), "\(after)")
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        ReliabilityTests.expectRestored(run.terminal)
    }

    // MARK: The theme follows the background

    /// The colour the count is drawn in on a 256-colour terminal: the theme's success role.
    static func countColor(_ theme: Theme) throws -> Color {
        let rgb = try #require(theme[.success].foreground).rgb
        return .indexed(ColorMapping.paletteIndex(rgb.0, rgb.1, rgb.2))
    }

    struct ThemeCase: Sendable, CustomTestStringConvertible {
        let name: String
        let background: TerminalColor?
        let arguments: [String]
        let expectedTheme: String
        var testDescription: String { name }
    }

    @Test("The theme follows the background the terminal answers, unless --theme says", arguments: [
        ThemeCase(name: "light background: light theme", background: white, arguments: [], expectedTheme: "light"),
        ThemeCase(name: "dark background: dark theme", background: night, arguments: [], expectedTheme: "dark"),
        ThemeCase(name: "no answer: dark theme", background: nil, arguments: [], expectedTheme: "dark"),
        ThemeCase(name: "--theme dark wins over a light background", background: white, arguments: ["--theme", "dark"], expectedTheme: "dark"),
        ThemeCase(name: "--theme light wins over a dark background", background: night, arguments: ["--theme", "light"], expectedTheme: "light"),
    ])
    func themeFollowsTheBackground(_ themeCase: ThemeCase) async throws {
        #expect(try Self.countColor(.light) != Self.countColor(.dark), "the themes must differ in the count's colour")
        let identity = TerminalIdentity(background: themeCase.background)
        let run = try await Self.launchDemo(themeCase.arguments, identity: identity)
        defer { run.cleanUp() }
        let screen = run.terminal.screen
        let count = try #require(screen.position(of: "Count: 0"))
        let expected = try Self.countColor(themeCase.expectedTheme == "light" ? .light : .dark)
        #expect(screen.cell(x: count.x, y: count.y).foreground == expected,
                "the count is \(screen.cell(x: count.x, y: count.y)), the \(themeCase.expectedTheme) theme draws it \(expected)")
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
    }

    // MARK: Synchronized output

    struct Ending: Sendable, CustomTestStringConvertible {
        let name: String
        let signal: Int32?
        var testDescription: String { name }
    }

    @Test("With mode 2026 every frame is inside CSI ? 2026 h … l, balanced at exit", arguments: [
        Ending(name: "q", signal: nil), Ending(name: "SIGTERM", signal: SIGTERM),
    ])
    func everyFrameIsSynchronized(_ ending: Ending) async throws {
        let run = try await Self.launchDemo(identity: Self.lightXterm)
        defer { run.cleanUp() }
        // More frames: a count, another tab and back.
        try run.terminal.send("+")
        try await run.terminal.waitFor(text: "Count: 1")
        try run.terminal.send("3")
        try await run.terminal.waitUntil { !$0.contains("Count: 1") }
        try run.terminal.send("1")
        try await run.terminal.waitFor(text: "Count: 1")
        if let signal = ending.signal {
            try run.terminal.signal(signal)
            #expect(await run.terminal.waitForExit() == .exited(128 + signal))
        } else {
            try run.terminal.send("q")
            #expect(await run.terminal.waitForExit() == .exited(0))
        }
        try Self.expectEveryFrameSynchronized(run.terminal, atLeast: 4)
        ReliabilityTests.expectRestored(run.terminal)
    }

    @Test("Without mode 2026 (DECRQM answered 0) no CSI ? 2026 h or l is written at all")
    func noSynchronizedOutputWithoutTheMode() async throws {
        var identity = Self.lightXterm
        identity.synchronizedOutput = false
        let run = try await Self.launchDemo(identity: identity)
        defer { run.cleanUp() }
        try run.terminal.send("+")
        try await run.terminal.waitFor(text: "Count: 1")
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        let output = run.terminal.output
        #expect(Self.count("?2026", in: output) == 1, "only the query (DECRQM) names the mode: \(run.terminal.outputText.debugDescription)")
        #expect(Self.count("\u{1B}[?2026$p", in: output) == 1)
        #expect(run.terminal.screen.synchronizedUpdates.begun == 0 && run.terminal.screen.synchronizedUpdates.unmatched == 0)
        ReliabilityTests.expectRestored(run.terminal)
    }

    // MARK: Terminals that do not answer

    struct Silence: Sendable, CustomTestStringConvertible {
        let name: String
        let answersQueries: Bool
        let identity: TerminalIdentity
        var testDescription: String { name }
    }

    @Test("A terminal that answers nothing, or never DA1, still gets the app drawn and working", arguments: [
        Silence(name: "no answers at all", answersQueries: false, identity: TerminalIdentity()),
        Silence(name: "everything but DA1", answersQueries: true,
                identity: TerminalIdentity(background: white, version: "mute(1)", answersPrimaryDeviceAttributes: false)),
    ])
    func aSilentTerminalStillStarts(_ silence: Silence) async throws {
        let run = try await Self.launchDemo(identity: silence.identity, answersQueries: silence.answersQueries)
        defer { run.cleanUp() }
        try run.terminal.send("+")
        try await run.terminal.waitFor(text: "Count: 1")
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        _ = try Self.probeEnd(run.terminal)
        let output = run.terminal.output
        if silence.answersQueries {
            // The answers before the timeout count without DA1: mode 2026 is used, the background too.
            try Self.expectEveryFrameSynchronized(run.terminal, atLeast: 2)
        } else {
            #expect(Self.count("\u{1B}[?2026h", in: output) == 0, "synchronized output without an answer")
        }
        ReliabilityTests.expectRestored(run.terminal)
    }

    // MARK: --diagnose

    /// `appletkit --diagnose` on a terminal wide enough for its lines; returns the screen after
    /// it exited 0, with the terminal restored.
    static func diagnose(_ arguments: [String] = [], identity: TerminalIdentity, answersQueries: Bool = true,
                         environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) async throws -> (lines: [String], output: [UInt8]) {
        var attempt = 1
        var run = try launch(["--diagnose"] + arguments, identity: identity, answersQueries: answersQueries,
                             environment: environment, width: 200, height: 30)
        defer { run.cleanUp() }
        var ended = await run.terminal.waitForExit()
        // As for a run (see `launchDemo`): a probe a loaded machine kept from its answers checks nothing.
        while ended == .exited(0), attempt < attempts, !heard(identity, answersQueries: answersQueries, in: run.terminal.screen.text) {
            print("TerminalProbeEndToEndTests: the probe was not answered in time (a loaded machine); starting again:\n\(run.terminal.screen.text)")
            run.cleanUp()
            attempt += 1
            try await pause(before: attempt)
            run = try launch(["--diagnose"] + arguments, identity: identity, answersQueries: answersQueries,
                             environment: environment, width: 200, height: 30)
            ended = await run.terminal.waitForExit()
        }
        #expect(ended == .exited(0), sourceLocation: sourceLocation)
        ReliabilityTests.expectRestored(run.terminal, sourceLocation: sourceLocation)
        let screen = run.terminal.screen
        let lines = screen.lines.filter { !$0.isEmpty }
        #expect(lines.first?.hasPrefix("appletkit ") == true && lines.first?.hasSuffix(" on this terminal:") == true,
                "\(screen)", sourceLocation: sourceLocation)
        return (lines, run.terminal.output)
    }

    /// The report's line for `label` (`terminal`, `background`…), without the label.
    static func field(_ label: String, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let prefix = label.padding(toLength: 13, withPad: " ", startingAt: 0)
        let line = try #require(lines.first { $0.hasPrefix(prefix) }, "no \(label) line in:\n\(lines.joined(separator: "\n"))",
                                sourceLocation: sourceLocation)
        return String(line.dropFirst(prefix.count))
    }

    @Test("--diagnose on a pseudo-terminal prints what the terminal said and what is used, exits 0, restores the terminal")
    func diagnoseOnAPseudoTerminal() async throws {
        let (lines, output) = try await Self.diagnose(identity: Self.lightXterm)
        #expect(try Self.field("terminal", lines) == "TERM=xterm-256color (terminfo: 256 colours), \"XTerm(390)\" (XTVERSION)")
        #expect(try Self.field("answers", lines).hasPrefix("the terminal answered in "))
        #expect(try Self.field("background", lines) == "light: #ffffff from the terminal (OSC 11)")
        #expect(try Self.field("theme", lines) == "light (--theme auto, the background is light)")
        #expect(try Self.field("colours", lines)
                == "256-colour palette (from the terminfo entry for xterm-256color); the terminal draws 24-bit colour: TERM=xterm-direct would use it")
        #expect(try Self.field("sync output", lines) == "yes (DECRQM 2026): every frame is wrapped in CSI ? 2026 h … l")
        #expect(try Self.field("kitty keys", lines).hasPrefix("yes"))
        // The probe went out, and the report comes after the terminal was given back (main screen).
        let probe = try #require(Self.find(Self.probe, in: output))
        let leave = try #require(Self.find(Array("\u{1B}[?1049l".utf8), in: output, from: probe))
        let report = try #require(Self.find(Array("on this terminal:".utf8), in: output))
        #expect(report > leave)
    }

    @Test("--diagnose: a dark terminal without mode 2026, and a chosen theme")
    func diagnoseADarkTerminalWithAChosenTheme() async throws {
        var identity = Self.darkTerminal
        identity.synchronizedOutput = false
        identity.kittyKeyboard = false
        let (lines, _) = try await Self.diagnose(["--theme", "light"], identity: identity)
        #expect(try Self.field("terminal", lines) == "TERM=xterm-256color (terminfo: 256 colours), \"kitty(0.36.1)\" (XTVERSION)")
        #expect(try Self.field("background", lines) == "dark: #1e1e2e from the terminal (OSC 11)")
        #expect(try Self.field("theme", lines) == "light (--theme light)")
        // Tc alone (kitty's answer) says 24-bit colour.
        #expect(try Self.field("colours", lines)
                == "256-colour palette (from the terminfo entry for xterm-256color); the terminal draws 24-bit colour: TERM=xterm-direct would use it")
        #expect(try Self.field("sync output", lines) == "no (DECRQM 2026 not recognised): frames are written as they are")
        #expect(try Self.field("kitty keys", lines) == "no (no answer to CSI ? u): legacy keys")
    }

    @Test("--diagnose on a terminal that answers nothing: the probe's timeout, then the environment's defaults")
    func diagnoseASilentTerminal() async throws {
        let (lines, _) = try await Self.diagnose(identity: TerminalIdentity(), answersQueries: false)
        let answers = try Self.field("answers", lines)
        let prefix = "no answer in "
        #expect(answers.hasPrefix(prefix) && answers.hasSuffix(" ms: defaults from the environment"), "\(answers)")
        // It waited the whole timeout (150 ms), and then went on: no hang.
        let waited = Int(answers.dropFirst(prefix.count).prefix { $0.isNumber }) ?? -1
        #expect(waited >= 150 && waited < 10_000, "\(answers)")
        #expect(try Self.field("background", lines) == "unknown (no answer to OSC 11, no COLORFGBG)")
        #expect(try Self.field("theme", lines) == "dark (--theme auto; the background is unknown)")
        #expect(try Self.field("sync output", lines) == "unknown (no answer to DECRQM 2026): frames are written as they are")
        #expect(try Self.field("terminal", lines) == "TERM=xterm-256color (terminfo: 256 colours)")
        // COLORFGBG (rxvt's hint) stands in for the answer.
        let (hinted, _) = try await Self.diagnose(identity: TerminalIdentity(), answersQueries: false, environment: ["COLORFGBG": "0;15"])
        #expect(try Self.field("background", hinted) == "light: COLORFGBG=0;15")
        #expect(try Self.field("theme", hinted) == "light (--theme auto, the background is light)")
    }

    @Test("--diagnose needs a terminal: with stdout in a file it says so and exits 1")
    func diagnoseNeedsATerminal() async throws {
        let binary = try AppBinary.path()
        let directory = try ReliabilityTests.stateFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scratch = directory.appendingPathComponent("stdout.txt").path
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: [
            "-c", "exec \"$1\" --diagnose --state-dir \"$3\" >\"$2\"", "sh", binary, scratch, directory.path,
        ], environment: Self.environment)
        defer { terminal.close() }
        #expect(await terminal.waitForExit() == .exited(1))
        let output = terminal.outputText
        #expect(output.hasPrefix("appletkit: ") && output.contains("stdout is not a terminal"), "\(output.debugDescription)")
        #expect(!terminal.output.contains(0x1B), "escape bytes on the terminal: \(output.debugDescription)")
        let file = (try? String(contentsOfFile: scratch, encoding: .utf8)) ?? ""
        #expect(file.isEmpty, "\(file.debugDescription)")
        ReliabilityTests.expectRestored(terminal)
    }

    @Test("--diagnose under tmux, which answers some queries itself, prints a sensible report")
    func diagnoseUnderTmux() async throws {
        let binary = try AppBinary.path()
        let directory = try ReliabilityTests.stateFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let command = "'\(binary)' --diagnose --state-dir '\(directory.path)'; echo \"EXIT=$?\"; sleep 60"
        let tmux = try await Tmux.start(command: ["env", "-u", "COLORTERM", "-u", "COLORFGBG", "-u", "NO_COLOR", "sh", "-c", command],
                                        directory: directory.path, width: 200, height: 30)
        defer { tmux.kill() }
        let screen = try await tmux.waitFor(text: "EXIT=")
        #expect(screen.contains("EXIT=0"), "\(screen)")
        let lines = screen.lines.filter { !$0.isEmpty }
        // tmux answers DA1 (and, from 3.3, XTVERSION with its name); its TERM is its own.
        let terminal = try Self.field("terminal", lines)
        #expect(terminal.hasPrefix("TERM=tmux") || terminal.hasPrefix("TERM=screen"), "\(terminal)")
        if terminal.contains("(XTVERSION)") { #expect(terminal.contains("\"tmux "), "\(terminal)") }
        #expect(try Self.field("answers", lines).hasPrefix("the terminal answered in "))
        // The rest says what was found and what follows from it, whichever tmux this is.
        let background = try Self.field("background", lines)
        let theme = try Self.field("theme", lines)
        if background.hasPrefix("light") {
            #expect(theme == "light (--theme auto, the background is light)")
        } else {
            #expect(theme.hasPrefix("dark (--theme auto"), "\(background) / \(theme)")
        }
        let sync = try Self.field("sync output", lines)
        #expect(sync.hasPrefix("yes (DECRQM 2026)") || sync.hasPrefix("no (DECRQM 2026") || sync.hasPrefix("unknown (no answer to DECRQM 2026)"), "\(sync)")
        #expect(try Self.field("colours", lines).contains("(from the terminfo entry for "))
        #expect(try Self.field("kitty keys", lines).isEmpty == false)
        // The pane is as a shell expects it.
        try await tmux.waitForModes("the pane restored") { $0.isShellState }
    }
}
