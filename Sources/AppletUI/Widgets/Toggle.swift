import AppletState
import Terminal

/// What a `Toggle` or a `Checkbox` sends when the user flips it (a key or a click), with the new
/// value. Both widgets send this same type.
///
/// ```swift
/// Toggle("Wrap lines", isOn: $wrap)
///     .onEvent { (event: ToggleEvent) in
///         if case .changed(let on) = event { log("wrap \(on)") }
///     }
/// ```
public enum ToggleEvent: Sendable, Equatable {
    case changed(Bool)
}

/// An on/off switch with a title: `◯━━ Wrap` when off, `━━◉ Wrap` when on. The knob's side and
/// its glyph (hollow `◯`, filled `◉`) tell the state apart without colour; with colour the
/// switch is also drawn in the theme's accent when on and muted when off.
///
/// With focus, `Space` or `Enter` flips it, as does a click anywhere on it. The focused switch
/// is drawn in the theme's focus style. Sends `ToggleEvent.changed(_:)` after updating `isOn`.
///
/// ```swift
/// @AppState(\.wrapLines) var wrap
/// Toggle("Wrap lines", isOn: $wrap)
/// ```
public struct Toggle: View {
    public typealias Body = Never
    let title: String
    let isOn: Binding<Bool>

    public init(_ title: String, isOn: Binding<Bool>) {
        self.title = title
        self.isOn = isOn
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(ToggleNode(kind: .switch, title: title, isOn: isOn, context: context))
    }
}

/// A checkbox with a title: `[x] Title` when checked, `[ ] Title` when not.
///
/// With focus, `Space` or `Enter` checks or unchecks it, as does a click anywhere on it. The
/// focused box is drawn in the theme's focus style. Sends `ToggleEvent.changed(_:)` (the same
/// event type as `Toggle`) after updating `isOn`.
///
/// ```swift
/// Checkbox("Show hidden files", isOn: $showHidden)
/// ```
public struct Checkbox: View {
    public typealias Body = Never
    let title: String
    let isOn: Binding<Bool>

    public init(_ title: String, isOn: Binding<Bool>) {
        self.title = title
        self.isOn = isOn
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(ToggleNode(kind: .checkbox, title: title, isOn: isOn, context: context))
    }
}

/// The node behind `Toggle` and `Checkbox`: a marker, a space, then the title.
final class ToggleNode: Node, FocusableNode {
    override var focusable: (any FocusableNode)? { self }
    enum Kind { case `switch`, checkbox }

    let focusID: ViewID
    let kind: Kind
    let title: String
    let isOn: Binding<Bool>
    let style: Style
    let onStyle: Style
    let offStyle: Style
    let focusStyle: Style
    let emit: EventEmitter<ToggleEvent>
    var isFocused = false
    private let titleWidth: Int

    /// Every marker is three columns wide, so the title does not move when the state changes.
    static let markerWidth = 3

    init(kind: Kind, title: String, isOn: Binding<Bool>, context: ResolveContext) {
        self.focusID = context.id
        self.kind = kind
        self.title = title
        self.isOn = isOn
        self.style = context.style
        self.onStyle = kind == .switch ? context.style(.accent) : context.style
        self.offStyle = kind == .switch ? context.style(.muted) : context.style
        self.focusStyle = context.style(.focus)
        self.emit = context.emitter(ToggleEvent.self)
        self.titleWidth = title.terminalWidth
    }

    static func marker(_ kind: Kind, on: Bool) -> String {
        switch kind {
        case .switch: on ? "━━◉" : "◯━━"
        case .checkbox: on ? "[x]" : "[ ]"
        }
    }

    private var idealWidth: Int { Self.markerWidth + (title.isEmpty ? 0 : 1 + titleWidth) }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: min(idealWidth, max(0, proposal.width ?? idealWidth)), height: proposal.height == 0 ? 0 : 1)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        let on = isOn.wrappedValue
        let markerStyle = isFocused ? focusStyle : (on ? onStyle : offStyle)
        canvas.write(Self.marker(kind, on: on), at: frame.origin, style: markerStyle, clip: area)
        let room = frame.width - Self.markerWidth - 1
        guard !title.isEmpty, room > 0 else { return }
        let shown = titleWidth <= room ? title : title.truncated(toColumns: room, ellipsis: true)
        canvas.write(shown, at: Point(x: frame.x + Self.markerWidth + 1, y: frame.y), style: style, clip: area)
    }

    private func flip() {
        let new = !isOn.wrappedValue
        isOn.wrappedValue = new
        emit(.changed(new))
    }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard key.modifiers.isEmpty else { return false }
        switch key.code {
        case .enter, .char(" "):
            flip()
            return true
        default:
            return false
        }
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        guard case .press(.left) = mouse.kind else { return false }
        flip()
        return true
    }
}
