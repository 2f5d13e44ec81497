import Terminal

/// What an `.onKeyPress` handler did with a key.
public enum KeyPressResult: Sendable, Equatable {
    /// The key was used: it goes no further.
    case handled
    /// Not this handler's key: it goes on to handlers around it, the applet's commands, the host.
    case ignored
}

extension View {
    /// Handles one key, written as a key spec (`"d"`, `"ctrl-d"`, `"enter"`, `"f5"`; see `KeySpec`),
    /// while this view's pane has the keyboard and the focused widget (if it is inside this view)
    /// did not take the key. Handlers nearer the focused widget are asked first; a key no handler
    /// takes goes on to the applet's commands and then the host.
    ///
    /// ```swift
    /// List(notes, selection: $selected) { Text($0.title) }
    ///     .onKeyPress("ctrl-d") { notes.remove(at: selected); return .handled }
    /// ```
    ///
    /// An invalid key spec is a programming error and stops with a message naming it.
    public func onKeyPress(_ key: String, action: @escaping @MainActor () -> KeyPressResult) -> KeyPressView<Self> {
        guard let wanted = KeySpec.parse(key) else {
            preconditionFailure("onKeyPress: '\(key)' is not a key; use e.g. \"d\", \"ctrl-d\", \"enter\", \"f5\"")
        }
        return KeyPressView(content: self) { pressed in pressed == wanted ? action() : .ignored }
    }

    /// Sees every key the focused widget did not take (see `onKeyPress(_:action:)`).
    ///
    /// ```swift
    /// .onKeyPress { key in
    ///     guard case .char(let c) = key.code, c.isNumber else { return .ignored }
    ///     rating = c.wholeNumberValue ?? 0
    ///     return .handled
    /// }
    /// ```
    public func onKeyPress(action: @escaping @MainActor (KeyEvent) -> KeyPressResult) -> KeyPressView<Self> {
        KeyPressView(content: self, handler: action)
    }
}

/// A view with a key handler (see `View.onKeyPress`). It adds no node of its own, so it changes
/// no layout: the tree remembers which nodes the handler covers.
public struct KeyPressView<Content: View>: View {
    public typealias Body = Never
    let content: Content
    let handler: @MainActor (KeyEvent) -> KeyPressResult

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        let start = nodes.count
        content._makeNodes(context, into: &nodes)
        // Registered after the content, so handlers inside it come first.
        context.tree.addKeyHandler(handler, covering: Array(nodes[start...]))
    }
}
