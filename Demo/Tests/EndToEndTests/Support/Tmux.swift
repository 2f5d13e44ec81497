import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a pane shows: one string per row (tmux drops trailing blanks).
struct Screen: Sendable, CustomStringConvertible {
    let lines: [String]

    var text: String { lines.joined(separator: "\n") }
    func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }
    /// Row `index` (0 is the top), or "" past the bottom.
    func row(_ index: Int) -> String { lines.indices.contains(index) ? lines[index] : "" }
    var lastRow: String { lines.last ?? "" }
    /// The bottom-most row with something on it.
    var lastNonEmptyRow: String { lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "" }
    /// The index of the first row containing `text`.
    func firstRow(containing text: String) -> Int? { lines.firstIndex { $0.contains(text) } }

    /// The screen in a frame with row numbers, for failure messages.
    var description: String {
        let width = max(20, lines.map(\.count).max() ?? 0)
        var out = "    ┌" + String(repeating: "─", count: width) + "┐\n"
        for (i, line) in lines.enumerated() {
            let number = String(i)
            out += String(repeating: " ", count: max(0, 3 - number.count)) + number + " │" + line
                + String(repeating: " ", count: max(0, width - line.count)) + "│\n"
        }
        out += "    └" + String(repeating: "─", count: width) + "┘"
        return out
    }
}

/// The terminal modes a program can leave behind, as tmux tracks them for a pane.
struct PaneModes: Sendable, Equatable, CustomStringConvertible {
    var alternateScreen: Bool
    var cursorVisible: Bool
    var keypad: Bool
    var keypadCursor: Bool
    /// Any of the mouse reporting modes (1000, 1002, 1003) or the SGR encoding (1006).
    var mouse: Bool

    static let format = "#{alternate_on} #{cursor_flag} #{keypad_flag} #{keypad_cursor_flag} #{mouse_any_flag}#{mouse_all_flag}#{mouse_button_flag}#{mouse_standard_flag}#{mouse_sgr_flag}"

    init(parsing text: String) {
        let fields = text.split(separator: " ").map(String.init)
        func flag(_ i: Int) -> Bool { fields.indices.contains(i) && fields[i] == "1" }
        alternateScreen = flag(0)
        cursorVisible = flag(1)
        keypad = flag(2)
        keypadCursor = flag(3)
        mouse = fields.indices.contains(4) && fields[4].contains("1")
    }

    /// As a shell expects the terminal: main screen, cursor shown, no keypad mode, no mouse reports.
    var isShellState: Bool { !alternateScreen && cursorVisible && !keypad && !keypadCursor && !mouse }

    var description: String {
        "alternate screen \(alternateScreen ? "on" : "off"), cursor \(cursorVisible ? "visible" : "hidden"), "
            + "keypad \(keypad ? "on" : "off")/\(keypadCursor ? "on" : "off"), mouse reports \(mouse ? "on" : "off")"
    }
}

/// A private tmux server (its own socket, `tmux -L <name>`) with one session, driven as a person at
/// a terminal would: type, press keys, paste, resize, and look at the screen.
///
/// Call `kill()` when done, from a `defer` so it happens on failure too.
final class Tmux: Sendable {
    let executable: String
    let socketName: String
    let target = "e2e"
    private let environment: [String: String]

    private static let counter = Counter()

    /// Starts a server and a detached session of `width` x `height` running `command` (argv, run
    /// directly by tmux without a shell) in `directory`.
    static func start(command: [String], directory: String, width: Int = 120, height: Int = 40) async throws -> Tmux {
        guard let executable = findExecutable("tmux") else {
            throw HarnessError("tmux is not installed (not found on PATH); the end-to-end tests drive the app through tmux: install it (apt-get install tmux / brew install tmux)")
        }
        let name = "appletkit-e2e-\(getpid())-\(counter.next())-\(UUID().uuidString.prefix(6))"
        let tmux = Tmux(executable: executable, socketName: name)
        // -f /dev/null: none of the user's configuration. No status line, so the pane is the window.
        try await tmux.run(["-f", "/dev/null", "new-session", "-d", "-s", tmux.target, "-x", String(width), "-y", String(height), "-c", directory]
            + command + [";", "set-option", "-g", "status", "off", ";", "set-option", "-g", "history-limit", "1000"])
        return tmux
    }

    private init(executable: String, socketName: String) {
        self.executable = executable
        self.socketName = socketName
        // The client's own environment: never a user's session (TMUX), always UTF-8.
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        environment["TMUX_PANE"] = nil
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = nil
        self.environment = environment
    }

