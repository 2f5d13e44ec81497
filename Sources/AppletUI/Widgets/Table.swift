import AppletState
import Terminal

/// How wide a table column is.
public enum TableColumnWidth: Sendable, Equatable {
    /// Exactly this many columns (fewer when the table is too narrow for it).
    case fixed(Int)
    /// A share of the width left after the fixed columns and the separators, by weight:
    /// `.flexible(2)` gets twice what `.flexible(1)` gets.
    case flexible(Int)
}

/// Where a cell's text sits in its column.
public enum TableColumnAlignment: Sendable, Equatable {
    case leading, trailing
}

/// A column of a `Table`: its header title, width and alignment.
///
/// ```swift
/// TableColumn("Name")                                          // shares the free width
/// TableColumn("Size", width: .fixed(8), alignment: .trailing)  // numbers on the right
/// ```
public struct TableColumn: Sendable, Equatable {
    public var title: String
    public var width: TableColumnWidth
    public var alignment: TableColumnAlignment

    public init(_ title: String, width: TableColumnWidth = .flexible(1), alignment: TableColumnAlignment = .leading) {
        self.title = title
        self.width = width
        self.alignment = alignment
    }
}

/// Which column a table is sorted by, and in which direction. `column == nil` is the data's own
/// order (reversed when `ascending` is false).
///
/// ```swift
/// @AppState(\.processSort) var sort      // TableSort(column: 2, ascending: false)
/// ```
public struct TableSort: Sendable, Hashable {
    public var column: Int?
    public var ascending: Bool

    public init(column: Int? = nil, ascending: Bool = true) {
        self.column = column
        self.ascending = ascending
    }

    /// The data's own order.
    public static let none = TableSort()
}

/// What a `Table` reports: the selection moved, a row was activated (`Enter`), or the sort changed.
/// Row numbers are the table's `selection` values (see `Table`).
public enum TableEvent: Sendable, Equatable {
    case selected(Int)
    case activated(Int)
    case sorted(TableSort)
}

/// A table with a header row, a selected row and a sort column. Only the rows on screen are
/// asked for, so a table of a million rows costs what a screenful costs.
///
/// There are two forms:
///
/// - **Provider** (`count:cell:`): for large or live data. The table asks `cell(row, column)` for
///   the visible rows only; the data owner sorts, reading the `sort` binding (the table only
///   changes the binding when the user asks for another order). `selection` and the events count
///   rows as shown.
/// - **Rows** (`_ rows:value:`): for small arrays. The table sorts by the text of the sort column
///   (numbers as numbers when both values parse as numbers, otherwise a case-insensitive
///   "natural" order in which `file2` comes before `file10`; ties keep the array's order).
///   `selection` and the events are indexes into `rows`, so `rows[selection]` is the selected row
///   whatever the order, and re-sorting keeps the same row selected.
///
/// The header shows `▲`/`▼` on the sorted column. Columns are separated by one space; text that
/// does not fit is cut with `…`. The selected row is drawn in the theme's selection style across
/// the full width (dimmed without focus), and the rows scroll to keep it visible. An empty table
/// with focus shows an empty selected row under the header.
///
/// With focus: `↑`/`↓` or `k`/`j` move the selection, `PgUp`/`PgDn` a page, `Home`/`End` (or
/// `g`/`G`) to the ends; `<`/`>` sort by the column to the left/right, `r` reverses the order,
/// `Enter` sends `.activated(row)`. A click on a header sorts by that column (on the sorted one,
/// reverses it); a click on a row selects it; the wheel moves the selection by three rows.
///
/// ```swift
/// // Provider: a million rows, sorted by the data owner.
/// Table(columns: [TableColumn("PID", width: .fixed(7), alignment: .trailing), TableColumn("Command")],
///       count: processes.count, selection: $row, sort: $sort) { row, column in
///     column == 0 ? "\(processes[row].pid)" : processes[row].command
/// }
///
/// // Rows: a small array, sorted by the table.
/// Table(files, columns: [TableColumn("Name"), TableColumn("Size", width: .fixed(6), alignment: .trailing)],
///       selection: $selected, sort: $sort) { file, column in
///     column == 0 ? file.name : "\(file.size)"
/// }
/// .onEvent { (event: TableEvent) in
///     if case .activated(let index) = event { open(files[index]) }
/// }
/// ```
public struct Table: View {
    public typealias Body = Never
    let columns: [TableColumn]
    let count: Int
    let selection: Binding<Int>
    let sort: Binding<TableSort>
    /// Text of (row, column): a shown row for the provider form, an index into the rows otherwise.
    let cell: @MainActor (Int, Int) -> String
    /// True for the rows form: the table sorts, and rows are array indexes.
    let sortsRows: Bool

