import Observation
import Synchronization
import Testing
@testable import AppletState

// A clock protocol, the real one and a fake, as an app would declare them.
protocol DepClock: Sendable { var now: Int { get } }
struct DepSystemClock: DepClock { var now: Int { 1_000 } }
struct DepFakeClock: DepClock { let now: Int }

/// Counts how often a dependency's value is made (each test has its own counter).
final class DepCounted: Sendable {
    let serial: Int
    init(_ counter: borrowing Atomic<Int>) { serial = counter.add(1, ordering: .relaxed).newValue }
}
enum DepCounters {
    static let lazy = Atomic<Int>(0)
    static let concurrent = Atomic<Int>(0)
}

@Observable
final class DepModel: @unchecked Sendable {
    var title = "untitled"
    var count = 0
}

extension Application {
    var depClock: Dependency<any DepClock> { dependency(DepSystemClock()) }
    var depLazy: Dependency<DepCounted> { dependency(DepCounted(DepCounters.lazy), feature: "Tests") }
    var depConcurrent: Dependency<DepCounted> { dependency(DepCounted(DepCounters.concurrent), feature: "Tests") }
    var depModel: Dependency<DepModel> { dependency(DepModel()) }
    var depGreeting: Dependency<String> { dependency("hello", id: "greeting") }
    /// Made from another dependency: its value is made outside the store's lock.
    var depDerived: Dependency<Int> { dependency(Application.dependency(\.depClock).now + 1) }
    /// Two dependencies made from each other: a programming error, reported rather than a hang.
    var depCycleA: Dependency<Int> { dependency(Application.dependency(\.depCycleB) + 1) }
    var depCycleB: Dependency<Int> { dependency(Application.dependency(\.depCycleA) + 1) }
}

@Suite("Dependency")
struct DependencyTests {
    @Test func madeLazilyOncePerStore() {
        let before = DepCounters.lazy.load(ordering: .relaxed)
        let a = Application(), b = Application()
        Application.withCurrent(a) {
            #expect(DepCounters.lazy.load(ordering: .relaxed) == before)   // nothing made yet
            let first = Application.dependency(\.depLazy)
            #expect(DepCounters.lazy.load(ordering: .relaxed) == before + 1)
            for _ in 0..<10 {
                #expect(Application.dependency(\.depLazy) === first)
                #expect(a.depLazy.value === first)                         // through the declaration too
            }
            #expect(DepCounters.lazy.load(ordering: .relaxed) == before + 1)
        }
        Application.withCurrent(b) {
            _ = Application.dependency(\.depLazy)                           // another store: its own
            #expect(DepCounters.lazy.load(ordering: .relaxed) == before + 2)
        }
    }

