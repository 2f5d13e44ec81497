import Foundation
import Testing

/// `--record` in the real binary in tmux, then `--replay` of the file with no terminal: the
/// replay prints the screen the session ended on, the process list and the times included,
/// though it reads no `/proc` and waits for no timer.
@Suite("Record and replay, end to end", .timeLimit(.minutes(2)))
struct RecordReplayEndToEndTests {
    @Test("A session of the process monitor recorded in tmux replays to the screen it ended on")
    func aRecordedSessionReplaysToTheSameScreen() async throws {
        let shell = try await ShellSession.start(width: 100, height: 30)
        defer { shell.shutdown() }
        let tmux = shell.tmux
        let file = shell.directory.appendingPathComponent("bug.session").path
        let (run, _) = try await shell.launchAndWait(["--tab", "processes", "--record", file])
        try await tmux.waitFor(text: "sorted by CPU%")
        try await tmux.type("m")                                   // sort by memory
        try await tmux.waitFor(text: "sorted by RSS")
        try await tmux.type("p")                                   // then by pid, lowest first
        try await tmux.waitFor(text: "sorted by PID ▲")
        try await tmux.type("jj")                                  // move the selection down
        try await tmux.press("F12")                                // the action log, over it
        try await tmux.waitFor(text: "Action log")
        try await tmux.press("Escape")
        // Alone: Esc and a key in one write would read as Alt and that key.
        try await tmux.waitUntil("the action log to close") { !$0.contains("Action log") }
        try await tmux.type("+")                                   // not a monitor key: nothing happens
        // Right after a refresh (the timer ticks every 2 s), so no tick comes between the screen
        // read here and the q that ends the session.
        let before = try await tmux.capture()
        let refreshed = before.lines.first { $0.contains("refreshed") } ?? ""
        try await tmux.waitUntil("the next refresh", timeout: .seconds(5)) { screen in
            screen.lines.contains { $0.contains("refreshed") && $0 != refreshed } && !screen.contains("Action log")
        }
        // The refresh's whole frame: its header can show before the rows under it.
        let last = try await tmux.waitUntilSettled()
        try await tmux.type("q")
        #expect(try await shell.waitForExit(run).status == 0)

        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains("\"kind\":\"header\"") == true)
        #expect(lines.contains { $0.contains("\"kind\":\"coeffect\"") && $0.contains("\"name\":\"processes\"") })
        #expect(lines.contains { $0.contains("\"kind\":\"request\"") && $0.contains("MonitorRequest") })

        let state = shell.directory.appendingPathComponent("replay-state").path
        let replay = try await CommandLineTests.run(["--replay", file, "--state-dir", state], timeout: .seconds(30))
        #expect(replay.exitedNormally && replay.status == 0, "status \(replay.status): \(replay.stderrText)")
        let replayed = replay.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let recorded = last.lines
        for row in 0..<max(recorded.count, replayed.count) {
            let a = recorded.indices.contains(row) ? recorded[row].trimmingCharacters(in: .whitespaces) : ""
            let b = replayed.indices.contains(row) ? replayed[row].trimmingCharacters(in: .whitespaces) : ""
            #expect(a == b, "row \(row) differs:\n  tmux:   \(a)\n  replay: \(b)\nreplay:\n\(replay.stdoutText)\ntmux:\n\(last)")
        }
    }

    @Test("--replay of a file that is not a session says so, with status 1")
    func aBadSessionFileIsRefused() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-\(UUID().uuidString).session").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: file))
        let result = try await CommandLineTests.run(["--replay", file])
        #expect(result.status == 1)
        #expect(result.stderrText.contains("not a session entry"), "\(result.stderrText)")
        let both = try await CommandLineTests.run(["--replay", file, "--record", file + ".2"])
        #expect(both.status == 64, "usage error: \(both.stderrText)")
        #expect(both.stderrText.contains("--record and --replay cannot be used together"))
    }
}
