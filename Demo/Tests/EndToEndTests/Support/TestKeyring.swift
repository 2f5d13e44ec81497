import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real desktop keyring for the binaries under test: `Scripts/test-keyring.sh` runs a private
/// session bus with gnome-keyring on it, unlocked, in a temporary folder. One per test process,
/// started by the first test that asks; a child gets it through `environment`. This process never
/// talks to it itself.
///
/// The script reads its standard input from a pipe this process holds open; when the process ends,
/// however it ends, the pipe closes and the script ends gnome-keyring and the bus.
final class TestKeyring: Sendable {
    /// The keyring, or why it could not start.
    static let shared: Result<TestKeyring, HarnessError> = Result { try TestKeyring() }.mapError {
        $0 as? HarnessError ?? HarnessError("\($0)")
    }

    /// The private bus's address (DBUS_SESSION_BUS_ADDRESS).
    let address: String

    /// The write end of the script's standard input, held until this process ends.
    private let commands: Int32

    private init() throws {
        let script = AppBinary.repositoryRoot.appendingPathComponent("Scripts/test-keyring.sh").path
        // Short: the bus socket's path must fit in 108 bytes.
        var template = Array("/tmp/ak-keyring-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw HarnessError("cannot make a temporary folder for the keyring: errno \(errno)")
        }
        let folder = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let input = try makePipe()
        let output = try makePipe()
        let log = open(folder + "/script.log", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            close(input.read)
            close(output.write)
            close(log)
        }
        _ = try spawn("/bin/sh", [script, folder], environment: childEnvironment, stdin: input.read, stdout: output.write, stderr: log)
        commands = input.write
        defer { close(output.read) }   // nothing more is read: the script only answers commands
        let line = Self.firstLine(output.read, timeout: .seconds(20))
        guard line.hasPrefix("ready ") else {
            let detail = (try? String(contentsOfFile: folder + "/script.log", encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: folder)
            let why = line.isEmpty ? "no answer from Scripts/test-keyring.sh" : String(line.trimmingPrefix("failed: "))
            throw HarnessError("The test keyring (gnome-keyring on a private session bus) could not start: \(why) \(detail)")
        }
        address = String(line.split(separator: " ")[1])
    }

    /// `base` with this keyring's bus.
    func environment(_ base: [String: String] = childEnvironment) -> [String: String] {
        var environment = base
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    /// What `secret-tool lookup` finds under these attributes, nil if nothing.
    func lookup(_ attributes: [String: String]) async throws -> String? {
        guard let tool = findExecutable("secret-tool") else { throw HarnessError("secret-tool is not installed (make test installs libsecret-tools)") }
        let result = try await runProcess(tool, ["lookup"] + attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] },
                                          environment: environment())
        return result.status == 0 ? result.stdoutText : nil
    }

    private static func firstLine(_ fd: Int32, timeout: Duration) -> String {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var byte: UInt8 = 0
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
