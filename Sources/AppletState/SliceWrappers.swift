// Property wrappers over slices: each access resolves the state (or dependency) in the current
// store, like `@AppState`, then reads or writes just the part named by the second key path.
// The plain-value forms they use are in Slice.swift.

/// Reads and writes one part of a state's value, from a view or applet. Works over every kind of
/// state (`State`, `StoredState`, `FileState`, ...); a write is an atomic `modify` of the state.
///
/// ```swift
/// struct NameField: View {
///     @Slice(\.user, \.name) var name
///     @Slice(\.errors, \.["network"]) var networkError      // String?; nil removes the entry
///     var body: some View { TextField("Name", text: $name) }
/// }
/// ```
///
/// `name += "!"` reads then writes; use `Application.slice(\.user, \.name).modify { ... }` when
/// other tasks write the same state.
@propertyWrapper
public struct Slice<Kind: MutableApplicationState, SliceValue: Sendable>: Sendable {
    nonisolated(unsafe) private let stateKeyPath: KeyPath<Application, Kind>
    nonisolated(unsafe) private let valueKeyPath: WritableKeyPath<Kind.Value, SliceValue>

    public init(
        _ stateKeyPath: any KeyPath<Application, Kind> & Sendable,
        _ valueKeyPath: any WritableKeyPath<Kind.Value, SliceValue> & Sendable
    ) {
        self.stateKeyPath = stateKeyPath
        self.valueKeyPath = valueKeyPath
    }

    public var wrappedValue: SliceValue {
        get { Application.anyState(stateKeyPath).value[keyPath: valueKeyPath] }
        nonmutating set {
            let valueKeyPath = self.valueKeyPath
            Application.anyState(stateKeyPath).modify { $0[keyPath: valueKeyPath] = newValue }
        }
    }

    /// A binding to the part (`$name`), resolving the state in the current store at each use.
    public var projectedValue: Binding<SliceValue> {
        let wrapper = self
        return Binding(get: { wrapper.wrappedValue }, set: { wrapper.wrappedValue = $0 })
    }
}

/// Reads and writes one part of an optional state's value (`State<User?>`): the value is nil
/// while the state is nil, and a write then is ignored and logged as a warning, never a crash.
///
/// ```swift
/// @OptionalSlice(\.maybeUser, \.name) var name          // String?
/// @OptionalSlice(\.maybeUser, \.nickname) var nickname  // String? for a `String?` field; nil clears it
/// ```
@propertyWrapper
public struct OptionalSlice<Kind: MutableApplicationState, Root: Sendable, SliceValue: Sendable>: Sendable where Kind.Value == Root? {
    nonisolated(unsafe) private let stateKeyPath: KeyPath<Application, Kind>
    private let make: @Sendable (Kind) -> Application.OptionalSlice<Kind, Root, SliceValue>

    /// A slice of a non-optional part: writing nil is ignored.
    public init(
        _ stateKeyPath: any KeyPath<Application, Kind> & Sendable,
        _ valueKeyPath: any WritableKeyPath<Root, SliceValue> & Sendable
    ) {
        self.stateKeyPath = stateKeyPath
        make = { Application.OptionalSlice(state: $0, keyPath: valueKeyPath) }
    }

    /// A slice of an optional part, flattened: writing nil sets the part to nil.
    public init(
        _ stateKeyPath: any KeyPath<Application, Kind> & Sendable,
        _ valueKeyPath: any WritableKeyPath<Root, SliceValue?> & Sendable
    ) {
        self.stateKeyPath = stateKeyPath
        make = { Application.OptionalSlice(state: $0, keyPath: valueKeyPath) }
    }

    public var wrappedValue: SliceValue? {
        get { make(Application.anyState(stateKeyPath)).value }
        nonmutating set { make(Application.anyState(stateKeyPath)).value = newValue }
    }

    /// A binding to the part (`$name`).
    public var projectedValue: Binding<SliceValue?> {
        let wrapper = self
        return Binding(get: { wrapper.wrappedValue }, set: { wrapper.wrappedValue = $0 })
    }
}

/// Reads one part of a state's value (read-only: there is no setter).
///
/// ```swift
/// @Constant(\.user, \.id) var id
/// ```
@propertyWrapper
public struct Constant<Kind: MutableApplicationState, SliceValue: Sendable>: Sendable {
    nonisolated(unsafe) private let stateKeyPath: KeyPath<Application, Kind>
    nonisolated(unsafe) private let valueKeyPath: KeyPath<Kind.Value, SliceValue>

