import Foundation
import Observation
import Synchronization
import Testing
import TestSupport
@testable import AppletState

// Issue 15, the store's part: code written for AppState works here. Each test names the item of
// the issue it covers.

// MARK: Declarations as AppState writes them: no id

struct ParityPrefs: Codable, Equatable, Sendable {
    var theme = "dark"
}

/// A folder known when the declarations below are written (AppState's `path:` is a literal).
enum ParityFolders {
    static let recent = temporaryPath("parity-recent")
}

extension Application {
    var isLoading: State<Bool> { state(initial: false) }
    var parityDraft: State<String> { scopedState(initial: "") }
    var parityLaunches: StoredState<Int> { storedState(initial: 0) }
    var parityPrefs: FileState<ParityPrefs> { fileState(initial: ParityPrefs()) }
    var parityShared: SyncState<Int> { syncState(initial: 0) }
    var parityToken: SecureState { secureState() }
    var parityClock: Dependency<Int> { dependency(42) }
    // AppState's optional forms: no initial value, nil until set.
    var parityLastSearch: StoredState<String?> { storedState(id: "parityLastSearch") }
    var parityFocused: SyncState<String?> { syncState(id: "parityFocused") }
    var parityNoID: StoredState<String?> { storedState() }
    // AppState's `path:` / `filename:` spelling of FileState.
    var parityRecent: FileState<[String]> { fileState(initial: [], path: ParityFolders.recent, filename: "recent.json") }
    var parityDraftFile: FileState<String?> { fileState(path: ParityFolders.recent, filename: "draft.json") }
    var parityDefaultFolder: FileState<Int> { fileState(initial: 1, filename: "plain.json") }
}

/// Declarations that end up with keys the ones above (or each other) already use, as two modules
/// declaring the same property name would: the id comes from the property's name.
struct ParityOtherModule {
    let app: Application
    var isLoading: Application.State<Bool> { app.state(initial: true) }              // same key, same type
    var parityLaunches: StoredState<Int> { app.storedState(initial: 5) }  // same key, same type
    var parityClash: Application.State<String> { app.state(initial: "other") }       // another type
    var parityNamed: Application.State<Int> { app.state(initial: 0, id: "parityNamed") }
}

extension Application {
    var parityClash: State<Int> { state(initial: 1) }
    /// Derived here; named explicitly by `ParityOtherModule.parityNamed`.
    var parityNamed: State<Int> { state(initial: 0) }
    /// One explicit id declared in two places: sharing on purpose, not a clash.
    var paritySharedOnPurpose: State<Int> { state(initial: 0, id: "sharedOnPurpose") }
    var paritySharedOnPurposeToo: State<Int> { state(initial: 0, id: "sharedOnPurpose") }
}

/// A temporary state folder and stores on it, like runs of an app.
final class ParitySandbox: @unchecked Sendable {
    let directory = temporaryPath("parity")
    private var launched: [Application] = []

    var storePath: String { directory + "/parity.json" }

    func launch() -> Application {
        let app = Application()
        app.storage = StorageConfiguration(appID: "parity", directory: directory)
        launched.append(app)
        return app
    }

    func remove() {
        for app in launched { app.persistence.close() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    func storeFile() -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: storePath),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: directory + "/" + relative) }
}

