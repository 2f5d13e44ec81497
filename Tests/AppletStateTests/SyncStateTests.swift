import Foundation
import Synchronization
import Testing
import TestSupport
@testable import AppletState
#if canImport(Glibc)
import Glibc
#endif

struct SyncSettings: Codable, Equatable, Sendable {
    var theme = "dark"
    var fontSize = 12
    var recent: [String] = []
}

extension Application {
    var syncNote: SyncState<String> { syncState(initial: "", feature: "SyncTests", id: "note") }
    var syncCount: SyncState<Int> { syncState(initial: 0, feature: "SyncTests", id: "count") }
    var syncSettings: SyncState<SyncSettings> { syncState(initial: SyncSettings(), feature: "SyncTests", id: "settings") }
    var syncLines: SyncState<[String]> { syncState(initial: [], feature: "SyncTests", id: "lines") }
}

/// Two `Application`s on one folder behave as two processes: separate memory, separate watchers,
/// separate lock descriptors (flock excludes between open file descriptions in one process too).
/// Serialized: the timing assertions and the inotify descriptor count want a quiet neighbourhood.
@Suite("SyncState", .serialized)
struct SyncStateTests {
    static let childDirectoryVariable = "APPLETKIT_SYNC_CHILD_DIR"

    // MARK: Helpers

    /// A fresh folder for one test, removed afterwards.
    static func withFolder<R>(_ body: (String) async throws -> R) async throws -> R {
        let folder = temporaryPath("syncstate")
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try await body(folder)
    }

    static func application(_ folder: String) -> Application {
        let app = Application()
        app.storage = StorageConfiguration(appID: "synctests", directory: folder)
        return app
    }

