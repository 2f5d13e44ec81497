import Synchronization
@testable import AppletUI

/// Resolves `view` into its node outside a render, as its parent would, and hands the node to
/// `body` while `tree` is alive: nodes and contexts refer to their tree without keeping it.
@MainActor
func withNode<V: View, R>(_ view: V, tree: ViewTree = ViewTree(), _ body: (Node) throws -> R) rethrows -> R {
    try withExtendedLifetime(tree) { try body(view.makeSingleNode(ResolveContext(tree: tree))) }
}

/// A value held outside a widget, as the store would hold it in an app: tests bind widgets to it
/// and read back what the widget wrote.
final class Ref<Value: Sendable>: Sendable {
    let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
    func set(_ value: Value) { self.value = value }
    var current: Value { value }
    var binding: Binding<Value> { Binding(get: { self.storage.withLock { $0 } }, set: { v in self.storage.withLock { $0 = v } }) }
}

extension Ref where Value == String {
    convenience init() { self.init("") }
    var text: String {
        get { value }
        set { value = newValue }
    }
}

extension Ref where Value == Set<Int> {
    convenience init() { self.init([]) }
    var rows: Set<Int> { value }
}
