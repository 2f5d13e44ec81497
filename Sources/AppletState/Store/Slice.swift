import Logging
// Slices: reading and writing one part of a state's value (a field of a struct, an entry of a
// dictionary) without handling the whole value. They work over every kind of state
// (`MutableApplicationState`: State, StoredState, FileState, SecureState, SyncState) and over
// dependencies. Writes go through the root's `modify`, so they are atomic read-modify-writes.
//
// This file holds the plain-value forms (`Application.slice(...)` and friends); the property
// wrappers (`@Slice`, `@OptionalSlice`, `@Constant`, ...) are in SliceWrappers.swift.

extension Application {
    // MARK: Slices of state

    /// A read-write view of one part of a state's value.
    ///
    /// ```swift
    /// Application.slice(\.user, \.name).value = "Ada"
    /// Application.slice(\.errors, \.["network"]).value = "timeout"   // dictionary entry (nil removes)
    /// Application.slice(\.stats, \.hits).modify { $0 += 1 }          // atomic increment
    /// ```
    ///
    /// `value += 1` is a read followed by a write; use `modify` when other tasks write too.
    public struct Slice<Kind: MutableApplicationState, SliceValue: Sendable>: Sendable {
        /// The state this is a slice of.
        public let state: Kind
        nonisolated(unsafe) let keyPath: WritableKeyPath<Kind.Value, SliceValue>

        init(state: Kind, keyPath: WritableKeyPath<Kind.Value, SliceValue>) {
            self.state = state
            self.keyPath = keyPath
        }

        /// The part of the state's value. Setting it changes just that part, atomically.
        public var value: SliceValue {
            get { state.value[keyPath: keyPath] }
            nonmutating set {
                let keyPath = self.keyPath
                state.modify { $0[keyPath: keyPath] = newValue }
            }
        }

        /// Changes the part atomically (no other write to the state can come in between).
        @discardableResult
        public func modify<R>(_ change: (inout SliceValue) throws -> R) rethrows -> R {
            let keyPath = self.keyPath
            return try state.modify { try change(&$0[keyPath: keyPath]) }
        }

        /// A binding that reads and writes this part.
        public var binding: Binding<SliceValue> {
            let slice = self
            return Binding(get: { slice.value }, set: { slice.value = $0 })
        }
    }

    /// A read-write view of one part of an optional state's value: `value` is nil while the
    /// state is nil, and writing then is ignored (logged as a warning).
    ///
    /// ```swift
    /// Application.optionalSlice(\.maybeUser, \.name).value = "Ada"   // ignored while maybeUser is nil
    /// ```
    public struct OptionalSlice<Kind: MutableApplicationState, Root: Sendable, SliceValue: Sendable>: Sendable where Kind.Value == Root? {
        /// The state this is a slice of.
        public let state: Kind
        let read: @Sendable (Root) -> SliceValue?
        /// Writes a value into a non-nil root; false when it cannot (nil into a non-optional part).
        let write: @Sendable (inout Root, SliceValue?) -> Bool
        let label: @Sendable () -> String

        /// Over a non-optional part: writing nil is ignored. (Key paths are immutable; one that is
        /// not `Sendable` comes from a main-actor wrapper, which uses it on the main actor only.)
        init(state: Kind, keyPath: WritableKeyPath<Root, SliceValue>) {
            nonisolated(unsafe) let part = keyPath
            self.state = state
            read = { $0[keyPath: part] }
            write = { root, newValue in
                guard let newValue else { return false }
                root[keyPath: part] = newValue
                return true
            }
            label = { "\(Kind.self) \(part)" }
        }

        /// Over an optional part, flattened: writing nil sets the part to nil.
        init(state: Kind, keyPath: WritableKeyPath<Root, SliceValue?>) {
            nonisolated(unsafe) let part = keyPath
            self.state = state
            read = { $0[keyPath: part] }
            write = { root, newValue in
                root[keyPath: part] = newValue
                return true
            }
            label = { "\(Kind.self) \(part)" }
        }

