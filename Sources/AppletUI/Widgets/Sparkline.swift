import AppletState
import Terminal

/// A one-row chart of a series: one of `▁▂▃▄▅▆▇█` per value.
///
/// When the series is longer than the width, the last values (the most recent) are shown.
/// Bars are scaled from the smallest to the largest value shown; when they are all equal
/// every bar is `▄`. No values draws nothing; NaN and infinite values are drawn blank. Ideally
/// as wide as the series, never wider.
///
/// ```swift
/// Sparkline(cpuHistory).foregroundColor(.cyan)    // ▁▂▄▃▅▇█▆
/// ```
public struct Sparkline: View {
    public typealias Body = Never
    let values: [Double]

    public init(_ values: [Double]) { self.values = values }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(SparklineNode(values: values, style: context.style))
    }
}

final class SparklineNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    static let bars: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    let values: [Double]
    let style: Style

    init(values: [Double], style: Style) {
        self.values = values
        self.style = style
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let w = min(values.count, max(0, proposal.width ?? values.count))
        return Size(width: w, height: proposal.height == 0 || values.isEmpty ? 0 : 1)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty, !values.isEmpty else { return }
        let shown = values.suffix(frame.width)
        let finite = shown.filter(\.isFinite)
        guard let low = finite.min(), let high = finite.max() else { return }
        let span = high - low
        for (i, v) in shown.enumerated() where v.isFinite {
            let level = span > 0 && span.isFinite ? Int(((v - low) / span * 7).rounded()) : 3
            canvas.put(Self.bars[min(7, max(0, level))], at: Point(x: frame.minX + i, y: frame.minY),
                       style: style, clip: area)
        }
    }
}
