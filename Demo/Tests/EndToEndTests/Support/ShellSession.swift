import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A predictable bash at a prompt in a private tmux window, in a scratch folder, with the app one
/// command away (`run-app`, which records its pid and execs the built binary). Each test makes its
/// own and calls `shutdown()` from a `defer`.
///
/// ```swift
/// let shell = try await ShellSession.start()
/// defer { shell.shutdown() }
/// let run = try await shell.launch(["--tab", "2"])
/// try await shell.tmux.waitFor(text: "Shared counter: 0")
/// ```
final class ShellSession {
    static let prompt = "e2e$"
    /// Row 0 of every frame of the app at a normal size (dividers between the tabs, none after
    /// the last; tmux trims the row's trailing spaces).
    static let tabBar = " 1 Counter │ 2 Dashboard │ 3 List │ 4 Widgets │ 5 Notes │ 6 Processes"

    let tmux: Tmux
    /// The shell's working folder (the test's scratch space).
    let directory: URL
    let binary: String
    private var launches = 0
    private var commands = 0
    private var pids: Set<pid_t> = []

    /// One start of the app from the prompt; its shell command line saves `stty -g` before
    /// (`before<N>`), prints `[N] status=<exit status>` after, then saves `stty -g` again (`after<N>`).
    struct Launch: Sendable {
        let number: Int
        var statusPrefix: String { "[\(number)] status=" }
    }

    private init(tmux: Tmux, directory: URL, binary: String) {
        self.tmux = tmux
        self.directory = directory
        self.binary = binary
    }

    static func start(width: Int = 120, height: Int = 40) async throws -> ShellSession {
        let binary = try AppBinary.path()
        guard let bash = findExecutable("bash") else { throw HarnessError("bash is not installed; the end-to-end tests need it") }
        let fileManager = FileManager.default
        let directory = fileManager.temporaryDirectory.appendingPathComponent("appletkit-e2e-\(UUID().uuidString.prefix(8))")
        let bin = directory.appendingPathComponent("bin")
        try fileManager.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = bin.appendingPathComponent("run-app")
        try writeFile(script.path, """
            #!/bin/sh
            # Records the pid the app will have, then becomes the app.
            echo $$ > app.pid
            exec \(shellQuoted(binary)) "$@"

            """, mode: 0o755)
        // No core files from the crash tests (a piped core_pattern could also make a crash slow).
        let rcfile = directory.appendingPathComponent("bashrc")
        try writeFile(rcfile.path, "PS1='\(prompt) '\nulimit -c 0\n")

        let command = [
            "/usr/bin/env", "-i",
            "HOME=\(directory.path)",
            "PATH=\(bin.path):/usr/local/bin:/usr/bin:/bin",
            "TERM=xterm-256color",
            "LANG=C.UTF-8",
            "HISTFILE=/dev/null",
            bash, "--rcfile", rcfile.path, "--noprofile",
        ]
        let tmux: Tmux
        do {
            tmux = try await Tmux.start(command: command, directory: directory.path, width: width, height: height)
        } catch {
            try? fileManager.removeItem(at: directory)
            throw error
        }
        let session = ShellSession(tmux: tmux, directory: directory, binary: binary)
        do {
            try await tmux.waitUntil("the shell's first prompt") { $0.lastNonEmptyRow == prompt }
        } catch {
            session.shutdown()
            throw error
        }
        return session
    }

    /// Kills the tmux server (the shell and whatever runs in it get SIGHUP), then any app this
    /// session started that is somehow still alive, and removes the scratch folder.
    func shutdown() {
        tmux.kill()
        for pid in pids where isAlive(pid) { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Running the app

    /// Types the command line that starts the app (with extra environment variables, if any) and
    /// returns at once; see `waitForFirstFrame()` and `waitForExit(_:)`.
    ///
    /// With `recordModesBeforeShell`, the app runs under a non-interactive `bash -c` that writes
    /// `stty -g` the moment the app has ended. The interactive shell (readline) puts its own modes
    /// on the tty as soon as it gets control back, so only this shows what the app itself left
    /// behind when it died of a signal.
    func launch(_ arguments: [String] = [], environment: [String: String] = [:], recordModesBeforeShell: Bool = false) async throws -> Launch {
        launches += 1
        let run = Launch(number: launches)
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("app.pid"))
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.shellQuoted($0.value)) " }.joined()
        let args = arguments.map { " " + Self.shellQuoted($0) }.joined()
        if recordModesBeforeShell {
            try await tmux.typeLine("stty -g >before\(run.number); \(assignments)bash -c 'run-app \"$@\"; echo \"\(run.statusPrefix)$?\"; stty -g >after\(run.number)' run-app\(args)")
        } else {
            try await tmux.typeLine("stty -g >before\(run.number); \(assignments)run-app\(args); echo \"\(run.statusPrefix)$?\"; stty -g >after\(run.number)")
        }
        return run
    }