@Suite("AppState parity: declarations")
struct AppStateDeclarationTests {
    /// Item 1: every kind can be declared without `id:`; the property's name is the id.
    @Test func declarationsWithoutAnIDUseThePropertyName() async throws {
        let sandbox = ParitySandbox()
        defer { sandbox.remove() }
        let first = sandbox.launch()
        Application.withCurrent(first) {
            Application.state(\.isLoading).value = true
            Scope.with(Scope(name: "notes", id: "left")) { Application.state(\.parityDraft).value = "left" }
            Application.storedState(\.parityLaunches).value = 3
            Application.fileState(\.parityPrefs).value.theme = "light"
            Application.syncState(\.parityShared).value = 7
            Application.secureState(\.parityToken).value = "s3cr3t"
            #expect(Application.storedState(\.parityLastSearch).value == nil)
            Application.storedState(\.parityLastSearch).value = "swift"
            #expect(Application.syncState(\.parityFocused).value == nil)
            Application.syncState(\.parityFocused).value = "note 1"
            Application.storedState(\.parityNoID).value = "x"
            #expect(Application.dependency(\.parityClock) == 42)
        }
        first.flush()
        let keys = first.registry.withLock { Set($0.keys) }
        #expect(keys.contains("App.isLoading"))
        #expect(keys.contains("App.parityDraft@notes.left"))
        #expect(keys.contains("Dependency.App.parityClock"))
        let stored = sandbox.storeFile()
        #expect(stored["App.parityLaunches"] as? Int == 3)
        #expect(stored["App.parityLastSearch"] as? String == "swift")
        #expect(stored["App.parityNoID"] as? String == "x")
        #expect(sandbox.exists("files/App.parityPrefs.json"))
        #expect(sandbox.exists("sync/App.parityShared.json"))
        #expect(sandbox.exists("sync/App.parityFocused.json"))
        #expect(sandbox.exists("secure/App.parityToken"))
        #expect(first.storeIssues.value.isEmpty)

        let second = sandbox.launch()
        Application.withCurrent(second) {
            #expect(Application.state(\.isLoading).value == false)     // in memory only
            #expect(Application.storedState(\.parityLaunches).value == 3)
            #expect(Application.fileState(\.parityPrefs).value.theme == "light")
            #expect(Application.syncState(\.parityShared).value == 7)
            #expect(Application.secureState(\.parityToken).value == "s3cr3t")
            #expect(Application.storedState(\.parityLastSearch).value == "swift")
            #expect(Application.syncState(\.parityFocused).value == "note 1")
        }
    }

    /// Item 1: AppState's `fileState(initial:path:filename:)` and `fileState(path:filename:)`.
    @Test func fileStateTakesAppStatesPathAndFilename() throws {
        let sandbox = ParitySandbox()
        defer {
            sandbox.remove()
            try? FileManager.default.removeItem(atPath: ParityFolders.recent)
        }
        let first = sandbox.launch()
        Application.withCurrent(first) {
            #expect(Application.fileState(\.parityDraftFile).value == nil)
            Application.fileState(\.parityRecent).value = ["a.txt", "b.txt"]
            Application.fileState(\.parityDraftFile).value = "Dear"
            Application.fileState(\.parityDefaultFolder).value = 2
        }
        first.flush()
        let recent = try Data(contentsOf: URL(fileURLWithPath: ParityFolders.recent + "/recent.json"))
        #expect(try JSONDecoder().decode([String].self, from: recent) == ["a.txt", "b.txt"])   // readable JSON, not Base64
        #expect(FileManager.default.fileExists(atPath: ParityFolders.recent + "/draft.json"))
        #expect(sandbox.exists("files/plain.json"))

        let second = sandbox.launch()
        Application.withCurrent(second) {
            #expect(Application.fileState(\.parityRecent).value == ["a.txt", "b.txt"])
            #expect(Application.fileState(\.parityDraftFile).value == "Dear")
            #expect(Application.fileState(\.parityDefaultFolder).value == 2)
        }
    }

    /// Item 1: two declarations in different places that derive one key share it, and that is
    /// reported in `storeIssues` (once), never a crash; another value type gets its own value.
    @Test func aKeyDerivedInTwoPlacesIsReportedNotACrash() {
        let sandbox = ParitySandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        let other = ParityOtherModule(app: app)

        app.isLoading.value = true
        #expect(other.isLoading.value == true, "one key, one value")
        _ = other.isLoading.value
        var messages = app.storeIssues.value.map(\.message)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("'App.isLoading' is declared in two places") == true)
        #expect(messages.first?.contains("AppStateParityTests.swift:") == true, "names both places")

        // Persistent kinds too.
        app.parityLaunches.value = 9
        #expect(other.parityLaunches.value == 9)
        messages = app.storeIssues.value.map(\.message)
        #expect(messages.contains { $0.contains("'App.parityLaunches' is declared in two places") })

