import Foundation
import Testing

/// The counter is a `StoredState`: it survives quitting, signals and `kill -9`, and a broken
/// state file or folder costs nothing but a message.
@Suite("Stored state, end to end")
struct PersistenceEndToEndTests {
    /// The demo's store file in a session (HOME is the session's scratch folder).
    private func storeFile(_ shell: ShellSession) -> String {
        shell.directory.appendingPathComponent(".local/state/appletkit/appletkit.json").path
    }

    private func press(_ shell: ShellSession, _ key: String, times: Int, until text: String) async throws {
        for _ in 0..<times { try await shell.tmux.type(key) }
        try await shell.tmux.waitFor(text: text)
    }

    @Test("The counter survives a restart (q) and a SIGTERM")
    func survivesRestart() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        var (run, _) = try await shell.launchAndWait()
        try await press(shell, "+", times: 3, until: "Count: 3")
        try await shell.tmux.type("q")
        #expect(try await shell.waitForExit(run).status == 0)

        let attributes = try FileManager.default.attributesOfItem(atPath: storeFile(shell))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "state file mode")
        let folder = try FileManager.default.attributesOfItem(atPath: (storeFile(shell) as NSString).deletingLastPathComponent)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700, "state folder mode")

        (run, _) = try await shell.launchAndWait()
        try await shell.tmux.waitFor(text: "Count: 3")
        try await press(shell, "+", times: 2, until: "Count: 5")
        try await shell.signal(SIGTERM)
        #expect(try await shell.waitForExit(run).status == 128 + SIGTERM)

        (run, _) = try await shell.launchAndWait()
        try await shell.tmux.waitFor(text: "Count: 5")
        try await shell.tmux.type("2")
        try await shell.tmux.waitFor(text: "Shared counter: 5")
        try await shell.tmux.type("q")
        _ = try await shell.waitForExit(run)
    }

    @Test("kill -9 in the middle of a burst of writes leaves the old or the new value, never a torn file")
    func killNineDuringBurst() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        var (run, _) = try await shell.launchAndWait()
        try await shell.tmux.waitFor(text: "Count: 0")
        for _ in 0..<20 { try await shell.tmux.type(String(repeating: "+", count: 25)) }
        try await shell.signal(SIGKILL)
        // Nothing can restore the screen after SIGKILL: wait for the shell's status line, then put
        // the terminal back by hand for the next launch.
        try await shell.tmux.waitFor(text: "\(run.statusPrefix)137")
        try await shell.tmux.typeLine("tput rmcup; stty sane; clear")
        try await shell.tmux.waitUntil("a clean prompt") { $0.lastNonEmptyRow == ShellSession.prompt }

        // Whatever is on disk is whole: valid JSON with the counter in it (or no file at all).
        if let data = FileManager.default.contents(atPath: storeFile(shell)) {
            let object = try JSONSerialization.jsonObject(with: data)
            #expect(object is [String: Any], "not a JSON object: \(String(decoding: data, as: UTF8.self))")
        }
        (run, _) = try await shell.launchAndWait()
        // The whole first frame (the footer is its last row), so the count is not cut mid-number.
        let screen = try await shell.tmux.waitUntil("a count and the footer") {
            $0.contains("Count: ") && AppUsageTests.hasFooter($0, AppUsageTests.counterFooter)
        }
        let line = try #require(screen.lines.first { $0.contains("Count: ") })
        let count = Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "")
        #expect(count.map { (0...500).contains($0) } == true, "count after kill -9: \(line)")
        #expect(!screen.contains("⚠") && !screen.contains("✗"), "a problem was reported after kill -9:\n\(screen)")
        try await shell.tmux.type("q")
        _ = try await shell.waitForExit(run)
    }

    @Test("A corrupt state file is moved aside, reported once, and the app starts fresh")
    func corruptFile() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let file = storeFile(shell)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("{\"Counter.counter\": {\"count\": 4".utf8).write(to: URL(fileURLWithPath: file))

        var (run, _) = try await shell.launchAndWait()
        // The message names the file; the app starts fresh.
        try await shell.tmux.waitUntil("the problem reported, naming the file") {
            $0.contains("✗") && $0.contains("appletkit.json") && $0.contains("Count: 0")
        }
        let folder = (file as NSString).deletingLastPathComponent
        let asideNames = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("appletkit.json.corrupt-") }
        #expect(asideNames.count == 1, "moved-aside file: \(asideNames)")
        if let aside = asideNames.first {
            #expect(FileManager.default.contents(atPath: folder + "/" + aside) == Data("{\"Counter.counter\": {\"count\": 4".utf8), "the broken content is kept as it was")
        }
        try await shell.tmux.press("Escape")
        // Alone: Esc and a key in one read would be Alt and that key.
        try await shell.tmux.waitUntil("the message closed") { !$0.contains("✗") }
        try await press(shell, "+", times: 1, until: "Count: 1")
        try await shell.tmux.type("q")
        _ = try await shell.waitForExit(run)

        (run, _) = try await shell.launchAndWait()
        let again = try await shell.tmux.waitFor(text: "Count: 1")
        #expect(!again.contains("✗"), "the problem is reported once, not on every start:\n\(again)")
        try await shell.tmux.type("q")
        _ = try await shell.waitForExit(run)
    }

    @Test("An unwritable --state-dir: a message naming it, the app works in memory, and quitting says what was not saved")
    func unwritableStateDirectory() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let blocker = shell.directory.appendingPathComponent("blocker").path
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: blocker))
        let (run, _) = try await shell.launchAndWait(["--state-dir", blocker + "/state"])
        try await press(shell, "+", times: 2, until: "Count: 2")
        try await shell.tmux.waitUntil("the problem reported, naming the folder") { $0.contains("✗") && $0.contains("blocker") }
        try await shell.tmux.type("q")
        // The count was never saved: quitting says so, with where a copy went, and is not a success.
        let (status, screen) = try await shell.waitForExit(run)
        #expect(status == 1)
        #expect(screen.text.contains("'Counter.counter'") && screen.text.contains("not saved") && screen.text.contains("a copy is in"), "\(screen)")
    }

    @Test("--log-level debug logs state changes to the log file, never to the screen")
    func debugLogGoesToTheFile() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let (run, _) = try await shell.launchAndWait(["--log-level", "debug"])
        try await press(shell, "+", times: 2, until: "Count: 2")
        let screen = try await shell.tmux.capture()
        #expect(!screen.contains("state changed") && !screen.contains("debug"), "log text on the screen:\n\(screen)")
        try await shell.tmux.type("q")
        _ = try await shell.waitForExit(run)
        let log = shell.directory.appendingPathComponent(".local/state/appletkit/appletkit.log").path
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.contains("state changed key=Counter.counter"), "log file:\n\(text)")
    }
}
