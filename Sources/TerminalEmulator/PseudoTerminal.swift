import Foundation
import Synchronization
import Terminal
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program running on a pseudo-terminal of its own, as it would in a terminal window: its
/// controlling terminal, session leader, stdin, stdout and stderr all on the terminal. Everything it
/// writes is recorded (`output`, with when each chunk arrived) and shown on an emulated xterm
/// (`screen`), and the test types (`send`), resizes, signals and waits for what it shows.
///
/// A reader thread reads the program's output as it comes and checks the waiters on every chunk,
/// so `waitUntil` returns as soon as the screen shows what was asked (and `waitForMatch` says when
/// that chunk arrived, for latency measurements). Queries the program sends (cursor position,
/// device attributes) are answered as xterm would. `close()`, or dropping the last reference, kills
/// the program and everything it started on the terminal, reaps it, stops the thread and closes
/// the descriptors: nothing is left behind.
///
/// The program leads its session, so its process group is orphaned and the kernel drops the stop
/// signals Ctrl-Z sends it; to test Ctrl-Z and `fg`, start it from `bash -i` on the terminal (which
/// runs it as a job), as a user would.
///
/// ```swift
/// @Test func quitsCleanly() async throws {
///     let terminal = try PseudoTerminal.start("/usr/local/bin/my-app", width: 80, height: 24)
///     defer { terminal.close() }
///     try await terminal.waitFor(text: "Ready")
///     try terminal.send("q")
///     #expect(await terminal.waitForExit(timeout: .seconds(5)) == .exited(0))
///     #expect(terminal.screen.unresetModes() == [])
///     #expect(try terminal.termios() == terminal.initialTermios)
/// }
/// ```
public final class PseudoTerminal: Sendable {
    /// How the program ended.
    public enum Termination: Hashable, Sendable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
        /// It ended but its status was lost: something else in this process reaped it (or
        /// SIGCHLD is ignored).
        case unknown

