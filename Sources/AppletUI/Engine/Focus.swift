import AppletState
import Terminal

/// Which widget has keyboard focus, as a value a view reads and writes, like SwiftUI's
/// `FocusState`. Bind widgets to it with `.focused(_:)` or `.focused(_:equals:)`: moving focus
/// (Tab, a click, Esc leaving a text field) updates the value at once, and setting the value
/// moves focus on the next frame.
///
/// Two forms:
/// - `@FocusState var isFocused: Bool` for one widget (`.focused($isFocused)`);
/// - `@FocusState var field: Field?` for several, one value each
///   (`.focused($field, equals: .name)`); `nil` while none of them has focus.
///
/// ```swift
/// struct Login: View {
///     enum Field: Hashable { case name, password }
///     @FocusState private var field: Field?
///     @AppState(\.login) private var login
///
///     var body: some View {
///         VStack {
///             TextField("Name", text: $login.name).focused($field, equals: .name)
///             TextField("Password", text: $login.password).secure().focused($field, equals: .password)
///             Button("Next") { field = .password }
///         }
///         .defaultFocus($field, .name)
///     }
/// }
/// ```
///
/// Invariants:
/// - The value lives in the `ViewTree` that draws the view, under the view's identity, as a
///   `@State` does (same lifetime: freed when the view leaves the tree), so it survives the view
///   being made again every frame; a view that was never drawn keeps what is written to it and
///   hands it to the tree when first drawn.
/// - After every frame and every focus move, the value says which bound widget has focus: that
///   widget's value, or the empty value (`nil`, `false`) when none of the bound widgets has it.
/// - A value set by the program that names no widget able to take focus (absent, disabled,
///   `.focusable(false)`) leaves focus where it was, and the next frame writes that back.
/// - Setting the empty value while one of the bound widgets has focus takes focus away from it,
///   as `ViewTree.resignFocus()` does; other widgets keep theirs.
@MainActor
@propertyWrapper
public struct FocusState<Value: Hashable>: ViewStateProperty {
    let link: FocusStateLink<Value>

    /// A focus state for one widget: `true` while it has focus.
    public init() where Value == Bool {
        link = FocusStateLink(empty: false)
    }

    /// A focus state for several widgets: the value of the one that has focus, `nil` if none has.
    public init<T: Hashable>() where Value == T? {
        link = FocusStateLink(empty: nil)
    }

    /// Which bound widget has focus. Setting it moves focus on the next frame (and asks for one).
    public var wrappedValue: Value {
        get { link.value }
        nonmutating set { link.value = newValue }
    }

    /// What `.focused(_:equals:)` and `.defaultFocus(_:_:)` take: `$field`.
    public var projectedValue: Binding { Binding(link: link) }

    func install(in tree: ViewTree, at id: ViewID) {
        link.attach(in: tree, at: id)
    }

    /// A focus state passed to the modifiers and to child views, like SwiftUI's
    /// `FocusState.Binding`.
    ///
    /// ```swift
    /// struct NameRow: View {
    ///     @FocusState.Binding var isEditing: Bool
    ///     @AppState(\.name) var name
    ///     var body: some View { TextField("Name", text: $name).focused($isEditing) }
    /// }
    /// NameRow(isEditing: $isEditing)
    /// ```
    @MainActor
    @propertyWrapper
    public struct Binding {
        let link: FocusStateLink<Value>

        public var wrappedValue: Value {
            get { link.value }
            nonmutating set { link.value = newValue }
        }

        public var projectedValue: Binding { self }
    }
}

extension View {
    /// Binds this view's widget's focus to a `Bool` focus state: `true` while it has focus;
    /// setting it to `true` focuses the widget on the next frame, `false` takes focus away.
    /// The widget is the first focusable one inside this view.
    ///
    /// ```swift
    /// @FocusState var isSearching: Bool
    /// TextField("Search", text: $query).focused($isSearching)
    /// Button("Find") { isSearching = true }
    /// ```
    public func focused(_ condition: FocusState<Bool>.Binding) -> FocusedView<Self, Bool> {
        FocusedView(content: self, binding: condition, value: true)
    }

    /// Binds this view's widget's focus to a focus state: the state is `value` while the widget
    /// has focus; setting the state to `value` focuses it on the next frame. The widget is the
    /// first focusable one inside this view.
    ///
    /// ```swift
    /// @FocusState var field: Field?
    /// TextField("Name", text: $name).focused($field, equals: .name)
    /// ```
    public func focused<Value: Hashable>(_ binding: FocusState<Value>.Binding, equals value: Value) -> FocusedView<Self, Value> {
        FocusedView(content: self, binding: binding, value: value)
    }

    /// Names the widget that gets focus when the tree chooses one itself (its first frame, or
    /// when the focused widget went away) instead of the first focusable widget: the one bound
    /// with `.focused(binding, equals: value)` inside this view. Focus set by the program or the
    /// user comes first; when that widget cannot take focus, the first focusable one gets it.
    ///
    /// ```swift
    /// VStack {
    ///     TextField("Name", text: $name).focused($field, equals: .name)
    ///     TextField("Comment", text: $comment).focused($field, equals: .comment)
    /// }
    /// .defaultFocus($field, .comment)
    /// ```
    public func defaultFocus<Value: Hashable>(_ binding: FocusState<Value>.Binding, _ value: Value) -> DefaultFocusView<Self, Value> {
        DefaultFocusView(content: self, binding: binding, value: value)
    }

