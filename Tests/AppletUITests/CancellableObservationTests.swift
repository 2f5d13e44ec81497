import Observation
import Synchronization
import Testing
@testable import AppletState
@testable import AppletUI

extension Application {
    var cancelProbe: State<Int> { state(initial: 0, feature: "Cancellable", id: "probe") }
}

/// How many references Observation holds to a box's `\.value` key path: one per observation
/// waiting on it (and one in the registrar's table while any does), beside the box's own.
@MainActor
private func observersHolding(_ box: StateBox<Int>) -> UInt {
    _getRetainCount(box.observed.keyPath)
}

/// Observes `box`'s value, counting in `told` the changes the observation is told of.
private func observe(_ box: StateBox<Int>, counting told: Counter) -> CancellableObservation {
    CancellableObservation.track({ _ = box.value }) { told.withLock { $0 += 1 } }
}

@Suite("CancellableObservation: ending observations Observation would keep")
@MainActor
struct CancellableObservationTests {
    @Test func aCancelledObservationLetsGoOfWhatItReadAndIsNotToldAgain() {
        withStore {
            let box = Application.state(\.cancelProbe).box
            let told = Counter()
            let observation = observe(box, counting: told)
            #expect(box.watchers.waitingCount == 1, "the box's read is observed by the box itself")
            #expect(!box.observed.mayBeObserved, "not through Observation's registrar")
            observation.cancel()
            #expect(observation.isCancelled)
            #expect(box.watchers.waitingCount == 0, "the box no longer waits to tell it")
            #expect(!box.observed.mayBeObserved, "Observation holds nothing either")
            box.set(1)
            #expect(told.count == 0)
            observation.cancel()   // twice: nothing more
        }
    }

    @Test func anUncancelledObservationIsToldAsBefore() {
        withStore {
            let box = Application.state(\.cancelProbe).box
            let told = Counter()
            _ = observe(box, counting: told)
            box.set(2)
            #expect(told.count == 1)
        }
    }

    /// A pane drawn again without its state changing (its widgets took keys, the chrome moved)
    /// keeps one observation of what it read, not one per drawing.
    @Test func aTreeDrawnAgainAndAgainKeepsOneObservation() {
        withStore {
            let box = Application.state(\.cancelProbe).box
            let tree = ViewTree()
            var canvas = Canvas(size: Size(width: 20, height: 2))
            let rect = Rect(x: 0, y: 0, width: 20, height: 2)
            let pane = CountingPane(key: \.cancelProbe, evaluations: Counter())
            tree.renderIfNeeded(pane, in: rect, on: &canvas)
            let once = observersHolding(box)
            #expect(box.watchers.waitingCount == 1)
            for _ in 0..<30 {
                tree.invalidate()
                #expect(tree.renderIfNeeded(pane, in: rect, on: &canvas))
            }
            #expect(observersHolding(box) == once, "one observation, as after the first drawing")
            #expect(box.watchers.waitingCount == 1)
            #expect(box.watchers.heldCount <= 4, "ended observations are let go of, not kept per drawing")
            Application.state(\.cancelProbe).value = 5   // and it still works
            #expect(tree.renderIfNeeded(pane, in: rect, on: &canvas))
            #expect(canvas.text.contains("value 5"))
        }
    }

    @Test func unenrolledAndReadingOnlyTheStoreItCostsObservationNothingAndStillWorks() {
        withStore {
            let box = Application.state(\.cancelProbe).box
            let told = Counter()
            let observation = CancellableObservation.track(enrolling: false, { _ = box.value }) { told.withLock { $0 += 1 } }
            #expect(!observation.othersObserved, "nothing installed through Observation")
            box.set(9)
            #expect(told.count == 1)
            let later = CancellableObservation.track(enrolling: false, { _ = box.value }) { told.withLock { $0 += 1 } }
            later.cancel()
            box.set(10)
            #expect(told.count == 1, "cancelled: not told")
        }
    }

    @Test func unenrolledItSaysWhenItReadAModelAndIsToldOfItsChanges() {
        let model = PaneModel()
        let told = Counter()
        let observation = CancellableObservation.track(enrolling: false, { _ = model.name }) { told.withLock { $0 += 1 } }
        #expect(observation.othersObserved)
        model.name = "b"
        #expect(told.count == 1)
    }

    /// A pane that reads a model (not the store) redraws when it changes, however often it was
    /// drawn before, and keeps at most one observation of the model besides the current one.
    @Test func aTreeReadingAModelRedrawsOnItsChangesAndDoesNotPileUpObservations() {
        withStore {
            let model = PaneModel()
            let tree = ViewTree()
            var canvas = Canvas(size: Size(width: 20, height: 2))
            let rect = Rect(x: 0, y: 0, width: 20, height: 2)
            let pane = ModelPane(model: model)
            tree.renderIfNeeded(pane, in: rect, on: &canvas)
            let afterFirst = model.observers
            for _ in 0..<30 {
                tree.invalidate()
                #expect(tree.renderIfNeeded(pane, in: rect, on: &canvas))
            }
            #expect(model.observers <= afterFirst + 1, "the first drawing's, and the current one")
            model.name = "changed"
            #expect(tree.renderIfNeeded(pane, in: rect, on: &canvas))
            #expect(canvas.text.contains("name changed"))
            model.name = "again"
            #expect(tree.renderIfNeeded(pane, in: rect, on: &canvas))
            #expect(canvas.text.contains("name again"))
        }
    }
}

/// An `Observable` model that is not the store's, whose `name` key path is an object of its own,
/// so that the observations waiting on it can be counted (each holds a reference).
private final class PaneModel: Observable, @unchecked Sendable {
    private let registrar = ObservationRegistrar()
    private var stored = "a"
    private let nameKeyPath: KeyPath<PaneModel, String> = PaneModel.freshKeyPath()

    var name: String {
        get {
            registrar.access(self, keyPath: nameKeyPath)
            return stored
        }
        set {
            registrar.willSet(self, keyPath: nameKeyPath)
            stored = newValue
            registrar.didSet(self, keyPath: nameKeyPath)
        }
    }

    /// Observations holding the key path (its reference count beyond this model's own).
    var observers: UInt { _getRetainCount(nameKeyPath) }

    @_semantics("optimize.sil.specialize.generic.never") @inline(never)
    private static func freshKeyPath() -> KeyPath<PaneModel, String> { \PaneModel.stored }
}

private struct ModelPane: View {
    let model: PaneModel
    var body: some View { Text("name \(model.name)") }
}