    /// Polls `condition` every millisecond until it holds or `timeout` passes (generous: the
    /// machine may be loaded; the latency itself is measured separately).
    static func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
        await TestSupport.eventually(timeout: timeout, every: .milliseconds(1), condition)
    }

    static func path(_ folder: String, _ name: String) -> String { "\(folder)/sync/SyncTests.\(name).json" }

    static func onDisk<Value: Decodable>(_ type: Value.Type, _ path: String) -> Value? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    // MARK: Propagation

    @Test func aSetInOneInstanceReachesTheOtherQuickly() async throws {
        try await Self.withFolder { folder in
            let a = Self.application(folder), b = Self.application(folder)
            #expect(a.syncNote.value == "" && b.syncNote.value == "")

            // B's `changes` hears every value, with the time it arrived.
            let heard = Mutex<[(String, ContinuousClock.Instant)]>([])
            let stream = b.syncNote.changes
            let listener = Task {
                for await value in stream { heard.withLock { $0.append((value, .now)) } }
            }
            defer { listener.cancel() }

            var polled: [Double] = [], streamed: [Double] = []
            for round in 0..<25 {
                let value = "value \(round)"
                let start = ContinuousClock.now
                a.syncNote.value = value
                let seen = await Self.eventually { b.syncNote.value == value }
                try #require(seen, "B never saw \(value)")
                polled.append(Self.milliseconds(ContinuousClock.now - start))
                let arrived = await Self.eventually { heard.withLock { $0.last?.0 == value } }
                try #require(arrived, "B's changes stream never heard \(value)")
                streamed.append(Self.milliseconds(heard.withLock { $0.last!.1 } - start))
            }
            #expect(heard.withLock { $0.map(\.0) } == (0..<25).map { "value \($0)" })

            polled.sort()
            streamed.sort()
            let median = streamed[streamed.count / 2]
            print("SyncState propagation A→B over 25 sets: changes stream median \(String(format: "%.2f", median)) ms, max \(String(format: "%.2f", streamed.last!)) ms; polled value median \(String(format: "%.2f", polled[polled.count / 2])) ms")
            // Far above the ~10 ms it takes: what this catches is a watcher that stopped hearing
            // (values then arrive only from a poll, or never), not a slow machine.
            #expect(median < 1000, "median propagation \(median) ms")
            #expect(polled[polled.count / 2] < 1000)
        }
    }

    @Test func roundTripBothWays() async throws {
        try await Self.withFolder { folder in
            let a = Self.application(folder), b = Self.application(folder)
            #expect(b.syncSettings.value == SyncSettings())

            a.syncSettings.value = SyncSettings(theme: "light", fontSize: 14, recent: ["a.txt"])
            #expect(await Self.eventually { b.syncSettings.value.theme == "light" })
            #expect(b.syncSettings.value == SyncSettings(theme: "light", fontSize: 14, recent: ["a.txt"]))

            b.syncSettings.modify { $0.recent.append("b.txt"); $0.fontSize += 1 }
            #expect(await Self.eventually { a.syncSettings.value.fontSize == 15 })
            #expect(a.syncSettings.value == SyncSettings(theme: "light", fontSize: 15, recent: ["a.txt", "b.txt"]))
            #expect(Self.onDisk(SyncSettings.self, Self.path(folder, "settings")) == a.syncSettings.value)

            // A third instance starting later reads the file.
            let c = Self.application(folder)
            #expect(c.syncSettings.value == a.syncSettings.value)

            // Private to the user: folder 0700, files 0600.
            func mode(_ path: String) -> Int? {
                (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
            }
            #expect(mode("\(folder)/sync") == 0o700)
            #expect(mode(Self.path(folder, "settings")) == 0o600)
            #expect(mode("\(folder)/sync/SyncTests.settings.lock") == 0o600)
        }
    }

    @Test func wrapperAndStaticSpellingsUseTheCurrentStore() async throws {
        struct Model {
            @SyncState(\.syncNote) var note
        }
        try await Self.withFolder { folder in
            let a = Self.application(folder), b = Self.application(folder)
            _ = b.syncNote.value
            Application.withCurrent(a) {
                let model = Model()
                model.note = "wrapped"
                model.$note.wrappedValue += "!"
                #expect(model.note == "wrapped!")
                #expect(Application.state(\.syncNote).value == "wrapped!")
                Application.syncState(\.syncNote).value += "?"
                Application.state(\.syncNote).binding.wrappedValue += "."
            }
            #expect(a.syncNote.value == "wrapped!?.")
            #expect(await Self.eventually { b.syncNote.value == "wrapped!?." })
            #expect(Application.withCurrent(b) { Model().note } == "wrapped!?.")
        }
    }

    @Test func withoutInotifyTheFolderIsPolled() async throws {
        try await Self.withFolder { folder in
            let a = Self.application(folder), b = Self.application(folder)
            // What happens when inotify has no instance or watch left.
            let center = a.box(key: SyncCenter.registryKey) { SyncCenter(application: a, usesInotify: false) }
            _ = a.syncNote.value
            #expect(center.isPolling)
            #expect(b.syncCenter.isPolling == false)
            let start = ContinuousClock.now
            b.syncNote.value = "polled"
            #expect(await Self.eventually { a.syncNote.value == "polled" })
            print("SyncState: a change reached a polling instance in \(String(format: "%.1f", Self.milliseconds(ContinuousClock.now - start))) ms")
            a.syncNote.value = "back"
            #expect(await Self.eventually { b.syncNote.value == "back" })
            #expect(a.syncNote.syncFile?.writeCount.load(ordering: .relaxed) == 1)
        }
    }

    @Test func slicesWriteThroughToOtherInstances() async throws {
        try await Self.withFolder { folder in
            let a = Self.application(folder), b = Self.application(folder)
            _ = b.syncSettings.value
            Application.withCurrent(a) {
                Application.slice(\.syncSettings, \.fontSize).modify { $0 += 4 }
                Application.slice(\.syncSettings, \.theme).value = "solarized"
            }
            #expect(await Self.eventually { b.syncSettings.value.theme == "solarized" })
            #expect(b.syncSettings.value.fontSize == 16)
            #expect(Self.onDisk(SyncSettings.self, Self.path(folder, "settings"))?.fontSize == 16)
        }
    }

    // MARK: No lost or torn writes

    @Test func concurrentModifyFromTwoInstancesLosesNothing() async throws {
        try await Self.withFolder { folder in
            let a = Self.application(folder), b = Self.application(folder)
            let counterA = a.syncCount, counterB = b.syncCount
            let start = ContinuousClock.now
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    let counter = task % 2 == 0 ? counterA : counterB
                    group.addTask { for _ in 0..<125 { counter.modify { $0 += 1 } } }
                }
            }
            print("SyncState: 2 × 500 modify across two instances took \(String(format: "%.0f", Self.milliseconds(ContinuousClock.now - start))) ms")
            #expect(Self.onDisk(Int.self, Self.path(folder, "count")) == 1000)
            #expect(await Self.eventually { counterA.value == 1000 && counterB.value == 1000 })
            #expect(counterA.value == 1000)
            #expect(counterB.value == 1000)
        }
    }

    @Test func aReaderNeverSeesTornJSON() async throws {
        try await Self.withFolder { folder in
            let a = Self.application(folder), b = Self.application(folder)
            let path = Self.path(folder, "lines")
            let lines = a.syncLines, other = b.syncLines
            _ = other.value
            // The reader is a thread of its own (not the shared task pool, which a loaded machine
            // may not get round to), and writes go on until it has read the file a good few times.
            let done = Atomic<Bool>(false)
            let reads = Atomic<Int>(0), torn = Atomic<Int>(0)
            let finished = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                while !done.load(ordering: .relaxed) {
                    guard let data = FileManager.default.contents(atPath: path) else { continue }
                    reads.add(1, ordering: .relaxed)
                    if (try? JSONDecoder().decode([String].self, from: data)) == nil { torn.add(1, ordering: .relaxed) }
                }
                finished.signal()
            }
            // ~100 KB values: many pages per write.
            var round = 0
            while round < 100 || (reads.load(ordering: .relaxed) < 20 && round < 2_000) {
                let value = (0..<2000).map { "round \(round) line \($0) " + String(repeating: "x", count: 30) }
                if round % 2 == 0 { lines.value = value } else { other.modify { $0 = value } }
                round += 1
            }
            let lastRound = round - 1
            done.store(true, ordering: .relaxed)
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async { finished.wait(); c.resume() }
            }
            let result = (reads: reads.load(ordering: .relaxed), torn: torn.load(ordering: .relaxed))
            print("SyncState: reader read the file \(result.reads) times during \(lastRound + 1) writes, torn: \(result.torn)")
            #expect(result.torn == 0)
            #expect(result.reads > 0)
            #expect(await Self.eventually { lines.value.first == "round \(lastRound) line 0 " + String(repeating: "x", count: 30) })
        }
    }

    // MARK: Problems

    @Test func aCorruptFileIsMovedAsideAndReported() async throws {
        try await Self.withFolder { folder in
            let path = Self.path(folder, "count")
            try FileManager.default.createDirectory(atPath: "\(folder)/sync", withIntermediateDirectories: true)
            try Data("{ not json".utf8).write(to: URL(fileURLWithPath: path))

            let a = Self.application(folder)
            #expect(a.syncCount.value == 0)
            let issues = a.storeIssues.value
            try #require(issues.count == 1)
            let aside = try #require(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/sync")
                .first { $0.hasPrefix("SyncTests.count.json.corrupt-") })
            #expect(issues[0].message.contains(path))
            #expect(issues[0].message.contains("\(folder)/sync/\(aside)"))
            #expect(issues[0].path == path)
            #expect(FileManager.default.contents(atPath: "\(folder)/sync/\(aside)") == Data("{ not json".utf8))
            #expect(!FileManager.default.fileExists(atPath: path))

            a.syncCount.value = 5
            #expect(Self.onDisk(Int.self, path) == 5)

            // Garbage written by something else while running: moved aside too, memory kept.
            let b = Self.application(folder)
            #expect(b.syncCount.value == 5)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data("garbage".utf8))
            try handle.close()
            // Both watch the folder: whichever looks first moves it aside, the other finds it gone.
            #expect(await Self.eventually { a.storeIssues.value.count + b.storeIssues.value.count == 2 })
            let second = (a.storeIssues.value.dropFirst() + b.storeIssues.value).first
            #expect(second?.message.contains("\(path).corrupt-") == true)
            #expect(second?.message.contains("the value in memory is kept") == true)
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(a.syncCount.value == 5 && b.syncCount.value == 5)
            // The next write makes a good file again, and both see it.
            b.syncCount.value = 6
            #expect(await Self.eventually { a.syncCount.value == 6 })
        }
    }

    @Test func anUnusableFolderKeepsWorkingInMemoryAndReportsOnce() async throws {
        try await Self.withFolder { folder in
            // Root ignores permission bits: a parent that is a regular file stops it for sure.
            let blocker = "\(folder)/blocker"
            try Data("not a folder".utf8).write(to: URL(fileURLWithPath: blocker))
            let a = Self.application("\(blocker)/state")
            #expect(a.syncNote.value == "")
            a.syncNote.value = "in memory"
            a.syncCount.modify { $0 += 2 }
            a.syncCount.value += 1
            #expect(a.syncNote.value == "in memory")
            #expect(a.syncCount.value == 3)
            let issues = a.storeIssues.value
            #expect(issues.count == 1)
            #expect(issues.first?.path == "\(blocker)/state/sync")
            #expect(issues.first?.message.contains("\(blocker)/state/sync") == true)
            #expect(issues.first?.message.contains("memory") == true)
            #expect(issues.first?.message.contains("--state-dir") == true)
            #expect(a.syncNote.syncFile?.writeCount.load(ordering: .relaxed) == 0)
        }
    }

    @Test func aValueFromOutsideIsNotWrittenBack() async throws {
        try await Self.withFolder { folder in
            let a = Self.application(folder), b = Self.application(folder)
            _ = b.syncNote.value
            let fileA = try #require(a.syncNote.syncFile), fileB = try #require(b.syncNote.syncFile)
            for round in 0..<10 {
                a.syncNote.value = "from A \(round)"
                #expect(await Self.eventually { b.syncNote.value == "from A \(round)" })
            }
            try await Task.sleep(for: .milliseconds(300))   // room for an echo, if there were one
            #expect(fileB.writeCount.load(ordering: .relaxed) == 0)
            #expect(fileA.writeCount.load(ordering: .relaxed) == 10)
            #expect(fileB.reloadCount.load(ordering: .relaxed) == 10)
            #expect(fileA.reloadCount.load(ordering: .relaxed) == 0)   // its own writes are skipped
            #expect(a.syncNote.value == "from A 9")
        }
    }

    // MARK: Lifetime

    static func inotifyDescriptors() -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == "anon_inode:inotify" }.count
    }

    @Test func aStoreThatGoesAwayStopsItsWatcher() async throws {
        try await Self.withFolder { folder in
            let before = Self.inotifyDescriptors()
            weak var weakApp: Application?
            weak var weakCenter: SyncCenter?
            do {
                var apps: [Application] = []
                for _ in 0..<20 {
                    let app = Self.application(folder)
                    app.syncNote.value = "x"
                    apps.append(app)
                }
                weakApp = apps[0]
                weakCenter = apps[0].syncCenter
                #expect(Self.inotifyDescriptors() >= 20)
            }
            // (A watcher busy with an event holds its center until it is done.)
            #expect(await Self.eventually { weakApp == nil && weakCenter == nil })
            // (`before` may still count a descriptor of an earlier test that is being closed.)
            #expect(await Self.eventually { Self.inotifyDescriptors() <= before })
        }
    }

    // MARK: Two real processes

    /// Runs this test binary again as a second process that adds 500 to the shared counter while
    /// this one adds 500.
    @Test func twoProcessesShareOneCounter() async throws {
        let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        guard let executable, executable.hasSuffix(".xctest") else {
            print("SyncState: not run from an .xctest binary on Linux; the two-process test is skipped")
            return
        }
        try await Self.withFolder { folder in
            let a = Self.application(folder)
            let counter = a.syncCount
            _ = counter.value

            let child = Process()
            child.executableURL = URL(fileURLWithPath: executable)
            child.arguments = ["--testing-library", "swift-testing", "--filter", "SyncStateTests/childProcessAddsToTheCounter"]
            child.environment = ProcessInfo.processInfo.environment.merging([Self.childDirectoryVariable: folder]) { $1 }
            let output = "\(folder)/child.log"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            child.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            child.standardError = child.standardOutput
            try child.run()
            for _ in 0..<500 { counter.modify { $0 += 1 } }
            let deadline = ContinuousClock.now + .seconds(60)
            while child.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            if child.isRunning {
                child.terminate()
                child.waitUntilExit()
                Issue.record("the child process did not finish within 60 s")
            }
            let log = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            #expect(child.terminationStatus == 0, "child failed:\n\(log)")
            #expect(log.contains("childProcessAddsToTheCounter"), "the child did not run the worker test:\n\(log)")
            #expect(Self.onDisk(Int.self, Self.path(folder, "count")) == 1000)
            #expect(await Self.eventually { counter.value == 1000 })
        }
    }

    /// The second process of `twoProcessesShareOneCounter` (skipped in a normal run).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[Self.childDirectoryVariable] != nil))
    func childProcessAddsToTheCounter() async throws {
        let folder = try #require(ProcessInfo.processInfo.environment[Self.childDirectoryVariable])
        let app = Self.application(folder)
        let counter = app.syncCount
        for _ in 0..<500 { counter.modify { $0 += 1 } }
        // Stay until the other process is done, to see its last write arrive through the watcher.
        #expect(await Self.eventually { counter.value == 1000 })
    }
}
