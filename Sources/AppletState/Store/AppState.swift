/// Reads and writes a `State` of the current store from a view or applet.
///
/// ```swift
/// struct CounterView: View {
///     @AppState(\.counter) var count
///     var body: some View {
///         Button("Count: \(count)") { count += 1 }
///     }
/// }
/// ```
@propertyWrapper
public struct AppState<Value: Sendable>: Sendable {
    // Key path literals without captures are immutable; stored as the concrete type so reads
    // go through the store's key path cache.
    nonisolated(unsafe) private let keyPath: KeyPath<Application, Application.State<Value>>
    /// Made from a key path that is not `Sendable` (see the `@MainActor` init).
    private let mainActorOnly: Bool

    public init(_ keyPath: any KeyPath<Application, Application.State<Value>> & Sendable) {
        self.keyPath = keyPath
        mainActorOnly = false
    }

    /// For a key path that is not `Sendable` (to a main-actor property, as in a module whose
    /// declarations are main-actor by default): made on the main actor and used there only,
    /// which every access checks.
    @MainActor
    public init(_ keyPath: KeyPath<Application, Application.State<Value>>) {
        self.keyPath = keyPath
        mainActorOnly = true
    }

    public var wrappedValue: Value {
        get {
            if mainActorOnly { MainActorKeyPaths.check() }
            return Application.state(keyPath).value
        }
        nonmutating set {
            if mainActorOnly { MainActorKeyPaths.check() }
            Application.state(keyPath).value = newValue
        }
    }

    /// A binding to the value (`$count`).
    public var projectedValue: Binding<Value> {
        let wrapper = self
        return Binding(get: { wrapper.wrappedValue }, set: { wrapper.wrappedValue = $0 })
    }
}
