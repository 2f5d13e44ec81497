import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// However the app ends or pauses, the user gets their shell back as it was: same tty modes, the
/// main screen, the cursor, no mouse reports.
///
/// Note on what each check can see: bash itself puts its saved tty modes back when a job it waits
/// for is killed by a signal or stopped, and adopts whatever the tty is when a job exits normally.
/// So comparing `stty -g` from the shell before and after proves the app's own restore only for
/// normal exits (q, Ctrl-C, SIGTERM/SIGINT/SIGHUP, which exit 128+n). For a crash, the modes are
/// read from outside while the app is still alive; for Ctrl-Z, tmux's record of the screen modes
/// (alternate screen, cursor, mouse, keypad) is the part bash does not fix up.
@Suite("Giving the terminal back", .timeLimit(.minutes(1)))
struct TerminalRestoreTests {
    @Test("q quits and restores the terminal")
    func quitWithQ() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let (run, _) = try await shell.launchAndWait()
        #expect(try await shell.tmux.modes().alternateScreen, "the app did not switch to the alternate screen")
        try await shell.tmux.type("q")
        let (status, screen) = try await shell.waitForExit(run)
        #expect(status == 0)
        try await shell.expectTerminalRestored(after: run, screen: screen)
    }

    @Test("Ctrl-C quits and restores the terminal")
    func quitWithCtrlC() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let (run, _) = try await shell.launchAndWait()
        try await shell.tmux.press("C-c")
        let (status, screen) = try await shell.waitForExit(run)
        // Ctrl-C arrives as a key (raw mode) and ends the app as an interrupt would.
        #expect(status == 128 + SIGINT, "status \(status)")
        try await shell.expectTerminalRestored(after: run, screen: screen)
    }

    struct QuitSignal: Sendable, CustomTestStringConvertible {
        let name: String
        let number: Int32
        var testDescription: String { "SIG\(name)" }
    }

    @Test("A quit signal restores the terminal and exits 128+signal", arguments: [
        QuitSignal(name: "TERM", number: SIGTERM),
        QuitSignal(name: "INT", number: SIGINT),
        QuitSignal(name: "HUP", number: SIGHUP),
    ])
    func quitSignal(_ signal: QuitSignal) async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let (run, _) = try await shell.launchAndWait()
        try await shell.signal(signal.number)
        let (status, screen) = try await shell.waitForExit(run)
        #expect(status == 128 + signal.number)
        try await shell.expectTerminalRestored(after: run, screen: screen)
    }

    @Test("A crash restores the terminal, prints one line, writes the backtrace to the log and dies of it at once")
    func crashReportsInOneLine() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let (run, _) = try await shell.launchAndWait(recordModesBeforeShell: true)
        let saved = try shell.modesBefore(run)
        try await shell.signal(SIGSEGV)

        let (status, screen) = try await shell.waitForExit(run, timeout: .seconds(2))
        #expect(status == 128 + SIGSEGV, "status \(status)")
        // Written by the non-interactive shell the moment the app was gone, before readline
        // could touch the tty: exactly what the app's crash handler left.
        let after = try await shell.waitForFile("after\(run.number)")
        #expect(after == saved, "tty modes after the crash: \(after), the shell had \(saved)")
        let history = try await shell.tmux.capture(scrollback: true)
        #expect(history.contains("appletkit: crashed; the terminal was restored and the backtrace is in"), "\(history)")
        #expect(!history.contains("Program crashed") && !history.contains("Backtrace"), "a backtrace reached the screen:\n\(history)")
        let log = try String(contentsOf: shell.directory.appendingPathComponent(".local/state/appletkit/appletkit.log"), encoding: .utf8)
        #expect(log.contains("crashed: SIGSEGV; backtrace:"), "\(log)")
        let paneModes = try await shell.tmux.modes()
        #expect(paneModes.isShellState, "after the crash: \(paneModes)")
        #expect(!screen.contains(ShellSession.tabBar), "the app's screen is still up:\n\(screen)")
    }

    @Test("APPLETKIT_SWIFT_BACKTRACE=1 hands a crash to Swift's backtracer, after restoring the exact tty modes")
    func crashWithSwiftBacktracer() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let (run, _) = try await shell.launchAndWait(environment: ["APPLETKIT_SWIFT_BACKTRACE": "1", "SWIFT_BACKTRACE": "interactive=no"],
                                                     recordModesBeforeShell: true)
        let saved = try shell.modesBefore(run)
        try await shell.signal(SIGSEGV)

        // A SIGSEGV sent by another process: after the report the app dies of it.
        let (status, screen) = try await shell.waitForExit(run, timeout: .seconds(10))
        #expect(status == 128 + SIGSEGV, "status \(status)")
        let history = try await shell.tmux.capture(scrollback: true)
        #expect(history.contains("Program crashed"), "no crash report:\n\(history)")
        let after = try await shell.waitForFile("after\(run.number)")
        #expect(after == saved, "tty modes after the crash: \(after), the shell had \(saved)")
        let paneModes = try await shell.tmux.modes()
        #expect(paneModes.isShellState, "after the crash: \(paneModes)")
        #expect(!screen.contains(ShellSession.tabBar), "the app's screen is still up:\n\(screen)")
    }

    @Test("A crash without the backtracer dies at once: status 139, prompt back")
    func crashWithoutBacktracer() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let (run, _) = try await shell.launchAndWait(environment: ["SWIFT_BACKTRACE": "enable=no"])
        try await shell.signal(SIGSEGV)
        let (status, screen) = try await shell.waitForExit(run, timeout: .seconds(5))
        #expect(status == 128 + SIGSEGV)
        try await shell.expectTerminalRestored(after: run, screen: screen)
    }

    @Test("Ctrl-Z gives the shell back; fg repaints; q still quits cleanly")
    func suspendAndResume() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let tmux = shell.tmux
        let (run, _) = try await shell.launchAndWait()
        try await tmux.type("+")
        try await tmux.waitFor(text: "Count: 1")
        try await tmux.type("+")
        try await tmux.waitFor(text: "Count: 2")

        try await tmux.press("C-z")
        let (status, screen) = try await shell.waitForExit(run)
        #expect(status == 128 + SIGTSTP, "the shell should see a stopped job")
        #expect(screen.contains("Stopped"), "no job-stopped notice:\n\(screen)")
        try await shell.expectTerminalRestored(after: run, screen: screen)

        try await tmux.typeLine("fg; echo \"[fg] status=$?\"; stty -g >after-fg")
        try await tmux.waitUntil("the app to repaint after fg, footer included") { screen in
            screen.row(0).hasPrefix(ShellSession.tabBar) && screen.contains("Count: 2")
                && AppUsageTests.hasFooter(screen, AppUsageTests.counterFooter)
        }
        try await tmux.waitForModes("the alternate screen and keypad transmit mode back on after fg") { $0.alternateScreen && $0.keypad }
        try await tmux.type("+")
        try await tmux.waitFor(text: "Count: 3")

        try await tmux.type("q")
        let after = try await tmux.waitUntil("the prompt after q") { screen in
            screen.contains("[fg] status=0") && screen.lastNonEmptyRow == ShellSession.prompt
        }
        let modesAfter = try await shell.waitForFile("after-fg")
        #expect(modesAfter == (try shell.modesBefore(run)), "stty -g after fg and q differs from before the launch")
        let paneModes = try await tmux.modes()
        #expect(paneModes.isShellState, "after q: \(paneModes)")
        #expect(!after.contains(ShellSession.tabBar), "the app's screen is still up:\n\(after)")
    }
}