        /// The status a shell would report (`$?`): the exit status, or 128 + the signal.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let status): return status
            case .signalled(let signal): return 128 + signal
            case .unknown: return -1
            }
        }

        public var description: String {
            switch self {
            case .exited(let status): return "exited with status \(status)"
            case .signalled(let signal): return "ended by signal \(signal)"
            case .unknown: return "ended (status unknown)"
            }
        }
    }

    /// One read of the program's output: where it is in `output` and when it arrived.
    public struct Chunk: Hashable, Sendable {
        public var range: Range<Int>
        public var arrival: ContinuousClock.Instant
    }

    /// The screen that satisfied a wait, and when the output that made it so arrived.
    ///
    /// ```swift
    /// let sent = ContinuousClock.now
    /// try terminal.send("j")
    /// let match = try await terminal.waitForMatch { $0.row(3).hasPrefix(">") }
    /// let latency = match.arrival - sent
    /// ```
    public struct Match: Sendable {
        /// The screen right after the chunk that satisfied the predicate (or as it was when the
        /// wait began, if it already did).
        public var screen: TerminalScreen
        /// When that chunk was read (the last chunk before the wait, if the screen satisfied it
        /// already; the wait's start if nothing had been read).
        public var arrival: ContinuousClock.Instant
        /// How many bytes of output had been read up to and including that chunk.
        public var outputCount: Int
    }

    /// What the program used over its whole life, from the `wait4` that reaped it (see
    /// `resourceUsage`), for benchmarks.
    public struct ResourceUsage: Hashable, Sendable {
        /// CPU time in user mode (`ru_utime`).
        public var userTime: Duration
        /// CPU time in the kernel on its behalf (`ru_stime`).
        public var systemTime: Duration
        /// Its peak resident set size in bytes (`ru_maxrss`, which Linux counts in KiB). On Linux
        /// this also counts the pages the child had between fork and exec, which are this
        /// process's: for a program smaller than the test process, read `VmHWM` in
        /// `/proc/<pid>/status` before it ends instead.
        public var maxResidentBytes: Int

        init(_ usage: rusage) {
            func duration(_ time: timeval) -> Duration { .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec)) }
            userTime = duration(usage.ru_utime)
            systemTime = duration(usage.ru_stime)
            #if canImport(Darwin)
            maxResidentBytes = Int(usage.ru_maxrss)
            #else
            maxResidentBytes = Int(usage.ru_maxrss) * 1024
            #endif
        }
    }

    enum SignalTarget: Sendable {
        case process, processGroup, foregroundProcessGroup
    }

    let session: PseudoTerminalSession
    /// The program's process id (also its session's and its process group's, as it leads both).
    public let processID: Int32
    /// The path of the executable that was started.
    public let executable: String

    private init(session: PseudoTerminalSession, executable: String) {
        self.session = session
        self.processID = session.pid
        self.executable = executable
    }

    deinit {
        session.close()
    }

    // MARK: Starting

    /// Starts `executable` (a path, or a name looked up on the environment's PATH) with
    /// `arguments` on a new pseudo-terminal of `width` x `height` cells, in `directory` (this
    /// process's by default). `environment` is the program's whole environment.
    ///
    /// The terminal starts with the kernel's default settings plus IUTF8 (as a terminal emulator
    /// in a UTF-8 locale sets it); `initialTermios` records them. With `answersQueries` (the
    /// default), replies to the queries the program writes (DSR, DA, DECRQM, ...) are typed back
    /// as a terminal would, and `identity` says what this terminal answers about itself (its
    /// colours, synchronized output, name and capabilities: see `TerminalIdentity`); it is in
    /// place before the program runs, so a start-up probe sees it.
    ///
    /// ```swift
    /// let shell = try PseudoTerminal.start("/bin/sh", arguments: ["-c", "stty size; read line"],
    ///                                      width: 100, height: 30)
    /// try await shell.waitFor(text: "30 100")
    ///
    /// let light = TerminalIdentity(background: TerminalColor(red: 255, green: 255, blue: 255))
    /// let app = try PseudoTerminal.start("/usr/local/bin/my-app", identity: light)
    /// ```
    ///
    /// - Throws: `PseudoTerminalError.executableNotFound`, or `.startFailed` saying which step
    ///   failed (`execve` for a file that is not executable, `chdir` for a missing directory).
    public static func start(_ executable: String, arguments: [String] = [],
                             environment: [String: String] = PseudoTerminal.defaultEnvironment,
                             width: Int = 80, height: Int = 24, directory: String? = nil,
                             answersQueries: Bool = true, identity: TerminalIdentity = TerminalIdentity()) throws -> PseudoTerminal {
        let path = try resolve(executable, path: environment["PATH"])
        let session = try PseudoTerminalSession(
            path: path, arguments: [executable] + arguments,
            environment: environment.map { "\($0.key)=\($0.value)" }.sorted(), directory: directory,
            width: width, height: height, answersQueries: answersQueries, identity: identity)
        return PseudoTerminal(session: session, executable: path)
    }

    /// This process's environment with `TERM=xterm-256color` (what the screen emulates), without
    /// `COLUMNS` and `LINES` (the terminal's size is the truth), and with `LANG=C.UTF-8` when no
    /// locale is set at all (so that programs write UTF-8).
    public static var defaultEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["COLUMNS"] = nil
        environment["LINES"] = nil
        if environment["LC_ALL"] == nil && environment["LC_CTYPE"] == nil && environment["LANG"] == nil {
            environment["LANG"] = "C.UTF-8"
        }
        return environment
    }

    /// `name` itself when it has a slash, else the first executable file of that name on `path`.
    static func resolve(_ name: String, path: String?) throws -> String {
        if name.contains("/") { return name }
        let directories = (path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
               access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        throw PseudoTerminalError.executableNotFound(name)
    }

    // MARK: What the program wrote

    /// Everything the program has written so far, in order.
    public var output: [UInt8] { session.state.withLock { $0.output } }
    /// How many bytes the program has written so far.
    public var outputCount: Int { session.state.withLock { $0.output.count } }
    /// The output as text (invalid UTF-8 replaced), escape sequences and all.
    public var outputText: String { String(decoding: output, as: UTF8.self) }
    /// Each read of the output, in order, with when it arrived.
    public var chunks: [Chunk] { session.state.withLock { $0.chunks } }
    /// What the terminal shows now (a copy).
    public var screen: TerminalScreen { session.state.withLock { $0.screen } }

    // MARK: Driving the program

    /// Types bytes, as a terminal sends keys (see `TerminalScreen` for what keys send in which mode:
    /// `"\u{1B}[A"` is Up, `"\u{1B}OA"` with `?1` on; `"\u{3}"` is Ctrl-C, which the terminal turns
    /// into SIGINT unless the program turned ISIG off).
    ///
    /// - Throws: `PseudoTerminalError.writeTimedOut` when the program does not read its input
    ///   for `timeout`; `.closed` after `close()`.
    public func send(_ bytes: [UInt8], timeout: Duration = .seconds(5)) throws {
        try session.write(bytes, timeout: timeout)
    }

    /// Types text (UTF-8).
    ///
    /// ```swift
    /// try terminal.send("hello\r")
    /// ```
    public func send(_ text: String, timeout: Duration = .seconds(5)) throws {
        try send(Array(text.utf8), timeout: timeout)
    }

    /// Presses keys, each written as a key spec (`"q"`, `"enter"`, `"esc"`, `"ctrl-c"`, `"up"`,
    /// `"shift-tab"`, `"pgdn"`, `"f5"`; see `KeySpec`), sending what xterm sends (see `XtermKeys`),
    /// one write per key. Cursor keys follow the cursor-keys mode the screen shows now.
    ///
    /// ```swift
    /// try terminal.press("down", "down", "enter")
    /// ```
    /// - Throws: `PseudoTerminalError.invalidKeySpec` for a spec that is not one (nothing of
    ///   it is sent), or what `send` throws.
    public func press(_ keys: String..., timeout: Duration = .seconds(5)) throws {
        let events = try keys.map { spec in
            guard let key = KeySpec.parse(spec) else { throw PseudoTerminalError.invalidKeySpec(spec) }
            return key
        }
        for key in events { try press(key, timeout: timeout) }
    }

    /// Presses one key (see `press(_:timeout:)`).
    public func press(_ key: KeyEvent, timeout: Duration = .seconds(5)) throws {
        let applicationCursorKeys = session.state.withLock { $0.screen.isModeOn(1) }
        try send(XtermKeys.bytes(for: key, applicationCursorKeys: applicationCursorKeys), timeout: timeout)
    }

    /// Resizes the terminal as a window being resized does: the emulated screen first, then the
    /// terminal's window size (TIOCSWINSZ), upon which the kernel sends SIGWINCH to the terminal's
    /// foreground process group.
    public func resize(width: Int, height: Int) throws {
        let columns = UInt16(clamping: TerminalScreen.clampDimension(width))
        let rows = UInt16(clamping: TerminalScreen.clampDimension(height))
        try session.state.withLock { state in
            guard !state.closed else { throw PseudoTerminalError.closed }
            state.screen.resize(width: Int(columns), height: Int(rows))
            guard session.setWindowSize(columns: columns, rows: rows) else {
                throw PseudoTerminalError.systemCall("TIOCSWINSZ", errno: errno)
            }
        }
    }

    /// The terminal's window size as the kernel has it (what `stty size` reports).
    public func windowSize() throws -> Size {
        guard let size = session.windowSize() else { throw PseudoTerminalError.systemCall("TIOCGWINSZ", errno: errno) }
        return size
    }

    /// Sends `signal` to the program.
    ///
    /// ```swift
    /// try terminal.signal(SIGTERM)
    /// #expect(await terminal.waitForExit() == .signalled(SIGTERM))
    /// ```
    /// - Throws: `PseudoTerminalError.notRunning` once it has ended.
    public func signal(_ signal: Int32) throws {
        try session.send(signal: signal, to: .process)
    }

    /// Sends `signal` to the program's process group (the program and the children that stayed in
    /// its group).
    public func signalProcessGroup(_ signal: Int32) throws {
        try session.send(signal: signal, to: .processGroup)
    }

    /// Sends `signal` to the terminal's foreground process group, as the terminal does for Ctrl-C
    /// or Ctrl-Z (under a job-control shell, that is the job in the foreground, not the shell).
    public func signalForegroundProcessGroup(_ signal: Int32) throws {
        try session.send(signal: signal, to: .foregroundProcessGroup)
    }

    /// The terminal's foreground process group, or nil when there is none.
    public var foregroundProcessGroup: Int32? {
        session.state.withLock { state in
            guard !state.closed else { return nil }
            let group = tcgetpgrp(session.masterFD)
            return group > 0 ? group : nil
        }
    }

    // MARK: The program's state

    /// Whether the program is still running (it is reaped here if it has just ended).
    public var isRunning: Bool { session.reap(blocking: false) == nil && !session.state.withLock { $0.closed } }

    /// How the program ended, or nil while it runs.
    public var termination: Termination? { session.reap(blocking: false) }

    /// What the program used (CPU time, peak memory), once it has ended and was reaped here; nil
    /// while it runs or when something else in this process reaped it.
    ///
    /// ```swift
    /// try terminal.send("q")
    /// _ = await terminal.waitForExit()
    /// let cpu = terminal.resourceUsage.map { $0.userTime + $0.systemTime }
    /// ```
    public var resourceUsage: ResourceUsage? {
        _ = session.reap(blocking: false)
        return session.state.withLock { $0.resourceUsage }
    }

    /// The terminal's settings now.
    public func termios() throws -> TerminalSettings {
        try session.state.withLock { state in
            guard !state.closed else { throw PseudoTerminalError.closed }
            var settings = Glibc_termios()
            guard tcgetattr(session.masterFD, &settings) == 0 else {
                throw PseudoTerminalError.systemCall("tcgetattr", errno: errno)
            }
            return TerminalSettings(settings)
        }
    }

    /// The terminal's settings as the program started with them (read before it ran).
    public var initialTermios: TerminalSettings { session.initialTermios }

    // MARK: Waiting

    /// Waits until the program ends, for at most `timeout`; nil if it is still running then.
    /// The end is noticed at once (the reader thread watches a pidfd), and no thread is blocked.
    /// It returns once everything the program wrote before it ended has been read, so `screen`
    /// and `output` then hold its last bytes (the resets of its exit included).
    ///
    /// ```swift
    /// try terminal.signal(SIGTERM)
    /// #expect(await terminal.waitForExit(timeout: .seconds(5)) == .signalled(SIGTERM))
    /// ```
    public func waitForExit(timeout: Duration = .seconds(10)) async -> Termination? {
        let session = self.session
        let id = session.reserveExitWaiter()
        let timer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { session.finishExitWaiter(id) }
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                session.awaitExitWaiter(id, continuation)
            }
        } onCancel: {
            session.finishExitWaiter(id)
        }
    }

    /// Waits until the screen satisfies `predicate` and returns that screen, with when the output
    /// that made it so arrived. The predicate is checked now and then after every chunk of output,
    /// on the reader thread, while the terminal's state is locked: it must be quick and must not
    /// use this terminal.
    ///
    /// - Throws: `PseudoTerminalError.timedOut` (with the screen's text) after `timeout`;
    ///   `.outputEnded` as soon as no more output can come; `.closed`; `CancellationError` when
    ///   the task is cancelled.
    public func waitForMatch(timeout: Duration = .seconds(10),
                             _ predicate: @escaping @Sendable (TerminalScreen) -> Bool) async throws -> Match {
        let session = self.session
        let id = session.reserveScreenWaiter(predicate)
        let timer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled {
                session.finishScreenWaiter(id) { PseudoTerminalError.timedOut(after: timeout, screen: $0.text) }
            }
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                session.awaitScreenWaiter(id, continuation)
            }
        } onCancel: {
            session.finishScreenWaiter(id) { _ in CancellationError() }
        }
    }

    /// Waits until the screen satisfies `predicate` (see `waitForMatch`) and returns it.
    ///
    /// ```swift
    /// let screen = try await terminal.waitUntil { $0.isAlternateScreen && $0.contains("Notes") }
    /// #expect(screen.cell(x: 0, y: 0).attributes.contains(.reverse))
    /// ```
    @discardableResult
    public func waitUntil(timeout: Duration = .seconds(10),
                          _ predicate: @escaping @Sendable (TerminalScreen) -> Bool) async throws -> TerminalScreen {
        try await waitForMatch(timeout: timeout, predicate).screen
    }

    /// Waits until `text` is on one of the screen's rows.
    ///
    /// ```swift
    /// try await terminal.waitFor(text: "got:hello")
    /// ```
    @discardableResult
    public func waitFor(text: String, timeout: Duration = .seconds(10)) async throws -> TerminalScreen {
        try await waitUntil(timeout: timeout) { $0.contains(text) }
    }

    // MARK: Closing

    /// Ends it all: kills the program and everything else in its session (SIGKILL) if it still
    /// runs, reaps it, stops the reader thread and closes the terminal. Waiters are woken (waits
    /// for the screen throw `.closed`). Safe to call again; the deinit calls it.
    ///
    /// - Returns: how the program ended.
    @discardableResult
    public func close() -> Termination? {
        session.close()
    }
}

#if canImport(Glibc)
private typealias Glibc_termios = Glibc.termios
#elseif canImport(Darwin)
private typealias Glibc_termios = Darwin.termios
#endif
