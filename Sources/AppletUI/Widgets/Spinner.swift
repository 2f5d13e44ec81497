import AppletState
import Terminal

/// The animation a `Spinner` cycles through.
public enum SpinnerStyle: Sendable, CaseIterable {
    /// Braille dots: `⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏`.
    case dots
    /// A turning line: `|/-\`.
    case line

    /// The frames, in order.
    public var frames: [Character] {
        switch self {
        case .dots: ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        case .line: ["|", "/", "-", "\\"]
        }
    }
}

/// A one-cell busy indicator, with an optional title after it: `⠹ Loading`.
///
/// The spinner does not animate itself: the caller supplies the frame index (from a state a
/// timer increments, or a clock), and any integer works, negative ones included.
///
/// ```swift
/// Spinner(frame: ticks, style: .dots, title: "Loading")
/// Spinner(frame: ticks, style: .line).foregroundColor(.yellow)
/// ```
public struct Spinner: View {
    public typealias Body = Never
    let glyph: Character
    let title: String?

    public init(frame: Int, style: SpinnerStyle = .dots, title: String? = nil) {
        let frames = style.frames
        self.glyph = frames[((frame % frames.count) + frames.count) % frames.count]
        self.title = title.flatMap { $0.isEmpty ? nil : $0 }
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(SpinnerNode(glyph: glyph, title: title, style: context.style))
    }
}

final class SpinnerNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let glyph: Character
    let title: String?
    let style: Style
    private let width: Int

    init(glyph: Character, title: String?, style: Style) {
        self.glyph = glyph
        self.title = title
        self.style = style
        self.width = 1 + (title.map { 1 + $0.terminalWidth } ?? 0)
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: min(width, max(0, proposal.width ?? width)), height: proposal.height == 0 ? 0 : 1)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        canvas.put(glyph, at: frame.origin, style: style, clip: area)
        guard let title, frame.width > 2 else { return }
        let room = frame.width - 2
        let shown = title.terminalWidth <= room ? title : title.truncated(toColumns: room, ellipsis: true)
        canvas.write(shown, at: Point(x: frame.minX + 2, y: frame.minY), style: style, clip: area)
    }
}
