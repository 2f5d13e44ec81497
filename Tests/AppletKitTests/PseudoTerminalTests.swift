import AppletTesting
import Foundation
import Terminal
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Programs on a real pseudo-terminal: output, screen, size, signals, job control, termios, and
/// that nothing (process, descriptor, thread) outlives `close()`. Serialized, so that the checks for
/// leftovers see only their own terminal. The kitty keyboard tests nested here start this (large,
/// debug) test binary again on the terminal, which takes long on a loaded machine: the limit
/// leaves room for that.
@Suite("PseudoTerminal", .serialized, .timeLimit(.minutes(3)))
struct PseudoTerminalTests {
    // MARK: Output, input, screen

    @Test func recordsOutputAndScreenAndTakesInput() async throws {
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", "stty size; echo pid:$$; read line; echo got:$line"],
                                                width: 60, height: 20)
        defer { terminal.close() }
        let pid = terminal.processID
        let screen = try await terminal.waitUntil { $0.row(1) == "pid:\(pid)" }
        #expect(screen.lines[0] == "20 60")
        try terminal.send("hello\r")
        try await terminal.waitFor(text: "got:hello")
        #expect(await terminal.waitForExit() == .exited(0))
        #expect(!terminal.isRunning)
        #expect(Array(terminal.screen.lines.prefix(5)) == ["20 60", "pid:\(pid)", "hello", "got:hello", ""])
        #expect(terminal.screen.size == Size(width: 60, height: 20))
        // Typed input is echoed by the terminal (canonical mode), output gets CR LF (ONLCR).
        #expect(terminal.outputText == "20 60\r\npid:\(pid)\r\nhello\r\ngot:hello\r\n")
        #expect(terminal.output == Array(terminal.outputText.utf8))
        let chunks = terminal.chunks
        #expect(chunks.first?.range.lowerBound == 0)
        #expect(chunks.last?.range.upperBound == terminal.outputCount)
        #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.range.upperBound == $1.range.lowerBound && $0.arrival <= $1.arrival })
    }

    @Test func exitStatusAndPathLookup() async throws {
        let terminal = try PseudoTerminal.start("sh", arguments: ["-c", "pwd; exit 3"], directory: "/tmp")
        defer { terminal.close() }
        #expect(terminal.executable.hasSuffix("/sh") && terminal.executable.hasPrefix("/"))
        #expect(await terminal.waitForExit() == .exited(3))
        #expect(terminal.termination == .exited(3))
        #expect(terminal.termination?.shellStatus == 3)
        #expect(terminal.screen.lines[0] == "/tmp")
    }

    @Test func reportsWhyAProgramCouldNotStart() throws {
        #expect(throws: PseudoTerminalError.executableNotFound("no-such-program-here")) {
            try PseudoTerminal.start("no-such-program-here")
        }
        #expect(throws: PseudoTerminalError.startFailed(executable: "/etc/passwd", step: "execve", errno: EACCES)) {
            try PseudoTerminal.start("/etc/passwd")
        }
        #expect(throws: PseudoTerminalError.startFailed(executable: "/bin/sh", step: "chdir", errno: ENOENT)) {
            try PseudoTerminal.start("/bin/sh", directory: "/no/such/folder")
        }
        let error = PseudoTerminalError.startFailed(executable: "/bin/sh", step: "chdir", errno: ENOENT)
        #expect(error.description == "Could not start /bin/sh: chdir failed: No such file or directory (errno 2).")
    }

    // MARK: The terminal

    @Test func theTerminalIsTheControllingTerminalOfANewSessionWithOnlyStdio() async throws {
        let script = "tty; ps -o tty=,sid=,pgid=,tpgid= -p $$; [ -t 0 ] && [ -t 1 ] && [ -t 2 ] && echo all-terminals; "
            + "ls /proc/self/fd | tr '\\n' ' '"
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", script])
        defer { terminal.close() }
        #expect(await terminal.waitForExit() == .exited(0))
        let lines = terminal.screen.lines
        let pid = "\(terminal.processID)"
        #expect(lines[0].hasPrefix("/dev/pts/"))
        #expect(lines[1].split(separator: " ").map(String.init) == [String(lines[0].dropFirst("/dev/".count)), pid, pid, pid])
        #expect(lines[2] == "all-terminals")
        // Nothing of this process's descriptors but the terminal (3 is ls's own directory).
        #expect(lines[3] == "0 1 2 3")
    }

    @Test func resizingSetsTheWindowSizeAndSendsSIGWINCH() async throws {
        let terminal = try PseudoTerminal.start(
            "/bin/sh", arguments: ["-c", "trap 'stty size' WINCH; echo ready; while :; do sleep 0.05; done"])
        defer { terminal.close() }
        try await terminal.waitFor(text: "ready")
        #expect(try terminal.windowSize() == Size(width: 80, height: 24))
        try terminal.resize(width: 40, height: 10)
        #expect(terminal.screen.size == Size(width: 40, height: 10))
        #expect(try terminal.windowSize() == Size(width: 40, height: 10))
        try await terminal.waitFor(text: "10 40")
        try terminal.resize(width: 50, height: 15)
        try await terminal.waitFor(text: "15 50")
    }

    @Test func termiosReadsBackWhatSttyReports() async throws {
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", "stty -g; read line"], width: 200)
        defer { terminal.close() }
        let screen = try await terminal.waitUntil { $0.cursor.y >= 1 }
        let now = try terminal.termios()
        #expect(now.description == screen.lines[0])
        #expect(now == terminal.initialTermios)
        #expect(now.isCanonical && now.echoes && now.sendsSignals)
        #expect(now.inputFlags & UInt64(IUTF8) != 0)
        #expect(now.controlCharacters[Int(VINTR)] == 3)
    }

    @Test func termiosSeesWhatAProgramChanged() async throws {
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", "stty raw -echo; echo changed; sleep 30"])
        defer { terminal.close() }
        try await terminal.waitFor(text: "changed")
        let now = try terminal.termios()
        #expect(now != terminal.initialTermios)
        #expect(!now.isCanonical && !now.echoes && !now.sendsSignals)
        #expect(terminal.initialTermios.isCanonical)
    }

    // MARK: Signals and job control

    @Test func signalsEndTheProgram() async throws {
        let terminal = try PseudoTerminal.start("/bin/sleep", arguments: ["30"])
        defer { terminal.close() }
        #expect(terminal.isRunning)
        #expect(await terminal.waitForExit(timeout: .milliseconds(50)) == nil)
        try terminal.signal(SIGTERM)
        #expect(await terminal.waitForExit() == .signalled(SIGTERM))
        #expect(terminal.termination?.shellStatus == 128 + SIGTERM)
        #expect(throws: PseudoTerminalError.notRunning) { try terminal.signal(SIGTERM) }
    }

    @Test func signallingTheProcessGroupReachesItsChildren() async throws {
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", "echo started; sleep 30; echo never"])
        defer { terminal.close() }
        try await terminal.waitFor(text: "started")
        // The child has exec'd sleep (a signal between fork and exec could find it still sh).
        #expect(await eventually {
            Self.sessionMembers(terminal.processID).contains { Self.read("/proc/\($0)/comm")?.hasPrefix("sleep") == true }
        })
        try terminal.signalProcessGroup(SIGINT)
        #expect(await terminal.waitForExit() == .signalled(SIGINT))
        #expect(!terminal.screen.contains("never"))
    }

    @Test func jobControlWorksInAnInteractiveShell() async throws {
        var environment = PseudoTerminal.defaultEnvironment
        environment["PS1"] = "$ "
        environment["HISTFILE"] = "/dev/null"
        let terminal = try PseudoTerminal.start("/bin/bash", arguments: ["--noprofile", "--norc", "--noediting", "-i"],
                                                environment: environment, width: 60, height: 20)
        defer { terminal.close() }
        let shell = terminal.processID
        try await terminal.waitFor(text: "$")
        try terminal.send("sleep 30 &\r")
        try terminal.send("jobs\r")
        try await terminal.waitUntil { $0.contains("Running") && $0.contains("sleep 30 &") }

        // A foreground job gets the terminal; Ctrl-Z stops it and gives the terminal back.
        try terminal.send("sleep 20\r")
        // Not only a new foreground group: the job must be `sleep` already. Between bash's fork and
        // the exec the child still ignores SIGTSTP as the interactive shell does, and a Ctrl-Z
        // then would be lost.
        #expect(await eventually { terminal.foregroundProcessGroup.map { Self.command(of: $0) == "sleep" } ?? false })
        try terminal.send("\u{1A}")
        try await terminal.waitFor(text: "Stopped")
        #expect(await eventually { terminal.foregroundProcessGroup == shell })
        try terminal.send("fg\r")
        #expect(await eventually { terminal.foregroundProcessGroup.map { $0 != shell } ?? false })
        try terminal.signalForegroundProcessGroup(SIGINT)
        try terminal.send("echo status:$?\r")
        try await terminal.waitFor(text: "status:130")
        #expect(terminal.isRunning)

        // Closing ends the shell and the background job too.
        #expect(Self.sessionMembers(shell).count == 2)
        #expect(terminal.close() == .signalled(SIGKILL))
        #expect(await eventually { Self.sessionMembers(shell).isEmpty })
    }

    // MARK: Real terminal programs

    @MainActor
    @Test func readsWhatTputWritesForXterm256color() async throws {
        let script = "tput smcup; tput cup 5 10; printf hello; tput setaf 1; tput rev; printf red; tput sgr0; "
            + "tput smacs; printf lqk; tput rmacs; tput civis; read x; tput cnorm; tput rmcup; printf done"
        var environment = PseudoTerminal.defaultEnvironment
        environment["TERM"] = "xterm-256color"
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", script], environment: environment)
        defer { terminal.close() }
        let screen = try await terminal.waitUntil { $0.isAlternateScreen && $0.contains("┌─┐") && !$0.cursorVisible }
        #expect(screen.row(5) == "          hellored┌─┐")
        #expect(screen.cell(x: 10, y: 5) == TerminalScreen.Cell("h"))
        #expect(screen.cell(x: 15, y: 5) == TerminalScreen.Cell("r", foreground: .red, attributes: .reverse))
        #expect(screen.cell(x: 18, y: 5) == TerminalScreen.Cell("┌"))
        #expect(screen.cursor == Point(x: 21, y: 5))
        try terminal.send("\r")
        #expect(await terminal.waitForExit() == .exited(0))
        let final = terminal.screen
        #expect(!final.isAlternateScreen && final.cursorVisible)
        #expect(final.lines[0] == "done")
        #expect(final.modeChanges.filter { $0.mode == 1049 } == [.init(mode: 1049, on: true), .init(mode: 1049, on: false)])
        #expect(final.unresetModes() == [])
    }

    @Test func clearClearsTheScreen() async throws {
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", "printf 'junk\\nmore junk'; clear; printf after"])
        defer { terminal.close() }
        #expect(await terminal.waitForExit() == .exited(0))
        #expect(terminal.screen.lines.prefix(2) == ["after", ""])
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/less")))
    func aFullScreenProgramLeavesTheTerminalAsItFoundIt() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pty-less-\(UUID().uuidString).txt")
        try (1...100).map { "line \($0)" }.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        var environment = PseudoTerminal.defaultEnvironment
        environment["LESS"] = nil
        environment["LESSOPEN"] = nil
        let terminal = try PseudoTerminal.start("/usr/bin/less", arguments: [file.path], environment: environment,
                                                width: 40, height: 10)
        defer { terminal.close() }
        let screen = try await terminal.waitUntil { $0.contains("line 9") }
        #expect(screen.isAlternateScreen && screen.isKeypadApplicationMode)
        #expect(screen.lines[0] == "line 1")
        #expect(try !terminal.termios().isCanonical)
        try terminal.send(" ")   // next page
        try await terminal.waitFor(text: "line 18")
        try terminal.send("q")
        #expect(await terminal.waitForExit() == .exited(0))
        let final = terminal.screen
        #expect(final.unresetModes() == [])
        #expect(!final.isAlternateScreen && !final.isKeypadApplicationMode)
        #expect(try terminal.termios() == terminal.initialTermios)
    }

    @Test func answersTheProgramsQueries() async throws {
        let script = "stty -echo -icanon; printf '\\033[3;5H\\033[6n'; head -c 6 | od -An -c"
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", script])
        defer { terminal.close() }
        #expect(await terminal.waitForExit() == .exited(0))
        #expect(terminal.screen.contains("033   [   3   ;   5   R"), "\(terminal.screen)")
    }

    @Test func theIdentityIsInPlaceBeforeTheProgramAsks() async throws {
        // The program asks first thing (as a start-up probe does): XTVERSION, then OSC 11.
        let script = "stty -echo -icanon; printf '\\033[>0q\\033]11;?\\007'; head -c 40 | tr '\\033\\007' 'EB'; echo"
        let identity = TerminalIdentity(background: TerminalColor(red: 0x12, green: 0x34, blue: 0xFF), version: "probe-test")
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", script], identity: identity)
        defer { terminal.close() }
        #expect(await terminal.waitForExit() == .exited(0))
        #expect(terminal.screen.contains("EP>|probe-testE\\E]11;rgb:1212/3434/ffffB"), "\(terminal.screen)")
    }

    // MARK: Keys

    @Test func keysAreTheBytesXtermSends() {
        func bytes(_ spec: String, application: Bool = false) -> String {
            String(decoding: XtermKeys.bytes(for: KeySpec.parse(spec)!, applicationCursorKeys: application), as: UTF8.self)
        }
        #expect(bytes("q") == "q" && bytes("space") == " " && bytes("shift-a") == "A")
        #expect(bytes("ctrl-c") == "\u{3}" && bytes("ctrl-[") == "\u{1B}" && bytes("ctrl-space") == "\u{0}")
        #expect(bytes("alt-x") == "\u{1B}x" && bytes("alt-ctrl-d") == "\u{1B}\u{4}")
        #expect(bytes("enter") == "\r" && bytes("tab") == "\t" && bytes("shift-tab") == "\u{1B}[Z")
        #expect(bytes("backspace") == "\u{7F}" && bytes("esc") == "\u{1B}")
        #expect(bytes("up") == "\u{1B}[A" && bytes("up", application: true) == "\u{1B}OA")
        #expect(bytes("home") == "\u{1B}[H" && bytes("end", application: true) == "\u{1B}OF")
        #expect(bytes("ctrl-right") == "\u{1B}[1;5C" && bytes("shift-end", application: true) == "\u{1B}[1;2F")
        #expect(bytes("pgdn") == "\u{1B}[6~" && bytes("ctrl-delete") == "\u{1B}[3;5~" && bytes("insert") == "\u{1B}[2~")
        #expect(bytes("f1") == "\u{1B}OP" && bytes("f5") == "\u{1B}[15~" && bytes("f12") == "\u{1B}[24~")
        #expect(bytes("f13") == "\u{1B}[1;2P" && bytes("shift-f5") == "\u{1B}[15;2~" && bytes("alt-f4") == "\u{1B}[1;3S")
    }

    @Test func pressFollowsTheProgramsCursorKeyMode() async throws {
        let script = "stty raw -echo; printf 'ready\\033[?1h'; head -c 8 | od -An -tx1"
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", script])
        defer { terminal.close() }
        try await terminal.waitUntil { $0.contains("ready") && $0.isModeOn(1) }
        #expect(throws: PseudoTerminalError.invalidKeySpec("ctrl-nope")) { try terminal.press("up", "ctrl-nope") }
        try terminal.press("up", "ctrl-c", "a", "f1")
        #expect(await terminal.waitForExit() == .exited(0))
        #expect(terminal.screen.contains("1b 4f 41 03 61 1b 4f 50"), "\(terminal.screen)")
    }

    // MARK: Waiting

    @Test func keysRoundTripAndEachWaitEndsWithItsChunk() async throws {
        let terminal = try PseudoTerminal.start("/bin/cat", width: 40, height: 10)
        defer { terminal.close() }
        for key in 0..<200 {
            let sent = ContinuousClock.now
            try terminal.send("k\(key)\r")
            let match = try await terminal.waitForMatch { $0.contains("k\(key)") }
            #expect(match.arrival >= sent)
            #expect(match.outputCount <= terminal.outputCount)
            #expect(match.screen.contains("k\(key)"))
        }
    }

    @Test func aWaitThatTimesOutSaysWhatTheScreenShows() async throws {
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", "echo waiting; sleep 30"])
        defer { terminal.close() }
        try await terminal.waitFor(text: "waiting")
        do {
            try await terminal.waitFor(text: "never", timeout: .milliseconds(200))
            Issue.record("the wait did not time out")
        } catch let error as PseudoTerminalError {
            #expect(error == .timedOut(after: .milliseconds(200), screen: terminal.screen.text))
            #expect(error.description.contains("waiting"))
        }
    }

    @Test func aWaitEndsAsSoonAsNoMoreOutputCanCome() async throws {
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", "echo bye"])
        defer { terminal.close() }
        do {
            try await terminal.waitFor(text: "never", timeout: .seconds(30))
            Issue.record("the wait did not end")
        } catch let error as PseudoTerminalError {
            guard case .outputEnded(let screen) = error else { Issue.record("\(error)"); return }
            #expect(screen.hasPrefix("bye"))
        }
    }

    @Test func aCancelledWaitThrowsCancellationError() async throws {
        let terminal = try PseudoTerminal.start("/bin/sleep", arguments: ["30"])
        defer { terminal.close() }
        let wait = Task { try await terminal.waitFor(text: "never", timeout: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(20))
        wait.cancel()
        await #expect(throws: CancellationError.self) { try await wait.value }
        let exitWait = Task { await terminal.waitForExit(timeout: .seconds(30)) }
        exitWait.cancel()
        #expect(await exitWait.value == nil)
    }

    // MARK: Cleaning up

    @Test func closeKillsReapsAndLeavesNothingBehind() async throws {
        let descriptorsBefore = Self.terminalDescriptors()
        let terminal = try PseudoTerminal.start("/bin/sh", arguments: ["-c", "sleep 30 & sleep 30; echo never"])
        let pid = terminal.processID
        #expect(await eventually { Self.sessionMembers(pid).count == 3 })
        // The reader thread names itself once it runs: on a loaded machine, a moment after start.
        #expect(await eventually { Self.readerThreads() == 1 })
        #expect(Self.terminalDescriptors() == descriptorsBefore + 1)

        let waiter = Task { try await terminal.waitFor(text: "never", timeout: .seconds(30)) }
        #expect(terminal.close() == .signalled(SIGKILL))
        #expect(terminal.close() == .signalled(SIGKILL))   // again: nothing more happens
        await #expect(throws: PseudoTerminalError.closed) { try await waiter.value }
        #expect(!terminal.isRunning)
        #expect(await terminal.waitForExit(timeout: .seconds(1)) == .signalled(SIGKILL))
        #expect(await eventually { Self.sessionMembers(pid).isEmpty })
        #expect(waitpid(pid, nil, WNOHANG) == -1)   // reaped already: not a zombie
        #expect(Self.terminalDescriptors() == descriptorsBefore)
        #expect(await eventually { Self.readerThreads() == 0 })
        #expect(throws: PseudoTerminalError.closed) { try terminal.send("x") }
        #expect(throws: PseudoTerminalError.closed) { try terminal.termios() }
        #expect(throws: PseudoTerminalError.closed) { try terminal.resize(width: 10, height: 10) }
    }

    @Test func droppingTheLastReferenceClosesIt() async throws {
        let descriptorsBefore = Self.terminalDescriptors()
        var pid: Int32 = 0
        do {
            let terminal = try PseudoTerminal.start("/bin/sleep", arguments: ["30"])
            pid = terminal.processID
            #expect(terminal.isRunning)
        }
        #expect(waitpid(pid, nil, WNOHANG) == -1)
        #expect(Self.sessionMembers(pid).isEmpty)
        #expect(Self.terminalDescriptors() == descriptorsBefore)
        #expect(await eventually { Self.readerThreads() == 0 })
    }

    // MARK: Helpers

    /// The command name of process `pid` (`/proc/<pid>/comm`), nil if it is gone.
    static func command(of pid: Int32) -> String? {
        read("/proc/\(pid)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The live (not zombie) processes of session `session`, from /proc.
    static func sessionMembers(_ session: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let stat = read("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: end)...].split(separator: " ")   // state ppid pgrp session ...
            return fields.count > 3 && fields[0] != "Z" && Int32(fields[3]) == session
        }
    }

    /// How many of this process's descriptors are pseudo-terminal masters.
    static func terminalDescriptors() -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)"))?.hasSuffix("ptmx") == true
        }.count
    }

    /// How many of this process's threads are pseudo-terminal readers.
    static func readerThreads() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { read("/proc/self/task/\($0)/comm")?.trimmingCharacters(in: .newlines) == "PTY reader" }.count
    }

    private static func read(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }
}
