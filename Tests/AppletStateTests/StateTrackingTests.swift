import Foundation
import Observation
import Synchronization
import Testing
@testable import AppletState

/// An `Observable` that is not a store box: tracked through Observation inside the same scope.
@Observable
private final class Model: @unchecked Sendable {
    var name = "a"
}

/// Counts how often an observer was told.
private final class Told: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .acquiring) }
    func observer() -> StateObserver { StateObserver { self.count.add(1, ordering: .releasing) } }
}

/// `StateTracking`: the store's own observation of reads made by views, the chrome and logic
/// observers. Each test fails if a change that should redraw something is lost, or told twice.
@Suite("StateTracking")
struct StateTrackingTests {
    @Test func aReadInAScopeIsToldOnceWhenTheValueChanges() {
        let box = StateBox(0, key: "Tracking.once")
        let told = Told()
        let seen = StateTracking.withTracking({ box.value }, observer: told.observer())
        #expect(seen == 0)
        #expect(box.watchers.waitingCount == 1)
        box.set(1)
        #expect(told.value == 1)
        box.set(2)
        #expect(told.value == 1, "one change tells; the observation is over")
        #expect(box.watchers.waitingCount == 0)
    }

    @Test func aScopeThatReadsTheSameBoxManyTimesWaitsOnItOnce() {
        let box = StateBox(0, key: "Tracking.many")
        let told = Told()
        StateTracking.withTracking({ for _ in 0..<100 { _ = box.value } }, observer: told.observer())
        #expect(box.watchers.heldCount == 1)
        box.set(1)
        #expect(told.value == 1)
    }

    @Test func aScopeOverManyBoxesIsToldByAnyOfThem() {
        let boxes = (0..<50).map { StateBox($0, key: "Tracking.row\($0)") }
        let told = Told()
        StateTracking.withTracking({ for box in boxes + boxes { _ = box.value } }, observer: told.observer())
        #expect(boxes.allSatisfy { $0.watchers.heldCount == 1 })
        boxes[42].set(0)
        #expect(told.value == 1)
    }

    @Test func aCancelledObserverIsNeverToldAndIsDroppedLater() {
        let box = StateBox(0, key: "Tracking.cancel")
        let told = Told()
        let first = told.observer()
        StateTracking.withTracking({ _ = box.value }, observer: first)
        first.cancel()
        #expect(box.watchers.waitingCount == 0)
        // Drawn again and again, each drawing ending the one before: the box holds a few at most.
        for _ in 0..<20 {
            let next = told.observer()
            StateTracking.withTracking({ _ = box.value }, observer: next)
            next.cancel()
        }
        #expect(box.watchers.heldCount <= 4)
        box.set(1)
        #expect(told.value == 0)
    }

    @Test func nestedScopesBothHearOfWhatTheInnerOneRead() {
        let inner = StateBox(0, key: "Tracking.inner"), outer = StateBox(0, key: "Tracking.outer")
        let toldOuter = Told(), toldInner = Told()
        StateTracking.withTracking({
            _ = outer.value
            StateTracking.withTracking({ _ = inner.value }, observer: toldInner.observer())
        }, observer: toldOuter.observer())
        inner.set(1)
        #expect(toldInner.value == 1)
        #expect(toldOuter.value == 1, "as Observation merges a nested scope's reads into the outer one")
        #expect(!StateTracking.isTracking, "every scope closed")
    }

    @Test func otherObservablesInAScopeAreTrackedThroughObservation() {
        let model = Model()
        let told = Told()
        let name = StateTracking.withTracking({ model.name }, observer: told.observer())
        #expect(name == "a")
        model.name = "b"
        #expect(told.value == 1)
    }

    @Test func aReadOutsideAnyScopeStillReachesWithObservationTracking() {
        let box = StateBox(0, key: "Tracking.outside")
        let told = Atomic<Int>(0)
        _ = withObservationTracking { box.value } onChange: { told.add(1, ordering: .relaxed) }
        #expect(box.watchers.heldCount == 0)
        box.set(3)
        #expect(told.load(ordering: .relaxed) == 1)
    }

    @Test func aChangeFromAnotherThreadTellsTheObserverAfterTheValueIsStored() async {
        let box = StateBox(0, key: "Tracking.thread")
        let seenByObserver = Mutex<Int?>(nil)
        let observer = StateObserver { seenByObserver.withLock { $0 = box.untrackedValue } }
        StateTracking.withTracking({ _ = box.value }, observer: observer)
        await Task.detached { box.set(7) }.value
        #expect(seenByObserver.withLock { $0 } == 7)
    }

    @Test func aScopeOnOneThreadRecordsNothingReadOnAnother() {
        let box = StateBox(0, key: "Tracking.otherThread")
        let told = Told()
        let done = DispatchSemaphore(value: 0)
        StateTracking.withTracking({
            Thread.detachNewThread {
                _ = box.value   // another thread: not this scope's read
                done.signal()
            }
            done.wait()
        }, observer: told.observer())
        #expect(box.watchers.heldCount == 0)
        box.set(1)
        #expect(told.value == 0)
    }
}