        // A derived key meeting an explicit id.
        _ = app.parityNamed.value
        _ = other.parityNamed.value
        messages = app.storeIssues.value.map(\.message)
        #expect(messages.contains { $0.contains("'App.parityNamed' is declared in two places") })

        // Another value type: no crash, a value of its own, reported.
        app.parityClash.value = 2
        #expect(other.parityClash.value == "other")
        other.parityClash.value = "changed"
        #expect(app.parityClash.value == 2)
        #expect(other.parityClash.value == "changed")
        messages = app.storeIssues.value.map(\.message)
        #expect(messages.contains { $0.contains("'App.parityClash' is declared with two value types: Int") && $0.contains("String") })

        // One explicit id in two places is sharing on purpose: not reported.
        let before = app.storeIssues.value.count
        app.paritySharedOnPurpose.value = 4
        #expect(app.paritySharedOnPurposeToo.value == 4)
        #expect(app.storeIssues.value.count == before)
    }

    /// Item 3: AppState's nested names.
    @Test func appStatesNestedNamesWork() {
        let sandbox = ParitySandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) {
            let state: Application.State<Bool> = Application.state(\.isLoading)
            state.value = true
            let stored: Application.StoredState<Int> = Application.storedState(\.parityNamesStored)
            stored.value = 2
            let file: Application.FileState<Int> = Application.fileState(\.parityNamesFile)
            #expect(file.value == 3)
            let synced: Application.SyncState<Int> = Application.syncState(\.parityNamesSync)
            #expect(synced.value == 4)
            let secret: Application.SecureState = Application.secureState(\.parityNamesSecret)
            #expect(secret.value == nil)
            let scope = Application.Scope(name: "notes", id: "right")
            Scope.with(scope) { Application.state(\.parityDraft).value = "right" }
            #expect(Scope.with(Scope(name: "notes", id: "right")) { Application.state(\.parityDraft).value } == "right")
            let dependency: Application.Dependency<String> = app.parityNamesService
            #expect(dependency.value == "live")
            let token: Application.DependencyOverride = Application.override(\.parityNamesService, with: "mock")
            #expect(Application.dependency(\.parityNamesService) == "mock")
            token.cancel()
            #expect(Application.dependency(\.parityNamesService) == "live")
            let slice: Application.Slice<Application.StoredState<Int>, Int> = Application.slice(\.parityNamesStored, \.self)
            slice.value = 5
            #expect(stored.value == 5)
        }
        #expect(app.isLoading.value)
    }
}

extension Application {
    var parityNamesStored: Application.StoredState<Int> { storedState(initial: 1) }
    var parityNamesFile: Application.FileState<Int> { fileState(initial: 3) }
    var parityNamesSync: Application.SyncState<Int> { syncState(initial: 4) }
    var parityNamesSecret: Application.SecureState { secureState() }
    var parityNamesService: Application.Dependency<String> { dependency("live") }
}

// MARK: Reset

extension Application {
    var resetMemory: State<Int> { state(initial: 1) }
    var resetStored: StoredState<Int> { storedState(initial: 10) }
    var resetKept: StoredState<Int> { storedState(initial: 0) }
    var resetFile: FileState<[String]> { fileState(initial: ["initial"]) }
    var resetSecret: SecureState { secureState() }
    var resetSync: SyncState<String> { syncState(initial: "initial") }
}