    /// A table whose data owner provides cells (and sorts): `cell(row, column)` is asked only for
    /// the rows on screen.
    public init(columns: [TableColumn], count: Int, selection: Binding<Int>, sort: Binding<TableSort>,
                cell: @escaping @MainActor (_ row: Int, _ column: Int) -> String) {
        self.columns = columns
        self.count = max(0, count)
        self.selection = selection
        self.sort = sort
        self.cell = cell
        self.sortsRows = false
    }

    /// A table of a small array that sorts itself by the text `value(row, column)` of the sort
    /// column. `selection` is an index into `rows`.
    public init<Row>(_ rows: [Row], columns: [TableColumn], selection: Binding<Int>, sort: Binding<TableSort>,
                     value: @escaping (_ row: Row, _ column: Int) -> String) {
        self.columns = columns
        self.count = rows.count
        self.selection = selection
        self.sort = sort
        self.cell = { index, column in value(rows[index], column) }
        self.sortsRows = true
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var order: [Int]? = nil
        if sortsRows, sort.wrappedValue != .none {
            order = tableOrder(count: count, columns: columns.count, sort: sort.wrappedValue, value: cell)
        }
        var selectionStyle = context.style(.selection)
        if selectionStyle == context.style { selectionStyle.attributes.insert(.reverse) }
        nodes.append(TableNode(
            id: context.id, columns: columns, count: count, order: order, selection: selection, sort: sort,
            cell: cell, offset: context.stateBox(0), emit: context.emitter(TableEvent.self),
            style: context.style, headerStyle: context.style(.header),
            selectionStyle: selectionStyle))
    }
}

// MARK: - Sorting (rows form)

/// The rows in shown order for `sort`: indexes into the data, sorted by the sort column's text
/// (stable: equal values keep the data's order in both directions).
@MainActor
func tableOrder(count: Int, columns: Int, sort: TableSort, value: (Int, Int) -> String) -> [Int] {
    guard let column = sort.column, column >= 0, column < columns else {
        return sort.ascending ? Array(0..<count) : Array((0..<count).reversed())
    }
    let keys = (0..<count).map { value($0, column) }
    let ascending = sort.ascending
    return (0..<count).sorted { a, b in
        let c = tableCompare(keys[a], keys[b])
        if c != 0 { return ascending ? c < 0 : c > 0 }
        return a < b
    }
}

/// Compares two cell values: as numbers when both parse as numbers, otherwise naturally
/// (case-insensitive, digit runs by value: `file2` < `file10`). Returns -1, 0 or 1.
func tableCompare(_ a: String, _ b: String) -> Int {
    if let x = Double(a), let y = Double(b), !x.isNaN, !y.isNaN {
        return x < y ? -1 : (x > y ? 1 : 0)
    }
    return naturalCompare(a, b)
}