    /// `.focusable(false)` takes every widget inside this view out of the focus chain: Tab,
    /// `focus(_:)` and focus states pass them by, and a click no longer focuses them, though it
    /// still reaches them (a button pressed with the mouse still runs its action). `true` changes
    /// nothing.
    ///
    /// ```swift
    /// HStack {
    ///     TextField("Query", text: $query)
    ///     Button("×") { query = "" }.focusable(false)   // Tab goes from field to field
    /// }
    /// ```
    public func focusable(_ isFocusable: Bool = true) -> FocusableView<Self> {
        FocusableView(content: self, isFocusable: isFocusable)
    }
}

/// A view whose widget's focus is bound to a focus state (see `View.focused(_:equals:)`).
/// It adds no node of its own.
public struct FocusedView<Content: View, Value: Hashable>: View {
    public typealias Body = Never
    let content: Content
    let binding: FocusState<Value>.Binding
    let value: Value

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        let start = nodes.count
        content._makeNodes(context, into: &nodes)
        guard let widget = firstWidget(in: nodes[start...]) else { return }
        let storage = binding.link.storage(in: context.tree, fallback: context.id.child("FocusState"))
        let value = self.value
        context.tree.addFocusBinding(FocusBinding(
            focusID: widget.focusID, storage: storage, value: AnyHashable(value),
            isChosen: { storage.value == value }, write: { storage.write(value) }))
    }

    /// The first widget that can take focus, in reading order (none inside a disabled view).
    private func firstWidget(in nodes: ArraySlice<Node>) -> (any FocusableNode)? {
        func find(_ node: Node) -> (any FocusableNode)? {
            if node is DisabledNode { return nil }
            if let widget = node.focusable { return widget }
            for child in node.children { if let found = find(child) { return found } }
            return nil
        }
        for node in nodes { if let found = find(node) { return found } }
        return nil
    }
}

/// A view naming the widget focused first (see `View.defaultFocus(_:_:)`). It adds no node.
public struct DefaultFocusView<Content: View, Value: Hashable>: View {
    public typealias Body = Never
    let content: Content
    let binding: FocusState<Value>.Binding
    let value: Value

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        content._makeNodes(context, into: &nodes)
        // After the content: a `.defaultFocus` inside this one comes first.
        let storage = binding.link.storage(in: context.tree, fallback: context.id.child("FocusState"))
        context.tree.addDefaultFocus(DefaultFocusChoice(storage: storage, value: AnyHashable(value)))
    }
}

/// A view whose widgets may be out of the focus chain (see `View.focusable(_:)`). It adds no node.
public struct FocusableView<Content: View>: View {
    public typealias Body = Never
    let content: Content
    let isFocusable: Bool

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        let start = nodes.count
        content._makeNodes(context, into: &nodes)
        guard !isFocusable else { return }
        for node in nodes[start...] { context.tree.removeFromFocusChain(node) }
    }
}

// MARK: - Storage

// `ViewStateProperty` and `ViewStateProperties`, which hand `@FocusState`s their storage, are
// shared with `@State` (LocalState.swift).

/// What a `FocusState` (and the bindings made from it) refers to: the storage in the tree once
/// the view is drawn, and until then what was written to it.
@MainActor
final class FocusStateLink<Value: Hashable> {
    let empty: Value
    private(set) var storage: FocusStateStorage<Value>?
    /// Written before the view was first drawn.
    private var unattached: Value

    init(empty: Value) {
        self.empty = empty
        self.unattached = empty
        ViewStateProperties.unattachedCount += 1
    }

    isolated deinit {
        if storage == nil { ViewStateProperties.unattachedCount -= 1 }
    }

    var value: Value {
        get { storage?.value ?? unattached }
        set {
            guard let storage else { unattached = newValue; return }
            guard storage.value != newValue else { return }
            storage.value = newValue
            storage.tree?.invalidate()
        }
    }

    func attach(in tree: ViewTree, at id: ViewID) {
        let empty = self.empty
        let attached = tree.viewState(for: id) { FocusStateStorage(empty: empty, tree: tree) }
        if storage == nil {
            ViewStateProperties.unattachedCount -= 1
            if unattached != empty { attached.value = unattached }
        }
        storage = attached
    }

    /// The storage, attached under `fallback` if the view holding the state was not drawn
    /// through its `body` (a state held outside a view).
    func storage(in tree: ViewTree, fallback: ViewID) -> FocusStateStorage<Value> {
        if let storage { return storage }
        attach(in: tree, at: fallback)
        return storage!
    }
}

/// The focus state kept by the tree: what the program sees (`value`) and what the tree last
/// wrote (`synced`); they differ when the program asked for a focus change since.
@MainActor
protocol FocusStateSyncing: AnyObject {
    var changedByProgram: Bool { get }
    var holdsEmptyValue: Bool { get }
    func writeEmptyValue()
}

@MainActor
final class FocusStateStorage<Value: Hashable>: FocusStateSyncing {
    var value: Value
    private var synced: Value
    let empty: Value
    weak var tree: ViewTree?

    init(empty: Value, tree: ViewTree) {
        self.value = empty
        self.synced = empty
        self.empty = empty
        self.tree = tree
    }

    var changedByProgram: Bool { value != synced }
    var holdsEmptyValue: Bool { value == empty }

    /// Written by the tree: says where focus is.
    func write(_ new: Value) {
        value = new
        synced = new
    }

    func writeEmptyValue() { write(empty) }
}

/// One `.focused` modifier in a frame: the widget and the state value that stands for it.
@MainActor
struct FocusBinding {
    let focusID: ViewID
    let storage: any FocusStateSyncing
    let value: AnyHashable
    /// Whether the state holds this binding's value.
    let isChosen: @MainActor () -> Bool
    /// Writes this binding's value into the state (its widget has focus).
    let write: @MainActor () -> Void
}

/// One `.defaultFocus` modifier in a frame.
@MainActor
struct DefaultFocusChoice {
    let storage: any FocusStateSyncing
    let value: AnyHashable
}