    public init(
        _ stateKeyPath: any KeyPath<Application, Kind> & Sendable,
        _ valueKeyPath: any KeyPath<Kind.Value, SliceValue> & Sendable
    ) {
        self.stateKeyPath = stateKeyPath
        self.valueKeyPath = valueKeyPath
    }

    public var wrappedValue: SliceValue { Application.anyState(stateKeyPath).value[keyPath: valueKeyPath] }
}

/// Reads one part of an optional state's value: nil while the state is nil (read-only).
///
/// ```swift
/// @OptionalConstant(\.maybeUser, \.id) var id   // Int?
/// ```
@propertyWrapper
public struct OptionalConstant<Kind: MutableApplicationState, Root: Sendable, SliceValue: Sendable>: Sendable where Kind.Value == Root? {
    nonisolated(unsafe) private let stateKeyPath: KeyPath<Application, Kind>
    private let make: @Sendable (Kind) -> Application.OptionalConstant<Kind, Root, SliceValue>

    public init(
        _ stateKeyPath: any KeyPath<Application, Kind> & Sendable,
        _ valueKeyPath: any KeyPath<Root, SliceValue> & Sendable
    ) {
        self.stateKeyPath = stateKeyPath
        make = { Application.OptionalConstant(state: $0, keyPath: valueKeyPath) }
    }

    /// Over an optional part, flattened: nil when the state or the part is nil.
    public init(
        _ stateKeyPath: any KeyPath<Application, Kind> & Sendable,
        _ valueKeyPath: any KeyPath<Root, SliceValue?> & Sendable
    ) {
        self.stateKeyPath = stateKeyPath
        make = { Application.OptionalConstant(state: $0, keyPath: valueKeyPath) }
    }

    public var wrappedValue: SliceValue? { make(Application.anyState(stateKeyPath)).value }
}

/// Reads and writes one part of a dependency's value. For a value type a write replaces the
/// dependency's value in the store (the innermost override's while one is active); for a class
/// it sets the property on the object (through its `ReferenceWritableKeyPath`).
///
/// ```swift
/// extension Application {
///     public var settings: Dependency<Settings> { dependency(Settings()) }
/// }
/// @DependencySlice(\.settings, \.title) var title
/// ```
@propertyWrapper
public struct DependencySlice<Value: Sendable, SliceValue: Sendable>: Sendable {
    nonisolated(unsafe) private let dependencyKeyPath: KeyPath<Application, Dependency<Value>>
    nonisolated(unsafe) private let valueKeyPath: WritableKeyPath<Value, SliceValue>

    public init(
        _ dependencyKeyPath: any KeyPath<Application, Dependency<Value>> & Sendable,
        _ valueKeyPath: any WritableKeyPath<Value, SliceValue> & Sendable
    ) {
        self.dependencyKeyPath = dependencyKeyPath
        self.valueKeyPath = valueKeyPath
    }

    private var slice: Application.DependencySlice<Value, SliceValue> {
        Application.DependencySlice(dependency: Application.withCurrentUnretained { $0.resolveDependency(dependencyKeyPath) }, keyPath: valueKeyPath)
    }

    public var wrappedValue: SliceValue {
        get { slice.value }
        nonmutating set { slice.value = newValue }
    }

    /// A binding to the part (`$title`).
    public var projectedValue: Binding<SliceValue> {
        let wrapper = self
        return Binding(get: { wrapper.wrappedValue }, set: { wrapper.wrappedValue = $0 })
    }
}

/// Reads one part of a dependency's value (read-only).
///
/// ```swift
/// @DependencyConstant(\.settings, \.title) var title
/// ```
@propertyWrapper
public struct DependencyConstant<Value: Sendable, SliceValue: Sendable>: Sendable {
    nonisolated(unsafe) private let dependencyKeyPath: KeyPath<Application, Dependency<Value>>
    nonisolated(unsafe) private let valueKeyPath: KeyPath<Value, SliceValue>

    public init(
        _ dependencyKeyPath: any KeyPath<Application, Dependency<Value>> & Sendable,
        _ valueKeyPath: any KeyPath<Value, SliceValue> & Sendable
    ) {
        self.dependencyKeyPath = dependencyKeyPath
        self.valueKeyPath = valueKeyPath
    }

    public var wrappedValue: SliceValue { Application.dependency(dependencyKeyPath)[keyPath: valueKeyPath] }
}