func naturalCompare(_ a: String, _ b: String) -> Int {
    let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
    func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 48 && s.value <= 57 }
    func folded(_ s: Unicode.Scalar) -> UInt32 { (65...90).contains(s.value) ? s.value + 32 : s.value }
    var i = 0, j = 0
    while i < x.count && j < y.count {
        if isDigit(x[i]) && isDigit(y[j]) {
            // Compare digit runs by value: skip leading zeros, then the longer run is larger.
            var ie = i, je = j
            while ie < x.count && isDigit(x[ie]) { ie += 1 }
            while je < y.count && isDigit(y[je]) { je += 1 }
            var si = i, sj = j
            while si < ie - 1 && x[si].value == 48 { si += 1 }
            while sj < je - 1 && y[sj].value == 48 { sj += 1 }
            if ie - si != je - sj { return ie - si < je - sj ? -1 : 1 }
            while si < ie {
                if x[si] != y[sj] { return x[si].value < y[sj].value ? -1 : 1 }
                si += 1; sj += 1
            }
            i = ie; j = je
        } else {
            let p = folded(x[i]), q = folded(y[j])
            if p != q { return p < q ? -1 : 1 }
            i += 1; j += 1
        }
    }
    if x.count - i != y.count - j { return x.count - i < y.count - j ? -1 : 1 }
    return 0
}

/// Column widths for a table `total` columns wide: one separator column between columns, fixed
/// columns first (in order, while there is room), then the rest shared by weight; leftover
/// columns from rounding go to the first flexible columns.
func tableColumnWidths(_ columns: [TableColumn], total: Int) -> [Int] {
    guard !columns.isEmpty else { return [] }
    var left = max(0, total - (columns.count - 1))
    var widths = Array(repeating: 0, count: columns.count)
    var weights = Array(repeating: 0, count: columns.count)
    for (i, column) in columns.enumerated() {
        switch column.width {
        case .fixed(let w):
            widths[i] = min(max(0, w), left)
            left -= widths[i]
        case .flexible(let weight):
            weights[i] = max(0, weight)
        }
    }
    let totalWeight = weights.reduce(0, +)
    guard totalWeight > 0, left > 0 else { return widths }
    var given = 0
    for i in widths.indices where weights[i] > 0 {
        widths[i] = left * weights[i] / totalWeight
        given += widths[i]
    }
    var rest = left - given
    for i in widths.indices where weights[i] > 0 && rest > 0 {
        widths[i] += 1
        rest -= 1
    }
    return widths
}

// MARK: - Node

final class TableNode: Node, FocusableNode {
    override var focusable: (any FocusableNode)? { self }
    let focusID: ViewID
    let columns: [TableColumn]
    let count: Int
    /// Shown row → data row (rows form); nil when rows are shown as they come (provider form).
    let order: [Int]?
    /// Data row → shown row, the inverse of `order`, made when first needed.
    private lazy var position: [Int] = {
        guard let order else { return [] }
        var position = Array(repeating: 0, count: order.count)
        for (shown, row) in order.enumerated() { position[row] = shown }
        return position
    }()
    let selection: Binding<Int>
    let sort: Binding<TableSort>
    let cell: @MainActor (Int, Int) -> String
    /// The first row shown, kept between frames so the table only scrolls when the selection
    /// would leave the screen.
    let offset: WidgetStateBox<Int>
    let emit: EventEmitter<TableEvent>
    let style: Style
    let headerStyle: Style
    let selectionStyle: Style
    var isFocused = false
    private var widths: [Int] = []
    private var visibleRows = 1

