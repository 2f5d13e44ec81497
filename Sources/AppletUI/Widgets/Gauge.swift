import AppletState
import Terminal

/// A labelled meter on one line: `CPU [████████▍···········] 42`.
///
/// The bar shows where `value` sits in `range` (clamped to it; `█` and eighth blocks for the
/// filled part, a dimmed `·` for the rest); the number after it is the value itself, unclamped,
/// as a whole number or with one decimal. The gauge takes the width it is offered (ideally the
/// label plus 20 columns). When there is no room for a bar it shows just `label value`.
///
/// ```swift
/// Gauge(value: cpu, in: 0...100, label: "CPU")
/// Gauge(value: temperature, in: 20...90, label: "Temp").foregroundColor(.yellow)
/// ```
public struct Gauge: View {
    public typealias Body = Never
    let fraction: Double
    let valueText: String
    let label: String

    public init(value: Double, in range: ClosedRange<Double> = 0...1, label: String) {
        self.fraction = progressFraction(value - range.lowerBound, of: range.upperBound - range.lowerBound)
        self.valueText = gaugeValueText(value)
        self.label = label
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(GaugeNode(fraction: fraction, label: label, valueText: valueText, style: context.style))
    }
}

/// `42` for whole numbers, `42.5` otherwise (one decimal, rounded).
func gaugeValueText(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "-" : (value > 0 ? "∞" : "-∞") }
    let tenths = (value * 10).rounded()
    guard abs(tenths) < 1e17 else { return "\(value)" }
    let t = Int(tenths)
    if t % 10 == 0 { return "\(t / 10)" }
    let sign = t < 0 ? "-" : ""
    return "\(sign)\(abs(t) / 10).\(abs(t) % 10)"
}

final class GaugeNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let fraction: Double
    let label: String
    let valueText: String
    let style: Style
    private let labelWidth: Int
    private let valueWidth: Int

    init(fraction: Double, label: String, valueText: String, style: Style) {
        self.fraction = fraction
        self.label = label
        self.valueText = valueText
        self.style = style
        self.labelWidth = label.terminalWidth
        self.valueWidth = valueText.terminalWidth
    }

    /// Columns around the bar: `label ` (if any), `[`, `] `, the value.
    private var fixedWidth: Int { (labelWidth > 0 ? labelWidth + 1 : 0) + 3 + valueWidth }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let w = min(max(0, proposal.width ?? labelWidth + 20), unboundedLength)
        return Size(width: w, height: proposal.height == 0 ? 0 : 1)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        let barWidth = frame.width - fixedWidth
        guard barWidth >= 1 else {
            let short = labelWidth > 0 ? "\(label) \(valueText)" : valueText
            let shown = short.terminalWidth <= frame.width ? short : short.truncated(toColumns: frame.width, ellipsis: true)
            canvas.write(shown, at: frame.origin, style: style, clip: area)
            return
        }
        var x = frame.minX
        if labelWidth > 0 {
            canvas.write(label, at: Point(x: x, y: frame.minY), style: style, clip: area)
            x += labelWidth + 1
        }
        canvas.write("[", at: Point(x: x, y: frame.minY), style: style, clip: area)
        var dim = style
        dim.attributes.insert(.dim)
        drawBar(fraction: fraction, width: barWidth, at: Point(x: x + 1, y: frame.minY), filled: style,
                empty: "·", emptyStyle: dim, in: &canvas, clip: area)
        canvas.write("] " + valueText, at: Point(x: x + 1 + barWidth, y: frame.minY), style: style, clip: area)
    }
}
