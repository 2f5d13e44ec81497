/// A read-write reference to a value that lives somewhere else (usually the store).
///
/// Widgets that edit a value take a binding, so they never own the value themselves.
///
/// ```swift
/// @AppState(\.selection) var selection
/// List(count: 100, selection: $selection) { row in Text("Row \(row)") }
/// ```
@dynamicMemberLookup
public struct Binding<Value>: Sendable {
    private let getter: @Sendable () -> Value
    private let setter: @Sendable (Value) -> Void

    public init(get: @escaping @Sendable () -> Value, set: @escaping @Sendable (Value) -> Void) {
        getter = get
        setter = set
    }

    public var wrappedValue: Value {
        get { getter() }
        nonmutating set { setter(newValue) }
    }

    public var projectedValue: Binding<Value> { self }

    /// A binding to a property of the bound value, as in SwiftUI.
    ///
    /// ```swift
    /// @AppState(\.settings) var settings
    /// TextField("Name", text: $settings.name)
    /// ```
    public subscript<Property>(dynamicMember keyPath: WritableKeyPath<Value, Property>) -> Binding<Property> {
        // Key paths are immutable values; the binding only ever reads through it.
        nonisolated(unsafe) let path = keyPath
        let getter = self.getter, setter = self.setter
        return Binding<Property>(
            get: { getter()[keyPath: path] },
            set: { newValue in
                var value = getter()
                value[keyPath: path] = newValue
                setter(value)
            })
    }

    /// A binding to a value that never changes (for previews and tests).
    public static func constant(_ value: Value) -> Binding<Value> where Value: Sendable {
        Binding(get: { value }, set: { _ in })
    }
}
