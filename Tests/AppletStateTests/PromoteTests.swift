import Synchronization
import Testing
@testable import AppletState

final class PromotedApplication: Application, @unchecked Sendable {
    static let edition = "promoted"
    var isPromoted: Bool { true }
}

extension Application {
    var promoteCount: State<Int> { state(initial: 0, feature: "Promote", id: "count") }
    var promoteLater: State<Int> { state(initial: 0, feature: "Promote", id: "later") }
    var promoteService: Dependency<String> { dependency("declared", feature: "Promote", id: "service") }
}

/// These tests replace the process-wide store: no other test promotes it, and these run one at
/// a time.
@Suite("Promote", .serialized)
struct PromoteTests {
    @Test func promoteKeepsStateAndSwapsTheSharedStore() {
        Application.shared.coreCount.value = 77
        Application.promote(to: PromotedApplication.self)
        let promoted = Application.shared as? PromotedApplication
        #expect(promoted?.isPromoted == true)
        #expect(Application.state(\.coreCount).value == 77)
    }

    /// Issue 15, item 8: as in AppState, `promote(to:)` returns the promoted type, so a static
    /// member of it can follow the call.
    @Test func promoteReturnsThePromotedType() {
        let edition = Application.promote(to: PromotedApplication.self).edition
        #expect(edition == "promoted")
        let type: PromotedApplication.Type = Application.promote(to: PromotedApplication.self)
        #expect(type == PromotedApplication.self)
        #expect(Application.shared is PromotedApplication)
    }

    /// Issue 15, item 7: state declared before the promotion keeps moving `changes` of the
    /// promoted store (a host compares it around each frame), and so does state declared after.
    @Test func changesKeepsCountingStateDeclaredBeforePromotion() {
        Application.state(\.promoteCount).value = 1            // declared in the store before
        Application.promote(to: PromotedApplication.self)
        let promoted = Application.shared
        let before = promoted.changes
        Application.state(\.promoteCount).value = 2
        #expect(promoted.changes == before + 1)
        Application.state(\.promoteCount).modify { $0 += 1 }
        #expect(promoted.changes == before + 2)
        Application.state(\.promoteLater).value = 5            // declared in the promoted store
        #expect(promoted.changes == before + 3)
        #expect(Application.state(\.promoteCount).value == 3)
    }

    /// AppState's `ApplicationTests.testCustomFunction`: `load(dependency:)` returns
    /// `Application.self`, so `promote(to:)` can follow it and a static member of the subclass
    /// after that.
    @Test func loadChainsIntoPromote() {
        let edition = Application
            .load(dependency: \.promoteService)
            .promote(to: PromotedApplication.self)
            .edition
        #expect(edition == "promoted")
        #expect(Application.shared is PromotedApplication)
        #expect(Application.shared.registry.withLock { $0["Dependency.Promote.service"] != nil }, "loaded, then taken over")
    }

    /// A dependency promoted with `promote(_:with:)` stays promoted when the store is promoted to
    /// a subclass, and `notifyChange()` on the new store reaches readers of state declared before.
    @Test func promotionsAndNotifyChangeCarryOverToThePromotedStore() {
        Application.promote(\.promoteService, with: "promoted")
        let told = Atomic<Int>(0)
        _ = StateTracking.withTracking({ Application.state(\.promoteCount).value }, observer: StateObserver { told.add(1, ordering: .relaxed) })
        Application.promote(to: PromotedApplication.self)
        #expect(Application.dependency(\.promoteService) == "promoted")
        Application.shared.notifyChange()
        #expect(told.load(ordering: .relaxed) == 1)
    }
}
