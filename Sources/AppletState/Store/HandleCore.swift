/// What every state handle shares (`PersistentState`, whatever its kind): a handle returned by
/// the store holds its box; a property wrapper holds a key path and finds the box in the current
/// store at every access.
struct HandleCore<Handle: BoxedState>: @unchecked Sendable {   // key path literals are immutable
    typealias Value = Handle.Value

    /// Set for a handle returned by the store; nil for a property wrapper.
    let resolvedBox: StateBox<Value>?
    /// Set for a property wrapper; nil for a handle (the two inits set exactly one of them).
    let keyPath: KeyPath<Application, Handle>?
    /// The key path may name a main-actor property (it was not `Sendable`): use it on the main
    /// actor only.
    let mainActorOnly: Bool

    init(box: StateBox<Value>) {
        resolvedBox = box
        keyPath = nil
        mainActorOnly = false
    }

    init(keyPath: any KeyPath<Application, Handle> & Sendable) {
        resolvedBox = nil
        self.keyPath = keyPath
        mainActorOnly = false
    }

    @MainActor
    init(mainActorKeyPath keyPath: KeyPath<Application, Handle>) {
        resolvedBox = nil
        self.keyPath = keyPath
        mainActorOnly = true
    }

    var box: StateBox<Value> {
        if let resolvedBox { return resolvedBox }
        return resolve()
    }

    /// The box of a property wrapper's key path in the current store.
    @inline(never)
    func resolve() -> StateBox<Value> {
        if mainActorOnly { MainActorKeyPaths.check() }
        return Application.withCurrentUnretained { $0.resolve(keyPath.unsafelyUnwrapped) }.box
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

/// Property wrappers made on the main actor from key paths that are not `Sendable` (key paths to
/// main-actor properties, or a key path held in a `KeyPath` variable) keep them, and check at
/// every access that they are on the main actor: the key path may run main-actor code.
enum MainActorKeyPaths {
    @inline(__always)
    static func check() {
        MainActor.preconditionIsolated("a property wrapper made from a main-actor key path is used off the main actor")
    }
}
