import AppletState
import Terminal

/// Cells in rows and columns whose columns line up across rows: each column is as wide as its
/// widest cell and each row as tall as its tallest. When the width offered is short, the
/// columns shrink in proportion to their widths (text in them wraps or is cut with `…`).
///
/// There are two ways to fill a grid, and they mix:
/// - `Grid(columns: n)`: the cells flow in row by row, `n` to a row.
/// - `GridRow { … }` children: each is one row, its views the cells. In a grid without
///   `columns`, any other view between rows spans the whole width (a `Divider`, a heading).
///
/// Cells sit at `alignment` in their cell (top leading unless told); to right-align one
/// column, give its cells `.frame(maxWidth: .max, alignment: .trailing)`. Focus goes through
/// the cells row by row.
///
/// A hidden `GridRow` (`.widget(_:in:)` in the `hidden` state) takes no rows, but its cells
/// still count for the columns' widths (as wide as when it was last shown), so hiding a row never
/// moves the rows that stay.
///
/// ```swift
/// // A key/value table: the values line up, however long the keys are.
/// Grid(columns: 2) {
///     Text("Name:");   Text(user.name)
///     Text("E-mail:"); Text(user.email)
///     Text("Role:");   Text(user.role)
/// }
///
/// Grid(spacing: 2) {
///     GridRow { Text("Host").themed(.header); Text("Load").themed(.header) }
///     Divider()
///     ForEach(hosts, id: \.name) { host in
///         GridRow { Text(host.name); Text("\(host.load)").frame(maxWidth: .max, alignment: .trailing) }
///     }
/// }
/// ```
public struct Grid<Content: View>: View {
    public typealias Body = Never
    let columns: Int?
    let alignment: Alignment
    let spacing: Int
    let rowSpacing: Int
    let content: Content

    /// - Parameters:
    ///   - columns: cells per row for cells that are not in a `GridRow` (`nil`: views outside
    ///     a `GridRow` span the whole row).
    ///   - alignment: where a cell sits inside its column width and row height.
    ///   - spacing: empty columns between columns.
    ///   - rowSpacing: empty rows between rows.
    public init(columns: Int? = nil, alignment: Alignment = .topLeading, spacing: Int = 1, rowSpacing: Int = 0,
                @ViewBuilder content: () -> Content) {
        self.columns = columns.map { max(1, $0) }
        self.alignment = alignment
        self.spacing = max(0, spacing)
        self.rowSpacing = max(0, rowSpacing)
        self.content = content()
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var inner = context
        inner.axis = .vertical     // rows stack downwards: a Divider between rows is a horizontal line
        inner.isGridRow = true     // a hidden row leaves its columns' widths
        var children: [Node] = []
        content._makeNodes(inner, into: &children)
        var rows: [GridNode.Row] = []
        var pending: [Node] = []
        for child in children {
            if let hidden = child as? HiddenGridRowNode {
                if !pending.isEmpty { rows.append(.cells(pending)); pending = [] }
                rows.append(.hidden(hidden.columnWidths))
            } else if let row = child as? GridRowNode {
                if !pending.isEmpty { rows.append(.cells(pending)); pending = [] }
                rows.append(.cells(row.cells))
            } else if let disabled = child as? DisabledNode, let row = disabled.child as? GridRowNode {
                // A disabled (or transitioning) row keeps its columns: each cell is disabled.
                if !pending.isEmpty { rows.append(.cells(pending)); pending = [] }
                rows.append(.cells(row.cells.map { DisabledNode(child: $0, style: disabled.style) }))
            } else if let columns {
                pending.append(child)
                if pending.count == columns { rows.append(.cells(pending)); pending = [] }
            } else {
                rows.append(.span(child))
            }
        }
        if !pending.isEmpty { rows.append(.cells(pending)) }
        nodes.append(GridNode(rows: rows, columns: columns ?? 0, alignment: alignment, spacing: spacing, rowSpacing: rowSpacing))
    }
}

/// One row of a `Grid`: each view inside is one cell. Outside a grid it lays its cells out
/// like an `HStack` with one column between them.
///
/// ```swift
/// Grid {
///     GridRow { Text("CPU"); ProgressBar(value: cpu) }
///     GridRow { Text("Memory"); ProgressBar(value: memory) }
/// }
/// ```
public struct GridRow<Content: View>: View {
    public typealias Body = Never
    let content: Content

    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var inner = context
        inner.axis = .horizontal
        var cells: [Node] = []
        content._makeNodes(inner, into: &cells)
        nodes.append(GridRowNode(cells: cells))
    }
}

/// A `GridRow`'s cells. A grid takes the cells out; anywhere else this is an `HStack`.
final class GridRowNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let cells: [Node]
    private let stack: StackNode

    init(cells: [Node]) {
        self.cells = cells
        self.stack = StackNode(axis: .horizontal, spacing: 1, alignment: .start, children: cells)
    }

    override var children: [Node] { [stack] }
    override func sizeThatFits(_ proposal: ProposedSize) -> Size { stack.measure(proposal) }
    override func place(in rect: Rect) { frame = rect; stack.place(in: rect) }
    override func draw(in canvas: inout Canvas, clip: Rect) { stack.draw(in: &canvas, clip: clip.intersection(frame)) }
}

