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

    public init(_ keyPath: any KeyPath<Application, Application.State<Value>> & Sendable) {
        self.keyPath = keyPath
    }

    public var wrappedValue: Value {
        get { Application.state(keyPath).value }
        nonmutating set { Application.state(keyPath).value = newValue }
    }

    /// A binding to the value (`$count`).
    public var projectedValue: Binding<Value> {
        nonisolated(unsafe) let keyPath = self.keyPath
        return Binding(
            get: { Application.state(keyPath).value },
            set: { Application.state(keyPath).value = $0 }
        )
    }
}
