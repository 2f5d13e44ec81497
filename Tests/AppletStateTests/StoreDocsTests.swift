import Foundation
import Synchronization
import Testing
import TestSupport
@testable import AppletState

// The examples of Docs/Store.md, compiled and run. Keep the two in step.

extension Application {
    var docsCounter: State<Int> { state(initial: 0, feature: "Counter", id: "docsCount") }
    var docsDraft: State<String> { scopedState(initial: "", feature: "Notes", id: "docsDraft") }
}

@Suite("Docs/Store.md examples")
struct StoreDocsTests {
    @Test func stateExample() {
        Application.withCurrent(Application()) {
            Application.state(\.docsCounter).value += 1
            let counter = Application.state(\.docsCounter)
            counter.value = 10
            counter.modify { $0 *= 2 }
            #expect(Application.state(\.docsCounter).value == 20)
        }
    }

    @Test func changesExample() async {
        let app = Application()
        let stream = app.docsCounter.changes
        let task = Task { () -> Int? in
            for await value in stream { return value }
            return nil
        }
        Application.withCurrent(app) { Application.state(\.docsCounter).value = 5 }
        #expect(await task.value == 5)
    }

    @Test func scopeExample() {
        Application.withCurrent(Application()) {
            Scope.with(Scope(name: "notes", id: "left")) { Application.state(\.docsDraft).value = "left" }
            #expect(Scope.with(Scope(name: "notes", id: "right")) { Application.state(\.docsDraft).value } == "")
            #expect(Scope.with(Scope(name: "notes", id: "left")) { Application.state(\.docsDraft).value } == "left")
        }
    }

    @Test func installedStoreExample() {
        let app = Application()
        Application.withCurrent(app) { Application.state(\.docsCounter).value = 3 }
        #expect(app.docsCounter.value == 3)
    }

    @Test func storageAndIssuesExample() {
        let app = Application()
        app.storage = StorageConfiguration(appID: "appletkit", directory: "/tmp/demo-state")
        #expect(app.storage.directory == "/tmp/demo-state")
        app.report(StoreIssue("cannot save state in /srv/x: Read-only file system; changes are kept in memory only"))
        #expect(app.storeIssues.value.map(\.message) == ["cannot save state in /srv/x: Read-only file system; changes are kept in memory only"])
    }

