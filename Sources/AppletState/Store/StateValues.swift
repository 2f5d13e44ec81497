import Synchronization
// What a test tool needs to see of a store: every state value it holds, and which box a handle
// names. Package-only (AppletTesting's `TestLogic` compares the store before and after an event).

/// One state value a store holds, read without registering an observer.
package struct StateValueSnapshot: Sendable {
    /// The registry key: "Feature.id" for `State`, "StoredState:Feature.id" for stored state…
    package let key: String
    /// The box's identity: what `StoreStateHandle.storageID` gives for a handle to it.
    package let id: ObjectIdentifier
    /// The value now.
    package let value: any Sendable
    /// The declared initial value (what a box made during a test step held before it).
    package let initial: any Sendable
}

/// A handle to state kept in a store's box (`State`, `StoredState`, `FileState`, `SecureState`,
/// `SyncState`), with the box's identity.
package protocol StoreStateHandle: MutableApplicationState {
    /// The identity of the box this handle reads and writes (`StateValueSnapshot.id`).
    var storageID: ObjectIdentifier { get }
}

extension Application {
    /// Every state value this store holds now (not dependencies, not its internal machinery),
    /// ordered by key.
    ///
    /// ```swift
    /// let before = Dictionary(uniqueKeysWithValues: store.stateValues().map { ($0.id, $0) })
    /// ```
    package func stateValues() -> [StateValueSnapshot] {
        let boxes = registry.withLock { entries in
            entries.compactMap { key, entry in (entry.storage as? any ValueSnapshotting).map { (key, $0) } }
        }
        return boxes.map { key, box in
            let (value, initial) = box.valueSnapshot
            return StateValueSnapshot(key: key, id: ObjectIdentifier(box), value: value, initial: initial)
        }.sorted { $0.key < $1.key }
    }
}

/// A box whose value can be read as `any Sendable`.
protocol ValueSnapshotting: AnyObject {
    var valueSnapshot: (value: any Sendable, initial: any Sendable) { get }
}

extension StateBox: ValueSnapshotting {
    var valueSnapshot: (value: any Sendable, initial: any Sendable) { (untrackedValue, initial) }
}

extension Application.State: StoreStateHandle {
    package var storageID: ObjectIdentifier { ObjectIdentifier(box) }
}

extension PersistentState: StoreStateHandle {
    package var storageID: ObjectIdentifier { ObjectIdentifier(box) }
}
