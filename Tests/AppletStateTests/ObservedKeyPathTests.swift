import Observation
import Synchronization
import Testing
@testable import AppletState

/// A set skips Observation's registrar when nobody observes the value (`ObservedKeyPath`). These
/// tests fail if that check ever said "nobody" while someone was: a tracking scope, an
/// `Observations` sequence, a view's registration that is still waiting to be told.
@Suite("ObservedKeyPath")
struct ObservedKeyPathTests {
    @Test func thisToolchainKeepsTrackedKeyPathsSoTheCheckIsOn() {
        #expect(ObservationProbe.keepsTrackedKeyPaths)
        let box = StateBox(0, key: "Tests.observedOn")
        #expect(box.observed.tellsUnobserved)
    }

    @Test func aValueNobodyReadInATrackingScopeIsUnobserved() {
        let box = StateBox(0, key: "Tests.unobserved")
        _ = box.value          // a read outside any tracking scope registers nobody
        #expect(!box.observed.mayBeObserved)
        box.set(1)
        #expect(!box.observed.mayBeObserved)
    }

    @Test func everyBoxOwnsItsKeyPathEvenForTheSameValueType() {
        let first = StateBox(0, key: "Tests.ownA"), second = StateBox(0, key: "Tests.ownB")
        #expect(first.observed.keyPath !== second.observed.keyPath)
        #expect(!first.observed.mayBeObserved && !second.observed.mayBeObserved)
    }

    @Test func aTrackingScopeIsToldAndTheCheckOnlySeesItWhileItWaits() {
        let box = StateBox(0, key: "Tests.tracked")
        let told = Atomic<Int>(0)
        let seen = withObservationTracking { box.value } onChange: { told.add(1, ordering: .relaxed) }
        #expect(seen == 0)
        #expect(box.observed.mayBeObserved)
        box.set(5)
        #expect(told.load(ordering: .relaxed) == 1)
        // Told once, the observer is gone: the next set has no one to tell.
        #expect(!box.observed.mayBeObserved)
        box.set(6)
        #expect(told.load(ordering: .relaxed) == 1)
    }

    @Test func modifyAndOutsideWritesTellAnObserverToo() {
        let box = StateBox(0, key: "Tests.trackedModify")
        let told = Atomic<Int>(0)
        _ = withObservationTracking { box.value } onChange: { told.add(1, ordering: .relaxed) }
        box.modify { $0 += 1 }
        #expect(told.load(ordering: .relaxed) == 1)
        _ = withObservationTracking { box.value } onChange: { told.add(1, ordering: .relaxed) }
        box.setFromOutside(3)
        #expect(told.load(ordering: .relaxed) == 2)
    }

    @Test func aReadOfOtherStateInTheSameScopeDoesNotMarkThisOne() {
        let watched = StateBox(0, key: "Tests.watched"), other = StateBox(0, key: "Tests.other")
        _ = withObservationTracking { watched.value } onChange: {}
        #expect(watched.observed.mayBeObserved)
        #expect(!other.observed.mayBeObserved)
    }

    @Test func anObservationsSequenceSeesEverySettledValue() async {
        let box = StateBox(0, key: "Tests.observations")
        let values = Observations { box.value }
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        box.set(1)
        #expect(await iterator.next() == 1)
        box.set(2)
        #expect(await iterator.next() == 2)
    }
}

@Suite("ObservationProbe")
struct ObservationProbeTests {
    @Test func theProbeAnswersTheSameInsideATrackingScope() {
        #expect(!ObservationProbe.insideTrackingScope())
        #expect(ObservationProbe.probe())
        let (inside, answer, answeredHere) = withObservationTracking {
            (ObservationProbe.insideTrackingScope(), ObservationProbe.probe(), ObservationProbe.run())
        } onChange: {}
        #expect(inside)
        #expect(answer)
        // Why it moves to another thread: run here, the enclosing scope keeps its key path.
        #expect(!answeredHere)
    }

    @Test func aBoxFirstMadeInsideATrackingScopeStillSkipsTheRegistrarOnceNobodyObserves() {
        // The probe and the box both made while a scope records reads (as when a view is the first
        // to read a value): the check must still be on, and the scope's observer told.
        let told = Atomic<Int>(0)
        let box = withObservationTracking {
            let box = StateBox(0, key: "Tests.madeInScope")
            _ = box.value
            return box
        } onChange: { told.add(1, ordering: .relaxed) }
        #expect(box.observed.tellsUnobserved)
        #expect(box.observed.mayBeObserved)
        box.set(1)
        #expect(told.load(ordering: .relaxed) == 1)
        #expect(!box.observed.mayBeObserved)
    }
}
