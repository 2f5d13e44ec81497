import Observation
import Synchronization
import Testing
@testable import AppletState

/// A plain class kept as a dependency: setting its properties on the object tells no one.
final class NotifySettings: @unchecked Sendable {
    var title = "untitled"
}

extension Application {
    var notifyCount: State<Int> { state(initial: 0, feature: "Notify", id: "count") }
    var notifyLaunches: StoredState<Int> { storedState(initial: 0, feature: "Notify", id: "launches") }
    var notifySettings: Dependency<NotifySettings> { dependency(NotifySettings(), feature: "Notify") }
}

/// Counts how often an observer was told.
private final class Heard: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .acquiring) }
    func observer() -> StateObserver { StateObserver { self.count.add(1, ordering: .releasing) } }
    func tell() { count.add(1, ordering: .releasing) }
}

/// `notifyChange()`: every observer of what was read from the store hears of a change, though no
/// value changed; nobody else does.
@Suite("notifyChange")
struct NotifyChangeTests {
    /// A tracked read (a view's, the chrome's: the store's watchers) is told once, the value
    /// stays, and `changes` moves by one so a frame evaluated meanwhile is drawn again.
    @Test func everyTrackedReadIsToldOnceAndNoValueChanges() {
        let app = Application()
        let heard = Heard()
        let seen = Application.withCurrent(app) {
            StateTracking.withTracking({ Application.state(\.notifyCount).value }, observer: heard.observer())
        }
        #expect(seen == 0)
        let before = app.changes
        app.notifyChange()
        #expect(heard.value == 1)
        #expect(app.changes == before + 1)
        #expect(app.notifyCount.value == 0)
        app.notifyChange()
        #expect(heard.value == 1, "the observation ended when it was told; the next read starts another")
    }

    /// Every kind of state, and dependencies (observed through Observation inside the same scope),
    /// each tell their own readers.
    @Test func readersOfEachKindAndOfDependenciesAreTold() {
        let app = Application()
        let state = Heard(), stored = Heard(), dependency = Heard()
        Application.withCurrent(app) {
            StateTracking.withTracking({ _ = Application.state(\.notifyCount).value }, observer: state.observer())
            StateTracking.withTracking({ _ = Application.storedState(\.notifyLaunches).value }, observer: stored.observer())
            StateTracking.withTracking({ _ = Application.dependency(\.notifySettings).title }, observer: dependency.observer())
        }
        app.notifyChange()
        #expect(state.value == 1)
        #expect(stored.value == 1)
        #expect(dependency.value == 1)
    }

    /// What notifyChange is for: a plain class's property set on the object directly is seen by
    /// nobody until the app says so.
    @Test func aChangeTheStoreCannotSeeReachesReadersOnceAnnounced() {
        let app = Application()
        let heard = Heard()
        let read = { Application.withCurrent(app) { Application.dependency(\.notifySettings).title } }
        _ = StateTracking.withTracking(read, observer: heard.observer())
        app.notifySettings.value.title = "Inbox"
        #expect(heard.value == 0, "set on the object: the store saw nothing")
        app.notifyChange()
        #expect(heard.value == 1)
        #expect(read() == "Inbox")
    }

    /// Reads outside any tracking scope register with Observation: `withObservationTracking`
    /// hears it too, as AppState's observers do.
    @Test func withObservationTrackingHearsIt() {
        let app = Application()
        let heard = Heard()
        withObservationTracking {
            _ = app.notifyCount.value
        } onChange: {
            heard.tell()
        }
        app.notifyChange()
        #expect(heard.value == 1)
    }

    /// Only this store's readers: a view of another store is left alone.
    @Test func readersOfAnotherStoreAreNotTold() {
        let app = Application(), other = Application()
        let heard = Heard()
        _ = StateTracking.withTracking({ other.notifyCount.value }, observer: heard.observer())
        app.notifyChange()
        #expect(heard.value == 0)
        other.notifyChange()
        #expect(heard.value == 1)
    }

    /// `changes` sequences carry values; none changed, so they get nothing.
    @Test func changesSequencesGetNothing() async {
        let app = Application()
        let stream = app.notifyCount.changes
        app.notifyChange()
        app.notifyCount.value = 5
        var values = stream.makeAsyncIterator()
        #expect(await values.next() == 5)
    }

    /// From any thread, as any change: the observer hears it on that thread.
    @Test func itMayComeFromAnyThread() async {
        let app = Application()
        let heard = Heard()
        _ = StateTracking.withTracking({ app.notifyCount.value }, observer: heard.observer())
        await Task.detached { app.notifyChange() }.value
        #expect(heard.value == 1)
    }

    /// Many in a row, and racing with writes, as AppState's burst test: nothing breaks, each is
    /// counted.
    @Test func manyInARowAreEachCounted() async {
        let app = Application()
        let before = app.changes
        for _ in 0..<1_000 { app.notifyChange() }
        #expect(app.changes == before + 1_000)
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<4 {
                group.addTask {
                    for j in 0..<250 {
                        if i % 2 == 0 { app.notifyChange() } else { app.notifyCount.value = j }
                    }
                }
            }
        }
        #expect(app.changes == before + 2_000)
    }
}
