import Observation
import Synchronization
import Testing
@testable import AppletState

struct SliceUser: Equatable, Sendable {
    var id: Int
    var name: String
    var nickname: String?
}

struct SliceStats: Equatable, Sendable {
    var hits = 0
    var misses = 0
}

struct SliceSettings: Equatable, Sendable {
    var title = "Home"
    var width = 80
}

final class SliceService: @unchecked Sendable {   // tests touch it from one task
    var endpoint = "local"
}

/// A kind of state that is not the store's own (no `StateBox`): slices still work over it.
struct SliceForeignState<Value: Sendable>: MutableApplicationState {
    let base: Application.State<Value>
    var value: Value {
        get { base.value }
        nonmutating set { base.value = newValue }
    }
    @discardableResult
    func modify<R>(_ change: (inout Value) throws -> R) rethrows -> R { try base.modify(change) }
    var changes: AsyncStream<Value> { base.changes }
}

extension Application {
    var sliceUser: State<SliceUser> { state(initial: SliceUser(id: 1, name: "anon"), feature: "SliceTests", id: "user") }
    var sliceMaybeUser: State<SliceUser?> { state(initial: nil, feature: "SliceTests", id: "maybeUser") }
    var sliceErrors: State<[String: String]> { state(initial: [:], feature: "SliceTests", id: "errors") }
    var sliceStats: State<SliceStats> { state(initial: SliceStats(), feature: "SliceTests", id: "stats") }
    var sliceForeign: SliceForeignState<SliceStats> {
        SliceForeignState(base: state(initial: SliceStats(), feature: "SliceTests", id: "foreign"))
    }
    var sliceSettings: Dependency<SliceSettings> { dependency(SliceSettings(), feature: "SliceTests") }
    var sliceService: Dependency<SliceService> { dependency(SliceService(), feature: "SliceTests") }
}

@Suite("Slice")
struct SliceTests {
    @Test func valueFormReadsAndWritesOnePart() {
        let app = Application()
        Application.withCurrent(app) {
            let name = Application.slice(\.sliceUser, \.name)
            #expect(name.value == "anon")
            name.value = "Ada"
            Application.slice(\.sliceUser, \.id).value = 7
            #expect(app.sliceUser.value == SliceUser(id: 7, name: "Ada"))
            #expect(Application.slice(\.sliceUser, \.name).value == "Ada")
            name.modify { $0 += "!" }
            #expect(app.sliceUser.value.name == "Ada!")
            name.binding.wrappedValue = "Grace"
            #expect(app.sliceUser.value.name == "Grace")
        }
    }

    @Test func wrapperReadsAndWritesOnePart() {
        struct Form {
            @Slice(\.sliceUser, \.name) var name
            @Slice(\.sliceUser, \.nickname) var nickname
        }
        let app = Application()
        Application.withCurrent(app) {
            let form = Form()
            #expect(form.name == "anon")
            form.name = "Ada"
            form.name += " L."
            form.nickname = "countess"
            #expect(app.sliceUser.value == SliceUser(id: 1, name: "Ada L.", nickname: "countess"))
            form.$name.wrappedValue = "Grace"                               // the projected binding
            #expect(form.name == "Grace")
            form.nickname = nil
            #expect(app.sliceUser.value.nickname == nil)
        }
    }

    @Test func dictionaryEntriesInsertUpdateAndRemove() {
        struct Panel {
            @Slice(\.sliceErrors, \.["disk"]) var diskError
        }
        let app = Application()
        Application.withCurrent(app) {
            let network = Application.slice(\.sliceErrors, \.["network"])
            #expect(network.value == nil)
            network.value = "timeout"                                       // insert
            #expect(app.sliceErrors.value == ["network": "timeout"])
            network.value = "refused"                                       // update
            #expect(Application.slice(\.sliceErrors, \.["network"]).value == "refused")
            let panel = Panel()
            panel.diskError = "full"
            #expect(app.sliceErrors.value == ["network": "refused", "disk": "full"])
            network.value = nil                                             // remove
            panel.diskError = nil
            #expect(app.sliceErrors.value.isEmpty)
        }
    }

    @Test func optionalRootNilIgnoresWritesThenWorks() {
        struct Form {
            @OptionalSlice(\.sliceMaybeUser, \.name) var name
            @OptionalSlice(\.sliceMaybeUser, \.nickname) var nickname       // a `String?` part: flattened
        }
        let app = Application()
        Application.withCurrent(app) {
            let form = Form()
            let name = Application.optionalSlice(\.sliceMaybeUser, \.name)
            #expect(name.value == nil)
            #expect(form.name == nil)
            name.value = "Ada"                                              // ignored (logged), no crash
            form.name = "Ada"
            form.nickname = "countess"
            form.$name.wrappedValue = "Ada"
            #expect(app.sliceMaybeUser.value == nil)
            #expect(name.value == nil)

            app.sliceMaybeUser.value = SliceUser(id: 2, name: "anon")
            #expect(name.value == "anon")
            name.value = "Ada"
            #expect(form.name == "Ada")
            form.nickname = "countess"
            #expect(app.sliceMaybeUser.value == SliceUser(id: 2, name: "Ada", nickname: "countess"))
            form.nickname = nil                                             // clears the optional part
            #expect(app.sliceMaybeUser.value?.nickname == nil)
            form.name = nil                                                 // nil into a non-optional part: ignored
            #expect(form.name == "Ada")
            let nickname = Application.optionalSlice(\.sliceMaybeUser, \.nickname)
            let flattened: String? = nickname.value                         // a `String?` part gives String?, not String??
            #expect(flattened == nil)
            nickname.value = "countess"
            #expect(form.nickname == "countess")
            nickname.value = nil                                            // clears the part
            #expect(app.sliceMaybeUser.value == SliceUser(id: 2, name: "Ada", nickname: nil))
        }
    }

