import AppletUI
import Observation
import Synchronization

/// Observes what one part of the host's chrome (the top line, what is drawn over the panes) reads,
/// installing a new observation only when the last one fired or the host state that decides what
/// it reads changed.
///
/// Observation cannot cancel an observation: one installed on every frame stays registered until
/// something it read changes, so installing one per frame over state that stays put (the tab
/// router, the store's issues) would pile them up, each holding memory, and release a burst of
/// stale notifications when the value finally moved. While the last observation is waiting,
/// and the chrome's key (the tab, the pane, the overlays, the size...) is the one it was made
/// with, the chrome reads the same state again, which that observation already covers: `run`
/// only draws. When the key changes, the waiting observation is ended (`CancellableObservation`)
/// and a new one made.
///
/// Invariant: every observable value the chrome read on a frame is covered by a waiting
/// observation, as long as what it reads is decided by those values and the key.
///
/// ```swift
/// let shell = ChromeObservation(onChange: { host.setNeedsDisplay() })
/// shell.run(key: chromeKey) { drawShell(on: &canvas) }   // observes
/// shell.run(key: chromeKey) { drawShell(on: &canvas) }   // nothing changed: draws only
/// ```
@MainActor
final class ChromeObservation {
    /// Set by the waiting observation when it fires.
    private var waiting: ObservationFlag?
    /// The waiting observation, ended when a new key makes another one.
    private let observation = ObservationSlot()
    private var key: Int?
    private let onChange: @Sendable () -> Void
    /// How many observations were installed (tests).
    private(set) var installed = 0

    init(onChange: @escaping @Sendable () -> Void) { self.onChange = onChange }

    /// Runs `draw`, observing what it reads unless an observation made with the same `key` is
    /// still waiting for a change.
    func run(key: Int, _ draw: () -> Void) {
        if key == self.key, let waiting, !waiting.isSet {
            draw()
            return
        }
        let flag = ObservationFlag()
        waiting = flag
        self.key = key
        installed += 1
        let onChange = self.onChange
        observation.replace(draw) {
            flag.set()
            onChange()
        }
    }
}

/// Set, from whichever thread changed the state, by an observation when what it read changes:
/// the registry it made is stale, the chrome it watched must be observed again.
final class ObservationFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
