import Observation
import Synchronization

/// In-memory state in the store: a handle to one value, shared by everyone who declares the same id.
///
/// Reading `value` inside a view registers the view as an observer; writing it redraws those views.
///
/// ```swift
/// extension Application {
///     public var counter: State<Int> { state(initial: 0, id: "counter") }
/// }
/// let counter = Application.state(\.counter)
/// counter.value += 1
/// counter.modify { $0 *= 2 }   // atomic read-modify-write
/// ```
public struct State<Value: Sendable>: Sendable {
    let box: StateBox<Value>

    /// The current value. Setting it notifies observers.
    public var value: Value {
        get { box.value }
        nonmutating set { box.set(newValue) }
    }

    /// Changes the value atomically and notifies observers once.
    public func modify<R>(_ change: (inout Value) throws -> R) rethrows -> R {
        try box.modify(change)
    }

    /// A binding that reads and writes this state (for widgets that edit a value).
    public var binding: Binding<Value> {
        let box = self.box
        return Binding(get: { box.value }, set: { box.set($0) })
    }
}

/// The storage cell behind a `State`: a lock-protected value with an observation registrar.
final class StateBox<Value: Sendable>: Observable, Sendable {
    private let storage: Mutex<Value>
    private let registrar = ObservationRegistrar()

    init(_ value: Value) { storage = Mutex(value) }

    var value: Value {
        registrar.access(self, keyPath: \.value)
        return storage.withLock { $0 }
    }

    func set(_ newValue: Value) {
        registrar.withMutation(of: self, keyPath: \.value) {
            storage.withLock { $0 = newValue }
        }
    }

    func modify<R>(_ change: (inout Value) throws -> R) rethrows -> R {
        try registrar.withMutation(of: self, keyPath: \.value) {
            try storage.withLock { try change(&$0) }
        }
    }
}