@Suite("AppState parity: reset")
struct AppStateResetTests {
    /// Item 2: `Application.reset(\.key)` puts every kind back to its declared initial value and
    /// removes what was saved, so another instance and a restart see the initial value too.
    @Test func resetRestoresInitialValuesAndRemovesWhatWasSaved() async throws {
        let sandbox = ParitySandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        let watcher = sandbox.launch()                                   // another running instance
        Application.withCurrent(app) {
            Application.state(\.resetMemory).value = 2
            Application.storedState(\.resetStored).value = 20
            Application.storedState(\.resetKept).value = 5
            Application.fileState(\.resetFile).value = ["changed"]
            Application.secureState(\.resetSecret).value = "token"
            Application.syncState(\.resetSync).value = "changed"
        }
        app.flush()
        #expect(sandbox.storeFile()["App.resetStored"] as? Int == 20)
        #expect(sandbox.exists("files/App.resetFile.json"))
        #expect(sandbox.exists("secure/App.resetSecret"))
        #expect(sandbox.exists("sync/App.resetSync.json"))
        #expect(Application.withCurrent(watcher) { Application.syncState(\.resetSync).value } == "changed")

        Application.withCurrent(app) {
            Application.reset(\.resetMemory)
            Application.reset(\.resetStored)
            Application.reset(\.resetFile)
            Application.reset(\.resetSecret)
            Application.reset(\.resetSync)
            #expect(Application.state(\.resetMemory).value == 1)
            #expect(Application.storedState(\.resetStored).value == 10)
            #expect(Application.fileState(\.resetFile).value == ["initial"])
            #expect(Application.secureState(\.resetSecret).value == nil)
            #expect(Application.syncState(\.resetSync).value == "initial")
        }
        app.flush()
        let stored = sandbox.storeFile()
        #expect(stored["App.resetStored"] == nil, "the saved value is removed, not overwritten")
        #expect(stored["App.resetKept"] as? Int == 5, "other keys stay")
        #expect(!sandbox.exists("files/App.resetFile.json"))
        #expect(!sandbox.exists("secure/App.resetSecret"))
        #expect(!sandbox.exists("sync/App.resetSync.json"))
        #expect(await eventually { Application.withCurrent(watcher) { Application.syncState(\.resetSync).value } == "initial" })

        // A restart reads the initial values.
        let restart = sandbox.launch()
        Application.withCurrent(restart) {
            #expect(Application.storedState(\.resetStored).value == 10)
            #expect(Application.storedState(\.resetKept).value == 5)
            #expect(Application.fileState(\.resetFile).value == ["initial"])
            #expect(Application.secureState(\.resetSecret).value == nil)
            #expect(Application.syncState(\.resetSync).value == "initial")
        }

        // A change after a reset is saved again.
        Application.withCurrent(app) {
            Application.storedState(\.resetStored).value = 30
            Application.fileState(\.resetFile).modify { $0.append("again") }
        }
        app.flush()
        #expect(sandbox.storeFile()["App.resetStored"] as? Int == 30)
        #expect(sandbox.exists("files/App.resetFile.json"))
        #expect(app.storeIssues.value.isEmpty)
    }

    /// Item 2: the handles reset too, and observers hear of it.
    @Test func handlesResetAndObserversHearIt() {
        let app = Application()
        let state = app.resetMemory
        state.value = 5
        let fired = Mutex(0)
        withObservationTracking { _ = state.value } onChange: { fired.withLock { $0 += 1 } }
        state.reset()
        #expect(state.value == 1)
        #expect(fired.withLock { $0 } == 1)
    }
}

// MARK: A main-actor view model

/// A main-actor model kept as a dependency: key paths to its properties are not `Sendable`.
@MainActor final class ParityProfile {
    var name = "Ada"
    var visits = 0
    var nickname: String? = nil
}

struct ParityUser: Codable, Equatable, Sendable {
    var name = ""
    var nickname: String?
}

extension Application {
    // Main-actor declarations (as in a module whose declarations are main-actor by default):
    // key paths to them are not `Sendable` either.
    @MainActor var parityProfile: Dependency<ParityProfile> { dependency(ParityProfile()) }
    @MainActor var parityMainCount: FileState<Int> { fileState(initial: 0) }
    @MainActor var parityMainFlag: State<Bool> { state(initial: false) }
    @MainActor var parityMainStored: StoredState<Int> { storedState(initial: 0) }
    @MainActor var parityMainSync: SyncState<Int> { syncState(initial: 0) }
    @MainActor var parityMainSecret: SecureState { secureState() }
    @MainActor var parityMainUser: State<ParityUser> { state(initial: ParityUser()) }
    @MainActor var parityMainMaybeUser: State<ParityUser?> { state(initial: ParityUser(name: "Bo")) }
    // A plain declaration, used from the view model as well.
    var parityNotes: FileState<[String]> { fileState(initial: []) }
}

