import AppletTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files from elsewhere cannot hurt, and nothing is lost in silence: the real `appletkit` given a
/// crafted session file, a huge keymap, a second instance on its folder, a state file it cannot
/// replace, control characters for its log and a symlink in its log's place.
@Suite("Files from elsewhere, end to end", .serialized, .timeLimit(.minutes(2)))
struct UntrustedFilesEndToEndTests {
    static func folder() throws -> URL { try ReliabilityTests.stateFolder() }

    /// A session file for `appletkit` with `header` fields laid over a valid header.
    static func session(_ header: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("bug.session").path
        let line = #"{"kind":"header","n":1,"app":"appletkit","version":1,"size":{"columns":80,"rows":24}"# + header + "}\n"
        try line.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: Session files

    @Test("A session naming a state file outside its folder: status 1, one line, nothing written")
    func aSessionCannotWriteOutsideItsFolder() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "appletkit-escaped-\(UUID().uuidString).json"
        // The replay's folder is made in /tmp (the test gives the app no TMPDIR).
        let target = "/tmp/" + name
        defer { try? FileManager.default.removeItem(atPath: target) }
        let path = try Self.session(#","files":{"../\#(name)":"{\"pwned\": true}"}"#, in: folder)
        let result = try await CommandLineTests.run(["--replay", path, "--state-dir", folder.path + "/state"])
        #expect(result.exitedNormally && result.status == 1, "status \(result.status): \(result.stderrText)")
        #expect(result.stderrText == "appletkit: \(path):1: the header names a state file \"../\(name)\" outside its folder; a session may only carry files by plain relative names (no \"..\", no leading \"/\")\n",
                "\(result.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: target), "the session wrote \(target)")
        #expect(result.stdout.isEmpty)
    }

    @Test("A session with a size no terminal has: status 1 naming the file, no trap", arguments: [
        "100000x100000", "-5x-5",
    ])
    func aSessionsSizeIsChecked(_ size: String) async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let parts = size.split(separator: "x", maxSplits: 1).map(String.init)
        let path = folder.appendingPathComponent("bug.session").path
        try (#"{"kind":"header","n":1,"app":"appletkit","version":1,"size":{"columns":\#(parts[0]),"rows":\#(parts[1])}}"# + "\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await CommandLineTests.run(["--replay", path, "--state-dir", folder.path + "/state"])
        #expect(result.exitedNormally && result.status == 1, "status \(result.status), signal \(String(describing: result.signal))")
        #expect(result.stderrText == "appletkit: \(path):1: the recorded terminal size \(size) is not one a terminal has (each side 1–4096); the file is damaged or was not written by --record\n",
                "\(result.stderrText)")
    }

    // MARK: Keymaps

    @Test("A 10 MB keymap is reported at once, not parsed")
    func aHugeKeymapIsReportedAtOnce() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("keys.toml").path
        var text = "[keys]\n"
        var index = 0
        while text.utf8.count < 10_000_000 {
            text += "\"unknown.command.number\(index)\" = \"ctrl-x\"\n"
            index += 1
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await CommandLineTests.run(["keys", "--check", "--keymap", path], timeout: .seconds(10))
        #expect(!result.timedOut, "keys --check still ran after 10 s")
        #expect(result.status == 1)
        #expect(result.stdoutText.contains("\(path): is over 1 MiB, far more than a keymap needs"), "\(result.stdoutText.prefix(500))")
    }

    @Test("A keymap at the size limit full of unknown ids is checked in linear time")
    func aLargeKeymapIsCheckedInLinearTime() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("keys.toml").path
        var text = "[keys]\n"
        var index = 0
        while text.utf8.count < 1_000_000 {
            text += "\"unknown.id\(index)\" = \"ctrl-x\"\n"
            index += 1
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        // About 40,000 ids: quadratic checking took minutes; linear takes well under a second.
        let result = try await CommandLineTests.run(["keys", "--check", "--keymap", path], timeout: .seconds(30))
        #expect(!result.timedOut, "keys --check of \(index) ids still ran after 30 s")
        #expect(result.status == 1)
        #expect(result.stdoutText.contains("\(path):\(index + 1): no command has the id \"unknown.id\(index - 1)\""))
    }

    // MARK: Nothing lost in silence

