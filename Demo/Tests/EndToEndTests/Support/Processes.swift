import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Child processes are started with posix_spawn rather than Foundation's Process, for two reasons:
//
// - A child inherits the signal mask of the thread that starts it, and the threads Swift
//   concurrency runs on block nearly every signal. A tmux server started that way blocks SIGTERM
//   and SIGCHLD: `kill-server` does nothing, and the shell and app in its panes inherit the mask,
//   so the app would never see the SIGTERM a test sends. Here every child starts with no signal
//   blocked and every signal at its default action.
// - Waiting happens on a plain thread with waitpid, never on the cooperative pool.

/// A failure of the test harness itself (not an assertion about the app), with a message that says
/// what to do about it.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What a finished child process left behind.
struct ProcessResult: Sendable {
    /// The exit status, or 128 + the signal that killed it (as a shell reports it).
    var status: Int32
    /// The signal that killed it, if one did.
    var signal: Int32?
    var stdout: Data
    var stderr: Data
    /// True when the process outlived its timeout and was killed.
    var timedOut: Bool
    var elapsed: Duration

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    /// Exited by itself (not killed by a signal, not timed out).
    var exitedNormally: Bool { signal == nil && !timedOut }
}

/// Reads a pipe to its end on its own thread.
private final class PipeReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var done = false

    init(fd: Int32) {
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    append(chunk[0..<n])
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(fd)
            finish()
        }
    }

    private func append(_ bytes: ArraySlice<UInt8>) {
        lock.lock()
        data.append(contentsOf: bytes)
        lock.unlock()
    }

    private func finish() {
        lock.lock()
        done = true
        lock.unlock()
    }

    private func snapshot() -> (Bool, Data) {
        lock.lock()
        defer { lock.unlock() }
        return (done, data)
    }

    /// The data read, waiting at most `limit` for the end of the pipe (a grandchild that keeps the
    /// write end open must not hang the test).
    func result(waitingUpTo limit: Duration) async -> Data {
        let deadline = ContinuousClock.now + limit
        while true {
            let (finished, value) = snapshot()
            if finished || ContinuousClock.now >= deadline { return value }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Held while a pipe is made and marked close-on-exec, and while a child is spawned, so no child
/// started on another thread inherits a pipe end in between (Glibc's pipe2 is not visible to Swift).
private let spawnLock = NSLock()

/// A pipe whose both ends close on exec (only the end dup'ed onto 0/1/2 reaches the child).
func makePipe() throws -> (read: Int32, write: Int32) {
    spawnLock.lock()
    defer { spawnLock.unlock() }
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw HarnessError("pipe failed: errno \(errno)") }
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    return (fds[0], fds[1])
}

#if os(Linux)
/// glibc 2.34's posix_spawn_file_actions_addclosefrom_np, which the Glibc module does not export.
private let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()
#endif

/// Starts a program: no signal blocked, every signal at its default action, the given fds as its
/// standard input, output and error (stdin `/dev/null` when nil).
func spawn(_ executable: String, _ arguments: [String], environment: [String: String], stdin: Int32?, stdout: Int32, stderr: Int32) throws -> pid_t {
    #if os(Linux)
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    #else
    var actions: posix_spawn_file_actions_t?
    var attributes: posix_spawnattr_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdin {
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
    } else {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    posix_spawn_file_actions_adddup2(&actions, stdout, 1)
    posix_spawn_file_actions_adddup2(&actions, stderr, 2)
    // Nothing else of this process's reaches the child, whatever other threads have open right now
    // (Foundation does not open files close-on-exec: a script being written while a long-lived
    // tmux server is spawned would otherwise stay open for writing, and exec it fails "Text file busy").
    #if os(Linux)
    if let closeFrom = addCloseFrom { _ = closeFrom(&actions, 3) }
    #endif

    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    spawnLock.lock()
    defer { spawnLock.unlock() }
    let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard rc == 0 else { throw HarnessError("could not start \(executable): \(String(cString: strerror(rc)))") }
    return pid
}

/// Decodes a waitpid status into (status as a shell shows it, killing signal).
private func decodeWaitStatus(_ raw: Int32) -> (Int32, Int32?) {
    let low = raw & 0x7f
    if low == 0 { return ((raw >> 8) & 0xff, nil) }
    return (128 + low, low)
}

/// Waits for a child on a plain thread.
private func waitForChild(_ pid: pid_t) async -> Int32 {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 {
                if errno != EINTR { raw = 0x7f00; break }
            }
            continuation.resume(returning: raw)
        }
    }
}

