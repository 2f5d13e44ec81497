import AppletState
import Terminal

/// The first of several views whose ideal width fits the width offered (its ideal height, with
/// `in: .vertical`), as SwiftUI's `ViewThatFits`: a line that says less as the terminal narrows
/// instead of wrapping onto the rows below. When none fits, the last is shown, cut as it cuts
/// itself, so make the last one that can be cut well (a `lineLimit(1)` text, a fixed part beside
/// a part that truncates).
///
/// ```swift
/// ViewThatFits {
///     HStack { Text("312 processes · sorted by CPU ▼").bold(); Spacer(minLength: 1); Text("refreshed 14:05:09") }
///     Text("312 processes · sorted by CPU ▼").bold()
///     Text("312 · CPU ▼").lineLimit(1).bold()
/// }
/// ```
///
/// Only the view shown is laid out, drawn and reached by focus and clicks. Every choice is made
/// into nodes each frame, so the choices are best kept to views without state of their own
/// (text, labels, a row of them).
public struct ViewThatFits<Content: View>: View {
    public typealias Body = Never
    let axis: Axis
    let content: Content

    /// - Parameters:
    ///   - axis: the direction the choices must fit in.
    ///   - content: the choices, the one preferred first.
    public init(in axis: Axis = .horizontal, @ViewBuilder content: () -> Content) {
        self.axis = axis
        self.content = content()
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var choices: [Node] = []
        content._makeNodes(context, into: &choices)
        guard !choices.isEmpty else { return }
        nodes.append(ViewThatFitsNode(axis: axis, choices: choices))
    }
}

final class ViewThatFitsNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let axis: Axis
    let choices: [Node]
    /// The choice placed last (the first until then).
    private var chosen = 0

    init(axis: Axis, choices: [Node]) {
        self.axis = axis
        self.choices = choices
    }

    override var children: [Node] { [choices[chosen]] }

    /// The first choice whose ideal length fits `proposal`, else the last.
    private func choice(for proposal: ProposedSize) -> Int {
        guard let available = proposal.along(axis) else { return 0 }
        for (index, choice) in choices.enumerated() {
            let ideal = choice.measure(.make(axis, main: nil, cross: proposal.across(axis)))
            if ideal.along(axis) <= available { return index }
        }
        return choices.count - 1
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        choices[choice(for: proposal)].measure(proposal)
    }

    override func place(in rect: Rect) {
        frame = rect
        chosen = choice(for: ProposedSize(rect.size))
        for (index, choice) in choices.enumerated() where index != chosen {
            choice.place(in: Rect(origin: rect.origin, size: .zero))
        }
        choices[chosen].place(in: rect)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        choices[chosen].draw(in: &canvas, clip: clip.intersection(frame))
    }
}
