// Property wrappers over slices: each access resolves the state (or dependency) in the current
// store, like `@AppState`, then reads or writes just the part named by the second key path.
// The plain-value forms they use are in Slice.swift.
//
// Each wrapper has a second, `@MainActor` initializer taking plain key paths, for key paths that
// are not `Sendable`: to a main-actor property (a `@MainActor` model's, or any property in a
// module whose declarations are main-actor by default) or held in a `KeyPath` variable. Such a
// wrapper is made on the main actor and checks at every access that it is still there.

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
    private let mainActorOnly: Bool

    public init(
        _ stateKeyPath: any KeyPath<Application, Kind> & Sendable,
        _ valueKeyPath: any WritableKeyPath<Kind.Value, SliceValue> & Sendable
    ) {
        self.stateKeyPath = stateKeyPath
        self.valueKeyPath = valueKeyPath
        mainActorOnly = false
    }

    /// For key paths that are not `Sendable`: made and used on the main actor only.
    @MainActor
    public init(_ stateKeyPath: KeyPath<Application, Kind>, _ valueKeyPath: WritableKeyPath<Kind.Value, SliceValue>) {
        self.stateKeyPath = stateKeyPath
        self.valueKeyPath = valueKeyPath
        mainActorOnly = true
    }

    public var wrappedValue: SliceValue {
        get {
            if mainActorOnly { MainActorKeyPaths.check() }
            return Application.anyState(stateKeyPath).value[keyPath: valueKeyPath]
        }
        nonmutating set {
            if mainActorOnly { MainActorKeyPaths.check() }
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
    private let mainActorOnly: Bool

    /// A slice of a non-optional part: writing nil is ignored.
    public init(
        _ stateKeyPath: any KeyPath<Application, Kind> & Sendable,
        _ valueKeyPath: any WritableKeyPath<Root, SliceValue> & Sendable
    ) {
        self.stateKeyPath = stateKeyPath
        make = { Application.OptionalSlice(state: $0, keyPath: valueKeyPath) }
        mainActorOnly = false
    }

    /// A slice of an optional part, flattened: writing nil sets the part to nil.
    public init(
        _ stateKeyPath: any KeyPath<Application, Kind> & Sendable,
        _ valueKeyPath: any WritableKeyPath<Root, SliceValue?> & Sendable
    ) {
        self.stateKeyPath = stateKeyPath
        make = { Application.OptionalSlice(state: $0, keyPath: valueKeyPath) }
        mainActorOnly = false
    }

    /// A slice of a non-optional part, for key paths that are not `Sendable`: made and used on
    /// the main actor only.
    @MainActor
    public init(_ stateKeyPath: KeyPath<Application, Kind>, _ valueKeyPath: WritableKeyPath<Root, SliceValue>) {
        self.stateKeyPath = stateKeyPath
        nonisolated(unsafe) let part = valueKeyPath
        make = { Application.OptionalSlice(state: $0, keyPath: part) }
        mainActorOnly = true
    }

    /// A slice of an optional part, for key paths that are not `Sendable`: made and used on the
    /// main actor only.
    @MainActor
    public init(_ stateKeyPath: KeyPath<Application, Kind>, _ valueKeyPath: WritableKeyPath<Root, SliceValue?>) {
        self.stateKeyPath = stateKeyPath
        nonisolated(unsafe) let part = valueKeyPath
        make = { Application.OptionalSlice(state: $0, keyPath: part) }
        mainActorOnly = true
    }

    public var wrappedValue: SliceValue? {
        get {
            if mainActorOnly { MainActorKeyPaths.check() }
            return make(Application.anyState(stateKeyPath)).value
        }
        nonmutating set {
            if mainActorOnly { MainActorKeyPaths.check() }
            make(Application.anyState(stateKeyPath)).value = newValue
        }
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
    private let mainActorOnly: Bool

    public init(
        _ stateKeyPath: any KeyPath<Application, Kind> & Sendable,
        _ valueKeyPath: any KeyPath<Kind.Value, SliceValue> & Sendable
    ) {
        self.stateKeyPath = stateKeyPath
        self.valueKeyPath = valueKeyPath
        mainActorOnly = false
    }

    /// For key paths that are not `Sendable`: made and used on the main actor only.
    @MainActor
    public init(_ stateKeyPath: KeyPath<Application, Kind>, _ valueKeyPath: KeyPath<Kind.Value, SliceValue>) {
        self.stateKeyPath = stateKeyPath
        self.valueKeyPath = valueKeyPath
        mainActorOnly = true
    }

    public var wrappedValue: SliceValue {
        if mainActorOnly { MainActorKeyPaths.check() }
        return Application.anyState(stateKeyPath).value[keyPath: valueKeyPath]
    }
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
    private let mainActorOnly: Bool

    public init(
        _ stateKeyPath: any KeyPath<Application, Kind> & Sendable,
        _ valueKeyPath: any KeyPath<Root, SliceValue> & Sendable
    ) {
        self.stateKeyPath = stateKeyPath
        make = { Application.OptionalConstant(state: $0, keyPath: valueKeyPath) }
        mainActorOnly = false
    }

    /// Over an optional part, flattened: nil when the state or the part is nil.
    public init(
        _ stateKeyPath: any KeyPath<Application, Kind> & Sendable,
        _ valueKeyPath: any KeyPath<Root, SliceValue?> & Sendable
    ) {
        self.stateKeyPath = stateKeyPath
        make = { Application.OptionalConstant(state: $0, keyPath: valueKeyPath) }
        mainActorOnly = false
    }

    /// For key paths that are not `Sendable`: made and used on the main actor only.
    @MainActor
    public init(_ stateKeyPath: KeyPath<Application, Kind>, _ valueKeyPath: KeyPath<Root, SliceValue>) {
        self.stateKeyPath = stateKeyPath
        nonisolated(unsafe) let part = valueKeyPath
        make = { Application.OptionalConstant(state: $0, keyPath: part) }
        mainActorOnly = true
    }

    /// Over an optional part, for key paths that are not `Sendable`: made and used on the main
    /// actor only.
    @MainActor
    public init(_ stateKeyPath: KeyPath<Application, Kind>, _ valueKeyPath: KeyPath<Root, SliceValue?>) {
        self.stateKeyPath = stateKeyPath
        nonisolated(unsafe) let part = valueKeyPath
        make = { Application.OptionalConstant(state: $0, keyPath: part) }
        mainActorOnly = true
    }

    public var wrappedValue: SliceValue? {
        if mainActorOnly { MainActorKeyPaths.check() }
        return make(Application.anyState(stateKeyPath)).value
    }
}

/// Reads and writes one part of a dependency's value. For a value type a write replaces the
/// dependency's value in the store (the innermost override's while one is active); for a class
/// it sets the property on the object (through its `ReferenceWritableKeyPath`), and whoever read
/// the dependency is told (an `Observable` class tells its own observers).
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
    private let mainActorOnly: Bool

    public init(
        _ dependencyKeyPath: any KeyPath<Application, Dependency<Value>> & Sendable,
        _ valueKeyPath: any WritableKeyPath<Value, SliceValue> & Sendable
    ) {
        self.dependencyKeyPath = dependencyKeyPath
        self.valueKeyPath = valueKeyPath
        mainActorOnly = false
    }

    /// For key paths that are not `Sendable` (a property of a `@MainActor` model): made and used
    /// on the main actor only.
    @MainActor
    public init(_ dependencyKeyPath: KeyPath<Application, Dependency<Value>>, _ valueKeyPath: WritableKeyPath<Value, SliceValue>) {
        self.dependencyKeyPath = dependencyKeyPath
        self.valueKeyPath = valueKeyPath
        mainActorOnly = true
    }

    private var slice: Application.DependencySlice<Value, SliceValue> {
        if mainActorOnly { MainActorKeyPaths.check() }
        return Application.DependencySlice(dependency: Application.withCurrentUnretained { $0.resolveDependency(dependencyKeyPath) }, keyPath: valueKeyPath)
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
    private let mainActorOnly: Bool

    public init(
        _ dependencyKeyPath: any KeyPath<Application, Dependency<Value>> & Sendable,
        _ valueKeyPath: any KeyPath<Value, SliceValue> & Sendable
    ) {
        self.dependencyKeyPath = dependencyKeyPath
        self.valueKeyPath = valueKeyPath
        mainActorOnly = false
    }

    /// For key paths that are not `Sendable` (a property of a `@MainActor` model): made and used
    /// on the main actor only.
    @MainActor
    public init(_ dependencyKeyPath: KeyPath<Application, Dependency<Value>>, _ valueKeyPath: KeyPath<Value, SliceValue>) {
        self.dependencyKeyPath = dependencyKeyPath
        self.valueKeyPath = valueKeyPath
        mainActorOnly = true
    }

    public var wrappedValue: SliceValue {
        if mainActorOnly { MainActorKeyPaths.check() }
        return Application.dependency(dependencyKeyPath)[keyPath: valueKeyPath]
    }
}