    @Test("A change that cannot be saved: q names it and where its copy is, and exits 1")
    func anUnsavedChangeIsNeverSilent() async throws {
        let run = try await ReliabilityTests.launchDemo()
        defer { run.terminal.close() }
        let store = run.stateDirectory.appendingPathComponent("appletkit.json").path
        // The first launch writes the tab it shows; then a folder takes the file's place, which
        // no write can replace (not even root's).
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: store), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        try FileManager.default.removeItem(atPath: store)
        try FileManager.default.createDirectory(atPath: store + "/in-the-way", withIntermediateDirectories: true)
        try run.terminal.send("+")
        try await run.terminal.waitFor(text: "Count: 1")
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(1))
        ReliabilityTests.expectRestored(run.terminal)
        let output = run.terminal.outputText
        let line = try #require(output.split(separator: "\n").first { $0.contains("not saved") }.map(String.init), "\(output.suffix(400))")
        #expect(line.contains("'Counter.counter'") && line.contains("not saved to \(store)"), "\(line)")
        let copy = try #require(line.range(of: "a copy is in ").map { String(line[$0.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines) })
        let data = try Data(contentsOf: URL(fileURLWithPath: copy))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((object["Counter.counter"] as? [String: Any])?["count"] as? Int == 1, "\(String(decoding: data, as: UTF8.self))")
    }

    @Test("Two instances on one state folder: the second says so, writes nothing there, and names what it did not save")
    func aSecondInstanceNeverOverwritesTheFirst() async throws {
        let first = try await ReliabilityTests.launchDemo()
        defer { first.terminal.close() }
        try first.terminal.send("+++")
        try await first.terminal.waitFor(text: "Count: 3")
        let store = first.stateDirectory.appendingPathComponent("appletkit.json")
        let deadline = ContinuousClock.now + .seconds(10)
        while ReliabilityTests.count(in: store) != 3, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(ReliabilityTests.count(in: store) == 3, "the first instance did not save its count")
        let second = try ReliabilityTests.launch(stateDirectory: first.stateDirectory)
        defer { second.terminal.close() }
        // It reads what the first saved, and hears that the first has the folder.
        let pid = first.terminal.processID
        try await second.terminal.waitUntil { $0.contains("Count: 3") && $0.contains("Another appletkit (pid \(pid))") }
        // Esc alone (with a key in the same read it would be Alt and that key).
        try second.terminal.press("esc")
        try await second.terminal.waitUntil { !$0.contains("Another appletkit") }
        try second.terminal.send("+")
        try await second.terminal.waitFor(text: "Count: 4")
        try second.terminal.send("q")
        #expect(await second.terminal.waitForExit() == .exited(1))
        #expect(second.terminal.outputText.contains("'Counter.counter'"), "\(second.terminal.outputText.suffix(400))")
        #expect(second.terminal.outputText.contains("another appletkit (pid \(first.terminal.processID)) is using"))
        #expect(ReliabilityTests.count(in: store) == 3, "the second instance wrote the first one's file")
        // The first still saves, and its count is what a restart finds.
        try first.terminal.send("q")
        #expect(await first.terminal.waitForExit() == .exited(0))
        let again = try ReliabilityTests.launch(stateDirectory: first.stateDirectory)
        defer { again.terminal.close() }
        try await again.terminal.waitFor(text: "Count: 3")
        try again.terminal.send("q")
        #expect(await again.terminal.waitForExit() == .exited(0))
    }

    @Test("Temporary files of interrupted saves are gone after the next start")
    func leftoversAreCleaned() async throws {
        let folder = try Self.folder()
        let leftover = folder.appendingPathComponent(".appletkit.json.tmp-Ab12Cd").path
        try Data("{\"half".utf8).write(to: URL(fileURLWithPath: leftover))
        let run = try ReliabilityTests.launch(stateDirectory: folder)
        defer { run.terminal.close() }
        try await run.terminal.waitFor(text: "Count: 0")
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }

    // MARK: The log

    @Test("A keymap id with escape sequences reaches the log escaped")
    func theLogEscapesControlCharacters() async throws {
        let folder = try Self.folder()
        let keymap = folder.appendingPathComponent("keys.toml").path
        try "[keys]\n\"evil\\u001b[2J\\u0007\" = \"x\"\n".write(toFile: keymap, atomically: true, encoding: .utf8)
        let run = try ReliabilityTests.launch(arguments: ["--keymap", keymap], stateDirectory: folder)
        defer { run.terminal.close() }
        try await run.terminal.waitFor(text: "no command has the id")
        try run.terminal.press("esc")
        try await run.terminal.waitUntil { !$0.contains("no command has the id") }
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        let log = try Data(contentsOf: folder.appendingPathComponent("appletkit.log"))
        #expect(!log.contains(0x1B) && !log.contains(0x07), "raw control bytes in the log")
        #expect(String(decoding: log, as: UTF8.self).contains("evil\\e[2J\\u{7}"))
    }

    @Test("A symlink in the log's place is not followed")
    func theLogDoesNotFollowASymlink() async throws {
        let folder = try Self.folder()
        let target = folder.appendingPathComponent("elsewhere.txt").path
        try Data("untouched\n".utf8).write(to: URL(fileURLWithPath: target))
        #expect(symlink(target, folder.appendingPathComponent("appletkit.log").path) == 0)
        let run = try ReliabilityTests.launch(stateDirectory: folder)
        defer { run.terminal.close() }
        try await run.terminal.waitFor(text: "Count: 0")
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "untouched\n")
    }

    @Test("--record writes a file only its owner can read")
    func recordingsArePrivate() async throws {
        let folder = try Self.folder()
        let file = folder.appendingPathComponent("typed.session").path
        let run = try ReliabilityTests.launch(arguments: ["--record", file], stateDirectory: folder)
        defer { run.terminal.close() }
        try await run.terminal.waitFor(text: "Count: 0")
        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        var info = stat()
        #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }
}
