/// What every kind of state handle shares (`StoredState`, `FileState`, `SecureState`,
/// `SyncState`): a handle returned by the store holds its box; a property wrapper holds a key path
/// and finds the box in the current store at every access.
struct HandleCore<Handle: BoxedState>: @unchecked Sendable {   // key path literals are immutable
    typealias Value = Handle.Value

    /// Set for a handle returned by the store; nil for a property wrapper.
    let resolvedBox: StateBox<Value>?
    /// Set for a property wrapper; nil for a handle (the two inits set exactly one of them).
    let keyPath: KeyPath<Application, Handle>?

    init(box: StateBox<Value>) {
        resolvedBox = box
        keyPath = nil
    }

    init(keyPath: any KeyPath<Application, Handle> & Sendable) {
        resolvedBox = nil
        self.keyPath = keyPath
    }

    var box: StateBox<Value> {
        if let resolvedBox { return resolvedBox }
        return resolve()
    }

    /// The box of a property wrapper's key path in the current store.
    @inline(never)
    func resolve() -> StateBox<Value> {
        Application.withCurrentUnretained { $0.resolve(keyPath.unsafelyUnwrapped) }.box
    }

    /// The value: a handle's box is used in place (`unsafelyUnwrapped` after the nil check);
    /// going through `box`, which returns it +1, would add a retain and a release to every read.
    var value: Value {
        get {
            if resolvedBox != nil { return resolvedBox.unsafelyUnwrapped.value }
            return resolve().value
        }
        nonmutating set {
            if resolvedBox != nil { return resolvedBox.unsafelyUnwrapped.set(newValue) }
            resolve().set(newValue)
        }
    }

    func modify<R>(_ change: (inout Value) throws -> R) rethrows -> R {
        if resolvedBox != nil { return try resolvedBox.unsafelyUnwrapped.modify(change) }
        return try resolve().modify(change)
    }

    var binding: Binding<Value> {
        let box = self.box
        return Binding(get: { box.value }, set: { box.set($0) })
    }

    var changes: AsyncStream<Value> { box.changes() }
}