    @Test func standardStorageFollowsXDG() {
        let xdg = StorageConfiguration.standard(appID: "demo", environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"])
        #expect(xdg.directory == "/x/state/demo")
        let home = StorageConfiguration.standard(appID: "demo", environment: ["HOME": "/home/u"])
        #expect(home.directory == "/home/u/.local/state/demo")
        let relative = StorageConfiguration.standard(appID: "demo", environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"])
        #expect(relative.directory == "/home/u/.local/state/demo", "a relative XDG_STATE_HOME is ignored, as the spec says")
    }
}

// Dependencies and slices, as in Docs/Store.md.
protocol DocsGreeter: Sendable { func greet(_ name: String) -> String }
struct DocsEnglishGreeter: DocsGreeter { func greet(_ name: String) -> String { "Hello, \(name)" } }
struct DocsFakeGreeter: DocsGreeter { func greet(_ name: String) -> String { "hi \(name)" } }
struct DocsUser: Codable, Sendable { var name = ""; var id = 0 }

extension Application {
    var docsGreeter: Dependency<any DocsGreeter> { dependency(DocsEnglishGreeter()) }
    var docsUser: State<DocsUser> { state(initial: DocsUser(), feature: "Account", id: "docsUser") }
    var docsMaybeUser: State<DocsUser?> { state(initial: nil, feature: "Account", id: "docsMaybeUser") }
    var docsErrors: State<[String: String]> { state(initial: [:], feature: "Account", id: "docsErrors") }
}

@Suite("Docs/Store.md examples: dependencies and slices")
struct StoreDocsDependencyTests {
    @Test func dependencyAndOverride() {
        Application.withCurrent(Application()) {
            #expect(Application.dependency(\.docsGreeter).greet("Ada") == "Hello, Ada")
            let token = Application.override(\.docsGreeter, with: DocsFakeGreeter())
            #expect(Application.dependency(\.docsGreeter).greet("Ada") == "hi Ada")
            token.cancel()
            #expect(Application.dependency(\.docsGreeter).greet("Ada") == "Hello, Ada")
        }
    }

    @Test func slices() {
        let app = Application()
        Application.withCurrent(app) {
            Application.slice(\.docsUser, \.name).value = "Ada"
            #expect(Application.constant(\.docsUser, \.id).value == 0)
            Application.slice(\.docsErrors, \.["network"]).value = "timeout"
            Application.optionalSlice(\.docsMaybeUser, \.name).value = "Bo"
        }
        #expect(app.docsUser.value.name == "Ada")
        #expect(app.docsErrors.value == ["network": "timeout"])
        #expect(app.docsMaybeUser.value == nil)
    }
}

// SyncState, as in Docs/Store.md: two stores on one folder behave as two running instances.
extension Application {
    var docsSharedNote: SyncState<String> { syncState(initial: "", feature: "Notes", id: "docsShared") }
}

@Suite("Docs/Store.md examples: SyncState")
struct StoreDocsSyncTests {
    @Test func twoInstancesSeeEachOther() async throws {
        let folder = temporaryPath("docs-sync")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = Application(), second = Application()
        first.storage = StorageConfiguration(appID: "docs", directory: folder)
        second.storage = StorageConfiguration(appID: "docs", directory: folder)
        _ = Application.withCurrent(second) { Application.syncState(\.docsSharedNote).value }   // second starts watching
        Application.withCurrent(first) {
            Application.syncState(\.docsSharedNote).value = "hi"
            Application.state(\.docsSharedNote).modify { $0 += "!" }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while Application.withCurrent(second, { Application.syncState(\.docsSharedNote).value }) != "hi!", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(Application.withCurrent(second) { Application.syncState(\.docsSharedNote).value } == "hi!")
    }
}

// Reset, a main-actor view model and promotion, as in Docs/Store.md.
extension Application {
    var docsIsLoading: State<Bool> { state(initial: false) }
}

@MainActor final class DocsProfile { var name = "Ada"; var visits = 0 }

extension Application {
    @MainActor var docsProfile: Dependency<DocsProfile> { dependency(DocsProfile()) }
    @MainActor var docsRecentFiles: FileState<[String]> { fileState(initial: []) }
}

@MainActor final class DocsProfileViewModel {
    @FileState(\.docsRecentFiles) var recentFiles
    @DependencySlice(\.docsProfile, \.name) var name
    @DependencyConstant(\.docsProfile, \.visits) var visits
    @ObservedDependency(\.docsProfile) var profile
    @Slice(\.docsUser, \.name as WritableKeyPath<DocsUser, String>) var userName
}

final class DocsDemoApplication: Application, @unchecked Sendable {
    static let edition = "demo"
}

/// Compiled, not run: promoting replaces the process-wide store (PromoteTests does that).
func docsPromoteExample() -> String {
    let edition = Application.promote(to: DocsDemoApplication.self).edition
    _ = Application.shared as? DocsDemoApplication
    return edition
}

@Suite("Docs/Store.md examples: AppState's ways")
struct StoreDocsAppStateTests {
    @Test func declarationWithoutAnID() {
        let app = Application()
        #expect(app.docsIsLoading.value == false)
        #expect(app.registry.withLock { $0["App.docsIsLoading"] } != nil)
    }

    @Test func reset() throws {
        let folder = temporaryPath("docs-reset")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let app = Application()
        app.storage = StorageConfiguration(appID: "docs", directory: folder)
        Application.withCurrent(app) {
            Application.state(\.docsCounter).value = 5
            Application.syncState(\.docsSharedNote).value = "hi"
            Application.reset(\.docsCounter)
            Application.reset(\.docsSharedNote)
            #expect(Application.state(\.docsCounter).value == 0)
            #expect(Application.syncState(\.docsSharedNote).value == "")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/sync/Notes.docsShared.json"))
    }

    @MainActor @Test func mainActorViewModel() {
        let app = Application()
        app.storage = StorageConfiguration(appID: "docs", directory: "/nonexistent/docs-view-model")
        Application.withCurrent(app) {
            let model = DocsProfileViewModel()
            model.name = "Grace"
            model.userName = "Lin"
            #expect(model.profile.name == "Grace")
            #expect(model.visits == 0)
            #expect(model.recentFiles.isEmpty)
            #expect(Application.state(\.docsUser).value.name == "Lin")
        }
        app.persistence.close()
    }
}

// notifyChange, load and promote, and what the store holds, as in Docs/Store.md.
final class DocsSettings: @unchecked Sendable { var title = "untitled" }
struct DocsFrenchGreeter: DocsGreeter { func greet(_ name: String) -> String { "Bonjour, \(name)" } }

extension Application {
    var docsSettings: Dependency<DocsSettings> { dependency(DocsSettings()) }
    var docsApiToken: SecureState { secureState(feature: "Sync", id: "docsToken") }
}

@Suite("Docs/Store.md examples: AppState's remaining API")
struct StoreDocsRemainingAPITests {
    @Test func notifyChange() {
        let app = Application()
        Application.withCurrent(app) {
            let told = Mutex(0)
            _ = StateTracking.withTracking({ Application.dependency(\.docsSettings).title }, observer: StateObserver { told.withLock { $0 += 1 } })
            Application.dependency(\.docsSettings).title = "Inbox"
            #expect(told.withLock { $0 } == 0)
            Application.current.notifyChange()
            #expect(told.withLock { $0 } == 1)
        }
    }

    @Test func loadAndPromote() {
        Application.withCurrent(Application()) {
            Application.load(dependency: \.docsGreeter)
            Application.promote(\.docsGreeter, with: DocsFrenchGreeter())
            #expect(Application.dependency(\.docsGreeter).greet("Ada") == "Bonjour, Ada")
        }
    }

    @Test func whatTheStoreHolds() {
        let folder = temporaryPath("docs-description")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let app = Application()
        app.storage = StorageConfiguration(appID: "appletkit", directory: folder)
        Application.withCurrent(app) {
            Application.state(\.docsCounter).value = 3
            Application.secureState(\.docsApiToken).value = "s3cr3t"
            _ = Application.dependency(\.docsGreeter).greet("Ada")
            #expect("\(Application.current)" == """
                Application, 4 values (state folder \(folder))
                State
                  AppletState.storeIssues: [StoreIssue] = []
                  Counter.docsCount: Int = 3
                SecureState (values hidden)
                  Sync.docsToken = <secret>
                Dependency
                  App.docsGreeter: DocsGreeter = DocsEnglishGreeter()
                """)
        }
        app.persistence.close()
    }
}
