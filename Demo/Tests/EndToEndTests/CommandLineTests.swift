import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line and what happens without a usable terminal. Most of these run the binary
/// directly (no tmux), as a script or CI job would.
@Suite("Command line", .timeLimit(.minutes(1)))
struct CommandLineTests {
    /// A predictable environment with a good TERM, so only what a test changes can make it fail.
    static let environment = ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": NSTemporaryDirectory()]

    static func run(_ arguments: [String], stdin: Int32? = nil, timeout: Duration = .seconds(10)) async throws -> ProcessResult {
        try await runProcess(try AppBinary.path(), arguments, environment: environment, stdin: stdin, timeout: timeout)
    }

    /// The version in the source, so a version bump does not break the test.
    static var sourceVersion: String? {
        let file = AppBinary.repositoryRoot.appendingPathComponent("Sources/AppletKit/AppletKitVersion.swift")
        guard let text = try? String(contentsOf: file, encoding: .utf8),
              let match = text.firstMatch(of: /current\s*=\s*"([^"]+)"/) else { return nil }
        return String(match.1)
    }

    @Test("An unknown --theme is refused with the valid names, before the terminal is touched")
    func unknownTheme() async throws {
        let result = try await Self.run(["--theme", "purple"])
        #expect(result.exitedNormally && result.status != 0, "status \(result.status)")
        #expect(result.stderrText.contains("unknown theme 'purple'; use one of: auto, dark, light"), "stderr: \(result.stderrText)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdoutText)")
    }

    @Test("--version prints the version")
    func version() async throws {
        let result = try await Self.run(["--version"])
        #expect(result.exitedNormally && result.status == 0, "status \(result.status), stderr: \(result.stderrText)")
        let expected = Self.sourceVersion ?? "0.1.0"
        #expect(result.stdoutText == "appletkit \(expected)\n")
    }

    @Test("--help explains --tab")
    func help() async throws {
        let result = try await Self.run(["--help"])
        #expect(result.exitedNormally && result.status == 0, "status \(result.status), stderr: \(result.stderrText)")
        #expect(result.stdoutText.contains("--tab"), "help:\n\(result.stdoutText)")
        #expect(result.stdoutText.contains("USAGE: appletkit"), "help:\n\(result.stdoutText)")
    }

    @Test("An unknown --tab exits 2 and lists the valid tabs", arguments: ["nope", "0", "7"])
    func unknownTab(_ tab: String) async throws {
        let result = try await Self.run(["--tab", tab])
        #expect(result.exitedNormally && result.status == 2, "status \(result.status)")
        #expect(result.stderrText.contains("unknown tab '\(tab)'"), "stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("1 counter, 2 dashboard, 3 list, 4 widgets"), "stderr: \(result.stderrText)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdoutText)")
    }

    enum Input: String, CaseIterable, Sendable {
        case devNull = "stdin from /dev/null"
        /// A pipe nobody writes to or closes: reading it would hang.
        case openPipe = "stdin an open, silent pipe"
    }

    @Test("Without a terminal it explains in one line, exits 1 at once and writes nothing to stdout", arguments: Input.allCases)
    func notATerminal(_ input: Input) async throws {
        let stdin: Int32
        var keepOpen: Int32 = -1
        switch input {
        case .devNull:
            stdin = open("/dev/null", O_RDONLY | O_CLOEXEC)
        case .openPipe:
            (stdin, keepOpen) = try makePipe()
        }
        defer {
            close(stdin)
            if keepOpen >= 0 { close(keepOpen) }
        }
        let result = try await Self.run([], stdin: stdin, timeout: .seconds(5))
        #expect(!result.timedOut, "still running after 5 s: it must not wait for a terminal")
        #expect(result.exitedNormally && result.status == 1, "status \(result.status)")
        let lines = result.stderrText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "expected exactly one line on stderr:\n\(result.stderrText)")
        #expect(result.stderrText.contains("terminal"), "stderr: \(result.stderrText)")
        #expect(!result.stdout.contains(0x1B), "escape bytes on stdout: \(result.stdout.map { String(format: "%02x", $0) }.joined(separator: " "))")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdoutText)")
    }

    @Test("In a terminal, with stdout or stdin redirected or a bad TERM, it explains and exits 1")
    func redirectedInATerminal() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }

        var (status, screen) = try await shell.runLine("run-app | cat", statusExpression: "${PIPESTATUS[0]}")
        #expect(status == 1, "stdout piped:\n\(screen)")
        #expect(screen.contains("needs an interactive terminal"), "stdout piped:\n\(screen)")

        (status, screen) = try await shell.runLine("run-app </dev/null")
        #expect(status == 1, "stdin from /dev/null:\n\(screen)")

        (status, screen) = try await shell.runLine("TERM=dumb run-app")
        #expect(status == 1, "TERM=dumb:\n\(screen)")
        #expect(screen.contains("TERM=dumb"), "TERM=dumb:\n\(screen)")

        (status, screen) = try await shell.runLine("TERM=no-such-terminal run-app")
        #expect(status == 1, "unknown TERM:\n\(screen)")
        #expect(screen.contains("no-such-terminal"), "unknown TERM:\n\(screen)")

        let modes = try await shell.tmux.modes()
        #expect(modes.isShellState, "modes after the refusals: \(modes)")
        #expect(!screen.contains(ShellSession.tabBar), "the app drew a frame:\n\(screen)")
    }
}
