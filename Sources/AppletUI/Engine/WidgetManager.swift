import AppletState
import Dispatch
import Synchronization

/// Whether a widget is drawn and takes input.
///
/// - `visible`: drawn and interactive.
/// - `hidden`: not drawn and takes no space; its own data (text typed, scroll position) is kept.
/// - `disabled`: drawn dimmed, skipped by focus, ignores keys and clicks.
public enum WidgetState: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case visible, hidden, disabled
    public var description: String { rawValue }
}

/// The widgets of an applet (or a host) by id, with their states kept in the central store, so
/// any code that can reach the store (another applet through an Interface target, a command, a
/// background task) can hide, show, disable or enable them, and the screen follows.
///
/// Declare the manager where other applets can see it, add its widgets, and tag views with
/// `.widget(_:in:)`:
///
/// ```swift
/// // In GalleryAppletInterface
/// extension WidgetManager {
///     public static let gallery = WidgetManager("gallery", widgets: ["search": .visible, "advanced": .hidden])
/// }
///
/// // In the applet's body
/// TextField("Search", text: $query).widget("search", in: .gallery)
///
/// // Anywhere
/// try WidgetManager.gallery.hide("search")
/// try WidgetManager.gallery.state(of: "advanced")   // .hidden
/// try WidgetManager.gallery.show("nope")            // throws WidgetError.widgetNotFound("nope")
/// ```
public struct WidgetManager: Sendable, Hashable {
    /// Names the manager in the store; managers with the same scope share their widgets.
    public let scope: String
    let initial: [String: WidgetState]

    /// - Parameters:
    ///   - scope: a name unique to the applet or host, e.g. the applet's id.
    ///   - widgets: widgets known from the start, with their first state.
    public init(_ scope: String, widgets: [String: WidgetState] = [:]) {
        self.scope = scope
        self.initial = widgets
    }

    public static func == (a: WidgetManager, b: WidgetManager) -> Bool { a.scope == b.scope }
    public func hash(into hasher: inout Hasher) { hasher.combine(scope) }

    /// The store entry with every widget's state (observed like any state: views that read it redraw).
    public var states: Application.State<[String: WidgetState]> {
        let states = Application.current.state(initial: initial, feature: "WidgetStates", id: scope)
        // Another declaration of this scope may have reached the store first: add what it lacked.
        if !initial.isEmpty {
            let known = states.value
            if initial.keys.contains(where: { known[$0] == nil }) {
                states.modify { all in for (id, state) in initial where all[id] == nil { all[id] = state } }
            }
        }
        return states
    }

    var registry: WidgetEventRegistry {
        Application.current.state(initial: WidgetEventRegistry(), feature: "WidgetStates", id: scope + ".events").value
    }

    /// The ids of every widget added, sorted.
    public var ids: [String] { states.value.keys.sorted() }

    /// Whether the manager has this widget (declared, added and not removed).
    public func contains(_ id: String) -> Bool { states.value[id] != nil }

    /// Adds a widget (or leaves one already there as it is). A removed widget comes back.
    public func add(_ id: String, _ state: WidgetState = .visible) {
        // Factories call this while a view is evaluated, every frame: a write that changes
        // nothing would still tell observers, and the view would be evaluated again, forever.
        guard states.value[id] == nil else { return }
        registry.forgetRemoval(of: id)
        states.modify { all in if all[id] == nil { all[id] = state } }
    }

    /// Removes a widget; later questions about it throw `widgetNotFound`, and changes to it
    /// `invalidState(id, .removed)`, until it is added again.
    public func remove(_ id: String) throws {
        try update(id, transition: nil) { _ in nil }
        registry.noteRemoval(of: id)
    }

    /// The state of a widget.
    public func state(of id: String) throws -> WidgetState {
        guard let state = states.value[id] else { throw WidgetError.widgetNotFound(id) }
        return state
    }

    /// Sets a widget's state.
    public func set(_ id: String, to state: WidgetState) throws { try update(id, transition: nil) { _ in state } }
    public func show(_ id: String) throws { try set(id, to: .visible) }
    public func hide(_ id: String) throws { try set(id, to: .hidden) }
    public func disable(_ id: String) throws { try set(id, to: .disabled) }
    /// Enables a disabled widget (a hidden one stays hidden until shown).
    public func enable(_ id: String) throws { try update(id, transition: nil, Self.enabled) }
    /// Hidden becomes visible; visible or disabled becomes hidden.
    public func toggle(_ id: String) throws { try update(id, transition: nil, Self.toggled) }
    /// Disabled becomes visible; visible becomes disabled; hidden stays hidden.
    public func toggleEnabled(_ id: String) throws {
        try update(id, transition: nil) { $0 == .disabled ? .visible : $0 == .visible ? .disabled : .hidden }
    }