@MainActor final class ParityViewModel {
    @FileState(\.parityMainCount) var count
    @FileState(\.parityNotes) var notes
    @AppState(\.parityMainFlag) var flag
    @StoredState(\.parityMainStored) var stored
    @SyncState(\.parityMainSync) var synced
    @SecureState(\.parityMainSecret) var secret
    @DependencySlice(\.parityProfile, \.name) var name
    @DependencyConstant(\.parityProfile, \.visits) var visits
    @ObservedDependency(\.parityProfile) var profile
    @AppDependency(\.parityProfile) var sameProfile
    @Slice(\.parityMainUser, \.name) var userName
    @Slice(\.parityMainUser, \.name as WritableKeyPath<ParityUser, String>) var userNameAgain
    @Constant(\.parityMainUser, \.name) var userNameConstant
    @OptionalSlice(\.parityMainMaybeUser, \.name) var maybeName
    @OptionalSlice(\.parityMainMaybeUser, \.nickname) var maybeNickname
    @OptionalConstant(\.parityMainMaybeUser, \.name) var maybeNameConstant

    func rename(_ newName: String) { name = newName }
}

@Suite("AppState parity: main-actor view models")
struct AppStateMainActorTests {
    /// Item 4: a `@MainActor` class uses the property wrappers with key paths to main-actor
    /// properties (not `Sendable`) and with `\.x as WritableKeyPath`.
    @MainActor @Test func aMainActorViewModelUsesTheWrappers() {
        let sandbox = ParitySandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) {
            let model = ParityViewModel()
            model.count += 2
            model.notes.append("first")
            model.flag = true
            model.stored = 4
            model.synced = 5
            model.secret = "pw"
            model.rename("Grace")
            #expect(model.name == "Grace")
            #expect(model.profile.name == "Grace")
            #expect(model.sameProfile === model.profile)
            #expect(model.visits == 0)
            model.profile.visits = 3
            #expect(model.visits == 3)
            model.userName = "Lin"
            #expect(model.userNameConstant == "Lin")
            model.userNameAgain += "!"
            #expect(model.userName == "Lin!")
            #expect(model.maybeName == "Bo")
            model.maybeNickname = "b"
            #expect(model.maybeNameConstant == "Bo")
            model.$count.wrappedValue += 1
            model.$profile.name.wrappedValue = "Hopper"
            #expect(model.name == "Hopper")

            #expect(Application.fileState(\.parityMainCount).value == 3)
            #expect(Application.fileState(\.parityNotes).value == ["first"])
            #expect(Application.state(\.parityMainFlag).value)
            #expect(Application.storedState(\.parityMainStored).value == 4)
            #expect(Application.syncState(\.parityMainSync).value == 5)
            #expect(Application.secureState(\.parityMainSecret).value == "pw")
            #expect(Application.dependency(\.parityProfile).name == "Hopper")
            #expect(Application.state(\.parityMainMaybeUser).value?.nickname == "b")
        }
        app.flush()
        #expect(sandbox.exists("files/App.parityMainCount.json"))
    }

    /// Item 4: what keeps it sound: such a wrapper used off the main actor stops with a message
    /// instead of running main-actor code on another thread.
    @Test func aMainActorWrapperUsedElsewhereStops() async {
        await #expect(processExitsWith: .failure) {
            let wrapper = await MainActor.run { DependencySlice(\.parityProfile, \.name) }
            _ = wrapper.wrappedValue
        }
    }
}

// MARK: Slices of a plain class

/// A dependency that is a plain class (not `@Observable`).
final class ParityPlainSettings: @unchecked Sendable {
    var title = "untitled"
}

extension Application {
    var parityPlainSettings: Dependency<ParityPlainSettings> { dependency(ParityPlainSettings()) }
}

@Suite("AppState parity: dependency slices")
struct AppStateDependencySliceTests {
    struct Editor {
        @DependencySlice(\.parityPlainSettings, \.title) var title
    }