        /// The part, or nil while the state is nil. Setting it while the state is nil does nothing
        /// but log a warning.
        public var value: SliceValue? {
            get { state.value.map(read) ?? nil }
            nonmutating set {
                let (write, label) = (self.write, self.label)
                state.modify { root in
                    guard root != nil else {
                        StateLog.logger.warning("write to an optional slice ignored: its state is nil", metadata: ["slice": "\(label())"])
                        return
                    }
                    if !write(&root!, newValue) {
                        StateLog.logger.warning("nil written to a non-optional slice ignored", metadata: ["slice": "\(label())"])
                    }
                }
            }
        }

        /// A binding that reads and writes this part.
        public var binding: Binding<SliceValue?> {
            let slice = self
            return Binding(get: { slice.value }, set: { slice.value = $0 })
        }
    }

    /// A read-only view of one part of a state's value.
    ///
    /// ```swift
    /// let id = Application.constant(\.user, \.id).value
    /// ```
    public struct Constant<Kind: MutableApplicationState, SliceValue: Sendable>: Sendable {
        /// The state this is a part of.
        public let state: Kind
        nonisolated(unsafe) let keyPath: KeyPath<Kind.Value, SliceValue>

        init(state: Kind, keyPath: KeyPath<Kind.Value, SliceValue>) {
            self.state = state
            self.keyPath = keyPath
        }

        /// The part of the state's value.
        public var value: SliceValue { state.value[keyPath: keyPath] }
    }

    /// A read-only view of one part of an optional state's value (nil while the state is nil).
    ///
    /// ```swift
    /// let id = Application.optionalConstant(\.maybeUser, \.id).value   // Int?
    /// ```
    public struct OptionalConstant<Kind: MutableApplicationState, Root: Sendable, SliceValue: Sendable>: Sendable where Kind.Value == Root? {
        /// The state this is a part of.
        public let state: Kind
        let read: @Sendable (Root) -> SliceValue?

        init(state: Kind, keyPath: KeyPath<Root, SliceValue>) {
            nonisolated(unsafe) let part = keyPath
            self.state = state
            read = { $0[keyPath: part] }
        }

        init(state: Kind, keyPath: KeyPath<Root, SliceValue?>) {
            nonisolated(unsafe) let part = keyPath
            self.state = state
            read = { $0[keyPath: part] }
        }

        /// The part, or nil while the state is nil.
        public var value: SliceValue? { state.value.map(read) ?? nil }
    }

    // MARK: Slices of dependencies

    /// A read-write view of one part of a dependency's value. For a value type, a write replaces
    /// the dependency's value in the store (the innermost override's, while one is active); for a
    /// class, a write through a `ReferenceWritableKeyPath` sets the property on the object.
    ///
    /// ```swift
    /// Application.dependencySlice(\.settings, \.title).value = "Dashboard"
    /// ```
    public struct DependencySlice<Value: Sendable, SliceValue: Sendable>: Sendable {
        /// The dependency this is a slice of.
        public let dependency: Dependency<Value>
        nonisolated(unsafe) let keyPath: WritableKeyPath<Value, SliceValue>

        init(dependency: Dependency<Value>, keyPath: WritableKeyPath<Value, SliceValue>) {
            self.dependency = dependency
            self.keyPath = keyPath
        }

        /// The part of the dependency's value.
        public var value: SliceValue {
            get { dependency.value[keyPath: keyPath] }
            nonmutating set {
                if let reference = keyPath as? ReferenceWritableKeyPath<Value, SliceValue> {
                    dependency.box.changeObject { $0[keyPath: reference] = newValue }
                } else {
                    let keyPath = self.keyPath
                    dependency.box.modify { $0[keyPath: keyPath] = newValue }
                }
            }
        }

        /// Changes the part atomically (value types; for a class the object's own rules apply).
        @discardableResult
        public func modify<R>(_ change: (inout SliceValue) throws -> R) rethrows -> R {
            if let reference = keyPath as? ReferenceWritableKeyPath<Value, SliceValue> {
                return try dependency.box.changeObject { try change(&$0[keyPath: reference]) }
            }
            let keyPath = self.keyPath
            return try dependency.box.modify { try change(&$0[keyPath: keyPath]) }
        }

