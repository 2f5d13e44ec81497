import AppletState
import Observation

/// A value a view owns, like SwiftUI's `State`: what only this view (and the views it passes a
/// binding to) cares about — whether a section is expanded, a draft not yet saved, the row being
/// edited. Read and write it from `body` and from actions; `$name` is a `Binding` for widgets.
///
/// ```swift
/// struct FilterBar: View {
///     @State private var showsAdvanced = false
///     @State private var query = ""
///
///     var body: some View {
///         VStack {
///             TextField("Filter", text: $query)
///             Toggle("Advanced", isOn: $showsAdvanced)
///             if showsAdvanced { Text("Matching “\(query)”").dim() }
///             Button("Clear") { query = "" }
///         }
///     }
/// }
/// ```
///
/// **`@State` or the store?** `@State` is private to one place on screen: two `FilterBar`s have
/// two queries, and the value is gone when the view leaves the screen. Nothing else can read it,
/// it is never saved, and the store's tools (`changes`, overrides, scopes) do not see it. Keep in the store (`Application.State`, `StoredState`, `FileState`, read with
/// `@AppState`) what another view, pane or applet reads, a command or a background task changes,
/// or what must survive a restart; keep in `@State` what is only about how this view is being
/// used right now. Starting with `@State` and moving a value to the store when a second reader
/// appears is the usual path.
///
/// Lifetime — the value lives in the `ViewTree` that draws the view, under the view's identity
/// (its place in the tree, its type and the property's name):
/// - It is kept from frame to frame while the view stays in the tree, including while the tree
///   is not drawn (a tab not shown, `ViewTree.disappear()` when its tab is switched away — as
///   SwiftUI keeps the state of a `TabView`'s pages), while the view is inside a hidden widget
///   (`.widget(_:in:)`) or on a page of `Tabs` that is not selected, and for the rows of a `List`
///   scrolled out of sight.
/// - It is dropped, and its storage freed, on the first frame drawn without the view because the
///   `if`/`else`/`switch` around it took another branch, the element of its `ForEach` is gone, an
///   `AnyView` around it holds another type of view, or the tree draws another type of root view.
///   Added again, the view starts from its initial value. (A `List` makes its rows while drawing,
///   by index: their views keep their state, by row number, until the tree draws another type of
///   root view or is freed.)
/// - Each place has its own value: two instances of a view in one tree, or one view in each row
///   of a `ForEach` (by the row's id), do not share it.
///
/// Setting the value (from an action, a binding or a task on the main actor) redraws every view
/// that read it, as a change in the store does (through Observation). A view value not drawn yet
/// keeps what is written to it and hands it to the tree when first drawn. Use it on the main
/// actor only: a `$binding` used on another thread stops with an error.
@MainActor
@propertyWrapper
public struct State<Value>: ViewStateProperty {
    let link: StateLink<Value>

    /// A state starting at `wrappedValue` (what `@State var isOn = false` calls).
    public init(wrappedValue: Value) {
        link = StateLink(initial: wrappedValue)
    }

    /// A state starting at `initialValue`, for an `init` that sets it: `_count = State(initialValue: start)`.
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    /// An optional state starting at `nil` (`@State private var selection: Int?`).
    public init<Wrapped>() where Value == Wrapped? {
        self.init(wrappedValue: nil)
    }

    /// The value. Setting it redraws the views that read it.
    public var wrappedValue: Value {
        get { link.value }
        nonmutating set { link.value = newValue }
    }

    /// A binding to the value, for widgets that edit it: `Toggle("Wrap", isOn: $wraps)`, or to
    /// hand to a child view.
    public var projectedValue: Binding<Value> {
        let link = self.link
        return Binding(
            get: { MainActor.assumeIsolated { UncheckedValue(link.value) }.value },
            set: { newValue in
                let box = UncheckedValue(newValue)
                MainActor.assumeIsolated { link.value = box.value }
            })
    }

    func install(in tree: ViewTree, at id: ViewID) {
        link.attach(in: tree, at: id)
    }
}

/// Carries a value that is only used on the main actor through a `@Sendable` closure's boundary.
private struct UncheckedValue<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// What a `State` (and the bindings made from it) refers to: the storage in the tree once the view
/// is drawn, and until then the value written to it.
@MainActor
final class StateLink<Value> {
    private(set) var storage: LocalStateStorage<Value>?
    /// The initial value, and what is written before the view is first drawn.
    private var unattached: Value

    init(initial: Value) {
        unattached = initial
        ViewStateProperties.unattachedCount += 1
    }

    isolated deinit {
        if storage == nil { ViewStateProperties.unattachedCount -= 1 }
    }

    var value: Value {
        get { storage?.value ?? unattached }
        set {
            if let storage { storage.value = newValue } else { unattached = newValue }
        }
    }