/// Whether the watchdog killed the child.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}

/// The environment children get when a caller does not give one: this process's, minus tmux's
/// variables (a test must never talk to a user's tmux).
var childEnvironment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["TMUX"] = nil
    environment["TMUX_PANE"] = nil
    return environment
}

/// Runs a program to completion without blocking the cooperative thread pool. The pipes are read
/// while it runs, so a chatty child cannot fill them and stall.
///
/// - Parameters:
///   - stdin: a file descriptor for the child's standard input; `/dev/null` when nil.
///   - timeout: past this the child is killed (SIGKILL) and the result says `timedOut`, so a
///     program that hangs fails its test instead of hanging the suite.
func runProcess(
    _ executable: String,
    _ arguments: [String],
    environment: [String: String]? = nil,
    stdin: Int32? = nil,
    timeout: Duration = .seconds(10)
) async throws -> ProcessResult {
    let out = try makePipe()
    let err: (read: Int32, write: Int32)
    do { err = try makePipe() } catch { close(out.read); close(out.write); throw error }
    let started = ContinuousClock.now
    let pid: pid_t
    do {
        pid = try spawn(executable, arguments, environment: environment ?? childEnvironment, stdin: stdin, stdout: out.write, stderr: err.write)
    } catch {
        [out.read, out.write, err.read, err.write].forEach { close($0) }
        throw error
    }
    close(out.write)
    close(err.write)
    let stdoutReader = PipeReader(fd: out.read)
    let stderrReader = PipeReader(fd: err.read)

    let killed = Flag()
    let watchdog = Task.detached {
        try await Task.sleep(for: timeout)
        killed.set()
        kill(pid, SIGKILL)
    }
    let raw = await waitForChild(pid)
    watchdog.cancel()
    let elapsed = ContinuousClock.now - started
    let (status, signal) = decodeWaitStatus(raw)
    return ProcessResult(
        status: status,
        signal: signal,
        stdout: await stdoutReader.result(waitingUpTo: .seconds(2)),
        stderr: await stderrReader.result(waitingUpTo: .seconds(2)),
        timedOut: killed.isSet,
        elapsed: elapsed
    )
}

/// Runs a short command synchronously, output discarded (for `defer` blocks, which cannot `await`).
@discardableResult
func runProcessSync(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) -> Int32 {
    let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
    defer { close(null) }
    guard let pid = try? spawn(executable, arguments, environment: environment ?? childEnvironment, stdin: nil, stdout: null, stderr: null) else { return -1 }
    var raw: Int32 = 0
    while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
    return decodeWaitStatus(raw).0
}

/// Finds a program on `PATH` (and the usual install folders), like a shell would.
func findExecutable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let folders = path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin", "/bin", "/opt/homebrew/bin"]
    for folder in folders where !folder.isEmpty {
        let candidate = folder + "/" + name
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// True while a process with this id exists and is not a zombie.
func isAlive(_ pid: pid_t) -> Bool {
    guard pid > 0, kill(pid, 0) == 0 else { return false }
    #if os(Linux)
    if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
       let close = stat.lastIndex(of: ")") {
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }
    #endif
    return true
}

/// Writes a file with a close-on-exec descriptor, so no child spawned meanwhile holds it open.
func writeFile(_ path: String, _ contents: String, mode: mode_t = 0o644) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { throw HarnessError("cannot create \(path): errno \(errno)") }
    defer { close(fd) }
    let bytes = Array(contents.utf8)
    var written = 0
    while written < bytes.count {
        let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { throw HarnessError("cannot write \(path): errno \(errno)") }
        written += n
    }
    _ = fchmod(fd, mode)
}
