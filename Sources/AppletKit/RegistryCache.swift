import AppletNavigation
import AppletState
import AppletUI
import Observation
import Terminal

/// The host's active `CommandRegistry`, kept between keys and frames (one per tab and pane) until
/// something it was made from changes: the router and the footer both ask for it on every key, and making it (every
/// applet's `commands`, the keymap applied) was a fifth of a key's cost.
///
/// A registry is made inside `StateTracking.withTracking`, so a command list that reads state (a
/// command enabled only when a list has a selection, a navigation depth) is made again after that
/// state changes, as a view's body is; everything else it depends on is in its `Key` (the tab,
/// the focused pane, whether Tab moves anywhere, the applets embedded in the pane and which holds
/// the focus). While a sheet or a confirmation is up the host does not cache (`make` runs every
/// time): modals are short-lived.
///
/// Invariants: `registry(for:make:)` returns what `make` would return now, given that commands
/// are made from the applet values, the key and tracked state only; a change to tracked state
/// calls `onChange` (once per made registry), so a frame that shows the footer follows.
@MainActor
final class RegistryCache {
    /// What a registry is made from besides tracked state.
    struct Key: Hashable {
        var tab: Int
        var pane: Int
        var focusStops: Bool
        /// The embedded applets' ids, each with whether it holds the focus.
        var embedded: [String]
        /// When the pane's tree last rendered, only if it embeds applets (their values, and so
        /// their commands, may change with any render); nil otherwise.
        var embeddingRender: ContinuousClock.Instant?
        /// Whether the focused widget has something to copy (Copy is enabled only then).
        var canCopy: Bool
        /// The terminal's mouse reporting (the mouse command's title).
        var mouse: MouseReporting
    }

    /// One registry per key (a tab's, a pane's), so switching back to a tab finds its commands.
    /// Each registry with the flag its observation sets when what it read changes (it is stale).
    private var made: [Key: (registry: CommandRegistry, stale: ObservationFlag)] = [:]
    /// Keys that name a render (embedded applets) are many over time: past this, start over.
    private static let limit = 64
    /// Called (on whichever thread changed the state) when tracked state a registry read changes.
    private let onChange: @Sendable () -> Void

    init(onChange: @escaping @Sendable () -> Void) { self.onChange = onChange }

    /// The registry for `key`: the one made for it before if nothing it read has changed since,
    /// otherwise `make()`'s, tracked.
    func registry(for key: Key, make: () -> CommandRegistry) -> CommandRegistry {
        if let known = made[key], !known.stale.isSet { return known.registry }
        let stale = ObservationFlag()
        let onChange = self.onChange
        let registry = StateTracking.withTracking(make, observer: StateObserver {
            stale.set()
            onChange()
        })
        if made.count >= Self.limit { made.removeAll(keepingCapacity: true) }
        made[key] = (registry, stale)
        return registry
    }

    /// Forgets every registry (the next request makes one).
    func invalidate() { made.removeAll() }
}