    @Test func constantsRead() {
        struct Badge {
            @Constant(\.sliceUser, \.id) var id
            @OptionalConstant(\.sliceMaybeUser, \.id) var maybeID
            @OptionalConstant(\.sliceMaybeUser, \.nickname) var nickname
        }
        let app = Application()
        Application.withCurrent(app) {
            let badge = Badge()
            #expect(badge.id == 1)
            #expect(Application.constant(\.sliceUser, \.name).value == "anon")
            #expect(badge.maybeID == nil)
            #expect(badge.nickname == nil)
            #expect(Application.optionalConstant(\.sliceMaybeUser, \.id).value == nil)
            app.sliceUser.value.id = 3
            app.sliceMaybeUser.value = SliceUser(id: 4, name: "Ada", nickname: "countess")
            #expect(badge.id == 3)
            #expect(badge.maybeID == 4)
            #expect(badge.nickname == "countess")
            #expect(Application.optionalConstant(\.sliceMaybeUser, \.id).value == 4)
            #expect(Application.optionalConstant(\.sliceMaybeUser, \.nickname).value == "countess")
        }
    }

    @Test func dependencySlicesOfAValueType() {
        struct Header {
            @DependencySlice(\.sliceSettings, \.title) var title
            @DependencyConstant(\.sliceSettings, \.width) var width
        }
        let app = Application()
        Application.withCurrent(app) {
            let header = Header()
            #expect(header.title == "Home")
            #expect(header.width == 80)
            header.title = "Dashboard"                                      // replaces the value in the store
            #expect(Application.dependency(\.sliceSettings).title == "Dashboard")
            Application.dependencySlice(\.sliceSettings, \.width).value = 100
            #expect(Application.dependencyConstant(\.sliceSettings, \.width).value == 100)
            #expect(header.width == 100)
            header.$title.wrappedValue = "Logs"
            #expect(app.sliceSettings.value.title == "Logs")

            // While overridden, a write changes the override; cancelling brings the store's back.
            let token = Application.override(\.sliceSettings, with: SliceSettings(title: "Fake", width: 1))
            #expect(header.title == "Fake")
            header.title = "Fake 2"
            #expect(Application.dependency(\.sliceSettings) == SliceSettings(title: "Fake 2", width: 1))
            token.cancel()
            #expect(Application.dependency(\.sliceSettings) == SliceSettings(title: "Logs", width: 100))
        }
    }

    @Test func dependencySlicesOfAReferenceType() {
        struct Client {
            @DependencySlice(\.sliceService, \.endpoint) var endpoint
            @DependencyConstant(\.sliceService, \.endpoint) var current
        }
        Application.withCurrent(Application()) {
            let service = Application.dependency(\.sliceService)
            let client = Client()
            let fired = Mutex(0)
            withObservationTracking { _ = Application.dependency(\.sliceService) } onChange: { fired.withLock { $0 += 1 } }
            client.endpoint = "remote"                                      // sets the object's property
            #expect(service.endpoint == "remote")
            #expect(Application.dependency(\.sliceService) === service)     // same object, not replaced
            // A plain class cannot tell anyone: the store tells whoever read the dependency.
            #expect(fired.withLock { $0 } == 1)
            Application.dependencySlice(\.sliceService, \.endpoint).modify { $0 += "/v2" }
            #expect(client.current == "remote/v2")
        }
    }

    @Test func slicesWorkOverAnyKindOfState() {
        struct Counter {
            @Slice(\.sliceForeign, \.hits) var hits
            @Constant(\.sliceForeign, \.misses) var misses
        }
        let app = Application()
        Application.withCurrent(app) {
            let counter = Counter()
            counter.hits = 3
            Application.slice(\.sliceForeign, \.misses).modify { $0 += 2 }
            #expect(app.sliceForeign.value == SliceStats(hits: 3, misses: 2))
            #expect(counter.misses == 2)
        }
    }

    @Test func readingASliceObservesTheState() {
        struct View {
            @Slice(\.sliceUser, \.name) var name
        }
        let app = Application()
        Application.withCurrent(app) {
            let view = View()
            let fired = Mutex(0)
            withObservationTracking { _ = view.name } onChange: { fired.withLock { $0 += 1 } }
            Application.slice(\.sliceUser, \.id).value = 9
            #expect(fired.withLock { $0 } == 1)
        }
    }

    @Test func concurrentSliceIncrementsLoseNothing() async {
        let app = Application()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 {
                group.addTask {
                    Application.withCurrent(app) { Application.slice(\.sliceStats, \.hits).modify { $0 += 1 } }
                }
            }
        }
        #expect(app.sliceStats.value == SliceStats(hits: 1_000, misses: 0))
    }
}