        /// A binding that reads and writes this part.
        public var binding: Binding<SliceValue> {
            let slice = self
            return Binding(get: { slice.value }, set: { slice.value = $0 })
        }
    }

    /// A read-only view of one part of a dependency's value.
    ///
    /// ```swift
    /// let title = Application.dependencyConstant(\.settings, \.title).value
    /// ```
    public struct DependencyConstant<Value: Sendable, SliceValue: Sendable>: Sendable {
        /// The dependency this is a part of.
        public let dependency: Dependency<Value>
        nonisolated(unsafe) let keyPath: KeyPath<Value, SliceValue>

        init(dependency: Dependency<Value>, keyPath: KeyPath<Value, SliceValue>) {
            self.dependency = dependency
            self.keyPath = keyPath
        }

        /// The part of the dependency's value.
        public var value: SliceValue { dependency.value[keyPath: keyPath] }
    }

    // MARK: Making slices

    /// A read-write slice of the state at `stateKeyPath` in the current store.
    ///
    /// ```swift
    /// Application.slice(\.user, \.name).value = "Ada"
    /// ```
    public static func slice<Kind: MutableApplicationState, SliceValue>(
        _ stateKeyPath: KeyPath<Application, Kind>,
        _ valueKeyPath: any WritableKeyPath<Kind.Value, SliceValue> & Sendable
    ) -> Slice<Kind, SliceValue> {
        Slice(state: anyState(stateKeyPath), keyPath: valueKeyPath)
    }

    /// A read-write slice of an optional state in the current store: nil while the state is nil,
    /// and writes are ignored (with a warning) until it is not.
    ///
    /// ```swift
    /// Application.optionalSlice(\.maybeUser, \.name).value = "Ada"
    /// ```
    public static func optionalSlice<Kind: MutableApplicationState, Root, SliceValue>(
        _ stateKeyPath: KeyPath<Application, Kind>,
        _ valueKeyPath: any WritableKeyPath<Root, SliceValue> & Sendable
    ) -> OptionalSlice<Kind, Root, SliceValue> where Kind.Value == Root? {
        OptionalSlice(state: anyState(stateKeyPath), keyPath: valueKeyPath)
    }

    /// A read-write slice of an optional part of an optional state: `value` is nil when the state
    /// or the part is, and writing nil sets the part to nil (while the state is not nil).
    ///
    /// ```swift
    /// Application.optionalSlice(\.maybeUser, \.nickname).value = nil
    /// ```
    public static func optionalSlice<Kind: MutableApplicationState, Root, SliceValue>(
        _ stateKeyPath: KeyPath<Application, Kind>,
        _ valueKeyPath: any WritableKeyPath<Root, SliceValue?> & Sendable
    ) -> OptionalSlice<Kind, Root, SliceValue> where Kind.Value == Root? {
        OptionalSlice(state: anyState(stateKeyPath), keyPath: valueKeyPath)
    }

    /// A read-only slice of the state at `stateKeyPath` in the current store.
    ///
    /// ```swift
    /// let id = Application.constant(\.user, \.id).value
    /// ```
    public static func constant<Kind: MutableApplicationState, SliceValue>(
        _ stateKeyPath: KeyPath<Application, Kind>,
        _ valueKeyPath: any KeyPath<Kind.Value, SliceValue> & Sendable
    ) -> Constant<Kind, SliceValue> {
        Constant(state: anyState(stateKeyPath), keyPath: valueKeyPath)
    }

    /// A read-only slice of an optional state (nil while the state is nil).
    ///
    /// ```swift
    /// let id = Application.optionalConstant(\.maybeUser, \.id).value
    /// ```
    public static func optionalConstant<Kind: MutableApplicationState, Root, SliceValue>(
        _ stateKeyPath: KeyPath<Application, Kind>,
        _ valueKeyPath: any KeyPath<Root, SliceValue> & Sendable
    ) -> OptionalConstant<Kind, Root, SliceValue> where Kind.Value == Root? {
        OptionalConstant(state: anyState(stateKeyPath), keyPath: valueKeyPath)
    }

