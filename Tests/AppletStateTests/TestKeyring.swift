import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A real desktop keyring for the tests of `SecretServiceStore`: `Scripts/test-keyring.sh` runs a
/// private session bus with gnome-keyring on it, unlocked, in a temporary folder. One per test
/// process, started by the first test that asks; this process's `DBUS_SESSION_BUS_ADDRESS` is set
/// to its bus before anything uses libsecret (GIO reads it once, at its first connection).
///
/// The script reads commands from a pipe this process holds; when the process ends, however it
/// ends, the pipe closes and the script ends gnome-keyring and the bus. Nothing outlives the tests.
final class TestKeyring: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The keyring, or why it could not start (each test that needs it fails with that).
    static let shared: Result<TestKeyring, Failure> = Result { try TestKeyring() }.mapError {
        $0 as? Failure ?? Failure(description: "\($0)")
    }

    /// The private bus: DBUS_SESSION_BUS_ADDRESS for whatever should use this keyring.
    let address: String
    /// Where the keyring's files and the script's log are.
    let folder: String

    private struct Link {
        let commands: Int32
        let replies: Int32
        var buffered: [UInt8] = []
    }
    private let link: Mutex<Link>

    private init() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = repository.appendingPathComponent("Scripts/test-keyring.sh").path
        // Short: the bus socket's path must fit in 108 bytes.
        var template = Array("/tmp/ak-keyring-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw Failure(description: "cannot make a temporary folder for the keyring: \(String(cString: strerror(errno)))")
        }
        folder = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let (commandsRead, commandsWrite) = try Self.pipe()
        let (repliesRead, repliesWrite) = try Self.pipe()
        let log = open(folder + "/script.log", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            close(commandsRead)
            close(repliesWrite)
            close(log)
        }
        try Self.spawn(["/bin/sh", script, folder], stdin: commandsRead, stdout: repliesWrite, stderr: log)
        link = Mutex(Link(commands: commandsWrite, replies: repliesRead))
        let first = try Self.readLine(link, timeout: 20)
        guard first.hasPrefix("ready ") else {
            let detail = (try? String(contentsOfFile: folder + "/script.log", encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: folder)
            let why = first.isEmpty ? "no answer from Scripts/test-keyring.sh" : String(first.trimmingPrefix("failed: "))
            throw Failure(description: "The test keyring (gnome-keyring on a private session bus) could not start: \(why) \(detail)")
        }
        address = String(first.split(separator: " ")[1])
        setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
    }

    /// Environment for a child process that should use this keyring.
    func environment(_ base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        base.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 }
    }

    /// Sends a command (`stop`, `start`, `lock`) and returns the script's answer.
    @discardableResult
    func send(_ command: String) throws -> String {
        let bytes = Array("\(command)\n".utf8)
        let written = link.withLock { link in bytes.withUnsafeBytes { write(link.commands, $0.baseAddress, $0.count) } }
        guard written == bytes.count else { throw Failure(description: "the keyring script is gone (\(command))") }
        let answer = try Self.readLine(link, timeout: 20)
        guard !answer.hasPrefix("failed") && !answer.isEmpty else { throw Failure(description: "keyring \(command): \(answer)") }
        return answer
    }

    /// What `secret-tool lookup` finds under these attributes: a look into the keyring that shares
    /// nothing with the code under test.
    func lookup(_ attributes: [String: String]) throws -> String? {
        let (status, output) = try run("secret-tool", ["lookup"] + attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] })
        return status == 0 ? output : nil
    }

    /// What `secret-tool search --all` prints for these attributes (labels, attributes, secrets).
    func search(_ attributes: [String: String]) throws -> String {
        try run("secret-tool", ["search", "--all", "--unlock"] + attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }).output
    }

    /// Runs a program with this keyring's bus; its status and standard output (stderr appended).
    func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let output = folder + "/run-\(UUID().uuidString).out"
        let fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer {
            close(fd)
            close(null)
            unlink(output)
        }
        let pid = try Self.spawn(["/usr/bin/env", program] + arguments, stdin: null, stdout: fd, stderr: fd,
                                 environment: environment())
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return ((raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f), text)
    }

    // MARK: Processes

    private static func pipe() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { throw Failure(description: "pipe failed: \(String(cString: strerror(errno)))") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return (fds[0], fds[1])
    }

    /// Starts a program with no signal blocked and every signal at its default (the threads tests
    /// run on block most signals, and a child inherits the mask: `kill` in the script would do
    /// nothing), and the given descriptors as its standard input, output and error.
    @discardableResult
    private static func spawn(_ argv: [String], stdin: Int32, stdout: Int32, stderr: Int32,
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = argv.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, argv[0], &actions, &attributes, arguments, variables)
        guard result == 0 else { throw Failure(description: "cannot start \(argv[0]): \(String(cString: strerror(result)))") }
        return pid
    }

    /// The script's next line, waiting at most `timeout` seconds ("" when it ended or timed out).
    private static func readLine(_ link: borrowing Mutex<Link>, timeout: Double) throws -> String {
        let deadline = ContinuousClock.now + .seconds(timeout)
        return link.withLock { link -> String in
            while true {
                if let end = link.buffered.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: link.buffered[..<end], as: UTF8.self)
                    link.buffered.removeSubrange(...end)
                    return line
                }
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return "" }
                var poller = pollfd(fd: link.replies, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
                if poll(&poller, 1, max(milliseconds, 1)) <= 0 { continue }
                var chunk = [UInt8](repeating: 0, count: 512)
                let count = chunk.withUnsafeMutableBytes { read(link.replies, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return "" }
                link.buffered += chunk[..<count]
            }
        }
    }
}
