import Foundation
import Testing
@testable import AppletState
#if canImport(Glibc)
import Glibc
#endif

private extension Application {
    var uCounter: StoredState<Int> { storedState(initial: 0, feature: "Counter", id: "count") }
    var uName: StoredState<String> { storedState(initial: "none", feature: "Settings", id: "name") }
    var uNotes: FileState<[String]> { fileState(initial: [], feature: "Notes", id: "list") }
    var uToken: SecureState { secureState(feature: "Sync", id: "token") }
}

/// Every file the store reads may come from someone else, and nothing the user changed is lost
/// without a word: temporary files of killed saves are cleaned, a value of the wrong type is kept
/// aside, a secret that is not text is refused, files over the size limit are left alone, and
/// what cannot be saved at exit is named and copied elsewhere.
@Suite("Files from elsewhere, and nothing lost in silence")
struct UntrustedFilesTests {
    // MARK: Leftovers of interrupted saves

    @Test func temporaryFilesOfKilledSavesAreRemovedAtTheNextStart() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let leftovers = [".test.json.tmp-Ab12Cd", ".list.json.tmp-Zz99Yy"]
        try sandbox.write("{\"Counter.count\": 3}", to: sandbox.storePath)
        try sandbox.write("half a sa", to: sandbox.directory + "/" + leftovers[0])
        try sandbox.write("[\"half", to: sandbox.directory + "/files/" + leftovers[1])
        // Not ours: names that only look alike, and a folder.
        let kept = [".test.json.tmp-short", "notes.tmp-Ab12Cd", ".x.tmp-Ab12Cd.bak"]
        for name in kept { try sandbox.write("keep", to: sandbox.directory + "/" + name) }
        try FileManager.default.createDirectory(atPath: sandbox.directory + "/.dir.tmp-Qw34Er", withIntermediateDirectories: true)