    init(id: ViewID, columns: [TableColumn], count: Int, order: [Int]?, selection: Binding<Int>, sort: Binding<TableSort>,
         cell: @escaping @MainActor (Int, Int) -> String, offset: WidgetStateBox<Int>, emit: EventEmitter<TableEvent>,
         style: Style, headerStyle: Style, selectionStyle: Style) {
        self.focusID = id
        self.columns = columns
        self.count = count
        self.order = order
        self.selection = selection
        self.sort = sort
        self.cell = cell
        self.offset = offset
        self.emit = emit
        self.style = style
        self.headerStyle = headerStyle
        self.selectionStyle = selectionStyle
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        // Greedy like List: all the space offered. Ideally each column's title (or fixed width)
        // plus room, and the header with up to 10 rows.
        let ideal = columns.reduce(max(0, columns.count - 1)) { total, column in
            if case .fixed(let w) = column.width { return total + max(0, w) }
            return total + max(10, column.title.terminalWidth + 2)
        }
        return Size(width: min(max(0, proposal.width ?? ideal), unboundedLength),
                    height: min(max(0, proposal.height ?? (min(count, 10) + 1)), unboundedLength))
    }

    // MARK: Rows: shown positions and selection values

    private func dataRow(_ shown: Int) -> Int { order?[shown] ?? shown }
    private func shownRow(_ row: Int) -> Int { order == nil ? row : position[row] }

    /// The selected row as shown (clamped into the rows).
    private var selectedShown: Int {
        guard count > 0 else { return 0 }
        return shownRow(min(max(0, selection.wrappedValue), count - 1))
    }

    private func select(shown: Int) {
        guard count > 0 else { return }
        let clamped = max(0, min(count - 1, shown))
        guard clamped != selectedShown else { return }
        let row = dataRow(clamped)
        selection.wrappedValue = row
        emit(.selected(row))
    }

    // MARK: Copy

    var hasCopyableText: Bool { count > 0 && !columns.isEmpty }

    /// The selected row's cells, joined by tabs (a spreadsheet pastes them into columns).
    var copyableText: String? {
        guard hasCopyableText else { return nil }
        let row = dataRow(selectedShown)
        return columns.indices.map { cell(row, $0) }.joined(separator: "\t")
    }

    override func place(in rect: Rect) {
        frame = rect
        widths = tableColumnWidths(columns, total: rect.width)
        visibleRows = max(1, rect.height - 1)
        var first = offset.value
        let selected = selectedShown
        if selected < first { first = selected }
        if selected >= first + visibleRows { first = selected - visibleRows + 1 }
        offset.value = max(0, min(first, count - visibleRows))
    }

    /// Left edge of each column.
    private var columnXs: [Int] {
        var x = frame.minX
        return widths.map { w in defer { x += w + 1 }; return x }
    }

