import AppletSyncTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Two real `appletkit`s, each in its own terminal with its own state folder (as on two machines),
/// and one throwaway PostgreSQL server: the Dashboard's goal (a `SyncState`) goes from one to the
/// other. Each test has a server of its own; if PostgreSQL cannot start, the test fails saying why.
@Suite("SyncState across machines, end to end")
struct SyncEndToEndTests {
    /// A server for one test, removed at its end (also when the test fails).
    private func withCluster(_ body: (PostgresTestCluster) async throws -> Void) async throws {
        let cluster: PostgresTestCluster
        do {
            cluster = try await PostgresTestCluster.start()
        } catch {
            Issue.record("PostgreSQL could not be started, so this sync test cannot run: \(error)")
            throw error
        }
        defer { cluster.remove() }
        try await body(cluster)
    }

    /// An instance on the Dashboard tab, synced through `url`, its goal and "sync: synced" shown.
    private func start(_ url: String, expecting goal: Int = 20) async throws -> (ShellSession, ShellSession.Launch) {
        let shell = try await ShellSession.start()
        do {
            let (run, _) = try await shell.launchAndWait(["--tab", "2", "--sync-url", url])
            try await shell.tmux.waitUntil("goal \(goal) and \"sync: synced\"", timeout: .seconds(60)) {
                $0.contains("Goal \(goal):") && $0.row(0).contains("sync: synced")
            }
            return (shell, run)
        } catch {
            shell.shutdown()
            throw error
        }
    }

    private func quit(_ shell: ShellSession, _ run: ShellSession.Launch) async throws {
        try await shell.tmux.type("q")
        let (status, screen) = try await shell.waitForExit(run, timeout: .seconds(20))
        #expect(status == 0, "the app exited with \(status):\n\(screen)")
    }

    @Test("Two instances with separate folders and one database converge: each change reaches the other while both run")
    func twoInstancesConverge() async throws {
        try await withCluster { cluster in
            let (a, runA) = try await start(cluster.url)
            defer { a.shutdown() }
            let (b, runB) = try await start(cluster.url)
            defer { b.shutdown() }

            try await a.tmux.type(">")
            try await a.tmux.waitFor(text: "Goal 25:")
            try await b.tmux.waitFor(text: "Goal 25:", timeout: .seconds(30))

            try await b.tmux.type("<")
            try await b.tmux.type("<")
            try await b.tmux.waitFor(text: "Goal 15:")
            try await a.tmux.waitFor(text: "Goal 15:", timeout: .seconds(30))

            try await quit(a, runA)
            try await quit(b, runB)
            // Each folder kept what both agreed on.
            let (again, runAgain) = try await start(cluster.url, expecting: 15)
            defer { again.shutdown() }
            try await quit(again, runAgain)
        }
    }

    @Test("The server stops mid-session: both say they are offline, a change made offline survives a quit and reaches the other when the server is back")
    func serverStopsMidSession() async throws {
        try await withCluster { cluster in
            // A short connect timeout: each connection's own timeouts (cancelled once it is made)
            // are over 2 s after it, before the check that the apps are at rest.
            let url = cluster.url + "&connect_timeout=2"
            let (a, runA) = try await start(url)
            defer { a.shutdown() }
            let (b, _) = try await start(url)
            defer { b.shutdown() }

            try await cluster.stop()
            for shell in [a, b] {
                try await shell.tmux.waitUntil("the app to say it is offline", timeout: .seconds(30)) {
                    $0.row(0).contains("sync: offline") && $0.contains("Sync offline")
                }
            }
            // A change made offline is kept, and the app quits with status 0: nothing is lost.
            try await a.tmux.type(">")
            try await a.tmux.waitFor(text: "Goal 25:")
            try await quit(a, runA)
            let (restarted, _) = try await a.launchAndWait(["--tab", "2", "--sync-url", url])
            _ = restarted
            try await a.tmux.waitUntil("A's offline change after the restart", timeout: .seconds(30)) {
                $0.contains("Goal 25:") && $0.row(0).contains("sync: offline")
            }
            let screenB = try await b.tmux.capture()
            #expect(screenB.contains("Goal 20:"), "B cannot have A's change while the server is down:\n\(screenB)")

            try await cluster.restart()
            try await b.tmux.waitUntil("B to take A's offline change and be synced", timeout: .seconds(60)) {
                $0.contains("Goal 25:") && $0.row(0).contains("sync: synced")
            }
            try await a.tmux.waitUntil("A to be synced and say so", timeout: .seconds(60)) {
                $0.row(0).contains("sync: synced") && $0.contains("Sync back online")
            }

            // Connected and idle again, after a reconnection and a value taken in: at rest, like
            // before (no timer left from the attempts, no libdispatch worker started).
            for shell in [a, b] {
                try await shell.tmux.waitUntil("the toasts to go", timeout: .seconds(30)) { !$0.contains("Sync back online") }
            }
            try await Task.sleep(for: .seconds(2))   // the connect timeout, over
            for shell in [a, b] {
                let pid = try await shell.pid()
                let woke = try await Self.wakeUps(of: pid, over: .seconds(3))
                #expect(woke.total == 0, "the app woke \(woke.total) times in 3 s while connected and idle: \(woke.threads)")
            }
        }
    }

