import AppletState
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

/// What went wrong asking a `WidgetManager` about a widget.
public enum WidgetError: Error, Equatable, CustomStringConvertible {
    /// No widget with this id was added to the manager.
    case widgetNotFound(String)

    public var description: String {
        switch self {
        case .widgetNotFound(let id): return "no widget with id \"\(id)\"; add it to the manager first"
        }
    }
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

    /// Adds a widget (or leaves one already there as it is).
    public func add(_ id: String, _ state: WidgetState = .visible) {
        // Factories call this while a view is evaluated, every frame: a write that changes
        // nothing would still tell observers, and the view would be evaluated again, forever.
        guard states.value[id] == nil else { return }
        states.modify { all in if all[id] == nil { all[id] = state } }
    }

    /// Removes a widget; later questions about it throw `widgetNotFound`.
    public func remove(_ id: String) throws {
        try update(id) { _ in nil }
    }

    /// The state of a widget.
    public func state(of id: String) throws -> WidgetState {
        guard let state = states.value[id] else { throw WidgetError.widgetNotFound(id) }
        return state
    }

    /// Sets a widget's state.
    public func set(_ id: String, to state: WidgetState) throws { try update(id) { _ in state } }
    public func show(_ id: String) throws { try set(id, to: .visible) }
    public func hide(_ id: String) throws { try set(id, to: .hidden) }
    public func disable(_ id: String) throws { try set(id, to: .disabled) }
    /// Enables a disabled widget (a hidden one stays hidden until shown).
    public func enable(_ id: String) throws { try update(id) { $0 == .disabled ? .visible : $0 } }
    /// Hidden becomes visible; visible or disabled becomes hidden.
    public func toggle(_ id: String) throws { try update(id) { $0 == .hidden ? .visible : .hidden } }
    /// Disabled becomes visible; visible becomes disabled; hidden stays hidden.
    public func toggleEnabled(_ id: String) throws {
        try update(id) { $0 == .disabled ? .visible : $0 == .visible ? .disabled : .hidden }
    }

    private func update(_ id: String, _ change: (WidgetState) -> WidgetState?) throws {
        // No write (and so no redraw) when the state stays as it is.
        guard let current = states.value[id] else { throw WidgetError.widgetNotFound(id) }
        if change(current) == current { return }
        try states.modify { all in
            guard let current = all[id] else { throw WidgetError.widgetNotFound(id) }
            let next = change(current)
            if next != current { all[id] = next }
        }
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

/// Channels of events per widget id and event type, kept in the store next to the states.
final class WidgetEventRegistry: Sendable {
    private struct Key: Hashable { let id: String; let type: ObjectIdentifier }
    private let channels = Mutex<[Key: AnyObject & Sendable]>([:])

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