    /// Item 5: writing through `@DependencySlice` into a property of a plain class tells whoever
    /// read it (a view, through Observation).
    @Test func aWriteIntoAPlainClassTellsObservers() {
        let app = Application()
        Application.withCurrent(app) {
            let editor = Editor()
            let fired = Mutex(0)
            withObservationTracking { _ = editor.title } onChange: { fired.withLock { $0 += 1 } }
            editor.title = "Dashboard"
            #expect(fired.withLock { $0 } == 1)
            #expect(Application.dependency(\.parityPlainSettings).title == "Dashboard")

            // Through the value form and its `modify`, and read through the dependency itself.
            withObservationTracking { _ = Application.dependency(\.parityPlainSettings).title } onChange: { fired.withLock { $0 += 1 } }
            Application.dependencySlice(\.parityPlainSettings, \.title).modify { $0 += "!" }
            #expect(fired.withLock { $0 } == 2)
            #expect(editor.title == "Dashboard!")
        }
    }
}

// MARK: SyncState and values JSON cannot hold

extension Application {
    var parityRatio: SyncState<Double> { syncState(initial: 0.5) }
}

@Suite("AppState parity: SyncState", .serialized)
struct AppStateSyncTests {
    /// Item 9: a value that cannot be encoded is refused in every instance, this one included:
    /// the previous value stays and the problem is reported.
    @Test func anUnencodableValueKeepsThePreviousOneEverywhere() async throws {
        let sandbox = ParitySandbox()
        defer { sandbox.remove() }
        let a = sandbox.launch(), b = sandbox.launch()
        _ = b.parityRatio.value
        a.parityRatio.value = 1.5
        #expect(await eventually { b.parityRatio.value == 1.5 })

        a.parityRatio.value = .infinity
        #expect(a.parityRatio.value == 1.5)
        a.parityRatio.modify { $0 = .nan }
        #expect(a.parityRatio.value == 1.5)
        let issues = a.storeIssues.value.map(\.message)
        #expect(issues.count == 1)
        #expect(issues.first?.contains("App.parityRatio") == true)
        #expect(issues.first?.contains("keeps its previous value") == true)
        try await Task.sleep(for: .milliseconds(50))
        #expect(b.parityRatio.value == 1.5)

        a.parityRatio.value = 2.5                           // works again afterwards
        #expect(await eventually { b.parityRatio.value == 2.5 })
    }

    /// Item 9, without a usable folder (memory only): the same rule.
    @Test func anUnencodableValueIsRefusedInMemoryOnlyModeToo() {
        let app = Application()
        app.storage = StorageConfiguration(appID: "parity", directory: "/proc/parity-not-writable")
        app.parityRatio.value = 3
        app.parityRatio.value = -.infinity
        #expect(app.parityRatio.value == 3)
        #expect(app.storeIssues.value.contains { $0.message.contains("keeps its previous value") })
    }
}

// MARK: The README's own shapes

protocol ParityNetworkService: Sendable { func fetch() -> String }
struct ParityLiveNetwork: ParityNetworkService { func fetch() -> String { "live" } }
struct ParityMockNetwork: ParityNetworkService { func fetch() -> String { "mock" } }

struct ParityPreferences: Codable, Sendable { var isDarkModeEnabled: Bool }
struct ParityAccount: Sendable { let id: UUID; var username: String }

extension Application {
    var parityUsername: State<String> { state(initial: "Leif") }
    var parityNetworkService: Dependency<any ParityNetworkService> { dependency(ParityLiveNetwork()) }
    var parityUserToken: SecureState { secureState(id: "parityUserToken") }
    var parityDarkMode: SyncState<Bool> { syncState(initial: false, id: "parityDarkMode") }
    var parityPreferences: SyncState<ParityPreferences> {
        syncState(initial: ParityPreferences(isDarkModeEnabled: false), id: "parityPreferences")
    }
    var parityAccount: State<ParityAccount?> { state(initial: nil) }
    var parityDictionary: State<[String: String]> { state(initial: [:]) }
}