    /// A read-only slice of an optional part of an optional state (nil when either is).
    ///
    /// ```swift
    /// let nickname = Application.optionalConstant(\.maybeUser, \.nickname).value   // String?
    /// ```
    public static func optionalConstant<Kind: MutableApplicationState, Root, SliceValue>(
        _ stateKeyPath: KeyPath<Application, Kind>,
        _ valueKeyPath: any KeyPath<Root, SliceValue?> & Sendable
    ) -> OptionalConstant<Kind, Root, SliceValue> where Kind.Value == Root? {
        OptionalConstant(state: anyState(stateKeyPath), keyPath: valueKeyPath)
    }

    /// A read-write slice of the dependency at `dependencyKeyPath` in the current store.
    ///
    /// ```swift
    /// Application.dependencySlice(\.settings, \.title).value = "Dashboard"
    /// ```
    public static func dependencySlice<Value, SliceValue>(
        _ dependencyKeyPath: KeyPath<Application, Dependency<Value>>,
        _ valueKeyPath: any WritableKeyPath<Value, SliceValue> & Sendable
    ) -> DependencySlice<Value, SliceValue> {
        DependencySlice(dependency: withCurrentUnretained { $0.resolveDependency(dependencyKeyPath) }, keyPath: valueKeyPath)
    }

    /// A read-only slice of the dependency at `dependencyKeyPath` in the current store.
    ///
    /// ```swift
    /// let title = Application.dependencyConstant(\.settings, \.title).value
    /// ```
    public static func dependencyConstant<Value, SliceValue>(
        _ dependencyKeyPath: KeyPath<Application, Dependency<Value>>,
        _ valueKeyPath: any KeyPath<Value, SliceValue> & Sendable
    ) -> DependencyConstant<Value, SliceValue> {
        DependencyConstant(dependency: withCurrentUnretained { $0.resolveDependency(dependencyKeyPath) }, keyPath: valueKeyPath)
    }

    // MARK: Resolving any kind of state

    /// Any kind of state at `keyPath` in the current store. Kinds that are handles around a
    /// `StateBox` (all of the store's own) resolve through the key path cache; any other
    /// `MutableApplicationState` runs its declaration.
    @inline(__always)
    static func anyState<Kind: MutableApplicationState>(_ keyPath: KeyPath<Application, Kind>) -> Kind {
        withCurrentUnretained { $0.resolveAnyState(keyPath) }
    }

    func resolveAnyState<Kind: MutableApplicationState>(_ keyPath: KeyPath<Application, Kind>) -> Kind {
        guard let boxed = Kind.self as? any BoxedState.Type else { return self[keyPath: keyPath] }
        let scope = Scope.currentIndex
        if let box = keyPathCache.lookup(ObjectIdentifier(keyPath), scope: scope) {
            return Self.boxedHandle(boxed, box: box, as: Kind.self)
        }
        let handle = self[keyPath: keyPath]
        keyPathCache.insert(keyPath, scope: scope, box: Self.storage(of: handle, boxed))
        return handle
    }

    /// The handle of kind `Handle` around `box`, as `Kind` (which `Handle` is: it was opened from
    /// `Kind.self`). No key path of another type is built, so no generic metadata is instantiated.
    @inline(__always)
    private static func boxedHandle<Handle: BoxedState, Kind>(_: Handle.Type, box: any StateStorage, as _: Kind.Type) -> Kind {
        let handle = Handle(box: unsafeDowncast(box as AnyObject, to: StateBox<Handle.Value>.self))
        return unsafeBitCast(handle, to: Kind.self)
    }

    private static func storage<Handle: BoxedState, Kind>(of handle: Kind, _: Handle.Type) -> any StateStorage {
        unsafeBitCast(handle, to: Handle.self).box
    }
}
