import AppletKit
import AppletTesting
import Foundation
import Terminal
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A host run as a person runs an app: in a process of its own, on a pseudo-terminal it leads.
/// The process is this test binary started again with one test (`filter`), enabled only there,
/// whose body is `ChildHost.run(...)`; the parent drives the terminal and reads what it was sent.
///
/// ```swift
/// @MainActor @Test(.enabled(if: ProcessInfo.processInfo.environment["MY_PTY_CHILD"] == "1"))
/// func hostOnThisTerminal() async throws { try await ChildHost.run([Tab(MyApplet())]) }
///
/// guard let run = try ChildHost.start(filter: "MyPtyTests/hostOnThisTerminal", environment: ["MY_PTY_CHILD": "1"]) else { return }
/// ```
enum ChildHost {
    /// In the child: the terminal becomes stdin, stdout and stderr (what the test library writes
    /// goes to the log the parent named), `tabs` run on it in an `AppletHost`, and the process
    /// exits as an `AppletApp` would: 0, 128 + the signal that ended it, or 1 when it cannot run
    /// (a terminal smaller than the host's minimum).
    @MainActor
    static func run(_ tabs: [Tab], features: TerminalFeatures = .all) async throws -> Never {
        fflush(nil)   // every stdio stream, so nothing buffered for the log reaches the terminal
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        try #require(tty >= 0, "no controlling terminal")
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] { dup2(tty, fd) }
        close(tty)
        let terminal = try NcursesTerminal(environment: ProcessInfo.processInfo.environment, features: features)
        let host = try AppletHost(tabs: tabs, application: Application(), terminal: terminal, animations: false)
        do {
            try await host.run()
        } catch {
            exit(1)
        }
        exit(host.terminationSignal.map { 128 + $0 } ?? 0)
    }

    /// This test binary; nil (saying so) when the tests run from something else.
    static var testBinary: String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
              path.hasSuffix(".xctest") else {
            print("ChildHost: not run from an .xctest binary on Linux; the pseudo-terminal tests are skipped")
            return nil
        }
        return path
    }

    /// A new file for the child's own output.
    static func logPath() -> String {
        temporaryPath("pty-host", suffix: ".log")
    }

    /// A child started by `start`: its terminal, and what the test library wrote in it.
    struct Run {
        let terminal: PseudoTerminal
        let logPath: String
        /// What swift-testing wrote in the host's process (for failure messages).
        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    }

    /// Starts the test `filter` of this binary on a new 80x24 pseudo-terminal, as the session's
    /// leader, with `environment` added (a nil value: not set). With `answersQueries` the
    /// terminal answers as `TerminalScreen` does; without, it answers nothing unless the test
    /// types a reply. Nil when there is no test binary to start.
    static func start(filter: String, environment added: [String: String?], answersQueries: Bool = true) throws -> Run? {
        guard let binary = testBinary else { return nil }
        let log = logPath()
        var environment = PseudoTerminal.defaultEnvironment
        for (name, value) in added { environment[name] = value }
        let terminal = try PseudoTerminal.start(
            "/bin/sh", arguments: ["-c", "exec \"$0\" --testing-library swift-testing --filter \"$1\" >\"$2\" 2>&1",
                                   binary, filter, log],
            environment: environment, answersQueries: answersQueries)
        return Run(terminal: terminal, logPath: log)
    }
}
