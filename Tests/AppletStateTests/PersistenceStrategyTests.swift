import Foundation
import Synchronization
import Testing
@testable import AppletState

// A kind of persistent state of one's own: Docs/PersistentState.md's "A kind of your own", compiled
// and run (keep the two in step), and two kinds that use the rest of `PersistenceStrategy`: one
// that observes a server and whose saves can fail, and a secret one.

// MARK: The Docs example

/// A string in a plain-text file of its own.
struct PlainTextFile: PersistenceStrategy {
    static let kind = "PlainTextFile"
    let path: String
    var key: String { path }
    var id: String { path }

    func load(initial: String, from storage: PersistentStorage) -> String? {
        storage.read(path, key: key) { String(decoding: $0, as: UTF8.self) }
    }

    func save(_ value: String, to storage: PersistentStorage) throws {
        try storage.write(Data(value.utf8), to: path)
    }

    func remove(from storage: PersistentStorage) throws {
        try storage.removeFile(path, key: key)
    }

    func unsavedCopy(of value: String) -> Data? { Data(value.utf8) }
}

extension Application {
    var motd: PersistentState<PlainTextFile> {
        persistentState(PlainTextFile(path: storage.directory + "/motd.txt"), initial: "")
    }
}

private struct Banner {
    @PersistentState(\.motd) var motd
    var text: String { motd.isEmpty ? "(no message)" : motd }
}

// MARK: A kind that syncs with a server

/// A stand-in for a key-value server: values by key, subscribers told of every change, and a
/// switch that makes every write fail.
final class KeyValueServer: Sendable {
    private struct State {
        var values: [String: String] = [:]
        var subscribers: [UUID: @Sendable (String, String?) -> Void] = [:]
        var down = false
        var writes = 0
    }
    private let state = Mutex(State())

    var down: Bool {
        get { state.withLock { $0.down } }
        set { state.withLock { $0.down = newValue } }
    }
    var writes: Int { state.withLock { $0.writes } }
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }
    func value(_ key: String) -> String? { state.withLock { $0.values[key] } }

    /// A write from this app.
    func put(_ key: String, _ value: String?) throws {
        try state.withLock { state in
            if state.down { throw PersistenceFailure("the server is down", place: "kv.example") }
            state.values[key] = value
            state.writes += 1
        }
    }

    /// A write from another machine: every subscriber hears it.
    func putFromElsewhere(_ key: String, _ value: String?) {
        let subscribers = state.withLock { state in
            state.values[key] = value
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber(key, value) }
    }

    func subscribe(_ subscriber: @escaping @Sendable (String, String?) -> Void) -> UUID {
        let id = UUID()
        state.withLock { $0.subscribers[id] = subscriber }
        return id
    }

    func unsubscribe(_ id: UUID) { state.withLock { _ = $0.subscribers.removeValue(forKey: id) } }
}

/// A string on a `KeyValueServer`, written at once, with changes from elsewhere observed.
struct ServerValue: PersistenceStrategy {
    static let kind = "ServerValue"
    static var timing: PersistenceTiming { .atOnce }
    let server: KeyValueServer
    let key: String
    var id: String { key }

    func load(initial: String, from storage: PersistentStorage) -> String? { server.value(key) }
    func save(_ value: String, to storage: PersistentStorage) throws { try server.put(key, value) }
    func remove(from storage: PersistentStorage) throws { try server.put(key, nil) }
    func unsavedCopy(of value: String) -> Data? { Data(value.utf8) }

    func observe(in storage: PersistentStorage, changed: @escaping @Sendable (String?) -> Void) -> (any PersistenceObservation)? {
        let key = self.key
        let id = server.subscribe { changedKey, value in
            if changedKey == key { changed(value) }
        }
        return Subscription(server: server, id: id)
    }

    final class Subscription: PersistenceObservation {
        let server: KeyValueServer
        let id: UUID
        init(server: KeyValueServer, id: UUID) {
            self.server = server
            self.id = id
        }
        func cancel() { server.unsubscribe(id) }
    }
}

/// A secret on a `KeyValueServer`.
struct ServerSecret: PersistenceStrategy {
    static let kind = "ServerSecret"
    static var timing: PersistenceTiming { .atOnce }
    static var isSecret: Bool { true }
    let server: KeyValueServer
    let key: String
    var id: String { key }

    func load(initial: String?, from storage: PersistentStorage) -> String?? { server.value(key).map { .some($0) } }
    func save(_ value: String?, to storage: PersistentStorage) throws { try server.put(key, value) }
    func remove(from storage: PersistentStorage) throws { try server.put(key, nil) }
    func unsavedCopy(of value: String?) -> Data? { value.map { Data($0.utf8) } }
}

private let sharedServer = KeyValueServer()

extension Application {
    var serverGreeting: PersistentState<ServerValue> { persistentState(ServerValue(server: sharedServer, key: "greeting"), initial: "hello") }
    var serverPassword: PersistentState<ServerSecret> { persistentState(ServerSecret(server: sharedServer, key: "password"), initial: nil) }
}

