import Foundation
import Testing

/// Work off the main actor in a real app, which runs it on `GlobalExecutorPool`'s threads: jobs
/// that block until a later job frees them, more of them than the pool's core threads (the pool
/// grows, nothing deadlocks), a task group of a thousand children, and a sleep on
/// `MainQueueClock`, all from the fixture's `w` key.
@Suite("Global executor pool, end to end")
struct GlobalExecutorEndToEndTests {
    @Test("Blocking jobs, a task group and a sleep all run on the pool, and no libdispatch worker starts")
    func workOffTheMainActorRunsOnThePool() async throws {
        let run = try await ReliabilityTests.launchFixture()
        defer { run.terminal.close() }
        try run.terminal.send("w")
        let screen = try await run.terminal.waitFor(text: "Work: done", timeout: .seconds(30))
        let line = try #require(screen.lines.first { $0.contains("Work: done") })
        let numbers = Dictionary(uniqueKeysWithValues: line.split(separator: " ").compactMap { word -> (String, Int)? in
            let parts = word.split(separator: "=")
            guard parts.count == 2, let value = Int(parts[1]) else { return nil }
            return (String(parts[0]), value)
        })
        #expect(numbers["sum"] == 500_500, "\(line)")
        // The task group's children alone are a thousand jobs.
        #expect((numbers["jobs"] ?? 0) > 1_000, "\(line)")
        // More jobs blocked at once than the core threads: the pool grew past them to run the
        // job that frees them.
        let processors = ProcessInfo.processInfo.activeProcessorCount
        #expect((numbers["threads"] ?? 0) > max(2, processors), "\(line)")

        // Which threads the process has: the pool's, and none of libdispatch's workers for its
        // global queues, whose first start also starts a monitor that wakes every second.
        let names = Self.threadNames(of: run.terminal.processID)
        #expect(names.contains("appletkit.pool"), "\(names)")
        #expect(!names.contains { $0.hasSuffix("-qos") },
                "a libdispatch global-queue worker ran: \(names)")

        try run.terminal.send("q")
        #expect(await run.terminal.waitForExit() == .exited(0))
        ReliabilityTests.expectRestored(run.terminal)
    }

    /// The names of a process's threads (`/proc/PID/task/*/comm`, at most 15 characters: the end
    /// of libdispatch's longer names, "oot.default-qos" for a global queue's worker and
    /// "-qos.overcommit" for its manager and serial queues' threads).
    static func threadNames(of pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }.sorted()
    }
}
