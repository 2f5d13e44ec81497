import AppletNavigation
import AppletUI
import Terminal

/// One layer of the host's screen. The host is a stack of them, bottom to top: the panes, the top
/// line, sheets, the status bar, the footer, toasts, presented layers, the confirmation, and the
/// overlays (palette, help, action log). They share one contract:
///
/// - **Input goes top down** to the first layer that takes it. A *modal* layer that is up takes
///   every key, click and paste (what it does not use goes no further); a layer that is not modal
///   takes what it uses and passes the rest down.
/// - **Commands** are what a layer offers: the router runs them, and the footer, `?` help and the
///   `Ctrl-P` palette list them. While a modal layer is up, only its commands and the keys that
///   work from anywhere reach anything, so the footer shows exactly those.
/// - **Drawing goes bottom up**, into the frame's one canvas, with the host's theme resolved for the
///   terminal's colour depth (`LayerContext.theme`).
///
/// A layer holds what it shows and what it needs to handle input (a filter, a scroll position);
/// it reads the store for the rest. The host asks it, in a frame, for `coverage` (what it covers:
/// when that changes, the panes underneath are drawn again) and then to `draw`.
///
/// ```swift
/// final class ClockLayer: HostLayer {
///     private let tree = ViewTree()
///     var isPresented: Bool { true }
///     func draw(on canvas: inout Canvas, in context: LayerContext) {
///         tree.theme = context.theme
///         tree.render(Text("12:00").themed(.muted), in: Rect(x: context.size.width - 6, y: 0, width: 5, height: 1), on: &canvas)
///     }
/// }
/// ```
@MainActor
public protocol HostLayer: AnyObject {
    /// Whether it is on screen now (a toast layer with no toasts is not).
    var isPresented: Bool { get }
    /// Whether, while presented, it has the keyboard, the mouse and pastes (nothing below gets them).
    var isModal: Bool { get }
    /// The keys it offers while it is the top modal layer (the registry takes no other layer's):
    /// run by the router for a key `handleKey` did not take, and the only ones the footer, help
    /// and palette list while it is up.
    func commands() -> [Command]
    /// A key, before the layer's commands see it (typing into a filter, a key for a focused
    /// widget): what took it, for the routing trace, or nil to pass it on: a modal layer's to its
    /// commands (it keeps what they do not take), another's to what is under it.
    func handleKey(_ key: KeyEvent) -> String?
    /// A click, drag or wheel on the screen: true if it changed something.
    func handleMouse(_ mouse: MouseEvent, in context: LayerContext) -> Bool
    /// Pasted text: true if taken.
    func handlePaste(_ text: String) -> Bool
    /// What it covers on screen, and anything else whose change must clear what is under it.
    func coverage(in context: LayerContext) -> [Rect]
    /// Draws it over what the layers below drew.
    func draw(on canvas: inout Canvas, in context: LayerContext)
}

extension HostLayer {
    public var isModal: Bool { false }
    public func commands() -> [Command] { [] }
    public func handleKey(_ key: KeyEvent) -> String? { nil }
    public func handleMouse(_ mouse: MouseEvent, in context: LayerContext) -> Bool { false }
    public func handlePaste(_ text: String) -> Bool { false }
    public func coverage(in context: LayerContext) -> [Rect] { [] }
}

/// What a layer draws and lays itself out with: the screen, where the panes are, the rows the
/// shell and the bottom lines take, and the theme for this terminal.
public struct LayerContext {
    /// The whole screen.
    public let size: Size
    /// The rows between the top line and the bottom lines (where the panes go).
    public let content: Rect
    /// Each pane of the selected tab.
    public let panes: [Rect]
    /// The footer's row.
    public let footerRow: Int
    /// The host's theme, resolved for the terminal's colours.
    public let theme: ResolvedTheme
    /// Whether widget transitions animate.
    public let animations: Bool

    /// Where an overlay box goes: centred in the content rows, at most `wanted`, never over the
    /// top line or the footer. Nil when there is no room for a box at all.
    public func overlayBox(wanted: Size) -> Rect? {
        let width = min(size.width - 2, wanted.width)
        let height = min(content.height, wanted.height)
        guard width > 4, height > 2 else { return nil }
        return Rect(x: (size.width - width) / 2, y: content.y + (content.height - height) / 2, width: width, height: height)
    }

    /// Greys out what a modal covers: every cell in `rect` takes the muted role's colours and
    /// attributes, so the backdrop reads as set aside yet stays legible at every depth (dimming
    /// the cells' own colours would take some below 3:1, and xterm does not dim default text).
    public func dimBackdrop(_ rect: Rect, on canvas: inout Canvas) {
        let muted = theme[.muted]
        canvas.restyle(rect) { $0 = muted }
    }
}