final class ParitySettingsModel {
    @AppState(\.parityUsername) var username
    @Slice(\.parityPreferences, \.isDarkModeEnabled) var isDarkModeEnabled: Bool
    @OptionalConstant(\.parityAccount, \.id) var id: UUID?
    @OptionalSlice(\.parityAccount, \.username) var accountName: String?
    @Slice(\.parityDictionary, \.["error"]) var error: String?
    @SecureState(\.parityUserToken) var userToken: String?
    @SyncState(\.parityDarkMode) var darkMode: Bool
    @AppDependency(\.parityNetworkService) var networkService

    func updateUsername(newUsername: String) { username = newUsername }
}

// Swift 6 asks a subclass to restate `@unchecked Sendable` (AppState's README omits it).
class ParityCustomApplication: Application, @unchecked Sendable {
    func customFunction() -> String { "custom" }
}

@Suite("AppState parity: the README's shapes")
struct AppStateReadmeTests {
    /// Item 3: code spelled as AppState's README spells it compiles and works.
    @Test func readmeCodeWorks() {
        let sandbox = ParitySandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) {
            var usernameState: Application.State = Application.state(\.parityUsername)
            #expect(usernameState.value == "Leif")
            usernameState.value = "0xL"
            #expect(Application.state(\.parityUsername).value == "0xL")
            usernameState = Application.state(\.parityUsername)

            let settings = ParitySettingsModel()
            settings.updateUsername(newUsername: "NewUserName")
            #expect(settings.username == "NewUserName")
            settings.isDarkModeEnabled = true
            #expect(Application.syncState(\.parityPreferences).value.isDarkModeEnabled)
            #expect(settings.id == nil)
            Application.state(\.parityAccount).value = ParityAccount(id: UUID(), username: "leif")
            settings.accountName = "0xLeif"
            #expect(Application.state(\.parityAccount).value?.username == "0xLeif")
            #expect(settings.id != nil)
            settings.error = "offline"
            #expect(Application.state(\.parityDictionary).value == ["error": "offline"])
            settings.userToken = "token"
            settings.darkMode = true
            #expect(settings.networkService.fetch() == "live")

            let networkOverride: Application.DependencyOverride = Application.override(\.parityNetworkService, with: ParityMockNetwork())
            let mockNetworkService = Application.dependency(\.parityNetworkService)
            #expect(mockNetworkService.fetch() == "mock")
            networkOverride.cancel()
            #expect(Application.dependency(\.parityNetworkService).fetch() == "live")
        }
        // `Application.promote(to: ParityCustomApplication.self)` compiles as in the README (it
        // is run by PromoteTests, which alone may replace the shared store).
        let promote: () -> ParityCustomApplication.Type = { Application.promote(to: ParityCustomApplication.self) }
        _ = promote
        #expect(ParityCustomApplication().customFunction() == "custom")
    }
}

// MARK: AppState's remaining API: notifyChange, promote(_:with:), description, load(dependency:)

// AppState's own tests of these four, ported: XCTest's assertions as `#expect`, `Application.shared`
// as a store of the test's own (`withCurrent`), SwiftUI's observation as `withObservationTracking`.

/// AppState's `ObsBridgeAppStateHolder`: a class reading state through `@AppState`.
final class ParityObservedHolder: @unchecked Sendable {
    @AppState(\.parityUsername) var username
}

/// AppState's `BreakItService`: a dependency with a name.
struct ParityNamedService: Sendable { let name: String }

extension Application {
    var parityNamedService: Dependency<ParityNamedService> { dependency(ParityNamedService(name: "declared")) }
    var parityLargeArray: State<[Int]> { state(initial: []) }
}

@Suite("AppState parity: notifyChange, promote(_:with:), description, load(dependency:)")
struct AppStateRemainingAPITests {
    /// `ObservationBridgeTests.testNotifyChangeDirectlyBumpsObservers`: observers of a read are
    /// told by `notifyChange()` though nothing changed.
    @Test func notifyChangeTellsRegisteredObservers() {
        let app = Application()
        Application.withCurrent(app) {
            let holder = ParityObservedHolder()
            let fired = Mutex(false)
            withObservationTracking { _ = holder.username } onChange: { fired.withLock { $0 = true } }
            #expect(!fired.withLock { $0 })
            app.notifyChange()
            #expect(fired.withLock { $0 }, "notifyChange() must fire registered observers")
            #expect(holder.username == "Leif")
        }
    }

