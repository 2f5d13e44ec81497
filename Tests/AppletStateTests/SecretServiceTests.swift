import Foundation
import Testing
@testable import AppletState
#if canImport(Glibc)
import Glibc
#endif

private extension Application {
    var kToken: SecureState { secureState(feature: "Sync", id: "token") }
    var kPassword: SecureState { secureState(feature: "Mail", id: "password") }
}

/// What an app holds: the wrapper, resolved in the current store.
private struct SignIn {
    @SecureState(\.kToken) var token
}

/// `SecureState` in a real desktop keyring (`TestKeyring`: gnome-keyring on a private session bus).
/// Each test uses a state folder of its own, so its items (whose attributes name the folder) are
/// its own too. Serialized: some tests lock or stop the one keyring.
@Suite("Secret Service", .serialized)
struct SecretServiceTests {
    /// The running keyring, or an error that says why it could not start: these tests fail
    /// without one, never pass.
    func keyring() throws -> TestKeyring {
        try TestKeyring.shared.get()
    }

    /// A store on `sandbox`'s folder that uses the keyring where one runs, as an app does.
    func launch(_ sandbox: Sandbox, environment: [String: String]? = nil) -> Application {
        let app = sandbox.launch()
        var storage = app.storage
        storage.secrets = .keyringIfRunning(environment: environment)
        app.storage = storage
        return app
    }

    func attributes(_ sandbox: Sandbox, feature: String = "Sync", id: String = "token") -> [String: String] {
        ["application": "test", "folder": sandbox.directory, "feature": feature, "id": id]
    }

    /// Every file under `folder` that holds `text`.
    func files(under folder: String, containing text: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        let needle = Data(text.utf8)
        while let name = walker.nextObject() as? String {
            let path = folder + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                  let data = FileManager.default.contents(atPath: path) else { continue }
            if data.range(of: needle) != nil { found.append(path) }
        }
        return found
    }

    // MARK: Where secrets go