    /// Sets a widget's state and animates this change with `transition`, instead of the one its
    /// view was given with `.widget(_:in:transition:)` (`.none` shows the change at once).
    ///
    /// ```swift
    /// try WidgetManager.editor.hide("info", transition: .fade(duration: 0.3))
    /// ```
    ///
    /// Transitions animate showing and hiding, so the change must go into or out of `hidden`.
    /// - Throws: `WidgetError.invalidState(id, .noVisibilityChange(from:to:))` when it does not
    ///   (hiding a hidden widget, showing a visible one, visible to disabled); nothing changes then.
    ///   `widgetNotFound` / `invalidState(id, .removed)` as for the other changes.
    public func set(_ id: String, to state: WidgetState, transition: WidgetTransition) throws {
        try update(id, transition: transition) { _ in state }
    }
    /// Shows a widget with this transition (see `set(_:to:transition:)`).
    public func show(_ id: String, transition: WidgetTransition) throws { try set(id, to: .visible, transition: transition) }
    /// Hides a widget with this transition (see `set(_:to:transition:)`).
    public func hide(_ id: String, transition: WidgetTransition) throws { try set(id, to: .hidden, transition: transition) }
    /// Toggles a widget (see `toggle(_:)`) with this transition; a toggle always shows or hides.
    public func toggle(_ id: String, transition: WidgetTransition) throws { try update(id, transition: transition, Self.toggled) }

    /// Toggles every widget of the manager in one store write (one redraw): hidden ones become
    /// visible, visible and disabled ones hidden. Each changed widget's subscribers get
    /// `WidgetStateEvent.stateChanged(from:to:)`.
    public func toggleAll() { toggleAll(nil) }

    /// Toggles every widget (see `toggleAll()`), animating each with `transition`.
    public func toggleAll(transition: WidgetTransition) { toggleAll(Optional(transition)) }

    private func toggleAll(_ transition: WidgetTransition?) {
        let before = states.value
        guard !before.isEmpty else { return }
        for (id, state) in before { registry.request(transition, for: id, to: Self.toggled(state)) }
        let changes = states.modify { all -> [(String, WidgetState, WidgetState)] in
            var changes: [(String, WidgetState, WidgetState)] = []
            for id in all.keys.sorted() {
                guard let state = all[id] else { continue }
                let next = Self.toggled(state)
                all[id] = next
                changes.append((id, state, next))
            }
            return changes
        }
        announce(changes)
    }

    private static func toggled(_ state: WidgetState) -> WidgetState { state == .hidden ? .visible : .hidden }
    private static func enabled(_ state: WidgetState) -> WidgetState { state == .disabled ? .visible : state }

    /// Changes one widget in one store write and tells its subscribers. `change` returns the new
    /// state (nil removes the widget).
    private func update(_ id: String, transition: WidgetTransition?, _ change: (WidgetState) -> WidgetState?) throws {
        guard let current = states.value[id] else { throw missing(id) }
        let target = change(current)
        if transition != nil, let target, (current == .hidden) == (target == .hidden) {
            throw WidgetError.invalidState(id, .noVisibilityChange(from: current, to: target))
        }
        // No write (and so no redraw) when the state stays as it is.
        if target == current { return }
        // Before the write: a frame drawn as soon as the state changes must see it.
        if let target { registry.request(transition, for: id, to: target) }
        let changed = try states.modify { all -> (WidgetState, WidgetState?)? in
            guard let current = all[id] else { throw missing(id) }
            let next = change(current)
            if next == current { return nil }
            all[id] = next
            return (current, next)
        }
        if let changed, let to = changed.1 { announce([(id, changed.0, to)]) }
    }

    private func missing(_ id: String) -> WidgetError {
        registry.wasRemoved(id) ? .invalidState(id, .removed) : .widgetNotFound(id)
    }