@Suite("A persistence kind of one's own", .serialized)
struct PersistenceStrategyTests {
    @Test func thePlainTextKindIsSavedCoalescedLoadedAfterARestartAndReset() throws {
        try PersistentStateDocsTests.withFolder { folder, launch throws in
            let app = launch(folder)
            let file = folder + "/motd.txt"
            Application.withCurrent(app) {
                #expect(Banner().text == "(no message)")
                Application.state(\.motd).value = "Back"
                Application.state(\.motd).value += " at 3"
                #expect(Banner().text == "Back at 3")
            }
            #expect(!FileManager.default.fileExists(atPath: file), "written ~100 ms later, not at once")
            app.flush()
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "Back at 3")
            #expect(app.persistentFileWrites == 1, "two sets, one write")
            var attributes = stat()
            stat(file, &attributes)
            #expect(attributes.st_mode & 0o777 == 0o600)

            Application.withCurrent(launch(folder)) {
                #expect(Application.state(\.motd).value == "Back at 3", "loaded by the next run")
                Application.reset(\.motd)
                #expect(Application.state(\.motd).value == "")
                Application.current.flush()
            }
            #expect(!FileManager.default.fileExists(atPath: file), "reset deletes the file")
        }
    }

    @Test func aFileThatCannotBeReadIsLeftAloneAndNamedAtExitWithACopy() throws {
        try PersistentStateDocsTests.withFolder { folder, launch throws in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Not a regular file: the kind is read as every kind is, and such a file is never overwritten.
            try FileManager.default.createDirectory(atPath: folder + "/motd.txt", withIntermediateDirectories: true)
            let app = launch(folder)
            Application.withCurrent(app) {
                #expect(Application.state(\.motd).value == "")
                Application.state(\.motd).value = "kept"
            }
            #expect(app.storeIssues.value.count == 1)
            #expect(app.storeIssues.value.first?.message.hasPrefix("Cannot read \(folder)/motd.txt") == true, "\(app.storeIssues.value)")
            let unsaved = app.saveBeforeExit()
            #expect(unsaved.map(\.keys) == [["\(folder)/motd.txt"]], "\(unsaved)")
            #expect(unsaved.first?.path == folder + "/motd.txt")
            let copy = try #require(unsaved.first?.copy)
            #expect(try String(contentsOfFile: copy, encoding: .utf8) == "kept")
            try? FileManager.default.removeItem(atPath: copy)
        }
    }

    @Test func anAtOnceKindWritesFromTheSetAndTakesInChangesMadeElsewhere() async throws {
        await confirmation("changes hears the value from elsewhere") { heard in
            let app = Application()
            sharedServer.down = false
            let writes = sharedServer.writes
            let stream = Application.withCurrent(app) { () -> AsyncStream<String> in
                #expect(Application.state(\.serverGreeting).value == (sharedServer.value("greeting") ?? "hello"))
                Application.state(\.serverGreeting).value = "hi"
                return Application.state(\.serverGreeting).changes
            }
            #expect(sharedServer.value("greeting") == "hi", "written at once")
            #expect(sharedServer.writes == writes + 1)

            sharedServer.putFromElsewhere("greeting", "from the laptop")
            Application.withCurrent(app) { #expect(Application.state(\.serverGreeting).value == "from the laptop") }
            #expect(sharedServer.writes == writes + 1, "a value taken in is not written back")
            for await value in stream {
                if value == "from the laptop" { heard(); break }
            }
            sharedServer.putFromElsewhere("greeting", nil)
            Application.withCurrent(app) { #expect(Application.state(\.serverGreeting).value == "hello", "gone elsewhere: the initial value") }
        }
    }

    @Test func aFailedSaveStaysPendingIsTriedAgainAndIsNamedAtExit() throws {
        let app = Application()
        sharedServer.down = true
        Application.withCurrent(app) { Application.state(\.serverGreeting).value = "offline" }
        let unsaved = app.saveBeforeExit()
        #expect(unsaved.count == 1)
        #expect(unsaved.first?.keys == ["greeting"])
        #expect(unsaved.first?.path == "kv.example")
        #expect(unsaved.first?.reason == "the server is down")
        let copy = try #require(unsaved.first?.copy)
        #expect(copy.hasPrefix(ProcessEnvironment.temporaryDirectory + "/"), "a place that is not a path gets its copy in the temporary folder: \(copy)")
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == "offline")
        try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent)
        sharedServer.down = false
        Application.withCurrent(app) { Application.state(\.serverGreeting).value = "online" }
        #expect(sharedServer.value("greeting") == "online")
        #expect(app.saveBeforeExit().isEmpty, "saved with the next change")
    }

    @Test func aSecretKindIsNeverShownNorCopied() throws {
        let app = Application()
        sharedServer.down = true
        Application.withCurrent(app) { Application.state(\.serverPassword).value = "hunter2" }
        let unsaved = app.saveBeforeExit()
        #expect(unsaved.map(\.isSecret) == [true])
        #expect(unsaved.first?.copy == nil, "a secret is never copied anywhere")
        #expect(!app.description.contains("hunter2"), "\(app.description)")
        #expect(app.description.contains("<secret>"), "\(app.description)")
        sharedServer.down = false
        Application.withCurrent(app) { Application.reset(\.serverPassword) }
        #expect(sharedServer.value("password") == nil)
    }

    @Test func theObservationEndsWithTheStore() throws {
        let before = sharedServer.subscriberCount
        do {
            let app = Application()
            Application.withCurrent(app) { _ = Application.state(\.serverGreeting).value }
            #expect(sharedServer.subscriberCount == before + 1)
        }
        #expect(sharedServer.subscriberCount == before, "cancelled when the value went away")
    }
}
