/// Reads a dependency of the current store from a view, an applet or a service (read-only).
///
/// ```swift
/// struct StatusLine: View {
///     @AppDependency(\.clock) var clock
///     var body: some View { Text("\(clock.now)") }
/// }
/// ```
///
/// Every read resolves in the current store, so an override (`Application.override`) is seen at
/// once, and a view that read the dependency is redrawn when it is overridden.
@propertyWrapper
public struct AppDependency<Value: Sendable>: Sendable {
    // Key path literals without captures are immutable; stored as the concrete type so reads go
    // through the store's key path cache.
    nonisolated(unsafe) private let keyPath: KeyPath<Application, Dependency<Value>>
    private let mainActorOnly: Bool

    public init(_ keyPath: any KeyPath<Application, Dependency<Value>> & Sendable) {
        self.keyPath = keyPath
        mainActorOnly = false
    }

    /// For a key path that is not `Sendable` (to a main-actor property): made on the main actor
    /// and used there only (checked at every access).
    @MainActor
    public init(_ keyPath: KeyPath<Application, Dependency<Value>>) {
        self.keyPath = keyPath
        mainActorOnly = true
    }

    public var wrappedValue: Value {
        if mainActorOnly { MainActorKeyPaths.check() }
        return Application.dependency(keyPath)
    }
}

/// Reads an `Observable` dependency (a model object) from a view. A view that reads it is redrawn
/// when a property of the model it read changes, and when the dependency is overridden.
/// `$model.property` is a `Binding` to a property of the model, for widgets that edit one.
///
/// ```swift
/// @Observable final class TodoModel: @unchecked Sendable { var draft = "" }
/// extension Application {
///     public var todos: Dependency<TodoModel> { dependency(TodoModel()) }
/// }
///
/// struct TodoEditor: View {
///     @ObservedDependency(\.todos) var model
///     var body: some View { TextField("New", text: $model.draft) }
/// }
/// ```
///
/// Any dependency works (the value is not constrained to `Observable`, so a protocol existential
/// like `any TodoModelProtocol` can be declared and overridden with a fake); only the properties
/// of an observable model are tracked.
@propertyWrapper
public struct ObservedDependency<Value: Sendable>: Sendable {
    nonisolated(unsafe) private let keyPath: KeyPath<Application, Dependency<Value>>
    private let mainActorOnly: Bool

    public init(_ keyPath: any KeyPath<Application, Dependency<Value>> & Sendable) {
        self.keyPath = keyPath
        mainActorOnly = false
    }

    /// For a key path that is not `Sendable` (to a main-actor property): made on the main actor
    /// and used there only (checked at every access).
    @MainActor
    public init(_ keyPath: KeyPath<Application, Dependency<Value>>) {
        self.keyPath = keyPath
        mainActorOnly = true
    }

    public var wrappedValue: Value {
        if mainActorOnly { MainActorKeyPaths.check() }
        return Application.dependency(keyPath)
    }

    /// Bindings to the model's writable properties (`$model.draft`).
    public var projectedValue: Bindings { Bindings(keyPath: keyPath, mainActorOnly: mainActorOnly) }

    /// Makes a `Binding` for each writable property of the model; each get and set resolves the
    /// dependency again, so the binding follows overrides. Setting a property of a plain
    /// (not `Observable`) class tells whoever read the dependency.
    @dynamicMemberLookup
    public struct Bindings: Sendable {
        nonisolated(unsafe) let keyPath: KeyPath<Application, Dependency<Value>>
        let mainActorOnly: Bool

        public subscript<Property>(dynamicMember property: ReferenceWritableKeyPath<Value, Property>) -> Binding<Property> {
            nonisolated(unsafe) let keyPath = self.keyPath
            nonisolated(unsafe) let property = property
            let mainActorOnly = self.mainActorOnly
            return Binding(
                get: {
                    if mainActorOnly { MainActorKeyPaths.check() }
                    return Application.dependency(keyPath)[keyPath: property]
                },
                set: { newValue in
                    if mainActorOnly { MainActorKeyPaths.check() }
                    Application.withCurrentUnretained { $0.resolveDependency(keyPath) }.box.changeObject { $0[keyPath: property] = newValue }
                }
            )
        }
    }
}