        let app = sandbox.launch()
        Application.withCurrent(app) { #expect(Application.storedState(\.uCounter).value == 3) }
        #expect(!exists(sandbox.directory + "/" + leftovers[0]))
        #expect(!exists(sandbox.directory + "/files/" + leftovers[1]))
        for name in kept { #expect(exists(sandbox.directory + "/" + name), "\(name) was removed") }
        #expect(exists(sandbox.directory + "/.dir.tmp-Qw34Er"))
    }

    @Test func temporaryNamesAreRecognisedExactly() {
        #expect(AtomicFile.isTemporaryName(".app.json.tmp-Ab12Cd"))
        #expect(AtomicFile.isTemporaryName(".a.tmp-XXXXXX"))
        #expect(!AtomicFile.isTemporaryName("app.json.tmp-Ab12Cd"))
        #expect(!AtomicFile.isTemporaryName(".tmp-Ab12Cd"))
        #expect(!AtomicFile.isTemporaryName(".app.json.tmp-Ab12C"))
        #expect(!AtomicFile.isTemporaryName(".app.json"))
    }

    // MARK: Values that no longer fit their type

    @Test func aMistypedSavedValueIsKeptAsideBeforeTheFirstSaveReplacesIt() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        try sandbox.write(#"{"Counter.count": {"old": "shape", "n": 7}, "Settings.name": "kept"}"#, to: sandbox.storePath)
        let app = sandbox.launch()
        Application.withCurrent(app) { #expect(Application.storedState(\.uCounter).value == 0) }
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory)
        let aside = try #require(names.first { $0.hasPrefix("test.json.Counter.count.mistyped-") }, "\(names)")
        let issue = try #require(app.storeIssues.value.first)
        #expect(issue.message.contains(aside), "\(issue.message)")
        // The old value, whole, in the file the message names.
        let kept = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sandbox.directory + "/" + aside))) as? [String: Any])
        #expect(kept["old"] as? String == "shape" && kept["n"] as? Int == 7)
        #expect(fileMode(sandbox.directory + "/" + aside) == 0o600)
        // Saving the new value replaces it in the store file; the copy stays.
        Application.withCurrent(app) { Application.storedState(\.uCounter).value = 1 }
        app.flush()
        #expect(try readJSONObject(sandbox.storePath)["Counter.count"] as? Int == 1)
        #expect(try readJSONObject(sandbox.storePath)["Settings.name"] as? String == "kept")
        #expect(exists(sandbox.directory + "/" + aside))
    }

    // MARK: Secrets

    @Test func aSecretFileThatIsNotUTF8IsRefusedAndLeftAsItWas() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let path = sandbox.directory + "/secure/Sync.token"
        try FileManager.default.createDirectory(atPath: sandbox.directory + "/secure", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let bytes = Data([0x73, 0x65, 0xFF, 0xFE, 0x63])
        try bytes.write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        let app = sandbox.launch()
        Application.withCurrent(app) { #expect(Application.secureState(\.uToken).value == nil) }
        let issue = try #require(app.storeIssues.value.first)
        #expect(issue.message.contains("not UTF-8"), "\(issue.message)")
        #expect(issue.message.contains(path))
        // Setting it leaves the file alone (and says so at exit).
        Application.withCurrent(app) { Application.secureState(\.uToken).value = "new" }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        let unsaved = app.saveBeforeExit()
        #expect(unsaved.count == 1 && unsaved.first?.isSecret == true && unsaved.first?.copy == nil, "\(unsaved)")
        #expect(unsaved.first?.description.contains("never copied") == true)
    }

    // MARK: Sizes

    @Test func aStateFileOverTheLimitIsLeftUntouched() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let path = sandbox.directory + "/files/Notes.list.json"
        try FileManager.default.createDirectory(atPath: sandbox.directory + "/files", withIntermediateDirectories: true)
        // A sparse file: its size is over the limit, and nothing is read to find out.
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(fd, off_t(Persistence.maximumFileBytes + 1)) == 0)
        close(fd)
        let app = sandbox.launch()
        Application.withCurrent(app) { #expect(Application.fileState(\.uNotes).value == []) }
        let issue = try #require(app.storeIssues.value.first)
        #expect(issue.message.contains("over 64 MiB"), "\(issue.message)")
        Application.withCurrent(app) { Application.fileState(\.uNotes).value = ["a"] }
        app.flush()
        var info = stat()
        #expect(stat(path, &info) == 0 && Int(info.st_size) == Persistence.maximumFileBytes + 1)
    }

    @Test func aFIFOWhereAStateFileGoesDoesNotBlock() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(atPath: sandbox.directory, withIntermediateDirectories: true)
        #expect(mkfifo(sandbox.storePath, 0o600) == 0)
        let app = sandbox.launch()
        Application.withCurrent(app) { #expect(Application.storedState(\.uCounter).value == 0) }
        let issue = try #require(app.storeIssues.value.first)
        #expect(issue.message.contains("not a regular file"), "\(issue.message)")
    }

    @Test func readingStopsAtTheLimit() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let path = sandbox.root + "/data"
        try sandbox.write(String(repeating: "x", count: 100), to: path)
        #expect(try AtomicFile.read(path, limit: 100)?.count == 100)
        #expect(throws: AtomicFile.TooLarge.self) { try AtomicFile.read(path, limit: 99) }
        #expect(try AtomicFile.read(sandbox.root + "/missing", limit: 10) == nil)
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.read(sandbox.root, limit: 10) }
    }

    // MARK: Nothing lost in silence

    @Test func whatCannotBeSavedAtExitIsNamedAndCopiedElsewhere() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) { Application.storedState(\.uName).value = "first" }
        app.flush()
        #expect(try readJSONObject(sandbox.storePath)["Settings.name"] as? String == "first")
        // A folder where the store file is: even root cannot rename a file over it.
        try FileManager.default.removeItem(atPath: sandbox.storePath)
        try FileManager.default.createDirectory(atPath: sandbox.storePath + "/in-the-way", withIntermediateDirectories: true)
        Application.withCurrent(app) {
            Application.storedState(\.uCounter).value = 41
            Application.storedState(\.uName).value = "unsaved"
        }
        let unsaved = app.saveBeforeExit()
        #expect(unsaved.count == 1, "\(unsaved)")
        let change = try #require(unsaved.first)
        #expect(change.keys == ["Counter.count", "Settings.name"])
        #expect(change.path == sandbox.storePath)
        let copy = try #require(change.copy)
        #expect(copy.hasPrefix(sandbox.storePath + ".unsaved-"), "\(copy)")
        let object = try readJSONObject(copy)
        #expect(object["Counter.count"] as? Int == 41 && object["Settings.name"] as? String == "unsaved")
        #expect(fileMode(copy) == 0o600)
        #expect(change.description.contains("'Counter.count', 'Settings.name' were not saved to \(sandbox.storePath)"), "\(change.description)")
        #expect(change.description.contains("a copy is in \(copy)"))
    }

    @Test func whenNothingBesideTheFileCanBeWrittenTheCopyGoesToTheTemporaryFolder() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        // The state folder's parent is a file: nothing can be written in or beside it.
        try sandbox.write("not a folder", to: sandbox.root + "/blocker")
        let app = sandbox.launch(directory: sandbox.root + "/blocker/state")
        Application.withCurrent(app) { Application.fileState(\.uNotes).value = ["milk", "bread"] }
        let unsaved = app.saveBeforeExit()
        let change = try #require(unsaved.first, "\(unsaved)")
        #expect(change.keys == ["Notes.list"])
        let copy = try #require(change.copy)
        defer { try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent) }
        #expect(copy.hasPrefix(ProcessEnvironment.temporaryDirectory + "/test-unsaved-"), "\(copy)")
        #expect(try JSONDecoder().decode([String].self, from: Data(contentsOf: URL(fileURLWithPath: copy))) == ["milk", "bread"])
    }

    @Test func everythingSavedMeansNothingToReport() {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) {
            Application.storedState(\.uCounter).value = 1
            Application.fileState(\.uNotes).value = ["a"]
            Application.secureState(\.uToken).value = "t"
        }
        #expect(app.saveBeforeExit() == [])
        #expect(Application().saveBeforeExit() == [])   // a store that never touched the disk
    }

    // MARK: One writer per folder

    @Test func theFolderLockIsSharedWithinAProcess() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        #expect(StateFolderLock.acquire(directory: sandbox.directory, appID: "lock-test") == .acquired)
        #expect(StateFolderLock.acquire(directory: sandbox.directory, appID: "lock-test") == .acquired)
        let text = try String(contentsOfFile: sandbox.directory + "/lock-test.lock", encoding: .utf8)
        #expect(text == "\(getpid())\n")
        #expect(fileMode(sandbox.directory + "/lock-test.lock") == 0o600)
    }

    // MARK: Text from files in messages

    @Test func controlCharactersAreEscaped() {
        #expect(LogText.escaped("plain ✓ 日本") == "plain ✓ 日本")
        #expect(LogText.escaped("a\u{1B}[2Jb") == "a\\e[2Jb")
        #expect(LogText.escaped("1\n2\t3\r") == "1\\n2\\t3\\r")
        #expect(LogText.escaped("\u{7}\u{0}\u{7F}\u{9B}") == "\\u{7}\\u{0}\\u{7F}\\u{9B}")
    }
}
