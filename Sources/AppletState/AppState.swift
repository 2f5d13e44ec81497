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
    private let keyPath: any KeyPath<Application, State<Value>> & Sendable

    public init(_ keyPath: any KeyPath<Application, State<Value>> & Sendable) {
        self.keyPath = keyPath
    }

    public var wrappedValue: Value {
        get { Application.current[keyPath: keyPath].value }
        nonmutating set { Application.current[keyPath: keyPath].value = newValue }
    }

    /// A binding to the value (`$count`).
    public var projectedValue: Binding<Value> {
        let keyPath = self.keyPath
        return Binding(
            get: { Application.current[keyPath: keyPath].value },
            set: { Application.current[keyPath: keyPath].value = $0 }
        )
    }
}