    /// Issue 30's "done when": a value set while a keyring runs is in the keyring and in no file.
    @Test func aSecretSetWhileAKeyringRunsIsInTheKeyringAndInNoFile() throws {
        let keyring = try keyring()
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = launch(sandbox)
        let secret = "s3cr3t-\(UUID().uuidString)"
        Application.withCurrent(app) {
            let signIn = SignIn()
            #expect(signIn.token == nil)
            signIn.token = secret
        }
        app.flush()
        #expect(app.storeIssues.value.isEmpty, "\(app.storeIssues.value)")
        #expect(app.secretStorage == "the desktop keyring (Secret Service: gnome-keyring)")
        // An independent look: secret-tool, with the attributes the docs name.
        #expect(try keyring.lookup(attributes(sandbox)) == secret)
        let listing = try keyring.search(attributes(sandbox))
        #expect(listing.contains("label = test: Sync token"), "\(listing)")
        #expect(listing.contains("schema = org.appletkit.SecureState"), "\(listing)")   // secret-tool shows xdg:schema so
        // Not on disk: no file under the state folder holds it, and there is no secrets folder.
        #expect(files(under: sandbox.root, containing: secret) == [])
        #expect(!exists(sandbox.directory + "/secure"))
        // A restart reads it back from the keyring.
        let again = launch(sandbox)
        Application.withCurrent(again) { #expect(SignIn().token == secret) }
        #expect(again.storeIssues.value.isEmpty, "\(again.storeIssues.value)")
    }

    @Test func resetAndNilDeleteTheItem() throws {
        let keyring = try keyring()
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = launch(sandbox)
        Application.withCurrent(app) {
            Application.secureState(\.kToken).value = "first"
            Application.secureState(\.kPassword).value = "other"
        }
        #expect(try keyring.lookup(attributes(sandbox)) == "first")
        Application.withCurrent(app) { Application.reset(\.kToken) }
        #expect(try keyring.lookup(attributes(sandbox)) == nil)
        #expect(try keyring.lookup(attributes(sandbox, feature: "Mail", id: "password")) == "other")
        Application.withCurrent(app) { Application.secureState(\.kToken).value = "second" }
        #expect(try keyring.lookup(attributes(sandbox)) == "second")
        Application.withCurrent(app) { Application.secureState(\.kToken).value = nil }
        #expect(try keyring.lookup(attributes(sandbox)) == nil)
        Application.withCurrent(app) { Application.secureState(\.kToken).value = nil }   // deleting twice is fine
        Application.withCurrent(launch(sandbox)) { #expect(Application.secureState(\.kToken).value == nil) }
        #expect(app.storeIssues.value.isEmpty, "\(app.storeIssues.value)")
        #expect(app.saveBeforeExit() == [])
    }

    /// Two state folders keep two sets of secrets, as they do with files.
    @Test func eachStateFolderHasItsOwnSecrets() throws {
        let keyring = try keyring()
        let one = Sandbox()
        let two = Sandbox()
        defer {
            one.remove()
            two.remove()
        }
        Application.withCurrent(launch(one)) { Application.secureState(\.kToken).value = "one" }
        Application.withCurrent(launch(two)) { #expect(Application.secureState(\.kToken).value == nil) }
        #expect(try keyring.lookup(attributes(one)) == "one")
        #expect(try keyring.lookup(attributes(two)) == nil)
    }

    // MARK: Migration

    @Test func aSecretInAnOldFileMovesIntoTheKeyring() throws {
        let keyring = try keyring()
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let path = sandbox.directory + "/secure/Sync.token"
        try sandbox.write("from-the-file", to: path)
        chmod(path, 0o600)
        let app = launch(sandbox)
        Application.withCurrent(app) { #expect(Application.secureState(\.kToken).value == "from-the-file") }
        #expect(app.storeIssues.value.isEmpty, "\(app.storeIssues.value)")
        #expect(try keyring.lookup(attributes(sandbox)) == "from-the-file")
        #expect(!exists(path))
        #expect(!exists(sandbox.directory + "/secure"))   // it was the only one
        #expect(files(under: sandbox.root, containing: "from-the-file") == [])
        Application.withCurrent(launch(sandbox)) { #expect(Application.secureState(\.kToken).value == "from-the-file") }
    }

    /// A file can only have been written after the keyring's value (in a run with no keyring, as a
    /// keyring run moves it at once): the file wins.
    @Test func anOldFileWinsOverTheKeyringsValue() throws {
        let keyring = try keyring()
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        Application.withCurrent(launch(sandbox)) { Application.secureState(\.kToken).value = "older" }
        try sandbox.write("newer", to: sandbox.directory + "/secure/Sync.token")
        try sandbox.write("kept", to: sandbox.directory + "/secure/Other.file")
        let app = launch(sandbox)
        Application.withCurrent(app) { #expect(Application.secureState(\.kToken).value == "newer") }
        #expect(try keyring.lookup(attributes(sandbox)) == "newer")
        #expect(!exists(sandbox.directory + "/secure/Sync.token"))
        #expect(exists(sandbox.directory + "/secure/Other.file"))   // not a secret this app read
    }

    /// A secret file that is not text is refused as the file store refuses it: left where it is,
    /// and the keyring's value is used.
    @Test func anOldFileThatIsNotTextStaysAndIsReported() throws {
        let keyring = try keyring()
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        Application.withCurrent(launch(sandbox)) { Application.secureState(\.kToken).value = "in-keyring" }
        let path = sandbox.directory + "/secure/Sync.token"
        try FileManager.default.createDirectory(atPath: sandbox.directory + "/secure", withIntermediateDirectories: true)
        try Data([0x73, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: path))
        let app = launch(sandbox)
        Application.withCurrent(app) { #expect(Application.secureState(\.kToken).value == "in-keyring") }
        #expect(app.storeIssues.value.contains { $0.message.contains("not UTF-8") }, "\(app.storeIssues.value)")
        #expect(exists(path))
        #expect(try keyring.lookup(attributes(sandbox)) == "in-keyring")
    }

    // MARK: When the keyring cannot be used

    /// A locked keyring whose unlock is refused (no prompter here): an issue, nothing on disk, and
    /// the exit report names the secret.
    @Test func aLockedKeyringIsReportedAndNothingGoesToAFile() throws {
        let keyring = try keyring()
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = launch(sandbox)
        Application.withCurrent(app) { Application.secureState(\.kToken).value = "before" }
        try keyring.send("lock")
        defer {
            // Unlocked again for the tests after this one: a new gnome-keyring, the same password.
            _ = try? keyring.send("stop")
            _ = try? keyring.send("start")
        }
        Application.withCurrent(app) {
            Application.secureState(\.kToken).value = "while-locked"
            Application.secureState(\.kToken).value = "still-locked"
        }
        let issues = app.storeIssues.value
        #expect(issues.count == 1, "a failure that goes on is reported once: \(issues)")
        #expect(issues.first?.message.contains("Cannot save the secret 'Sync.token' in the desktop keyring (gnome-keyring)") == true, "\(issues)")
        #expect(issues.first?.message.contains("never written to a file") == true, "\(issues)")
        #expect(files(under: sandbox.root, containing: "while-locked") == [])
        #expect(files(under: sandbox.root, containing: "still-locked") == [])
        #expect(!exists(sandbox.directory + "/secure"))
        Application.withCurrent(app) { #expect(Application.secureState(\.kToken).value == "still-locked") }   // in memory
        let unsaved = app.saveBeforeExit()
        #expect(unsaved.count == 1 && unsaved.first?.isSecret == true && unsaved.first?.path == UnsavedChange.desktopKeyring, "\(unsaved)")
        #expect(unsaved.first?.description.contains("set it again once the keyring can be used") == true, "\(unsaved)")
        // Reading while locked is a failure too, never "no secret".
        let reader = launch(sandbox)
        Application.withCurrent(reader) { #expect(Application.secureState(\.kToken).value == nil) }
        #expect(reader.storeIssues.value.first?.message.contains("Cannot read the secret 'Sync.token'") == true, "\(reader.storeIssues.value)")
    }

    /// The service gone (gnome-keyring ended) and back: writes fail with an issue while it is gone,
    /// never to a file, and work again once it is back.
    @Test func aServiceThatGoesAwayIsReportedAndComesBack() throws {
        let keyring = try keyring()
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = launch(sandbox)
        Application.withCurrent(app) { Application.secureState(\.kToken).value = "one" }
        try keyring.send("stop")
        var restarted = false
        defer { if !restarted { _ = try? keyring.send("start") } }
        // Nothing owns the name now: a new store would use files, and says why.
        guard case .unavailable(let reason) = SecretService.connect(environment: ProcessEnvironment.current) else {
            Issue.record("the Secret Service still looks available after gnome-keyring ended")
            return
        }
        #expect(reason == "no Secret Service on the session bus")
        Application.withCurrent(app) { Application.secureState(\.kToken).value = "two" }
        #expect(app.storeIssues.value.count == 1, "\(app.storeIssues.value)")
        #expect(files(under: sandbox.root, containing: "two") == [])
        #expect(app.saveBeforeExit().map(\.keys) == [["Sync.token"]])
        try keyring.send("start")
        restarted = true
        Application.withCurrent(app) { Application.secureState(\.kToken).value = "three" }
        #expect(try keyring.lookup(attributes(sandbox)) == "three")
        #expect(app.saveBeforeExit() == [])
    }

    /// A keyring restarted under a running app (its sessions gone with it) is found again: the
    /// first write after it opens a new session instead of failing.
    @Test func aRestartedKeyringIsFoundAgain() throws {
        let keyring = try keyring()
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = launch(sandbox)
        Application.withCurrent(app) { Application.secureState(\.kToken).value = "before" }
        try keyring.send("stop")
        try keyring.send("start")
        Application.withCurrent(app) { Application.secureState(\.kToken).value = "after" }
        #expect(app.storeIssues.value.isEmpty, "\(app.storeIssues.value)")
        #expect(try keyring.lookup(attributes(sandbox)) == "after")
    }

    // MARK: Where there is no keyring

    @Test func withoutASessionBusSecretsAreFilesAndTheSummarySaysWhy() throws {
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = launch(sandbox, environment: ["HOME": sandbox.root])
        Application.withCurrent(app) { Application.secureState(\.kToken).value = "on-disk" }
        #expect(app.secretStorage == "files in \(sandbox.directory)/secure, mode 0600 (no session bus: DBUS_SESSION_BUS_ADDRESS is not set)")
        #expect(try String(contentsOfFile: sandbox.directory + "/secure/Sync.token", encoding: .utf8) == "on-disk")
        #expect(fileMode(sandbox.directory + "/secure/Sync.token") == 0o600)
        #expect(app.storeIssues.value.isEmpty, "\(app.storeIssues.value)")
    }

    /// A test process leaves the user's keyring alone unless a test asks for it.
    @Test func aTestProcessUsesFilesByDefault() throws {
        _ = try keyring()   // even with a keyring on the bus
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        #expect(app.secretStorage == "files in \(sandbox.directory)/secure, mode 0600 (a test process leaves the desktop keyring alone)")
    }

    /// An app (a replay, a fuzzer) can keep its secrets with its folder, keyring or not.
    @Test func anAppCanChooseFiles() throws {
        let keyring = try keyring()
        let sandbox = Sandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        app.storage.secrets = .files
        Application.withCurrent(app) { Application.secureState(\.kToken).value = "in-a-file" }
        #expect(app.secretStorage == "files in \(sandbox.directory)/secure, mode 0600 (the app chose files)")
        #expect(try String(contentsOfFile: sandbox.directory + "/secure/Sync.token", encoding: .utf8) == "in-a-file")
        #expect(try keyring.lookup(attributes(sandbox)) == nil)
    }

    @Test func theServicesProgramIsNamed() {
        #expect(SecretService.program(pid: getpid())?.hasSuffix(".xctest") == true)
        #expect(SecretService.program(pid: 0) == nil)
        #expect(!SecretService.hasSessionBus([:]))
        #expect(SecretService.hasSessionBus(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"]))
        #expect(!SecretService.hasSessionBus(["XDG_RUNTIME_DIR": "/nonexistent"]))
    }
}
