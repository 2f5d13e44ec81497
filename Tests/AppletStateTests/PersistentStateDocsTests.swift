import Foundation
import Testing
import TestSupport
@testable import AppletState

// The examples of Docs/PersistentState.md, compiled and run (names prefixed `docs`). Keep the two
// in step.

private struct Prefs: Codable, Equatable, Sendable {
    var theme = "dark"
    var fontSize = 12
}

private extension Application {
    var docsLaunches: StoredState<Int> { storedState(initial: 0, feature: "App", id: "launches") }
    var docsPrefs: FileState<Prefs> { fileState(initial: Prefs(), feature: "Settings", id: "prefs") }
    var docsToken: SecureState { secureState(feature: "Sync", id: "token") }
    var docsDraftFile: FileState<String?> { fileState(filename: "draft.json") }
    var docsLastSearch: StoredState<String?> { storedState(id: "lastSearch") }
}

private struct SettingsView {
    @StoredState(\.docsLaunches) var launches
    @FileState(\.docsPrefs) var prefs
    @SecureState(\.docsToken) var token
    var text: String {
        "Launched \(launches) times, font \(prefs.fontSize), \(token == nil ? "signed out" : "signed in")"
    }
}

@Suite("Docs/PersistentState.md examples")
struct PersistentStateDocsTests {
    /// A fresh folder for one test; `launch` makes a store on it. Afterwards the stores stop
    /// writing (a retried write would make the folder again) and the folder is removed.
    static func withFolder(_ body: (String, _ launch: (String) -> Application) throws -> Void) rethrows {
        let folder = temporaryPath("persistent-docs")
        var launched: [Application] = []
        defer {
            for app in launched { app.persistence.close() }
            try? FileManager.default.removeItem(atPath: folder)
        }
        try body(folder) { directory in
            let app = Application()
            app.storage = StorageConfiguration(appID: "demo", directory: directory)
            launched.append(app)
            return app
        }
    }

    @Test func declaringAndUsing() throws {
        try Self.withFolder { folder, launch throws in
            let app = launch(folder)
            Application.withCurrent(app) {
                Application.storedState(\.docsLaunches).value += 1
                Application.fileState(\.docsPrefs).value.fontSize = 14
                Application.secureState(\.docsToken).value = "s3cr3t"
                #expect(SettingsView().text == "Launched 1 times, font 14, signed in")
                #expect(Application.state(\.docsLaunches).value == 1)
            }
            app.flush()
            #expect(FileManager.default.fileExists(atPath: folder + "/demo.json"))
            #expect(FileManager.default.fileExists(atPath: folder + "/files/Settings.prefs.json"))
            #expect(try String(contentsOfFile: folder + "/secure/Sync.token", encoding: .utf8) == "s3cr3t")
            Application.withCurrent(app) { Application.secureState(\.docsToken).value = nil }
            #expect(!FileManager.default.fileExists(atPath: folder + "/secure/Sync.token"))
        }
    }

    @Test func reset() throws {
        try Self.withFolder { folder, launch throws in
            let app = launch(folder)
            Application.withCurrent(app) {
                Application.storedState(\.docsLaunches).value = 3
                Application.fileState(\.docsPrefs).value.fontSize = 14
                Application.secureState(\.docsToken).value = "s3cr3t"
            }
            app.flush()
            Application.withCurrent(app) {
                Application.reset(\.docsLaunches)
                Application.reset(\.docsPrefs)
                Application.reset(\.docsToken)
            }
            app.flush()
            #expect(!FileManager.default.fileExists(atPath: folder + "/files/Settings.prefs.json"))
            #expect(!FileManager.default.fileExists(atPath: folder + "/secure/Sync.token"))
            Application.withCurrent(launch(folder)) {
                #expect(Application.storedState(\.docsLaunches).value == 0)
                #expect(Application.fileState(\.docsPrefs).value == Prefs())
                #expect(Application.secureState(\.docsToken).value == nil)
            }
        }
    }

    @Test func appStatesFileStateSpelling() throws {
        try Self.withFolder { folder, launch throws in
            let app = launch(folder)
            Application.withCurrent(app) {
                Application.fileState(\.docsDraftFile).value = "Dear"
                Application.storedState(\.docsLastSearch).value = "swift"
            }
            app.flush()
            #expect(FileManager.default.fileExists(atPath: folder + "/files/draft.json"))
            Application.withCurrent(launch(folder)) {
                #expect(Application.fileState(\.docsDraftFile).value == "Dear")
                #expect(Application.storedState(\.docsLastSearch).value == "swift")
            }
        }
    }

    @Test func whenATypeChanges() throws {
        try Self.withFolder { folder, launch throws in
            try FileManager.default.createDirectory(atPath: folder + "/files", withIntermediateDirectories: true)
            try Data(#"{"theme": "light"}"#.utf8).write(to: URL(fileURLWithPath: folder + "/files/Settings.prefs.json"))
            let app = launch(folder)
            Application.withCurrent(app) {
                #expect(Application.fileState(\.docsPrefs).value == Prefs(theme: "light", fontSize: 12))
            }
        }
    }

    @Test func anUnwritableFolder() throws {
        try Self.withFolder { folder, launch throws in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("a file".utf8).write(to: URL(fileURLWithPath: folder + "/x"))
            let app = launch(folder + "/x/state")
            Application.withCurrent(app) { Application.storedState(\.docsLaunches).value = 1 }
            app.flush()
            #expect(app.storeIssues.value.map(\.message) == [
                "Cannot save state in \(folder)/x/state: cannot create the folder (Not a directory). Changes are kept in memory only — set --state-dir to a writable folder."
            ])
        }
    }
}
