import Foundation
import Synchronization
import Testing
import TestSupport
@testable import AppletState
#if canImport(Glibc)
import Glibc
#endif

private struct Prefs: Codable, Equatable, Sendable {
    var theme = "dark"
    var fontSize = 12
}

private struct Outer: Codable, Equatable, Sendable {
    var name = "outer"
    var inner = Prefs()
    var tags: [String] = ["a", "b"]
}

private enum Mode: Codable, Equatable, Sendable {
    case off
    case timer(minutes: Int)
}

private extension Application {
    var pCounter: StoredState<Int> { storedState(initial: 0, feature: "Counter", id: "count") }
    var pPrefs: StoredState<Prefs> { storedState(initial: Prefs(), feature: "Settings", id: "prefs") }
    var pOuter: StoredState<Outer> { storedState(initial: Outer(), feature: "Settings", id: "outer") }
    var pMode: StoredState<Mode> { storedState(initial: .off, feature: "Settings", id: "mode") }
    var pName: StoredState<String> { storedState(initial: "none", feature: "Settings", id: "name") }
    var pRatio: StoredState<Double> { storedState(initial: 0, feature: "Settings", id: "ratio") }
    subscript(pKey index: Int) -> StoredState<Int> { storedState(initial: -1, feature: "Many", id: "k\(index)") }

    var pLayout: FileState<Prefs> { fileState(initial: Prefs(), feature: "Editor", id: "layout") }
    var pNumbers: FileState<[Int]> { fileState(initial: [], feature: "Editor", id: "numbers") }

    var pToken: SecureState { secureState(feature: "Sync", id: "token") }

    // One feature and id as four kinds.
    var pCounterFile: FileState<Int> { fileState(initial: 10, feature: "Counter", id: "count") }
    var pCounterMemory: State<Int> { state(initial: 0, feature: "Counter", id: "count") }
    var pCounterSecret: SecureState { secureState(feature: "Counter", id: "count") }
}

/// A temporary state folder and fresh stores on it, like runs of an app. Used by one test at a
/// time, from its own task.
final class Sandbox: @unchecked Sendable {
    let root: String
    var directory: String { root + "/state" }
    var storePath: String { directory + "/test.json" }
    private var launched: [Application] = []

    init() {
        root = temporaryPath("appletstate")
        try! FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    /// A new `Application` on this folder (a "restart" when called again).
    func launch(directory: String? = nil) -> Application {
        let app = Application()
        app.storage = StorageConfiguration(appID: "test", directory: directory ?? self.directory)
        launched.append(app)
        return app
    }

    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Stops every store's writing (so no retry or scheduled write makes the folder again), then
    /// deletes the folder.
    func remove() {
        for app in launched { app.persistence.close() }
        try? FileManager.default.removeItem(atPath: root)
    }
}

func readJSONObject(_ path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

func fileMode(_ path: String) -> mode_t? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o777
}

func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

private struct Wrapped {
    @StoredState(\.pCounter) var counter
    @FileState(\.pLayout) var layout
    @SecureState(\.pToken) var token
}

@Suite("Persistence")
struct PersistenceTests {
    // MARK: Round trips

    @Test func storedStateSurvivesARestart() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let first = sandbox.launch()
        Application.withCurrent(first) {
            Application.storedState(\.pCounter).value = 5
            Application.storedState(\.pPrefs).modify { $0.theme = "light" }
            Application.storedState(\.pName).value = "a \"quoted\" / name ✓"
        }
        first.flush()
        let second = sandbox.launch()
        Application.withCurrent(second) {
            #expect(Application.storedState(\.pCounter).value == 5)
            #expect(Application.storedState(\.pPrefs).value == Prefs(theme: "light", fontSize: 12))
            #expect(Application.storedState(\.pName).value == "a \"quoted\" / name ✓")
        }
        #expect(second.storeIssues.value.isEmpty)
        #expect(try readJSONObject(sandbox.storePath)["Counter.count"] as? Int == 5)
    }

