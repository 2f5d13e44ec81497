internal import CPseudoTerminal
import Dispatch
import Foundation
import Synchronization
import Terminal
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The working part of a `PseudoTerminal`: the master side of the terminal, the program's process,
/// and a reader thread that reads everything the program writes into `output` and the screen, reaps
/// the program when it ends (through a pidfd, so at once), and wakes whoever waits for either.
///
/// It is separate from `PseudoTerminal` so that the reader thread, which holds it, does not keep
/// the terminal alive: the terminal's deinit closes the session.
///
/// Invariants: all mutable state is behind `state`; the process is reaped only while `state` is
/// locked, and signalled only while it is locked and not yet reaped, so a signal can never reach
/// another process that reused its pid; every continuation is resumed exactly once (a waiter's
/// slot moves from reserved to waiting to gone, or to finished first when its timeout or
/// cancellation comes before it waits); after `close()` the reader has ended and every descriptor
/// is closed.
///
/// ```swift
/// let session = try PseudoTerminalSession(path: "/bin/sh", arguments: ["sh", "-c", "echo hi"],
///                                         environment: ["TERM=xterm-256color"], directory: nil,
///                                         width: 80, height: 24, answersQueries: true)
/// let id = session.reserveExitWaiter()
/// let end = await withCheckedContinuation { session.awaitExitWaiter(id, $0) }   // .exited(0)
/// session.close()
/// ```
final class PseudoTerminalSession: Sendable {
    typealias Predicate = @Sendable (TerminalScreen) -> Bool

    enum ScreenWaiter {
        case reserved(Predicate)
        case waiting(Predicate, CheckedContinuation<PseudoTerminal.Match, any Error>)
        case finished(Result<PseudoTerminal.Match, any Error>)
    }

    enum ExitWaiter {
        case reserved
        case waiting(CheckedContinuation<PseudoTerminal.Termination?, Never>)
        case finished(PseudoTerminal.Termination?)
    }

    struct State {
        var output: [UInt8] = []
        var chunks: [PseudoTerminal.Chunk] = []
        var screen: TerminalScreen
        var termination: PseudoTerminal.Termination?
        /// What the program used, from the `wait4` that reaped it (nil until then, or when it was
        /// reaped elsewhere).
        var resourceUsage: PseudoTerminal.ResourceUsage?
        /// The master reported end of file: the program and everything it started closed the terminal.
        var outputEnded = false
        /// The reader has seen the program end and read everything it wrote before it ended (up
        /// to the end of the output, or a quiet spell when a child it left keeps the terminal open).
        /// Only then are the waiters for its exit woken, so that the screen they see is the last one.
        var exitReported = false
        var closed = false
        var nextWaiterID: UInt64 = 0
        var screenWaiters: [UInt64: ScreenWaiter] = [:]
        var exitWaiters: [UInt64: ExitWaiter] = [:]
    }

    /// The reader threads' name (at most 15 characters, Linux's limit).
    static let readerThreadName = "PTY reader"

    let pid: pid_t
    let masterFD: Int32
    let initialTermios: TerminalSettings
    private let pidFD: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let answersQueries: Bool
    let state: Mutex<State>
    /// Held while writing to the master (so that replies and sends do not interleave) and while
    /// closing it (so that no write can reach a reused descriptor number). Taken before `state`.
    private let writeLock = Mutex(())
    /// Held for the whole of `close()`, so that a second caller waits for the first to finish.
    private let closeLock = Mutex(false)
    private let readerFinished = DispatchSemaphore(value: 0)

    /// Starts the program (see `cpt_spawn`) and the reader thread.
    init(path: String, arguments: [String], environment: [String], directory: String?,
         width: Int, height: Int, answersQueries: Bool, identity: TerminalIdentity = TerminalIdentity()) throws {
        var master: Int32 = -1
        var child: pid_t = -1
        var step = CPT_STEP_NONE
        var settings = termios()
        let columns = UInt16(TerminalScreen.clampDimension(width))
        let rows = UInt16(TerminalScreen.clampDimension(height))
        let result = Self.withCStringArray(arguments) { argv in
            Self.withCStringArray(environment) { envp in
                cpt_spawn(path, argv, envp, directory, columns, rows, 1, &settings, &master, &child, &step)
            }
        }
        guard result == 0 else {
            throw PseudoTerminalError.startFailed(executable: path, step: Self.name(of: step), errno: result)
        }
        var wake: [Int32] = [-1, -1]
        guard cpt_wake_pipe(&wake) == 0 else {
            let code = errno
            kill(child, SIGKILL)
            var signalled: Int32 = 0, value: Int32 = 0
            _ = cpt_reap(child, 0, &signalled, &value)
            Glibc_close(master)
            throw PseudoTerminalError.systemCall("pipe", errno: code)
        }
        pid = child
        masterFD = master
        pidFD = cpt_pidfd_open(child)   // -1 on old kernels: the reader then polls
        wakeRead = wake[0]
        wakeWrite = wake[1]
        self.answersQueries = answersQueries
        initialTermios = TerminalSettings(settings)
        state = Mutex(State(screen: TerminalScreen(width: Int(columns), height: Int(rows), identity: identity)))

        let thread = Thread { [self] in
            cpt_name_this_thread(Self.readerThreadName)   // what /proc and debuggers show
            readLoop()
            readerFinished.signal()
        }
        thread.name = Self.readerThreadName
        thread.start()
    }