    @Test func concurrentFirstAccessMakesOneValue() async {
        let app = Application()
        let before = DepCounters.concurrent.load(ordering: .relaxed)
        await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<100 {
                group.addTask { Application.withCurrent(app) { ObjectIdentifier(Application.dependency(\.depConcurrent)) } }
            }
            var seen = Set<ObjectIdentifier>()
            for await id in group { seen.insert(id) }
            #expect(seen.count == 1)
        }
        #expect(DepCounters.concurrent.load(ordering: .relaxed) == before + 1)
    }

    @Test func registryKeyAndDefaultID() {
        let app = Application()
        _ = app.depClock
        _ = app.depGreeting
        let keys = app.registry.withLock { Set($0.keys) }
        #expect(keys.contains("Dependency.App.depClock"))        // the property's name by default
        #expect(keys.contains("Dependency.App.greeting"))
        Application.withCurrent(app) { #expect(Application.dependency(\.depGreeting) == "hello") }
    }

    @Test func aDependencyMayBeMadeFromAnother() {
        Application.withCurrent(Application()) {
            #expect(Application.dependency(\.depDerived) == 1_001)
        }
    }

    @Test func aCycleStopsInsteadOfHanging() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Application.withCurrent(Application()) { _ = Application.dependency(\.depCycleA) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("dependency cycle: Dependency.App.depCycleA -> Dependency.App.depCycleB -> Dependency.App.depCycleA"))
    }

    @Test func wrapperReadsTheCurrentStore() {
        struct Service {
            @AppDependency(\.depClock) var clock
            @AppDependency(\.depGreeting) var greeting
        }
        Application.withCurrent(Application()) {
            let service = Service()
            #expect(service.clock.now == 1_000)
            #expect(service.greeting == "hello")
        }
    }

    @Test func overrideThenCancelRestores() {
        struct Service {
            @AppDependency(\.depClock) var clock
        }
        Application.withCurrent(Application()) {
            let service = Service()
            let token = Application.override(\.depClock, with: DepFakeClock(now: 5))
            #expect(!token.isCancelled)
            #expect(Application.dependency(\.depClock).now == 5)
            #expect(service.clock.now == 5)                                 // code reading through the wrapper
            token.cancel()
            #expect(token.isCancelled)
            #expect(Application.dependency(\.depClock).now == 1_000)
            #expect(service.clock.now == 1_000)
            token.cancel()                                                  // twice: nothing more happens
            #expect(service.clock.now == 1_000)
        }
    }

    @Test func releasingTheTokenRestores() {
        Application.withCurrent(Application()) {
            var token: OverrideToken? = Application.override(\.depClock, with: DepFakeClock(now: 7))
            #expect(Application.dependency(\.depClock).now == 7)
            #expect(token != nil)
            token = nil
            #expect(Application.dependency(\.depClock).now == 1_000)
        }
    }

    @Test func nestedOverridesUnwindInOrder() {
        Application.withCurrent(Application()) {
            let a = Application.override(\.depClock, with: DepFakeClock(now: 1))
            let b = Application.override(\.depClock, with: DepFakeClock(now: 2))
            #expect(Application.dependency(\.depClock).now == 2)
            b.cancel()
            #expect(Application.dependency(\.depClock).now == 1)
            a.cancel()
            #expect(Application.dependency(\.depClock).now == 1_000)
        }
    }

    @Test func overridesCancelledOutOfOrderEndAtTheOriginal() {
        Application.withCurrent(Application()) {
            let a = Application.override(\.depClock, with: DepFakeClock(now: 1))
            let b = Application.override(\.depClock, with: DepFakeClock(now: 2))
            let c = Application.override(\.depClock, with: DepFakeClock(now: 3))
            a.cancel()                                                      // the outer one first
            #expect(Application.dependency(\.depClock).now == 3)
            c.cancel()                                                      // the inner one: b is left
            #expect(Application.dependency(\.depClock).now == 2)
            b.cancel()
            #expect(Application.dependency(\.depClock).now == 1_000)
        }
    }

    @Test func overridesArePerStore() {
        let a = Application(), b = Application()
        let token = Application.withCurrent(a) { Application.override(\.depClock, with: DepFakeClock(now: 9)) }
        Application.withCurrent(a) { #expect(Application.dependency(\.depClock).now == 9) }
        Application.withCurrent(b) { #expect(Application.dependency(\.depClock).now == 1_000) }
        token.cancel()                                                      // cancelling needs no current store
        Application.withCurrent(a) { #expect(Application.dependency(\.depClock).now == 1_000) }
    }

    @Test func overridingRedrawsWhatReadTheDependency() {
        struct View {
            @AppDependency(\.depClock) var clock
        }
        Application.withCurrent(Application()) {
            let view = View()
            let fired = Mutex(0)
            withObservationTracking { _ = view.clock.now } onChange: { fired.withLock { $0 += 1 } }
            let token = Application.override(\.depClock, with: DepFakeClock(now: 3))
            #expect(fired.withLock { $0 } == 1)
            withObservationTracking { _ = view.clock.now } onChange: { fired.withLock { $0 += 1 } }
            token.cancel()
            #expect(fired.withLock { $0 } == 2)
        }
    }

    @Test func observedDependencyRedrawsOnModelChangeAndOnOverride() {
        struct View {
            @ObservedDependency(\.depModel) var model
        }
        Application.withCurrent(Application()) {
            let view = View()
            let fired = Mutex(0)

            // An observed property of the model changes.
            withObservationTracking { _ = view.model.title } onChange: { fired.withLock { $0 += 1 } }
            view.model.count += 1                                           // not read: no redraw
            #expect(fired.withLock { $0 } == 0)
            view.model.title = "Inbox"
            #expect(fired.withLock { $0 } == 1)

            // The dependency is overridden.
            withObservationTracking { _ = view.model.title } onChange: { fired.withLock { $0 += 1 } }
            let fake = DepModel()
            fake.title = "Fake"
            let token = Application.override(\.depModel, with: fake)
            #expect(fired.withLock { $0 } == 2)
            #expect(view.model.title == "Fake")

            // Bindings to the model's properties follow the override.
            let binding = view.$model.title
            binding.wrappedValue = "Edited"
            #expect(fake.title == "Edited")
            token.cancel()
            #expect(view.model.title == "Inbox")
            #expect(binding.wrappedValue == "Inbox")
        }
    }
}

// MARK: Promoting and loading (AppState's `promote(_:with:)` and `load(dependency:)`)

/// Counters of their own: the tests above compare `DepCounters` before and after, in parallel.
enum DepMadeCounters {
    static let loaded = Atomic<Int>(0)
    static let loadedInOtherStore = Atomic<Int>(0)
    static let promoted = Atomic<Int>(0)
}

extension Application {
    var depLoaded: Dependency<DepCounted> { dependency(DepCounted(DepMadeCounters.loaded), feature: "Tests") }
    var depLoadedElsewhere: Dependency<DepCounted> { dependency(DepCounted(DepMadeCounters.loadedInOtherStore), feature: "Tests") }
    var depPromoted: Dependency<DepCounted> { dependency(DepCounted(DepMadeCounters.promoted), feature: "Tests") }
    var depPromotedClock: Dependency<any DepClock> { dependency(DepSystemClock(), feature: "Tests") }
}

@Suite("Dependency: promote and load")
struct DependencyPromoteAndLoadTests {
    /// A promotion replaces the declared value for the rest of the store's life; a second one
    /// replaces the first; calls chain.
    @Test func promoteReplacesTheValueForGood() {
        let app = Application()
        Application.withCurrent(app) {
            let type: Application.Type = Application
                .promote(\.depPromotedClock, with: DepFakeClock(now: 1))
                .promote(\.depGreeting, with: "salut")
            #expect(type == Application.self)
            #expect(Application.dependency(\.depPromotedClock).now == 1)
            #expect(Application.dependency(\.depGreeting) == "salut")
            #expect(app.depGreeting.value == "salut", "through the declaration too")
            Application.promote(\.depPromotedClock, with: DepFakeClock(now: 2))
            #expect(Application.dependency(\.depPromotedClock).now == 2)
        }
        Application.withCurrent(Application()) {
            #expect(Application.dependency(\.depPromotedClock).now == 1_000, "another store keeps its own")
        }
    }

    /// Overrides stay above a promotion: one made after it wins until cancelled (AppState's
    /// `testDependency`), and one made before it stays in effect; either way the promoted value is
    /// what is left when they end.
    @Test func overridesStayAboveAPromotion() {
        Application.withCurrent(Application()) {
            Application.promote(\.depPromotedClock, with: DepFakeClock(now: 1))
            let after = Application.override(\.depPromotedClock, with: DepFakeClock(now: 2))
            #expect(Application.dependency(\.depPromotedClock).now == 2)
            after.cancel()
            #expect(Application.dependency(\.depPromotedClock).now == 1)

            let before = Application.override(\.depPromotedClock, with: DepFakeClock(now: 3))
            let inner = Application.override(\.depPromotedClock, with: DepFakeClock(now: 4))
            Application.promote(\.depPromotedClock, with: DepFakeClock(now: 5))
            #expect(Application.dependency(\.depPromotedClock).now == 4, "the test's override is still in effect")
            before.cancel()
            #expect(Application.dependency(\.depPromotedClock).now == 4)
            inner.cancel()
            #expect(Application.dependency(\.depPromotedClock).now == 5, "not the declared value: the promotion holds")
        }
    }

    /// Whoever read the dependency hears a promotion that changes the value in effect, and not one
    /// that an override hides.
    @Test func aPromotionRedrawsWhatReadTheDependency() {
        Application.withCurrent(Application()) {
            let fired = Mutex(0)
            withObservationTracking { _ = Application.dependency(\.depPromotedClock).now } onChange: { fired.withLock { $0 += 1 } }
            Application.promote(\.depPromotedClock, with: DepFakeClock(now: 1))
            #expect(fired.withLock { $0 } == 1)

            let token = Application.override(\.depPromotedClock, with: DepFakeClock(now: 2))
            withObservationTracking { _ = Application.dependency(\.depPromotedClock).now } onChange: { fired.withLock { $0 += 1 } }
            Application.promote(\.depPromotedClock, with: DepFakeClock(now: 3))
            #expect(fired.withLock { $0 } == 1, "hidden by the override: nothing on screen changes")
            token.cancel()
            #expect(fired.withLock { $0 } == 2)
            #expect(Application.dependency(\.depPromotedClock).now == 3)
        }
    }

    /// As in AppState, the declared value is made first (the declaration runs to find the
    /// dependency), once.
    @Test func aPromotionBeforeFirstUseMakesTheDeclaredValueOnce() {
        let before = DepMadeCounters.promoted.load(ordering: .relaxed)
        let app = Application()
        Application.withCurrent(app) {
            let replacement = DepCounted(Atomic<Int>(100))
            Application.promote(\.depPromoted, with: replacement)
            #expect(DepMadeCounters.promoted.load(ordering: .relaxed) == before + 1)
            #expect(Application.dependency(\.depPromoted) === replacement)
            #expect(DepMadeCounters.promoted.load(ordering: .relaxed) == before + 1)
        }
    }

    /// `load(dependency:)` makes the value now, once, in the current store; later uses get it;
    /// calls chain; the instance form loads into its own store.
    @Test func loadMakesTheValueAheadOfUse() {
        let before = DepMadeCounters.loaded.load(ordering: .relaxed)
        let app = Application()
        Application.withCurrent(app) {
            let type: Application.Type = Application.load(dependency: \.depLoaded).load(dependency: \.depClock)
            #expect(type == Application.self)
            #expect(DepMadeCounters.loaded.load(ordering: .relaxed) == before + 1)
            let made = Application.dependency(\.depLoaded)
            #expect(made.serial == before + 1, "the value load made")
            Application.load(dependency: \.depLoaded)
            #expect(DepMadeCounters.loaded.load(ordering: .relaxed) == before + 1, "already made: nothing more")
            #expect(Application.dependency(\.depLoaded) === made)
        }

        let other = Application()
        let elsewhere = DepMadeCounters.loadedInOtherStore.load(ordering: .relaxed)
        other.load(dependency: \.depLoadedElsewhere)
        #expect(DepMadeCounters.loadedInOtherStore.load(ordering: .relaxed) == elsewhere + 1)
        #expect(other.registry.withLock { $0["Dependency.Tests.depLoadedElsewhere"] != nil })
        #expect(app.registry.withLock { $0["Dependency.Tests.depLoadedElsewhere"] == nil })
    }

    /// Loading does not read the value: a view that loads a dependency does not start observing it.
    @Test func loadObservesNothing() {
        Application.withCurrent(Application()) {
            let fired = Mutex(0)
            withObservationTracking { _ = Application.load(dependency: \.depClock) } onChange: { fired.withLock { $0 += 1 } }
            let token = Application.override(\.depClock, with: DepFakeClock(now: 1))
            #expect(fired.withLock { $0 } == 0)
            token.cancel()
        }
    }

    /// A cycle shows at load, at start, not on some later key press.
    @Test func loadingACycleStops() async {
        await #expect(processExitsWith: .failure) {
            _ = Application.withCurrent(Application()) { Application.load(dependency: \.depCycleA) }
        }
    }
}
