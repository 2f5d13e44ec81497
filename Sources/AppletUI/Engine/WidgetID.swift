/// A typed handle on a widget: its id in a `WidgetManager` and the type of the events it sends.
///
/// Declare the handle once, next to the manager, and use it both where the view gets its id and
/// where code listens to it. The compiler then checks the events: a handler for another event
/// type does not compile.
///
/// ```swift
/// // In the applet's Interface target
/// public enum Editor {
///     public static let save = WidgetID<ButtonEvent>("save")
///     public static let search = WidgetID<TextFieldEvent>("search")
/// }
/// extension WidgetManager {
///     public static let editor = WidgetManager("editor", widgets: [Editor.save.name: .visible, Editor.search.name: .visible])
/// }
///
/// // In the applet's body
/// Button("Save") { save() }.widget(Editor.save, in: .editor)
///
/// // Anywhere
/// let subscription = try WidgetManager.editor.subscribe(to: Editor.save) { event in  // event: ButtonEvent
///     if event == .pressed { status = "saved" }
/// }
/// // try WidgetManager.editor.subscribe(to: Editor.save) { (event: TextFieldEvent) in }   // does not compile
/// ```
///
/// The handle and a plain string name the same widget: `Editor.save` and `"save"` are
/// interchangeable wherever the manager takes an id, and the string API keeps working.
public struct WidgetID<Event: Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// The widget's id in its manager.
    public let name: String

    public init(_ name: String) { self.name = name }

    public var description: String { name }

    /// The same widget's state changes (`WidgetStateEvent.stateChanged(from:to:)`), as a handle to
    /// subscribe to.
    ///
    /// ```swift
    /// let watch = try WidgetManager.editor.subscribe(to: Editor.save.stateChanges) { change in
    ///     if case .stateChanged(_, to: .hidden) = change { status = "save hidden" }
    /// }
    /// ```
    public var stateChanges: WidgetID<WidgetStateEvent> { WidgetID<WidgetStateEvent>(name) }
}

/// What a `WidgetManager` tells a widget's subscribers when its state changes through the manager
/// (`show`, `hide`, `disable`, `enable`, `toggle`, `toggleAll`, `set`...). Adding and removing a
/// widget are not state changes; neither is a direct write to `WidgetManager.states`.
///
/// ```swift
/// let watch = WidgetManager.editor.subscribe(to: "search", as: WidgetStateEvent.self) { change in
///     print(change)   // stateChanged(from: visible, to: hidden)
/// }
/// ```
public enum WidgetStateEvent: Sendable, Equatable, CustomStringConvertible {
    case stateChanged(from: WidgetState, to: WidgetState)

    /// The state before the change.
    public var from: WidgetState { switch self { case .stateChanged(let from, _): return from } }
    /// The state after the change.
    public var to: WidgetState { switch self { case .stateChanged(_, let to): return to } }

    public var description: String { "stateChanged(from: \(from), to: \(to))" }
}

// MARK: The manager, by typed handle

extension WidgetManager {
    /// Whether the manager has this widget (declared, added and not removed).
    public func contains<Event>(_ id: WidgetID<Event>) -> Bool { contains(id.name) }

    /// Adds a widget (or leaves one already there as it is).
    public func add<Event>(_ id: WidgetID<Event>, _ state: WidgetState = .visible) { add(id.name, state) }

    /// Removes a widget: asking about it then throws `widgetNotFound`, changing it `invalidState`.
    public func remove<Event>(_ id: WidgetID<Event>) throws { try remove(id.name) }

    /// The state of a widget.
    public func state<Event>(of id: WidgetID<Event>) throws -> WidgetState { try state(of: id.name) }

    /// Sets a widget's state.
    public func set<Event>(_ id: WidgetID<Event>, to state: WidgetState) throws { try set(id.name, to: state) }
    /// Sets a widget's state with this transition instead of the view's (see `set(_:to:transition:)`).
    public func set<Event>(_ id: WidgetID<Event>, to state: WidgetState, transition: WidgetTransition) throws {
        try set(id.name, to: state, transition: transition)
    }
    public func show<Event>(_ id: WidgetID<Event>) throws { try show(id.name) }
    public func show<Event>(_ id: WidgetID<Event>, transition: WidgetTransition) throws { try show(id.name, transition: transition) }
    public func hide<Event>(_ id: WidgetID<Event>) throws { try hide(id.name) }
    public func hide<Event>(_ id: WidgetID<Event>, transition: WidgetTransition) throws { try hide(id.name, transition: transition) }
    public func toggle<Event>(_ id: WidgetID<Event>) throws { try toggle(id.name) }
    public func toggle<Event>(_ id: WidgetID<Event>, transition: WidgetTransition) throws { try toggle(id.name, transition: transition) }
    public func disable<Event>(_ id: WidgetID<Event>) throws { try disable(id.name) }
    public func enable<Event>(_ id: WidgetID<Event>) throws { try enable(id.name) }
    public func toggleEnabled<Event>(_ id: WidgetID<Event>) throws { try toggleEnabled(id.name) }

    /// Calls `handler` on the main actor for every event the widget sends, until the returned
    /// subscription is cancelled or released. The handler takes the handle's event type.
    ///
    /// - Throws: `WidgetError.widgetNotFound` if the manager does not have the widget now
    ///   (never declared or added, or removed). Subscribe after declaring or adding it.
    public func subscribe<Event>(to id: WidgetID<Event>, _ handler: @escaping @MainActor (Event) -> Void) throws -> EventSubscription {
        try requireKnown(id.name)
        return subscribe(to: id.name, as: Event.self, handler)
    }

    /// The events the widget sends from now on, as an async sequence.
    ///
    /// - Throws: `WidgetError.widgetNotFound` if the manager does not have the widget now.
    public func events<Event>(of id: WidgetID<Event>) throws -> AsyncStream<Event> {
        try requireKnown(id.name)
        return events(of: id.name, as: Event.self)
    }

    /// Sends an event to the widget's subscribers as if the widget had sent it.
    ///
    /// - Throws: `WidgetError.widgetNotFound` if the manager does not have the widget now.
    @MainActor
    public func send<Event>(_ event: Event, from id: WidgetID<Event>) throws {
        try requireKnown(id.name)
        send(event, from: id.name)
    }

    private func requireKnown(_ id: String) throws {
        guard contains(id) else { throw WidgetError.widgetNotFound(id) }
    }
}

extension View {
    /// Gives this view the widget id of a typed handle in `manager` (see `widget(_:in:transition:)`
    /// with a string id): its state there decides whether it is drawn and takes input, and the
    /// events of the widgets inside go to the handle's subscribers.
    ///
    /// ```swift
    /// Button("Save") { save() }.widget(Editor.save, in: .editor, transition: .fade)
    /// ```
    public func widget<Event>(_ id: WidgetID<Event>, in manager: WidgetManager, transition: WidgetTransition = .none) -> ManagedWidget<Self> {
        widget(id.name, in: manager, transition: transition)
    }
}