    // MARK: Reading

    private func readLoop() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        var fds = [pollfd(fd: masterFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: pidFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        var reaped = false
        var reported = false
        while true {
            // Without a pidfd, look for the program's end every 10 ms. Once it has ended, what it
            // wrote last may still be on its way through the terminal's buffers: the exit is
            // reported at the end of the output, or after a quiet spell if something it started
            // still holds the terminal.
            let timeout: Int32 = reaped ? (reported ? -1 : Self.quietAfterExit) : (pidFD < 0 ? 10 : -1)
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                endOutput()   // not expected; waiters must not wait for output that cannot come
                break
            }
            if fds[2].revents != 0 { break }   // close()
            var readSomething = false
            if fds[0].fd >= 0 && fds[0].revents != 0 {
                readSomething = true
                if !drain(buffer) {
                    fds[0].fd = -1
                    endOutput()
                }
            }
            if !reaped && (fds[1].revents != 0 || pidFD < 0) && reap(blocking: false) != nil {
                reaped = true
                fds[1].fd = -1
                // Whatever is already readable belongs before the exit.
                if fds[0].fd >= 0 && !drain(buffer) {
                    fds[0].fd = -1
                    endOutput()
                }
                continue
            }
            if reaped && !reported && (fds[0].fd < 0 || (ready == 0 && !readSomething)) {
                reported = true
                reportExit()
            }
            if fds[0].fd < 0 && reported { break }
        }
        if !reported { reportExit() }
    }

    /// How long the reader waits for more output after the program has ended, when the terminal
    /// is still held open by something the program started (milliseconds).
    private static let quietAfterExit: Int32 = 200

    /// Wakes the waiters for the program's exit: it has been reaped and its output read.
    private func reportExit() {
        let (termination, waiters): (PseudoTerminal.Termination?, [CheckedContinuation<PseudoTerminal.Termination?, Never>]) =
            state.withLock { state in
                state.exitReported = true
                var waiters: [CheckedContinuation<PseudoTerminal.Termination?, Never>] = []
                for (id, waiter) in state.exitWaiters {
                    guard case .waiting(let continuation) = waiter else { continue }
                    state.exitWaiters[id] = nil
                    waiters.append(continuation)
                }
                return (state.termination, waiters)
            }
        for continuation in waiters { continuation.resume(returning: termination) }
    }