    // MARK: Drawing

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        let xs = columnXs
        // Header: the whole row in the header style, the sorted column marked ▲ or ▼.
        canvas.fill(Rect(x: frame.minX, y: frame.minY, width: frame.width, height: 1).intersection(area), with: .blank(headerStyle))
        let sorted = sort.wrappedValue
        for (i, column) in columns.enumerated() where widths[i] > 0 {
            var title = column.title
            if sorted.column == i {
                let arrow = sorted.ascending ? "▲" : "▼"
                let w = widths[i]
                title = title.terminalWidth + 2 <= w ? "\(title) \(arrow)" : (w >= 3 ? title.truncated(toColumns: w - 2, ellipsis: true) + " " + arrow : arrow)
            }
            drawCell(title, x: xs[i], y: frame.minY, width: widths[i], alignment: column.alignment,
                     style: headerStyle, canvas: &canvas, clip: area)
        }
        guard count > 0, frame.height > 1 else {
            // An empty table still shows that it has focus: an empty selected row.
            if isFocused, frame.height > 1 {
                canvas.fill(Rect(x: frame.minX, y: frame.minY + 1, width: frame.width, height: 1).intersection(area),
                            with: .blank(selectionStyle))
            }
            return
        }
        let first = offset.value
        let selected = selectedShown
        var rowSelectionStyle = selectionStyle
        if !isFocused { rowSelectionStyle.attributes.insert(.dim) }
        for shown in first..<min(count, first + visibleRows) {
            let y = frame.minY + 1 + shown - first
            var rowStyle = style
            if shown == selected {
                rowStyle = rowSelectionStyle
                canvas.fill(Rect(x: frame.minX, y: y, width: frame.width, height: 1).intersection(area), with: .blank(rowStyle))
            }
            let row = dataRow(shown)
            for (i, column) in columns.enumerated() where widths[i] > 0 && xs[i] < area.maxX {
                drawCell(cell(row, i), x: xs[i], y: y, width: widths[i], alignment: column.alignment,
                         style: rowStyle, canvas: &canvas, clip: area)
            }
        }
    }

    private func drawCell(_ text: String, x: Int, y: Int, width: Int, alignment: TableColumnAlignment,
                          style: Style, canvas: inout Canvas, clip: Rect) {
        var shown = text
        var w = text.terminalWidth
        if w > width {
            shown = text.truncated(toColumns: width, ellipsis: true)
            w = shown.terminalWidth
        }
        let start = alignment == .trailing ? x + width - w : x
        canvas.write(shown, at: Point(x: start, y: y), style: style,
                     clip: Rect(x: x, y: y, width: width, height: 1).intersection(clip))
    }

    // MARK: Input

    /// Sorts by `column`, ascending when it is a new column; sends `.sorted`.
    private func setSort(_ new: TableSort) {
        guard new != sort.wrappedValue else { return }
        sort.wrappedValue = new
        emit(.sorted(new))
    }

    private func moveSortColumn(by delta: Int) {
        guard !columns.isEmpty else { return }
        let current = sort.wrappedValue
        let target: Int
        if let column = current.column {
            target = max(0, min(columns.count - 1, column + delta))
        } else {
            target = delta > 0 ? 0 : columns.count - 1
        }
        if target != current.column { setSort(TableSort(column: target, ascending: true)) }
    }

    func usesKey(_ key: KeyEvent) -> Bool {
        guard key.modifiers.subtracting(.shift).isEmpty else { return false }
        switch key.code {
        case .char("<"), .char(">"), .char("r"): return true
        case .up, .down, .pageUp, .pageDown, .home, .end, .enter,
             .char("k"), .char("j"), .char("g"), .char("G"): return count > 0
        default: return false
        }
    }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard key.modifiers.subtracting(.shift).isEmpty else { return false }
        switch key.code {
        case .char("<"): moveSortColumn(by: -1); return true
        case .char(">"): moveSortColumn(by: 1); return true
        case .char("r"):
            var reversed = sort.wrappedValue
            reversed.ascending.toggle()
            setSort(reversed)
            return true
        default: break
        }
        guard count > 0 else { return false }
        let current = selectedShown
        let target: Int
        switch key.code {
        case .up, .char("k"): target = current - 1
        case .down, .char("j"): target = current + 1
        case .pageUp: target = current - visibleRows
        case .pageDown: target = current + visibleRows
        case .home, .char("g"): target = 0
        case .end, .char("G"): target = count - 1
        case .enter:
            emit(.activated(dataRow(current)))
            return true
        default: return false
        }
        select(shown: target)
        return true
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        switch mouse.kind {
        case .scrollUp:
            guard count > 0 else { return false }
            select(shown: selectedShown - 3)
        case .scrollDown:
            guard count > 0 else { return false }
            select(shown: selectedShown + 3)
        case .press(.left):
            if mouse.position.y == frame.minY {
                // A header: sort by its column, or reverse the sorted one. The separator after
                // a column belongs to it.
                let xs = columnXs
                guard let column = xs.indices.last(where: { xs[$0] <= mouse.position.x && widths[$0] > 0 }) else { return false }
                let current = sort.wrappedValue
                setSort(current.column == column ? TableSort(column: column, ascending: !current.ascending)
                                                 : TableSort(column: column, ascending: true))
                return true
            }
            let shown = offset.value + (mouse.position.y - frame.minY - 1)
            guard shown >= 0, shown < count else { return false }
            select(shown: shown)
        default:
            return false
        }
        return true
    }
}