    @Test func readingAloneWritesNothing() async {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) { _ = Application.storedState(\.pCounter).value }
        app.flush()
        try? await Task.sleep(for: .milliseconds(250))
        #expect(!exists(sandbox.storePath))
        #expect(app.persistentFileWrites == 0)
    }

    @Test func keysNeverReadInThisRunAreKept() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        try sandbox.write(#"{"Other.value": {"deep": [1, 2.5, null, true, "x/y"]}, "Other.ratio": 0.1, "Other.big": 1e300, "Other.huge": 18446744073709551615}"#, to: sandbox.storePath)
        let app = sandbox.launch()
        Application.withCurrent(app) { Application.storedState(\.pCounter).value = 1 }
        app.flush()
        let object = try readJSONObject(sandbox.storePath)
        #expect(object["Counter.count"] as? Int == 1)
        let other = try #require(object["Other.value"] as? [String: Any])
        let deep = try #require(other["deep"] as? [Any])
        #expect(deep.count == 5)
        #expect(deep[4] as? String == "x/y")
        #expect(object["Other.ratio"] as? Double == 0.1)
        #expect(object["Other.big"] as? Double == 1e300)
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: sandbox.storePath)), as: UTF8.self).contains("18446744073709551615"))
    }

    @Test func doublesRoundTripExactly() {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let values: [Double] = [0.1, 1.0 / 3.0, 1e-300, -2.5e300, 42]
        for value in values {
            let app = sandbox.launch()
            Application.withCurrent(app) { Application.storedState(\.pRatio).value = value }
            app.flush()
            Application.withCurrent(sandbox.launch()) { #expect(Application.storedState(\.pRatio).value == value) }
        }
    }

    // MARK: Coalescing and flush

    @Test func setsAreCoalescedIntoFewWrites() async throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        let counter = Application.withCurrent(app) { Application.storedState(\.pCounter) }
        for i in 1...1_000 { counter.value = i }
        // No flush: the scheduled write (~100 ms after the first set) saves the last value.
        let saved = await eventually { ((try? readJSONObject(sandbox.storePath))?["Counter.count"] as? Int) == 1_000 }
        #expect(saved)
        try await Task.sleep(for: .milliseconds(300))
        #expect(app.persistentFileWrites >= 1)
        #expect(app.persistentFileWrites <= 20, "1,000 sets took \(app.persistentFileWrites) writes")
        app.flush()
    }

    @Test func flushWritesAtOnce() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) {
            Application.storedState(\.pCounter).value = 7
            Application.fileState(\.pNumbers).value = [1, 2, 3]
        }
        app.flush()     // no waiting: the files are there when flush returns
        #expect(try readJSONObject(sandbox.storePath)["Counter.count"] as? Int == 7)
        #expect(exists(sandbox.directory + "/files/Editor.numbers.json"))
        #expect(app.persistentFileWrites == 2)
        app.flush()     // nothing pending: nothing written
        #expect(app.persistentFileWrites == 2)
    }

    // MARK: Spellings

    @Test func wrappersReadAndWrite() {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) {
            let wrapped = Wrapped()
            wrapped.counter += 2
            wrapped.$counter.wrappedValue += 1
            wrapped.layout.fontSize = 20
            wrapped.$layout.wrappedValue.theme = "solar"
            #expect(wrapped.token == nil)
            wrapped.token = "abc"
            #expect(wrapped.$token.wrappedValue == "abc")
            #expect(Application.storedState(\.pCounter).value == 3)
            #expect(Application.fileState(\.pLayout).value == Prefs(theme: "solar", fontSize: 20))
        }
        app.flush()
        Application.withCurrent(sandbox.launch()) {
            let wrapped = Wrapped()
            #expect(wrapped.counter == 3)
            #expect(wrapped.layout == Prefs(theme: "solar", fontSize: 20))
            #expect(wrapped.token == "abc")
        }
    }

    @Test func stateOverloadsReachTheSameBoxes() {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) {
            Application.state(\.pCounter).value = 11
            #expect(Application.storedState(\.pCounter).value == 11)
            #expect(app.pCounter.value == 11)
            Application.state(\.pLayout).value.theme = "x"
            #expect(Application.fileState(\.pLayout).value.theme == "x")
            Application.state(\.pToken).value = "t"
            #expect(Application.secureState(\.pToken).value == "t")
            // Generic code over every kind of state.
            func bump<S: MutableApplicationState>(_ state: S) where S.Value == Int { state.modify { $0 += 1 } }
            bump(Application.state(\.pCounter))
            #expect(Application.state(\.pCounter).binding.wrappedValue == 12)
        }
        app.flush()
    }

    @Test func slicesWriteThroughAndPersist() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) {
            Application.slice(\.pPrefs, \.fontSize).value = 20
            Application.slice(\.pLayout, \.theme).modify { $0 = "paper" }
            #expect(Application.constant(\.pPrefs, \.theme).value == "dark")
        }
        app.flush()
        Application.withCurrent(sandbox.launch()) {
            #expect(Application.storedState(\.pPrefs).value == Prefs(theme: "dark", fontSize: 20))
            #expect(Application.fileState(\.pLayout).value.theme == "paper")
        }
    }

    @Test func changesStreamSeesStoredSets() async {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        let counter = app.pCounter
        let stream = counter.changes
        let reader = Task { () -> [Int] in
            var seen: [Int] = []
            for await value in stream {
                seen.append(value)
                if seen.count == 2 { break }
            }
            return seen
        }
        counter.value = 1
        counter.modify { $0 += 1 }
        #expect(await reader.value == [1, 2])
        app.flush()
    }

    // MARK: Files on disk

    @Test func filesAndFoldersArePrivate() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) {
            Application.storedState(\.pCounter).value = 1
            Application.fileState(\.pLayout).value.fontSize = 14
            Application.secureState(\.pToken).value = "secret"
        }
        app.flush()
        #expect(fileMode(sandbox.directory) == 0o700)
        #expect(fileMode(sandbox.storePath) == 0o600)
        #expect(fileMode(sandbox.directory + "/files") == 0o700)
        #expect(fileMode(sandbox.directory + "/files/Editor.layout.json") == 0o600)
        #expect(fileMode(sandbox.directory + "/secure") == 0o700)
        #expect(fileMode(sandbox.directory + "/secure/Sync.token") == 0o600)
        #expect(fileMode(sandbox.directory + "/test.lock") == 0o600)
        // No temporary files left behind; the lock that keeps a second process from writing here.
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory)
        #expect(names.sorted() == ["files", "secure", "test.json", "test.lock"])
    }

    @Test func fileStateIsPrettyJSON() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) { Application.fileState(\.pLayout).value = Prefs(theme: "light/blue", fontSize: 14) }
        app.flush()
        let text = try String(contentsOfFile: sandbox.directory + "/files/Editor.layout.json", encoding: .utf8)
        #expect(text == "{\n  \"fontSize\" : 14,\n  \"theme\" : \"light/blue\"\n}\n")
        Application.withCurrent(sandbox.launch()) {
            #expect(Application.fileState(\.pLayout).value == Prefs(theme: "light/blue", fontSize: 14))
        }
    }

    @Test func fileStateInAChosenFolder() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let folder = sandbox.root + "/config/editor"
        let app = sandbox.launch()
        let state = app.fileState(initial: ["x": 1], feature: "Editor", id: "keys", folder: folder)
        state.value["y"] = 2
        app.flush()
        let object = try readJSONObject(folder + "/Editor.keys.json")
        #expect(object["y"] as? Int == 2)
        #expect(!exists(sandbox.directory + "/files"))
    }

    // MARK: Secrets

    @Test func secretsAreWrittenAtOnceAndDeletedOnNil() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let path = sandbox.directory + "/secure/Sync.token"
        let app = sandbox.launch()
        Application.withCurrent(app) { Application.secureState(\.pToken).value = "p@ss wörd" }
        // No flush: a secret is written when it is set.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "p@ss wörd")
        Application.withCurrent(sandbox.launch()) { #expect(Application.secureState(\.pToken).value == "p@ss wörd") }
        Application.withCurrent(app) { Application.secureState(\.pToken).value = nil }
        #expect(!exists(path))
        Application.withCurrent(sandbox.launch()) { #expect(Application.secureState(\.pToken).value == nil) }
        Application.withCurrent(app) { Application.secureState(\.pToken).value = nil }   // deleting twice is fine
        #expect(app.storeIssues.value.isEmpty)
    }

    @Test func looseSecretModesAreTightened() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let folder = sandbox.directory + "/secure"
        try sandbox.write("old", to: folder + "/Sync.token")
        chmod(folder, 0o755)
        chmod(folder + "/Sync.token", 0o644)
        let app = sandbox.launch()
        Application.withCurrent(app) { #expect(Application.secureState(\.pToken).value == "old") }
        #expect(fileMode(folder) == 0o700)
        #expect(fileMode(folder + "/Sync.token") == 0o600)
        chmod(folder, 0o777)   // loosened again while running: checked before each write
        Application.withCurrent(app) { Application.secureState(\.pToken).value = "new" }
        #expect(fileMode(folder) == 0o700)
        #expect(app.storeIssues.value.isEmpty)
    }

    @Test func concurrentSecretSetsEndWithTheLastValue() async throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        let token = app.pToken
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask { for i in 0..<25 { token.value = i % 5 == 4 ? nil : "t\(task)-\(i)" } }
            }
        }
        let onDisk = try? String(contentsOfFile: sandbox.directory + "/secure/Sync.token", encoding: .utf8)
        #expect(onDisk == token.value)
    }

    // MARK: Bad input

    @Test(arguments: [
        #"{"Counter.count": 4, "Settings.pre"#,   // cut short
        "",                                        // empty
        "[1, 2, 3]",                               // valid JSON, not an object
        "\u{0}\u{1}garbage",
    ])
    func corruptStoreFileIsMovedAside(content: String) throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        try sandbox.write(content, to: sandbox.storePath)
        let app = sandbox.launch()
        Application.withCurrent(app) {
            #expect(Application.storedState(\.pCounter).value == 0)
            #expect(Application.storedState(\.pPrefs).value == Prefs())
        }
        let issues = app.storeIssues.value
        #expect(issues.count == 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory)
        let aside = try #require(names.first { $0.hasPrefix("test.json.corrupt-") })
        #expect(aside.wholeMatch(of: /test\.json\.corrupt-\d{8}-\d{6}/) != nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.directory + "/" + aside)) == Data(content.utf8))
        let message = try #require(issues.first).message
        #expect(message.contains(sandbox.storePath))
        #expect(message.contains(sandbox.directory + "/" + aside))
        #expect(message.contains("Nothing else was lost"))
        // Later writes make a fresh file.
        Application.withCurrent(app) { Application.storedState(\.pCounter).value = 9 }
        app.flush()
        #expect(try readJSONObject(sandbox.storePath)["Counter.count"] as? Int == 9)
        #expect(app.storeIssues.value.count == 1)
    }

    @Test func corruptFileStateIsMovedAside() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let path = sandbox.directory + "/files/Editor.layout.json"
        try sandbox.write("{\n  \"fontSize\" : 1", to: path)
        let app = sandbox.launch()
        Application.withCurrent(app) { #expect(Application.fileState(\.pLayout).value == Prefs()) }
        let issue = try #require(app.storeIssues.value.first)
        #expect(app.storeIssues.value.count == 1)
        #expect(issue.message.contains(path))
        #expect(issue.message.contains(path + ".corrupt-"))
        #expect(issue.message.contains("Nothing else was lost"))
        #expect(!exists(path))
        Application.withCurrent(app) { Application.fileState(\.pLayout).value.fontSize = 3 }
        app.flush()
        #expect(try readJSONObject(path)["fontSize"] as? Int == 3)
    }

    @Test func fileStateOfTheWrongShapeIsMovedAside() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let path = sandbox.directory + "/files/Editor.numbers.json"
        try sandbox.write(#"{"not": "an array"}"#, to: path)
        let app = sandbox.launch()
        Application.withCurrent(app) { #expect(Application.fileState(\.pNumbers).value == []) }
        #expect(app.storeIssues.value.count == 1)
        #expect(app.storeIssues.value.first?.message.contains("Editor.numbers") == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory + "/files")
        #expect(names.contains { $0.hasPrefix("Editor.numbers.json.corrupt-") })
    }

    @Test func aKeyThatNoLongerDecodesStartsFromItsInitialValue() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        try sandbox.write(#"{"Counter.count": "seven", "Settings.name": "kept", "Other.value": {"a": 1}}"#, to: sandbox.storePath)
        let app = sandbox.launch()
        Application.withCurrent(app) {
            #expect(Application.storedState(\.pCounter).value == 0)
            #expect(Application.storedState(\.pName).value == "kept")
        }
        let issues = app.storeIssues.value
        #expect(issues.count == 1)
        #expect(issues.first?.message.contains("'Counter.count'") == true)
        #expect(issues.first?.message.contains("Other saved values are unaffected") == true)
        // The other keys stay intact on the next write.
        Application.withCurrent(app) { Application.storedState(\.pName).value = "changed" }
        app.flush()
        let object = try readJSONObject(sandbox.storePath)
        #expect(object["Settings.name"] as? String == "changed")
        #expect((object["Other.value"] as? [String: Any])?["a"] as? Int == 1)
        #expect(object["Counter.count"] as? String == "seven")   // untouched until it is set
        Application.withCurrent(app) { Application.storedState(\.pCounter).value = 7 }
        app.flush()
        #expect(try readJSONObject(sandbox.storePath)["Counter.count"] as? Int == 7)
    }

    @Test func aTypeThatGainedFieldsLoadsWithTheirInitialValues() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        // Written by an older version: Prefs had no fontSize, Outer had no tags and its Prefs no fontSize.
        try sandbox.write(#"""
        {"Settings.prefs": {"theme": "light"},
         "Settings.outer": {"name": "saved", "inner": {"theme": "solar"}},
         "Settings.mode": {"timer": {"minutes": 25}}}
        """#, to: sandbox.storePath)
        let app = sandbox.launch()
        Application.withCurrent(app) {
            #expect(Application.storedState(\.pPrefs).value == Prefs(theme: "light", fontSize: 12))
            #expect(Application.storedState(\.pOuter).value == Outer(name: "saved", inner: Prefs(theme: "solar", fontSize: 12), tags: ["a", "b"]))
            // An enum whose saved case differs from the initial one still loads.
            #expect(Application.storedState(\.pMode).value == .timer(minutes: 25))
        }
        #expect(app.storeIssues.value.isEmpty)
    }

    @Test func anUnwritableFolderKeepsValuesInMemoryAndReportsOnce() async throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        // A regular file where a folder should be: even root cannot write under it (ENOTDIR).
        try sandbox.write("not a folder", to: sandbox.root + "/blocker")
        let directory = sandbox.root + "/blocker/state"
        let app = sandbox.launch(directory: directory)
        Application.withCurrent(app) {
            Application.storedState(\.pCounter).value = 1
            Application.fileState(\.pLayout).value.fontSize = 30
            Application.secureState(\.pToken).value = "kept in memory"
        }
        app.flush()
        for i in 2...50 {
            Application.withCurrent(app) { Application.storedState(\.pCounter).value = i }
            if i % 10 == 0 { app.flush() }
        }
        app.flush()
        try await Task.sleep(for: .milliseconds(250))   // and the scheduled writes
        Application.withCurrent(app) {
            #expect(Application.storedState(\.pCounter).value == 50)
            #expect(Application.fileState(\.pLayout).value.fontSize == 30)
            #expect(Application.secureState(\.pToken).value == "kept in memory")
        }
        let issues = app.storeIssues.value
        #expect(issues.count == 1, "\(issues)")
        let message = try #require(issues.first).message
        #expect(message.contains(directory))
        #expect(message.contains("kept in memory only"))
        #expect(message.contains("--state-dir"))
        #expect(app.persistentFileWrites == 0)
    }

    @Test func aBlockedFilesFolderIsReportedOnceWhileTheStoreStillSaves() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        try sandbox.write("in the way", to: sandbox.directory + "/files")
        let app = sandbox.launch()
        for i in 1...5 {
            Application.withCurrent(app) {
                Application.storedState(\.pCounter).value = i
                Application.fileState(\.pLayout).value.fontSize = i
            }
            app.flush()
        }
        #expect(try readJSONObject(sandbox.storePath)["Counter.count"] as? Int == 5)
        let issues = app.storeIssues.value
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.message.contains(sandbox.directory + "/files") == true)
    }

    @Test func aStoreFileThatCannotBeReadIsNeverOverwritten() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(atPath: sandbox.storePath + "/keep", withIntermediateDirectories: true)
        let app = sandbox.launch()
        Application.withCurrent(app) {
            #expect(Application.storedState(\.pCounter).value == 0)
            Application.storedState(\.pCounter).value = 2
            #expect(Application.storedState(\.pCounter).value == 2)
        }
        app.flush()
        #expect(exists(sandbox.storePath + "/keep"))
        #expect(app.storeIssues.value.count == 1)
        #expect(app.storeIssues.value.first?.message.contains(sandbox.storePath) == true)
    }

    @Test func writesResumeWhenTheFolderBecomesWritable() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        try sandbox.write("in the way", to: sandbox.directory)   // a file where the folder goes
        let app = sandbox.launch()
        Application.withCurrent(app) { Application.storedState(\.pCounter).value = 4 }
        app.flush()
        #expect(app.storeIssues.value.count == 1)
        try FileManager.default.removeItem(atPath: sandbox.directory)
        app.flush()   // the failed write is tried again
        #expect(try readJSONObject(sandbox.storePath)["Counter.count"] as? Int == 4)
    }

    // MARK: Atomicity and threads

    @Test func readersNeverSeeATornFile() async throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        let counter = app.pCounter, name = app.pName
        counter.value = 0
        name.value = String(repeating: "x", count: 4_096)   // a file of a few pages
        app.flush()
        let path = sandbox.storePath
        let stop = Atomic<Bool>(false)
        let reads = Atomic<Int>(0)
        let bad = Atomic<Int>(0)
        let reader = Thread {
            while !stop.load(ordering: .relaxed) {
                guard let data = FileManager.default.contents(atPath: path),
                      let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                      object["Counter.count"] is Int, (object["Settings.name"] as? String)?.count ?? 0 >= 4_096
                else { bad.add(1, ordering: .relaxed); continue }
                reads.add(1, ordering: .relaxed)
            }
        }
        reader.start()
        let writesBefore = app.persistentFileWrites
        for i in 1...2_000 {
            counter.value = i
            name.modify { $0 = String(repeating: i % 2 == 0 ? "x" : "y", count: 4_096 + i % 7) }
            app.flush()
        }
        stop.store(true, ordering: .relaxed)
        while !reader.isFinished { try await Task.sleep(for: .milliseconds(5)) }
        #expect(app.persistentFileWrites - writesBefore >= 2_000)
        #expect(reads.load(ordering: .relaxed) > 0)
        #expect(bad.load(ordering: .relaxed) == 0)
        #expect(try readJSONObject(path)["Counter.count"] as? Int == 2_000)
    }

    @Test func concurrentSetsEndInAConsistentFile() async throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<32 {
                group.addTask {
                    Application.withCurrent(app) {
                        for i in 0..<500 {
                            Application.storedState(\.pCounter).modify { $0 += 1 }
                            Application.storedState(\.[pKey: task]).value = i
                            if i % 100 == 0 { app.flush() }
                        }
                    }
                }
            }
        }
        app.flush()
        let object = try readJSONObject(sandbox.storePath)
        #expect(object["Counter.count"] as? Int == 32 * 500)
        for task in 0..<32 { #expect(object["Many.k\(task)"] as? Int == 499) }
        Application.withCurrent(sandbox.launch()) {
            #expect(Application.storedState(\.pCounter).value == 32 * 500)
            #expect(Application.storedState(\.[pKey: 31]).value == 499)
        }
    }

    @Test func corruptAsideNamesAreUnique() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        for _ in 0..<2 {
            try sandbox.write("{", to: sandbox.storePath)
            let app = sandbox.launch()
            Application.withCurrent(app) { _ = Application.storedState(\.pCounter).value }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory)
        #expect(names.filter { $0.hasPrefix("test.json.corrupt-") }.count == 2)
    }

    @Test func aPendingWriteCompletesAfterTheStoreIsGone() async {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        do {
            // Not `sandbox.launch()`, which keeps its stores: this one is released at once.
            let app = Application()
            app.storage = StorageConfiguration(appID: "test", directory: sandbox.directory)
            app.pCounter.value = 3
        }
        let saved = await eventually { ((try? readJSONObject(sandbox.storePath))?["Counter.count"] as? Int) == 3 }
        #expect(saved)
    }

    /// Issue 15, item 6: a `StoredState` and a `FileState` (and a `State`, and a `SecureState`) with
    /// one feature and id are separate values kept in separate places; nothing stops.
    @Test func oneFeatureAndIDDeclaredAsSeveralKindsLiveSideBySide() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let first = sandbox.launch()
        Application.withCurrent(first) {
            Application.storedState(\.pCounter).value = 2                       // Counter.count in the store file
            Application.fileState(\.pCounterFile).value = 20                    // files/Counter.count.json
            Application.state(\.pCounterMemory).value = 200                     // in memory only
            Application.secureState(\.pCounterSecret).value = "2000"            // secure/Counter.count
            #expect(Application.storedState(\.pCounter).value == 2)
            #expect(Application.fileState(\.pCounterFile).value == 20)
            #expect(Application.state(\.pCounterMemory).value == 200)
        }
        first.flush()
        #expect(try readJSONObject(sandbox.storePath)["Counter.count"] as? Int == 2)
        let file = try String(contentsOfFile: sandbox.directory + "/files/Counter.count.json", encoding: .utf8)
        #expect(file.trimmingCharacters(in: .whitespacesAndNewlines) == "20")
        #expect(try String(contentsOfFile: sandbox.directory + "/secure/Counter.count", encoding: .utf8) == "2000")
        #expect(first.storeIssues.value.isEmpty)

        let second = sandbox.launch()
        Application.withCurrent(second) {
            #expect(Application.storedState(\.pCounter).value == 2)
            #expect(Application.fileState(\.pCounterFile).value == 20)
            #expect(Application.state(\.pCounterMemory).value == 0)
            #expect(Application.secureState(\.pCounterSecret).value == "2000")
        }
    }

    @Test func timestampFormat() {
        #expect(Persistence.timestamp().wholeMatch(of: /\d{8}-\d{6}/) != nil)
    }
}