    /// Runs a tmux command against this server; throws with tmux's message if it fails.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        let result = try await runProcess(executable, ["-u", "-L", socketName] + arguments, environment: environment, timeout: .seconds(10))
        guard result.exitedNormally, result.status == 0 else {
            throw HarnessError("tmux \(arguments.joined(separator: " ")) failed (status \(result.status)\(result.timedOut ? ", timed out" : "")): \(result.stderrText)")
        }
        return result.stdoutText
    }

    /// The pane as it looks now; with `scrollback`, the lines scrolled off the top come first.
    func capture(scrollback: Bool = false) async throws -> Screen {
        let text = try await run(["capture-pane", "-p", "-t", target] + (scrollback ? ["-S", "-"] : []))
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return Screen(lines: lines)
    }

    /// The pane's rows with the colour and attribute escape sequences tmux would draw them with
    /// (`capture-pane -e`): what the app asked the terminal to show, not just the text.
    func captureWithEscapes() async throws -> [String] {
        let text = try await run(["capture-pane", "-p", "-e", "-t", target])
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A format expanded for the pane (`#{pane_tty}`, `#{alternate_on}`...).
    func display(_ format: String) async throws -> String {
        try await run(["display-message", "-p", "-t", target, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Presses keys by tmux name: "C-z", "Enter", "Escape", "Down"...
    func press(_ keys: String...) async throws {
        try await run(["send-keys", "-t", target] + keys)
    }

    /// Types text literally, character by character as far as the program can tell.
    func type(_ text: String) async throws {
        try await run(["send-keys", "-t", target, "-l", Self.escapedArgument(text)])
    }

    /// Types a command line and presses Enter, in one tmux call.
    func typeLine(_ line: String) async throws {
        try await run(["send-keys", "-t", target, "-l", Self.escapedArgument(line), ";", "send-keys", "-t", target, "Enter"])
    }

    /// Pastes text as a terminal would: bracketed (ESC[200~ ... ESC[201~) if the program asked for
    /// bracketed paste mode, raw otherwise.
    func paste(_ text: String) async throws {
        try await run(["set-buffer", "-b", "e2e", Self.escapedArgument(text), ";", "paste-buffer", "-p", "-d", "-b", "e2e", "-t", target])
    }

    /// Resizes the window (and so the pane); the program gets SIGWINCH.
    func resize(width: Int, height: Int) async throws {
        try await run(["resize-window", "-t", target, "-x", String(width), "-y", String(height)])
    }

    /// The modes the program in the pane has set.
    func modes() async throws -> PaneModes { PaneModes(parsing: try await display(PaneModes.format)) }

    /// Polls the screen every 50 ms until `predicate` holds, and returns that screen. Past `timeout`
    /// it records a failure at the caller, with the last screen, and throws.
    @discardableResult
    func waitUntil(
        _ what: @autoclosure () -> String,
        timeout: Duration = .seconds(10),
        scrollback: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ predicate: (Screen) throws -> Bool
    ) async throws -> Screen {
        let deadline = ContinuousClock.now + timeout
        while true {
            let screen = try await capture(scrollback: scrollback)
            if try predicate(screen) { return screen }
            if ContinuousClock.now >= deadline {
                let modes = (try? await self.modes())?.description ?? "?"
                try #require(Bool(false), Comment(rawValue: "Timed out after \(timeout) waiting for \(what()). The screen (\(modes)):\n\(screen)"), sourceLocation: sourceLocation)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Polls the screen with its escape sequences (`captureWithEscapes`) every 50 ms until
    /// `predicate` holds, and returns those rows; past `timeout` it records a failure and throws.
    @discardableResult
    func waitForEscapes(
        _ what: @autoclosure () -> String,
        timeout: Duration = .seconds(10),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ predicate: ([String]) -> Bool
    ) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let rows = try await captureWithEscapes()
            if predicate(rows) { return rows }
            if ContinuousClock.now >= deadline {
                try #require(Bool(false), Comment(rawValue: "Timed out after \(timeout) waiting for \(what()). The rows:\n\(rows.map(\.debugDescription).joined(separator: "\n"))"), sourceLocation: sourceLocation)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits until the screen holds still: two captures `interval` apart are the same. A test
    /// that compares a whole screen with another uses it, as a frame can arrive in more than one
    /// read.
    @discardableResult
    func waitUntilSettled(
        interval: Duration = .milliseconds(150),
        timeout: Duration = .seconds(10),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Screen {
        let deadline = ContinuousClock.now + timeout
        var last = try await capture()
        while true {
            try await Task.sleep(for: interval)
            let now = try await capture()
            if now.lines == last.lines { return now }
            if ContinuousClock.now >= deadline {
                try #require(Bool(false), Comment(rawValue: "The screen kept changing for \(timeout). The last:\n\(now)"), sourceLocation: sourceLocation)
            }
            last = now
        }
    }

    /// Polls the pane's modes every 50 ms until `predicate` holds, and returns them; past `timeout`
    /// it records a failure at the caller and throws. Modes are set in bytes of their own, which
    /// may arrive after the frame a test waited for.
    @discardableResult
    func waitForModes(
        _ what: @autoclosure () -> String,
        timeout: Duration = .seconds(10),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ predicate: (PaneModes) -> Bool
    ) async throws -> PaneModes {
        let deadline = ContinuousClock.now + timeout
        while true {
            let modes = try await self.modes()
            if predicate(modes) { return modes }
            if ContinuousClock.now >= deadline {
                try #require(Bool(false), Comment(rawValue: "Timed out after \(timeout) waiting for \(what()). The modes: \(modes)"), sourceLocation: sourceLocation)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits until `text` shows anywhere on the screen (or, with `scrollback`, above it).
    @discardableResult
    func waitFor(
        text: String,
        timeout: Duration = .seconds(10),
        scrollback: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Screen {
        try await waitUntil("\"\(text)\" to show", timeout: timeout, scrollback: scrollback, sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// Stops the server and everything running in it (a shell in a pane gets SIGHUP). Synchronous,
    /// so it can run from `defer`.
    func kill() {
        runProcessSync(executable, ["-u", "-L", socketName, "kill-server"], environment: environment)
        // tmux 3.3 leaves the socket file behind; it is ours, remove it.
        let base = ProcessInfo.processInfo.environment["TMUX_TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(base)/tmux-\(getuid())/\(socketName)")
    }

    /// tmux takes an argument ending in ";" as the end of a command; "\;" keeps the ";".
    private static func escapedArgument(_ text: String) -> String {
        text.hasSuffix(";") ? String(text.dropLast()) + "\\;" : text
    }
}

/// A process-wide counter for unique names.
private final class Counter: Sendable {
    private let value = Locked(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}

/// A value behind a lock.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
