import AppletState
import Terminal

/// A horizontal progress bar that fills the width it is offered (one row high).
///
/// The filled part is drawn with `█` and the partial blocks `▏▎▍▌▋▊▉`, so progress moves in
/// eighths of a cell; the rest is `░`, dimmed. Values outside `0...total` are clamped, and a
/// `total` of zero or less draws an empty bar. With `label: true` the percentage (rounded
/// down, so `100%` means done) is shown at the right.
///
/// ```swift
/// ProgressBar(value: 0.42, label: true)            // ████████▍░░░░░░░░░░  42%
/// ProgressBar(value: Double(done), total: Double(count))
///     .foregroundColor(.green)
/// ```
public struct ProgressBar: View {
    public typealias Body = Never
    let fraction: Double
    let showsLabel: Bool

    /// - Parameters:
    ///   - value: progress so far, clamped to `0...total`.
    ///   - total: the value of a full bar; `<= 0` (or not finite) draws an empty bar.
    ///   - label: shows the percentage (` 42%`) at the right end.
    public init(value: Double, total: Double = 1, label: Bool = false) {
        self.fraction = progressFraction(value, of: total)
        self.showsLabel = label
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(ProgressBarNode(fraction: fraction, showsLabel: showsLabel, style: context.style))
    }
}

/// `value / total` clamped to `0...1`; 0 for a non-positive or non-finite total and for NaN.
func progressFraction(_ value: Double, of total: Double) -> Double {
    guard total > 0, total.isFinite, !value.isNaN else { return 0 }
    return min(1, max(0, value / total))
}

/// The whole percentage of a fraction, rounded down (with a little slack for binary rounding,
/// so 0.29 is 29%, not 28%).
func progressPercent(_ fraction: Double) -> Int {
    Int((fraction * 100 + 1e-9).rounded(.down))
}

/// Left partial blocks by eighths: index `n - 1` fills `n` eighths of a cell.
let partialBlocks: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

/// Draws a bar of `width` cells at `origin`: full blocks, one partial block, then `empty`.
func drawBar(fraction: Double, width: Int, at origin: Point, filled: Style, empty: Character,
             emptyStyle: Style, in canvas: inout Canvas, clip: Rect) {
    guard width > 0 else { return }
    let eighths = min(width * 8, max(0, Int((fraction * Double(width) * 8 + 1e-9).rounded(.down))))
    let full = eighths / 8, rest = eighths % 8
    for i in 0..<width {
        let p = Point(x: origin.x + i, y: origin.y)
        if i < full {
            canvas.put("█", at: p, style: filled, clip: clip)
        } else if i == full && rest > 0 {
            canvas.put(partialBlocks[rest - 1], at: p, style: filled, clip: clip)
        } else {
            canvas.put(empty, at: p, style: emptyStyle, clip: clip)
        }
    }
}

final class ProgressBarNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let fraction: Double
    let label: String?
    let style: Style

    init(fraction: Double, showsLabel: Bool, style: Style) {
        self.fraction = fraction
        self.label = showsLabel ? " \(progressPercent(fraction))%" : nil
        self.style = style
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        // Flexible: takes the offered width; ideally 20 columns.
        let w = min(max(0, proposal.width ?? 20), unboundedLength)
        return Size(width: w, height: proposal.height == 0 ? 0 : 1)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        var barWidth = frame.width
        // The label needs at least one cell of bar beside it; narrower bars show the bar alone.
        if let label, frame.width > label.count {
            barWidth = frame.width - label.count
            canvas.write(label, at: Point(x: frame.minX + barWidth, y: frame.minY), style: style, clip: area)
        }
        var dim = style
        dim.attributes.insert(.dim)
        drawBar(fraction: fraction, width: barWidth, at: frame.origin, filled: style,
                empty: "░", emptyStyle: dim, in: &canvas, clip: area)
    }
}