    /// `AdversarialBreakItTests.testNotifyChangeBurst` and
    /// `ObservationBridgeTests.testNotifyChangeCanBeCalledRepeatedly`: survival is the proof.
    @Test func notifyChangeBurst() {
        let app = Application()
        for _ in 0..<1_000 { app.notifyChange() }
        Application.shared.notifyChange()
    }

    /// `AppDependencyTests.testDependency`: a promoted service, overridden by a mock for a while,
    /// is back once the override is cancelled.
    @Test func promotedDependencyUnderAnOverride() {
        Application.withCurrent(Application()) {
            Application.promote(\.parityNetworkService, with: ParityMockNetwork())     // the suite's setUp
            Application.promote(\.parityNetworkService, with: ParityLiveNetwork())
            let networkingOverride = Application.override(\.parityNetworkService, with: ParityMockNetwork())
            let mockNetworking = Application.dependency(\.parityNetworkService)
            #expect(mockNetworking is ParityMockNetwork)
            #expect(ParitySettingsModel().networkService.fetch() == "mock")
            networkingOverride.cancel()
            let networkingService = Application.dependency(\.parityNetworkService)
            #expect(networkingService is ParityLiveNetwork)
        }
    }

    /// `AdversarialBreakItTests.testPromoteDependencyIsPermanentForSession`.
    @Test func promoteDependencyIsPermanentForTheStore() {
        Application.withCurrent(Application()) {
            Application.promote(\.parityNamedService, with: ParityNamedService(name: "promoted"))
            #expect(Application.dependency(\.parityNamedService).name == "promoted")
            let token = Application.override(\.parityNamedService, with: ParityNamedService(name: "mock"))
            token.cancel()
            #expect(Application.dependency(\.parityNamedService).name == "promoted")
        }
    }

    /// `AdversarialBreakItTests.testDescriptionDoesNotCrashWithLargeState`.
    @Test func descriptionWithLargeState() {
        Application.withCurrent(Application()) {
            let state = Application.state(\.parityLargeArray)
            state.value = Array(0..<1_000)
            let desc = Application.description
            #expect(!desc.isEmpty)
            #expect(desc.contains("App.parityLargeArray: [Int] = [0, 1, 2"))
        }
    }

    /// The suites' `tearDown` (`Application.description` logged after each), and
    /// `SecureStateTests`: the description lists what was used, and never a secret.
    @Test func descriptionAfterEachKindNeverShowsTheSecret() {
        let sandbox = ParitySandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) {
            let settings = ParitySettingsModel()
            settings.userToken = "QWERTY"
            settings.darkMode = true
            settings.updateUsername(newUsername: "NewUserName")
            _ = settings.networkService
            let applicationDescription = Application.description
            #expect(applicationDescription.contains(#"App.parityUsername: String = "NewUserName""#))
            #expect(applicationDescription.contains("App.parityDarkMode: Bool = true"))
            #expect(applicationDescription.contains("App.parityUserToken = <secret>"))
            #expect(applicationDescription.contains("App.parityNetworkService: ParityNetworkService = ParityLiveNetwork()"))
            #expect(!applicationDescription.contains("QWERTY"))
            settings.userToken = nil
            #expect(Application.description.contains("App.parityUserToken = nil"))
        }
    }

    /// `SecureStateTests.setUp`, `SyncStateTests.setUp`: `load(dependency:)` before use, chained
    /// (`ApplicationTests.testCustomFunction`'s chain into `promote(to:)` is in PromoteTests, which
    /// alone may replace the shared store).
    @Test func loadDependencyChains() {
        let app = Application()
        Application.withCurrent(app) {
            Application
                .load(dependency: \.parityNetworkService)
                .load(dependency: \.parityClock)
                .promote(\.parityNamedService, with: ParityNamedService(name: "chained"))
            #expect(app.registry.withLock { $0["Dependency.App.parityNetworkService"] != nil && $0["Dependency.App.parityClock"] != nil })
            #expect(Application.dependency(\.parityNamedService).name == "chained")
        }
    }
}