    /// Takes the storage the tree keeps at `id`, made from this link's value if there is none:
    /// on every frame, so that a view value kept between frames follows its place in the tree.
    func attach(in tree: ViewTree, at id: ViewID) {
        // Not `value`: attaching is not reading (a view redraws for the states its body reads).
        let start = storage?.untrackedValue ?? unattached
        let attached = tree.viewState(for: id) { LocalStateStorage(start) }
        if storage == nil { ViewStateProperties.unattachedCount -= 1 }
        storage = attached
    }
}

/// The value of one `@State` in a tree, observable: views that read it are drawn again when it
/// is set.
@MainActor
final class LocalStateStorage<Value>: Observable {
    private var stored: Value
    private let registrar = ObservationRegistrar()

    /// How many storages exist (tests check that removed views free theirs).
    static var liveCount: Int {
        get { LocalStateStorageCount.value }
        set { LocalStateStorageCount.value = newValue }
    }

    init(_ value: Value) {
        stored = value
        Self.liveCount += 1
    }

    isolated deinit {
        Self.liveCount -= 1
    }

    /// The value, without registering the reader as an observer.
    var untrackedValue: Value { stored }

    var value: Value {
        get {
            registrar.access(self, keyPath: \.value)
            return stored
        }
        set {
            registrar.withMutation(of: self, keyPath: \.value) { stored = newValue }
        }
    }
}

/// The count behind `LocalStateStorage.liveCount`, shared by every `Value` type.
@MainActor
enum LocalStateStorageCount {
    static var value = 0
}

// MARK: - View state properties (`@State`, `@FocusState`)

/// A property of a view whose value lives in the tree that draws it (`@State`, `@FocusState`):
/// the tree hands it its storage before the view's `body` is evaluated.
@MainActor
protocol ViewStateProperty {
    func install(in tree: ViewTree, at id: ViewID)
}

/// Finds a view's `ViewStateProperty`s by reflection and installs them under the view's identity.
///
/// Views are evaluated every frame, so this must cost nothing when there is nothing to do:
/// views are only looked into while some state property exists that has no storage yet (one was
/// just made, as part of a view value that is about to be drawn), and views of a type found to
/// hold such properties are looked into on every frame (their storage is marked as in use, so it
/// is kept, and a view value kept between frames follows its place). A view type found to have
/// no such property is not looked into again.
@MainActor
enum ViewStateProperties {
    /// State properties made and not yet given storage (nor freed).
    static var unattachedCount = 0
    private static var typeHasProperties: [ObjectIdentifier: Bool] = [:]
    /// Whether some view type was found to hold state properties.
    private static var anyTypeHasProperties = false

    static func install<V: View>(_ view: V, _ context: ResolveContext) {
        guard unattachedCount > 0 || anyTypeHasProperties else { return }
        let type = ObjectIdentifier(V.self)
        switch typeHasProperties[type] {
        case false?: return
        case nil where unattachedCount == 0: return   // never looked into: nothing of it to attach
        default: break
        }
        var found = false
        for child in Mirror(reflecting: view).children {
            guard let property = child.value as? any ViewStateProperty else { continue }
            found = true
            // The type too: a view and the view its body returns share an identity.
            property.install(in: context.tree, at: context.id.child(type).child(child.label ?? ""))
        }
        typeHasProperties[type] = found
        if found { anyTypeHasProperties = true }
    }
}

// MARK: - Scopes that remove views

/// A place where views come and go between frames: an `if`/`else` or `switch` (`container` is
/// its identity, `branch` the branch taken), an `Optional`, the elements of a `ForEach`, the type
/// inside an `AnyView`, the root view's type. A view's `@State` storage is dropped on a frame
/// that evaluates one of the scopes around it without entering the branch it sits in.
struct ViewScope: Hashable {
    let container: ViewID
    let branch: ViewID
}

/// Storage for a view state property, with what the tree needs to decide when to free it.
@MainActor
final class ViewStateRecord {
    let storage: AnyObject
    /// The scopes around the view when its storage was made, outermost first.
    let scopes: [ViewScope]
    /// The last frame whose evaluation met the view.
    var lastSeen: Int

    init(storage: AnyObject, scopes: [ViewScope], lastSeen: Int) {
        self.storage = storage
        self.scopes = scopes
        self.lastSeen = lastSeen
    }
}

extension ResolveContext {
    /// Evaluates `make` inside the branch `branch` of the scope at this context's id (see
    /// `ViewScope`): state of the views made inside is dropped on a frame that evaluates this
    /// scope and enters none of its branches, or only others.
    func withinScope<R>(branch: ViewID, container: ViewID? = nil, _ make: () -> R) -> R {
        let tree = self.tree
        tree.enterScope(ViewScope(container: container ?? id, branch: branch))
        defer { tree.leaveScope() }
        return make()
    }

    /// Notes that the scope at this context's id was evaluated and entered no branch (an
    /// `Optional` that is `nil`, an empty `ForEach`).
    func evaluatedEmptyScope() {
        tree.noteScopeEvaluated(id)
    }
}