final class GridNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    enum Row {
        case cells([Node])
        /// A view outside any `GridRow` in a grid without `columns`: as wide as the grid.
        case span(Node)
        /// A hidden row: no height and nothing drawn, but its cells' widths count for the columns.
        case hidden([Int])
    }

    let rows: [Row]
    let columnCount: Int
    let alignment: Alignment
    let spacing: Int
    let rowSpacing: Int
    private let allCells: [Node]
    /// The columns' ideal widths (widest cell in each), worked out once.
    private lazy var idealWidths: [Int] = {
        var widths = Array(repeating: 0, count: columnCount)
        for row in rows {
            switch row {
            case .cells(let cells):
                for (i, cell) in cells.enumerated() { widths[i] = max(widths[i], min(cell.measure(.ideal).width, unboundedLength)) }
            case .hidden(let hidden):
                for (i, width) in hidden.enumerated() { widths[i] = max(widths[i], width) }
            case .span:
                break
            }
        }
        return widths
    }()
    /// The rows that take space (all but hidden ones).
    private lazy var shownRowCount = rows.reduce(0) { count, row in
        if case .hidden = row { return count } else { return count + 1 }
    }

    init(rows: [Row], columns: Int, alignment: Alignment, spacing: Int, rowSpacing: Int) {
        self.rows = rows
        var count = columns
        var all: [Node] = []
        for row in rows {
            switch row {
            case .cells(let cells): count = max(count, cells.count); all.append(contentsOf: cells)
            case .span(let node): all.append(node)
            case .hidden(let widths): count = max(count, widths.count)
            }
        }
        self.columnCount = count
        self.allCells = all
        self.alignment = alignment
        self.spacing = spacing
        self.rowSpacing = rowSpacing
    }

    override var children: [Node] { allCells }

    private var totalSpacing: Int { columnCount > 1 ? spacing * (columnCount - 1) : 0 }

    /// Column widths for an offered width: ideal widths, shrunk in proportion when they do not fit.
    private func columnWidths(for available: Int?) -> [Int] {
        let ideal = idealWidths
        let sum = ideal.reduce(0, +)
        guard let available, sum + totalSpacing > available else { return ideal }
        let room = max(0, available - totalSpacing)
        guard sum > 0 else { return ideal.map { _ in 0 } }
        var widths = ideal.map { $0 * room / sum }
        // Hand the cells lost to rounding down to the first columns that were cut.
        var left = room - widths.reduce(0, +)
        for i in widths.indices where left > 0 && widths[i] < ideal[i] {
            widths[i] += 1
            left -= 1
        }
        return widths
    }

    /// The grid's width for column widths, or wider for a span row's ideal width.
    private func gridWidth(_ widths: [Int], available: Int?) -> Int {
        var w = widths.reduce(0, +) + totalSpacing
        for case .span(let node) in rows { w = max(w, min(node.measure(.ideal).width, unboundedLength)) }
        if let available { w = min(w, max(0, available)) }
        return w
    }

    /// Each row's height for column widths.
    private func rowHeights(_ widths: [Int], gridWidth: Int) -> [Int] {
        rows.map { row in
            switch row {
            case .cells(let cells):
                var h = 0
                for (i, cell) in cells.enumerated() {
                    h = max(h, cell.measure(ProposedSize(width: widths[i], height: nil)).height)
                }
                return min(h, unboundedLength)
            case .span(let node):
                return min(node.measure(ProposedSize(width: gridWidth, height: nil)).height, unboundedLength)
            case .hidden:
                return 0
            }
        }
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        guard !rows.isEmpty else { return .zero }
        let widths = columnWidths(for: proposal.width)
        let width = gridWidth(widths, available: proposal.width)
        let heights = rowHeights(widths, gridWidth: width)
        var height = heights.reduce(0, +) + rowSpacing * max(0, shownRowCount - 1)
        if let h = proposal.height { height = min(height, max(0, h)) }
        return Size(width: width, height: height)
    }

    override func place(in rect: Rect) {
        frame = rect
        let widths = columnWidths(for: rect.width)
        let width = gridWidth(widths, available: rect.width)
        let heights = rowHeights(widths, gridWidth: width)
        var y = rect.y
        for (r, row) in rows.enumerated() {
            let h = heights[r]
            switch row {
            case .cells(let cells):
                var x = rect.x
                for (i, cell) in cells.enumerated() {
                    let box = Rect(x: x, y: y, width: widths[i], height: h)
                    cell.place(in: alignment.place(cell.measure(ProposedSize(box.size)), in: box))
                    x += widths[i] + spacing
                }
            case .span(let node):
                let box = Rect(x: rect.x, y: y, width: width, height: h)
                node.place(in: alignment.place(node.measure(ProposedSize(box.size)), in: box))
            case .hidden:
                continue        // no row, and no spacing after it
            }
            y += h + rowSpacing
        }
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        for cell in allCells where !cell.frame.intersection(area).isEmpty {
            cell.draw(in: &canvas, clip: area)
        }
    }
}

/// What a hidden `GridRow` leaves in its grid: no cells, only the widths they had when last
/// shown, so the columns keep their widths (see `Grid`). Nothing outside a grid sees one.
final class HiddenGridRowNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let columnWidths: [Int]
    init(columnWidths: [Int]) { self.columnWidths = columnWidths }
}