    /// Reads what is there (a bounded number of times, so that close() is seen even under a flood).
    /// Returns false at the end of the output.
    private func drain(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        for _ in 0..<16 {
            let count = read(masterFD, buffer.baseAddress, buffer.count)
            if count > 0 {
                deliver(UnsafeRawBufferPointer(rebasing: buffer[..<count]), arrival: .now)
                continue
            }
            if count == 0 { return false }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return true
            default: return false   // EIO: the last process holding the terminal closed it
            }
        }
        return true
    }

    private func deliver(_ bytes: UnsafeRawBufferPointer, arrival: ContinuousClock.Instant) {
        var satisfied: [(CheckedContinuation<PseudoTerminal.Match, any Error>, PseudoTerminal.Match)] = []
        let replies: [UInt8] = state.withLock { state in
            let start = state.output.count
            state.output.append(contentsOf: bytes)
            state.chunks.append(PseudoTerminal.Chunk(range: start..<state.output.count, arrival: arrival))
            state.screen.feed(bytes)
            let replies = state.screen.takeResponses()
            guard !state.screenWaiters.isEmpty else { return replies }
            let match = PseudoTerminal.Match(screen: state.screen, arrival: arrival, outputCount: state.output.count)
            for (id, waiter) in state.screenWaiters {
                guard case .waiting(let predicate, let continuation) = waiter, predicate(state.screen) else { continue }
                state.screenWaiters[id] = nil
                satisfied.append((continuation, match))
            }
            return replies
        }
        for (continuation, match) in satisfied { continuation.resume(returning: match) }
        if answersQueries && !replies.isEmpty { try? write(replies, timeout: .seconds(1)) }
    }

    /// The output is over: waiters for the screen can never be satisfied now.
    private func endOutput() {
        let failed: [(CheckedContinuation<PseudoTerminal.Match, any Error>, String)] = state.withLock { state in
            state.outputEnded = true
            return takeWaitingScreenWaiters(&state).map { ($0, state.screen.text) }
        }
        for (continuation, screen) in failed { continuation.resume(throwing: PseudoTerminalError.outputEnded(screen: screen)) }
    }

    // MARK: The process

    /// Reaps the program if it has ended (or waits for it to), recording how. Returns how it
    /// ended, or nil while it runs. The waiters for its exit are woken by the reader, once it has
    /// read the output (`reportExit`), or by `close()`.
    @discardableResult
    func reap(blocking: Bool) -> PseudoTerminal.Termination? {
        state.withLock { state in reapLocked(&state, blocking: blocking) }
    }

    @discardableResult
    private func reapLocked(_ state: inout State, blocking: Bool) -> PseudoTerminal.Termination? {
        if let termination = state.termination { return termination }
        var signalled: Int32 = 0
        var value: Int32 = 0
        var usage = rusage()
        let result = Self.reap(pid, blocking: blocking, signalled: &signalled, value: &value, usage: &usage)
        let termination: PseudoTerminal.Termination
        if result == 1 {
            termination = signalled != 0 ? .signalled(value) : .exited(value)
        } else if result < 0 && errno == ECHILD {
            termination = .unknown   // reaped elsewhere in this process (or SIGCHLD is ignored)
        } else {
            return nil
        }
        state.termination = termination
        if result == 1 { state.resourceUsage = PseudoTerminal.ResourceUsage(usage) }
        return termination
    }

    /// What `cpt_reap` does, through `wait4`, which also gives the child's resource usage: 1 (reaped, with
    /// `signalled`, `value` and `usage` set), 0 (still running, only with `blocking` false) or -1
    /// with errno. The status is decoded as `<sys/wait.h>`'s macros do (Swift cannot import them).
    private static func reap(_ pid: pid_t, blocking: Bool, signalled: inout Int32, value: inout Int32,
                             usage: inout rusage) -> Int32 {
        while true {
            var status: Int32 = 0
            let result = wait4(pid, &status, blocking ? 0 : WNOHANG, &usage)
            if result < 0 && errno == EINTR { continue }
            if result < 0 { return -1 }
            if result == 0 { return 0 }
            let low = status & 0x7F
            if low == 0 { signalled = 0; value = (status >> 8) & 0xFF; return 1 }     // WIFEXITED
            if low != 0x7F && status != 0xFFFF { signalled = 1; value = low; return 1 } // WIFSIGNALED
            if !blocking { return 0 }   // a stop or continue report (not asked for): still running
        }
    }

    /// Sends `signal` to the program, its process group, or the terminal's
    /// foreground process group.
    func send(signal: Int32, to target: PseudoTerminal.SignalTarget) throws {
        try state.withLock { state in
            guard !state.closed else { throw PseudoTerminalError.closed }
            reapLocked(&state, blocking: false)
            let recipient: pid_t
            switch target {
            case .process:
                guard state.termination == nil else { throw PseudoTerminalError.notRunning }
                recipient = pid
            case .processGroup:
                guard state.termination == nil else { throw PseudoTerminalError.notRunning }
                recipient = -pid
            case .foregroundProcessGroup:
                let group = tcgetpgrp(masterFD)
                guard group > 0 else { throw PseudoTerminalError.systemCall("tcgetpgrp", errno: errno) }
                recipient = -group
            }
            guard kill(recipient, signal) == 0 else { throw PseudoTerminalError.systemCall("kill", errno: errno) }
        }
    }

    // MARK: The window size

    /// TIOCSWINSZ on the master; false (with errno) when it failed.
    func setWindowSize(columns: UInt16, rows: UInt16) -> Bool {
        cpt_set_window_size(masterFD, columns, rows) == 0
    }

    /// The terminal's window size as the kernel has it; nil (with errno) when it cannot be read.
    func windowSize() -> Size? {
        state.withLock { state -> Size? in
            guard !state.closed else { errno = EBADF; return nil }
            var columns: UInt16 = 0
            var rows: UInt16 = 0
            guard cpt_window_size(masterFD, &columns, &rows) == 0 else { return nil }
            return Size(width: Int(columns), height: Int(rows))
        }
    }

    // MARK: Writing

    /// Writes all of `bytes` to the program's input, waiting up to `timeout` for room.
    func write(_ bytes: [UInt8], timeout: Duration) throws {
        guard !bytes.isEmpty else { return }
        let deadline = ContinuousClock.now + timeout
        try writeLock.withLock { _ in
            guard !state.withLock({ $0.closed }) else { throw PseudoTerminalError.closed }
            try bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let count = Glibc_write(masterFD, buffer.baseAddress! + offset, buffer.count - offset)
                    if count > 0 { offset += count; continue }
                    let code = errno
                    if count < 0 && code == EINTR { continue }
                    guard count < 0 && (code == EAGAIN || code == EWOULDBLOCK) else {
                        throw code == EBADF ? PseudoTerminalError.closed : PseudoTerminalError.systemCall("write", errno: code)
                    }
                    let left = deadline - ContinuousClock.now
                    guard left > .zero else { throw PseudoTerminalError.writeTimedOut }
                    var descriptor = pollfd(fd: masterFD, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, Int32(min(100, max(1, left.components.seconds * 1000 + 1))))
                }
            }
        }
    }

    // MARK: Waiting for the screen

    func reserveScreenWaiter(_ predicate: @escaping Predicate) -> UInt64 {
        state.withLock { state in
            state.nextWaiterID += 1
            state.screenWaiters[state.nextWaiterID] = .reserved(predicate)
            return state.nextWaiterID
        }
    }

    /// Waits on waiter `id`: resumes at once if the screen already satisfies it (or it timed out or
    /// was cancelled already, or can never be satisfied), else when a chunk of output does.
    func awaitScreenWaiter(_ id: UInt64, _ continuation: CheckedContinuation<PseudoTerminal.Match, any Error>) {
        let outcome: Result<PseudoTerminal.Match, any Error>? = state.withLock { state in
            switch state.screenWaiters[id] {
            case .finished(let result):
                state.screenWaiters[id] = nil
                return result
            case .reserved(let predicate):
                if predicate(state.screen) {
                    state.screenWaiters[id] = nil
                    return .success(PseudoTerminal.Match(screen: state.screen, arrival: state.chunks.last?.arrival ?? .now,
                                                         outputCount: state.output.count))
                }
                if state.closed || state.outputEnded {
                    state.screenWaiters[id] = nil
                    return .failure(state.closed ? PseudoTerminalError.closed : PseudoTerminalError.outputEnded(screen: state.screen.text))
                }
                state.screenWaiters[id] = .waiting(predicate, continuation)
                return nil
            case .waiting, nil:
                return .failure(PseudoTerminalError.closed)   // not reached: each id waits once
            }
        }
        if let outcome { continuation.resume(with: outcome) }
    }

    /// Ends waiter `id` with `error` (its timeout or its task's cancellation), unless it has ended.
    func finishScreenWaiter(_ id: UInt64, with error: @Sendable (TerminalScreen) -> any Error) {
        let resumed: (CheckedContinuation<PseudoTerminal.Match, any Error>, any Error)? = state.withLock { state in
            switch state.screenWaiters[id] {
            case .reserved:
                state.screenWaiters[id] = .finished(.failure(error(state.screen)))
                return nil
            case .waiting(_, let continuation):
                state.screenWaiters[id] = nil
                return (continuation, error(state.screen))
            case .finished, nil:
                return nil
            }
        }
        if let (continuation, error) = resumed { continuation.resume(throwing: error) }
    }

    private func takeWaitingScreenWaiters(_ state: inout State) -> [CheckedContinuation<PseudoTerminal.Match, any Error>] {
        var taken: [CheckedContinuation<PseudoTerminal.Match, any Error>] = []
        for (id, waiter) in state.screenWaiters {
            guard case .waiting(_, let continuation) = waiter else { continue }
            state.screenWaiters[id] = nil
            taken.append(continuation)
        }
        return taken
    }

    // MARK: Waiting for the exit

    func reserveExitWaiter() -> UInt64 {
        state.withLock { state in
            state.nextWaiterID += 1
            state.exitWaiters[state.nextWaiterID] = .reserved
            return state.nextWaiterID
        }
    }

    func awaitExitWaiter(_ id: UInt64, _ continuation: CheckedContinuation<PseudoTerminal.Termination?, Never>) {
        let outcome: PseudoTerminal.Termination?? = state.withLock { state in
            switch state.exitWaiters[id] {
            case .finished(let termination):
                state.exitWaiters[id] = nil
                return .some(termination)
            case .reserved:
                if state.exitReported || state.closed {
                    state.exitWaiters[id] = nil
                    return .some(state.termination)
                }
                state.exitWaiters[id] = .waiting(continuation)
                return .none
            case .waiting, nil:
                return .some(state.termination)
            }
        }
        if case .some(let termination) = outcome { continuation.resume(returning: termination) }
    }

    /// Ends waiter `id` with nil (its timeout or cancellation), unless it has ended.
    func finishExitWaiter(_ id: UInt64) {
        let resumed: CheckedContinuation<PseudoTerminal.Termination?, Never>? = state.withLock { state in
            switch state.exitWaiters[id] {
            case .reserved:
                state.exitWaiters[id] = .finished(nil)
                return nil
            case .waiting(let continuation):
                state.exitWaiters[id] = nil
                return continuation
            case .finished, nil:
                return nil
            }
        }
        resumed?.resume(returning: nil)
    }

    // MARK: Closing

    /// Stops the reader, kills the program and everything else in its session with SIGKILL if it
    /// still runs, reaps it, wakes every waiter and closes every descriptor; returns how the
    /// program ended. Idempotent: a second call (even a concurrent one) waits for the first.
    @discardableResult
    func close() -> PseudoTerminal.Termination? {
        closeLock.withLock { closed in
            if !closed {
                closeOnce()
                closed = true
            }
            return state.withLock { $0.termination }
        }
    }

    private func closeOnce() {
        state.withLock { $0.closed = true }   // from now on nothing new starts

        var byte: UInt8 = 1
        _ = Glibc_write(wakeWrite, &byte, 1)
        readerFinished.wait()

        let (termination, exitWaiters, screenWaiters) = state.withLock { state in
            // The whole session (background jobs of a shell too), and the program itself in
            // case /proc could not be read. The session's id cannot belong to another session
            // while the program is unreaped or a member still holds the terminal open (a
            // member keeps the number in use), so nothing else is hit.
            if state.termination == nil || !state.outputEnded { _ = cpt_signal_session(pid, SIGKILL) }
            if state.termination == nil { kill(pid, SIGKILL) }
            let termination = reapLocked(&state, blocking: true)
            var exitWaiters: [CheckedContinuation<PseudoTerminal.Termination?, Never>] = []
            for (id, waiter) in state.exitWaiters {
                guard case .waiting(let continuation) = waiter else { continue }
                state.exitWaiters[id] = nil
                exitWaiters.append(continuation)
            }
            return (termination, exitWaiters, takeWaitingScreenWaiters(&state))
        }
        for continuation in exitWaiters { continuation.resume(returning: termination) }
        for continuation in screenWaiters { continuation.resume(throwing: PseudoTerminalError.closed) }

        writeLock.withLock { _ in
            state.withLock { _ in
                Glibc_close(masterFD)
                if pidFD >= 0 { Glibc_close(pidFD) }
                Glibc_close(wakeRead)
                Glibc_close(wakeWrite)
            }
        }
    }

    // MARK: Helpers

    /// Calls `body` with a NULL-terminated array of C strings.
    private static func withCStringArray<R>(_ strings: [String],
                                            _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static func name(of step: cpt_step) -> String {
        switch step {
        case CPT_STEP_OPEN_MASTER: return "opening a pseudo-terminal"
        case CPT_STEP_WINDOW_SIZE: return "setting the window size"
        case CPT_STEP_TERMIOS: return "setting the terminal's modes"
        case CPT_STEP_OPEN_SLAVE: return "opening the terminal in the child"
        case CPT_STEP_PIPE: return "pipe"
        case CPT_STEP_FORK: return "fork"
        case CPT_STEP_SETSID: return "setsid"
        case CPT_STEP_CONTROLLING_TTY: return "making the terminal the controlling terminal"
        case CPT_STEP_DUP: return "dup2"
        case CPT_STEP_CHDIR: return "chdir"
        case CPT_STEP_EXEC: return "execve"
        default: return "starting"
        }
    }
}

// The POSIX calls whose names the types here shadow (`write`, `close`).
#if canImport(Glibc)
private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
private func Glibc_close(_ fd: Int32) { _ = Glibc.close(fd) }
#elseif canImport(Darwin)
private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Darwin.write(fd, buffer, count) }
private func Glibc_close(_ fd: Int32) { _ = Darwin.close(fd) }
#endif