    /// Waits for the app's first frame (its tab bar on row 0) and returns it.
    @discardableResult
    func waitForFirstFrame(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Screen {
        try await tmux.waitUntil("the first frame of \(binary) (its tab bar on row 0)", sourceLocation: sourceLocation) {
            $0.row(0).hasPrefix(Self.tabBar)
        }
    }

    /// Starts the app and waits for its first frame.
    @discardableResult
    func launchAndWait(_ arguments: [String] = [], environment: [String: String] = [:], recordModesBeforeShell: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) async throws -> (Launch, Screen) {
        let run = try await launch(arguments, environment: environment, recordModesBeforeShell: recordModesBeforeShell)
        let screen = try await waitForFirstFrame(sourceLocation: sourceLocation)
        return (run, screen)
    }

    /// The running app's pid (written by `run-app` just before it execs the binary).
    func pid(sourceLocation: SourceLocation = #_sourceLocation) async throws -> pid_t {
        let file = directory.appendingPathComponent("app.pid")
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            if let text = try? String(contentsOf: file, encoding: .utf8),
               let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                pids.insert(pid)
                return pid
            }
            if ContinuousClock.now >= deadline {
                try #require(Bool(false), "run-app never wrote its pid to \(file.path)", sourceLocation: sourceLocation)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sends a signal to the running app.
    func signal(_ sig: Int32, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let pid = try await pid(sourceLocation: sourceLocation)
        try #require(kill(pid, sig) == 0, "kill(\(pid), \(sig)) failed: errno \(errno)", sourceLocation: sourceLocation)
    }

    /// Waits until the launch's command line has finished: `[N] status=<n>` printed and the prompt
    /// back below it. Returns the status the shell saw and the screen.
    func waitForExit(_ run: Launch, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation) async throws -> (status: Int32, screen: Screen) {
        var status: Int32 = -1
        let screen = try await tmux.waitUntil("the app to exit and the shell prompt to come back (a \"\(run.statusPrefix)…\" line, then \"\(Self.prompt)\")", timeout: timeout, sourceLocation: sourceLocation) { screen in
            guard let row = screen.lines.lastIndex(where: { $0.hasPrefix(run.statusPrefix) && Int32($0.dropFirst(run.statusPrefix.count)) != nil }),
                  screen.lines[(row + 1)...].contains(where: { $0 == Self.prompt }) else { return false }
            status = Int32(screen.lines[row].dropFirst(run.statusPrefix.count))!
            return true
        }
        return (status, screen)
    }

    /// Types a command line followed by `; echo "[cN] status=<status>"` and waits for it to finish;
    /// returns the status (`statusExpression`, `$?` by default, e.g. `${PIPESTATUS[0]}`) and the screen.
    func runLine(_ line: String, statusExpression: String = "$?", timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation) async throws -> (status: Int32, screen: Screen) {
        commands += 1
        let prefix = "[c\(commands)] status="
        try await tmux.typeLine("\(line); echo \"\(prefix)\(statusExpression)\"")
        var status: Int32 = -1
        let screen = try await tmux.waitUntil("`\(line)` to finish (a \"\(prefix)…\" line, then the prompt)", timeout: timeout, sourceLocation: sourceLocation) { screen in
            guard let row = screen.lines.lastIndex(where: { $0.hasPrefix(prefix) && Int32($0.dropFirst(prefix.count)) != nil }),
                  screen.lines[(row + 1)...].contains(where: { $0 == Self.prompt }) else { return false }
            status = Int32(screen.lines[row].dropFirst(prefix.count))!
            return true
        }
        return (status, screen)
    }

    /// `stty -g` as the shell had it just before the launch.
    func modesBefore(_ run: Launch) throws -> String { try readFile("before\(run.number)") }
    /// `stty -g` as the shell had it right after the app exited (or stopped).
    func modesAfter(_ run: Launch) throws -> String { try readFile("after\(run.number)") }

    func readFile(_ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        do {
            return try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw HarnessError("could not read \(url.path): \(error)")
        }
    }

    /// Waits for a file the shell writes (e.g. `stty -g >name`).
    func waitForFile(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            if let text = try? readFile(name), !text.isEmpty { return text }
            if ContinuousClock.now >= deadline {
                try #require(Bool(false), "the shell never wrote \(name)", sourceLocation: sourceLocation)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// `stty -g` of the pane's terminal read from outside (the test process), whatever runs in it.
    /// Opened with O_NOCTTY so it never becomes this process's controlling terminal.
    func paneTerminalModes() async throws -> String {
        let tty = try await tmux.display("#{pane_tty}")
        guard let stty = findExecutable("stty") else { throw HarnessError("stty not found") }
        let fd = open(tty, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw HarnessError("cannot open \(tty): errno \(errno)") }
        defer { close(fd) }
        let result = try await runProcess(stty, ["-g"], stdin: fd, timeout: .seconds(5))
        guard result.exitedNormally, result.status == 0 else {
            throw HarnessError("stty -g < \(tty) failed: \(result.stderrText)")
        }
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Checks what a user gets back after the app ended: the prompt, the same tty modes as before
    /// (read by the shell), and the main screen with the app gone and no modes left on.
    func expectTerminalRestored(after run: Launch, screen: Screen, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = try modesBefore(run)
        let after = try await waitForFile("after\(run.number)", sourceLocation: sourceLocation)
        #expect(after == before, "stty -g differs after the app: before \(before), after \(after)", sourceLocation: sourceLocation)
        let modes = try await tmux.modes()
        #expect(modes.isShellState, "terminal modes left behind: \(modes)", sourceLocation: sourceLocation)
        #expect(!screen.contains(Self.tabBar), "the app's tab bar is still on screen:\n\(screen)", sourceLocation: sourceLocation)
        #expect(screen.contains("run-app"), "the shell's screen (with the command line) did not come back:\n\(screen)", sourceLocation: sourceLocation)
        #expect(screen.lastNonEmptyRow == Self.prompt, "no prompt on the last line:\n\(screen)", sourceLocation: sourceLocation)
    }

    static func shellQuoted(_ text: String) -> String {
        if !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