    /// Sends `stateChanged` to the subscribers of each changed widget: at once on the main
    /// actor, else on the main actor soon after (subscribers always run on the main actor).
    private func announce(_ changes: [(String, WidgetState, WidgetState)]) {
        let registry = self.registry
        let deliveries = changes.compactMap { id, from, to in
            registry.existingChannel(id, WidgetStateEvent.self).map { ($0, WidgetStateEvent.stateChanged(from: from, to: to)) }
        }
        guard !deliveries.isEmpty else { return }
        if MainQueue.isCurrent {
            MainActor.assumeIsolated { for (channel, event) in deliveries { channel.send(event) } }
        } else {
            Task { @MainActor in for (channel, event) in deliveries { channel.send(event) } }
        }
    }

    /// The transition the last change of `id` asked for, if that change was to `state`.
    func requestedTransition(for id: String, to state: WidgetState) -> WidgetTransition? {
        registry.requestedTransition(for: id, to: state)
    }

    // MARK: Events

    /// The events a widget sends, as an async sequence. The widget declares the type: a
    /// `TextField` sends `TextFieldEvent`, a `Toggle` sends `ToggleEvent`...
    ///
    /// ```swift
    /// Task {
    ///     for await event in WidgetManager.gallery.events(of: "search", as: TextFieldEvent.self) {
    ///         if case .submitted(let text) = event { search(text) }
    ///     }
    /// }
    /// ```
    public func events<Event: Sendable>(of id: String, as type: Event.Type = Event.self) -> AsyncStream<Event> {
        registry.channel(id, type).stream()
    }

    /// Calls `handler` on the main actor for every event the widget sends, until the returned
    /// subscription is cancelled or released.
    ///
    /// ```swift
    /// let subscription = WidgetManager.gallery.subscribe(to: "dark-mode", as: ToggleEvent.self) { event in
    ///     if case .changed(let on) = event { theme = on ? .dark : .light }
    /// }
    /// ```
    public func subscribe<Event: Sendable>(to id: String, as type: Event.Type = Event.self,
                                           _ handler: @escaping @MainActor (Event) -> Void) -> EventSubscription {
        registry.channel(id, type).subscribe(handler)
    }

    /// Sends an event as if the widget had (widgets call this through their `EventEmitter`).
    @MainActor
    public func send<Event: Sendable>(_ event: Event, from id: String) {
        registry.existingChannel(id, Event.self)?.send(event)
    }
}

/// Whether the caller runs on the main queue, the main actor's executor. Not the same as being on
/// the main thread: a test runner may drain the main queue from another thread.
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

/// What a manager keeps next to the states without telling observers: channels of events per
/// widget id and event type, the ids removed, and the transition each widget's last change asked for.
final class WidgetEventRegistry: Sendable {
    private struct Key: Hashable { let id: String; let type: ObjectIdentifier }
    private struct Request { let state: WidgetState; let transition: WidgetTransition }
    private let channels = Mutex<[Key: AnyObject & Sendable]>([:])
    private let removed = Mutex<Set<String>>([])
    private let requests = Mutex<[String: Request]>([:])

    func noteRemoval(of id: String) { _ = removed.withLock { $0.insert(id) } }
    func forgetRemoval(of id: String) { _ = removed.withLock { $0.remove(id) } }
    func wasRemoved(_ id: String) -> Bool { removed.withLock { $0.contains(id) } }

    /// Remembers the transition asked for the change of `id` to `state` (nil: the view's own).
    func request(_ transition: WidgetTransition?, for id: String, to state: WidgetState) {
        requests.withLock { all in
            if let transition { all[id] = Request(state: state, transition: transition) } else if all[id] != nil { all[id] = nil }
        }
    }

    func requestedTransition(for id: String, to state: WidgetState) -> WidgetTransition? {
        requests.withLock { all in all[id].flatMap { $0.state == state ? $0.transition : nil } }
    }

    func channel<Event: Sendable>(_ id: String, _ type: Event.Type) -> EventChannel<Event> {
        channels.withLock { all in
            let key = Key(id: id, type: ObjectIdentifier(type))
            if let existing = all[key] as? EventChannel<Event> { return existing }
            let created = EventChannel<Event>()
            all[key] = created
            return created
        }
    }

    func existingChannel<Event: Sendable>(_ id: String, _ type: Event.Type) -> EventChannel<Event>? {
        channels.withLock { $0[Key(id: id, type: ObjectIdentifier(type))] as? EventChannel<Event> }
    }
}
