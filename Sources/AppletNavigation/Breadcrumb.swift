import AppletUI
import Terminal

/// The line above a pushed screen that says where you are (`Notes › Note 3 › Edit`): one
/// segment per level, the root first. A click on a segment goes back to that level; when the line
/// is too narrow the oldest levels collapse into `…`, the current one always shows.
///
/// Invariants: `segments(width:)` never overlap, stay within `width`, and keep the last title.
///
/// ```swift
/// let crumbs = Breadcrumb(["Notes", "Note 3", "Edit"])
/// crumbs.text(width: 80)                     // "Notes › Note 3 › Edit"
/// crumbs.level(at: 2, width: 80)             // 0: a click on "Notes" pops to the root
/// ```
public struct Breadcrumb: Hashable, Sendable {
    /// The titles, root first.
    public let titles: [String]
    static let separator = " › "

    public init(_ titles: [String]) {
        self.titles = titles
    }

    /// One shown segment: the level it goes back to (nil for `…`) and the columns it covers.
    public struct Segment: Hashable, Sendable {
        public let level: Int?
        public let text: String
        public let columns: Range<Int>
    }

    /// The segments as laid out in `width` columns.
    public func segments(width: Int) -> [Segment] {
        guard !titles.isEmpty, width > 0 else { return [] }
        var first = 0
        func total(from start: Int) -> Int {
            var parts = titles[start...].map(\.terminalWidth)
            if start > 0 { parts.insert(1, at: 0) }   // "…"
            return parts.reduce(0, +) + (parts.count - 1) * Self.separator.terminalWidth
        }
        while first < titles.count - 1 && total(from: first) > width { first += 1 }
        var result: [Segment] = []
        var x = 0
        func add(_ text: String, level: Int?) {
            let shown = text.truncated(toColumns: max(0, width - x), ellipsis: true)
            let w = shown.terminalWidth
            result.append(Segment(level: level, text: shown, columns: x..<(x + w)))
            x += w + Self.separator.terminalWidth
        }
        // The ellipsis only when it fits beside the current title, which always shows.
        if first > 0 && total(from: first) <= width { add("…", level: nil) }
        for level in first..<titles.count where x < width { add(titles[level], level: level) }
        return result
    }

    /// The line as text.
    public func text(width: Int) -> String {
        segments(width: width).map(\.text).joined(separator: Self.separator)
    }

    /// The level a click at column `x` goes back to; nil between segments or on `…`.
    public func level(at x: Int, width: Int) -> Int? {
        segments(width: width).first { $0.columns.contains(x) }?.level
    }
}

/// Draws a `Breadcrumb`: earlier levels muted, the current one bold.
public struct BreadcrumbView: View {
    let breadcrumb: Breadcrumb

    public init(_ breadcrumb: Breadcrumb) {
        self.breadcrumb = breadcrumb
    }

    public var body: some View {
        BreadcrumbLine(breadcrumb: breadcrumb)
    }
}

/// The breadcrumb's line, laid out for the width it is given.
struct BreadcrumbLine: View {
    let breadcrumb: Breadcrumb
    typealias Body = Never

    func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(BreadcrumbNode(breadcrumb: breadcrumb, theme: context.theme))
    }
}

private let unboundedWidth = 1 << 20

final class BreadcrumbNode: Node {
    let breadcrumb: Breadcrumb
    let theme: ResolvedTheme

    init(breadcrumb: Breadcrumb, theme: ResolvedTheme) {
        self.breadcrumb = breadcrumb
        self.theme = theme
        super.init()
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: proposal.width ?? breadcrumb.text(width: unboundedWidth).terminalWidth, height: 1)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let segments = breadcrumb.segments(width: frame.width)
        for (index, segment) in segments.enumerated() {
            let current = index == segments.count - 1
            var style = current ? theme[.title] : theme[.muted]
            if current { style.attributes.insert(.bold) }
            canvas.write(segment.text, at: Point(x: frame.x + segment.columns.lowerBound, y: frame.y), style: style, clip: clip)
            if !current {
                canvas.write(Breadcrumb.separator, at: Point(x: frame.x + segment.columns.upperBound, y: frame.y),
                             style: theme[.muted], clip: clip)
            }
        }
    }
}