    /// Context switches of a process's threads over `duration` (from /proc): the total (0 for a
    /// process that waits without timers) and which threads they were.
    static func wakeUps(of pid: Int32, over duration: Duration) async throws -> (total: Int, threads: String) {
        func count() -> [String: (name: String, switches: Int)] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            var result: [String: (String, Int)] = [:]
            for task in tasks {
                let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
                let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
                let switches = status.split(separator: "\n").reduce(0) { sum, line in
                    guard line.hasPrefix("voluntary_ctxt_switches") || line.hasPrefix("nonvoluntary_ctxt_switches") else { return sum }
                    return sum + (Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0)
                }
                result[task] = (name, switches)
            }
            return result
        }
        let before = count()
        try await Task.sleep(for: duration)
        let after = count()
        var total = 0
        var threads: [String] = []
        for (task, now) in after.sorted(by: { $0.key < $1.key }) {
            let woke = now.switches - (before[task]?.switches ?? 0)
            total += woke
            if woke > 0 || before[task] == nil { threads.append("\(now.name) (\(task)): \(woke)\(before[task] == nil ? ", new" : "")") }
        }
        for task in before.keys where after[task] == nil { threads.append("\(before[task]!.name) (\(task)): ended") }
        return (total, threads.joined(separator: ", "))
    }

    @Test("Both change the goal while the server is down: when it is back they agree on the later change, and each is told of the conflict")
    func conflictIsReported() async throws {
        try await withCluster { cluster in
            let (a, _) = try await start(cluster.url)
            defer { a.shutdown() }
            let (b, _) = try await start(cluster.url)
            defer { b.shutdown() }

            try await cluster.stop()
            for shell in [a, b] {
                try await shell.tmux.waitUntil("offline", timeout: .seconds(30)) { $0.row(0).contains("sync: offline") }
            }
            try await a.tmux.type(">")
            try await a.tmux.waitFor(text: "Goal 25:")
            try await b.tmux.type("<")
            try await b.tmux.waitFor(text: "Goal 15:")
            try await cluster.restart()

            for shell in [a, b] {
                try await shell.tmux.waitUntil("the conflict reported, and synced", timeout: .seconds(60)) {
                    $0.row(0).contains("sync: synced") && $0.contains("Dashboard.goal: your change")
                }
            }
            // Both show the same goal: the one the server took last.
            let final = try await a.tmux.waitUntil("A to show a goal") { $0.contains("Goal 25:") || $0.contains("Goal 15:") }
            let winner = final.contains("Goal 25:") ? "Goal 25:" : "Goal 15:"
            try await b.tmux.waitFor(text: winner, timeout: .seconds(30))
            let row = try await cluster.sql("SELECT value::text FROM appletkit_sync WHERE app = 'appletkit' AND feature = 'Dashboard' AND id = 'goal'")
            #expect(winner == "Goal \(row):", "the server has \(row), the apps show \(winner)")
        }
    }

    @Test("A password in --sync-url is neither shown by ps nor written to the log, and an unreachable server is shown as offline")
    func passwordStaysSecret() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let missing = shell.directory.appendingPathComponent("no-server").path
        let url = "postgres://ada:hunter2@/notes?host=\(missing)"
        _ = try await shell.launchAndWait(["--tab", "2", "--sync-url", url])
        try await shell.tmux.waitUntil("offline", timeout: .seconds(30)) { $0.row(0).contains("sync: offline") }
        let pid = try await shell.pid()
        let commandLine = try String(decoding: Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")), as: UTF8.self)
        #expect(commandLine.contains("ada:*******@"), "cmdline: \(commandLine)")
        #expect(!commandLine.contains("hunter2"), "cmdline: \(commandLine)")
        try await shell.tmux.type("q")
        let log = shell.directory.appendingPathComponent(".local/state/appletkit/appletkit.log").path
        _ = try await shell.waitForFile("app.pid")
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(text.contains("postgres://ada@/notes"), "the log names the server: \(text.suffix(2000))")
        #expect(!text.contains("hunter2"), "the log has the password")
    }

    @Test("--sync-url in an app built without sync exits 2 and says how to enable it; a bad URL is a usage error")
    func syncURLNeedsTheProduct() async throws {
        let fixture = try AppBinary.path(named: "appletkit-fixture")
        let environment = CommandLineTests.environment
        let without = try await runProcess(fixture, ["--sync-url", "postgres://ada:hunter2@db/x"], environment: environment)
        #expect(without.exitedNormally && without.status == 2, "status \(without.status): \(without.stderrText)")
        #expect(without.stderrText.contains("built without sync") && without.stderrText.contains("AppletSync"), "\(without.stderrText)")
        #expect(!without.stderrText.contains("hunter2"))

        let bad = try await CommandLineTests.run(["--sync-url", "mysql://ada:hunter2@db/x"])
        #expect(bad.exitedNormally && bad.status == 64, "status \(bad.status): \(bad.stderrText)")
        #expect(bad.stderrText.contains("--sync-url") && !bad.stderrText.contains("hunter2"), "\(bad.stderrText)")

        var withVariable = environment
        withVariable["APPLETKIT_FIXTURE_SYNC_URL"] = "postgres://db/x"
        let variable = try await runProcess(fixture, [], environment: withVariable)
        #expect(variable.status == 2 && variable.stderrText.contains("APPLETKIT_FIXTURE_SYNC_URL"), "\(variable.status): \(variable.stderrText)")
    }
}
