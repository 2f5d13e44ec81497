import AppletState
import Terminal

/// What a `Button` sends when it is activated (a key or a click), after its action has run.
///
/// ```swift
/// Button("Save") { save() }
///     .onEvent { (event: ButtonEvent) in if event == .pressed { log("saved") } }
/// ```
public enum ButtonEvent: Sendable, Equatable {
    case pressed
}

/// A button: `[ Title ]`. `Enter` or `Space` activates it when it has focus, as does a click:
/// its action runs, then it sends `ButtonEvent.pressed`.
///
/// ```swift
/// Button("Increment") { counter.value += 1 }
/// ```
public struct Button: View {
    public typealias Body = Never
    let title: String
    let action: @MainActor () -> Void

    public init(_ title: String, action: @escaping @MainActor () -> Void) {
        self.title = title
        self.action = action
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(ButtonNode(id: context.id, label: "[ \(title) ]", style: context.style,
                                emit: context.emitter(ButtonEvent.self), action: action))
    }
}

final class ButtonNode: Node, FocusableNode {
    override var focusable: (any FocusableNode)? { self }
    let focusID: ViewID
    let label: String
    let style: Style
    let action: @MainActor () -> Void
    let emit: EventEmitter<ButtonEvent>
    var isFocused = false
    private let width: Int

    init(id: ViewID, label: String, style: Style, emit: EventEmitter<ButtonEvent>, action: @escaping @MainActor () -> Void) {
        self.focusID = id
        self.label = label
        self.style = style
        self.emit = emit
        self.action = action
        self.width = label.terminalWidth
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: min(width, proposal.width ?? width), height: proposal.height == 0 ? 0 : 1)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        var s = style
        if isFocused { s.attributes.formUnion([.reverse, .bold]) }
        let shown = width <= frame.width ? label : label.truncated(toColumns: frame.width, ellipsis: true)
        canvas.write(shown, at: frame.origin, style: s, clip: clip.intersection(frame))
    }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard key.modifiers.isEmpty else { return false }
        switch key.code {
        case .enter, .char(" "):
            press()
            return true
        default:
            return false
        }
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        if case .press(.left) = mouse.kind { press(); return true }
        return false
    }

    private func press() {
        action()
        emit(.pressed)
    }
}
