import AppletState
import Terminal

/// What a `List` sends for the user's actions (keys, clicks, the wheel, a search):
/// - `selected(row)`: the selection moved to `row`;
/// - `activated(row)`: `Enter` on `row`;
/// - `toggled(row, isMarked)`: `row` was added to (`true`) or removed from (`false`) the
///   multi-selection (`Space`, a click in the mark column, `Shift-↑`/`Shift-↓`).
public enum ListEvent: Sendable, Equatable {
    case selected(Int)
    case activated(Int)
    case toggled(Int, Bool)
}

/// A scrolling list of one-line rows with a selection. Only the rows on screen are built, so a
/// list of a million rows costs what a screenful costs.
///
/// With focus, `↑`/`↓` or `k`/`j` move the selection, `PgUp`/`PgDn` move a page, `Home`/`End`
/// (or `g`/`G`) jump to the ends; the mouse wheel scrolls and a click selects. The list scrolls
/// so the selected row is always visible. `Enter` sends `ListEvent.activated(row)`.
///
/// The selected row is reversed, dimmed while the list does not have focus; an empty list with
/// focus shows a reversed empty first row, so focus is always visible.
///
/// ```swift
/// @AppState(\.selectedRow) var selected
/// List(count: 1_000_000, selection: $selected) { row in
///     Text("Row \(row)")
/// }
/// ```
///
/// Two optional abilities, turned on with modifiers:
/// - `.multiSelection(_:)` marks a set of rows (`Space`, `Shift-↑`/`Shift-↓`, a click in the
///   mark column); marked rows show `✓` in a two-column mark column on the left.
/// - `.searchable(_:)` finds rows by their text: `/` starts a search, `n`/`N` repeat it.
public struct List<Row: View>: View {
    public typealias Body = Never
    let count: Int
    let selection: Binding<Int>
    let row: @MainActor (Int) -> Row
    var marked: Binding<Set<Int>>?
    var searchText: (@MainActor (Int) -> String)?

    public init(count: Int, selection: Binding<Int>, @ViewBuilder row: @escaping @MainActor (Int) -> Row) {
        self.count = max(0, count)
        self.selection = selection
        self.row = row
    }

    /// A list of a collection's elements, one row each; `selection` is the selected element's
    /// position (0 for the first).
    ///
    /// ```swift
    /// @StoredState(\.notes) var notes
    /// List(notes.items, selection: $notes.selected) { note in
    ///     Text(note.title)
    /// }
    /// ```
    public init<Data: RandomAccessCollection>(_ data: Data, selection: Binding<Int>,
                                              @ViewBuilder row: @escaping @MainActor (Data.Element) -> Row) {
        let start = data.startIndex
        self.init(count: data.count, selection: selection) { index in
            row(data[data.index(start, offsetBy: index)])
        }
    }

    /// Lets the user mark any number of rows, kept in `rows`. The selection (the cursor) moves as
    /// before; `Space` marks or unmarks the selected row, `Shift-↑`/`Shift-↓` mark the rows they
    /// move over (both ends included), and a click in the mark column (the first two columns)
    /// marks or unmarks the clicked row. Marked rows show `✓` in the mark column and, with
    /// colour, the theme's selection colours; the cursor row is reversed, so it stands out from
    /// marked rows in monochrome too, and looks the same whether it is marked or not (its `✓`
    /// tells). Sends `ListEvent.toggled(row, isMarked)`.
    ///
    /// ```swift
    /// @AppState(\.chosenFiles) var chosen    // Set<Int>
    /// List(count: files.count, selection: $cursor) { Text(files[$0].name) }
    ///     .multiSelection($chosen)
    /// ```
    public func multiSelection(_ rows: Binding<Set<Int>>) -> List {
        var copy = self
        copy.marked = rows
        return copy
    }

    /// Lets the user find rows by their text, which `text` gives for a row.
    ///
    /// `/` starts a search. The keys typed next build the query (letters such as `n` or `j` are
    /// text while searching), shown as `/query` on the list's last row; `Backspace` edits it
    /// (on an empty query it ends the search). With every change the selection jumps to the first
    /// row at or after the selected one whose text contains the query, ignoring case, wrapping
    /// around past the last row; the query is drawn in the error style while nothing matches.
    /// `Enter` or `Esc` ends the search and leaves the selection where it is (as does moving focus
    /// away); the arrow and page keys still move the selection while searching. After a search,
    /// `n` and `N` jump to the next and previous row matching the same query.
    ///
    /// A search is linear in the rows it looks at: it calls `text` for each row from the
    /// selection on and stops at the first match, so a match nearby is found at once, while a
    /// query that matches nothing in a million rows asks for all million texts.
    ///
    /// ```swift
    /// List(count: names.count, selection: $row) { Text(names[$0]) }
    ///     .searchable { names[$0] }
    /// ```
    public func searchable(_ text: @escaping @MainActor (Int) -> String) -> List {
        var copy = self
        copy.searchText = text
        return copy
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var rowContext = context
        rowContext.axis = .horizontal
        let row = self.row
        // One array the rows' nodes are made into, reused row after row (not one per row).
        let rowNodes = RowNodes()
        nodes.append(ListNode(context: context, count: count, selection: selection, marked: marked, searchText: searchText) { index in
            // Laid out as `HStack { row(index) }` would be, without a stack for the usual row of
            // one view: that view's node, placed at its own width (`ListNode.place`).
            // The last row's node, usually one: `removeLast` drops it without the generic
            // `replaceSubrange` that `removeAll(keepingCapacity:)` runs (~500 instructions).
            if rowNodes.value.count == 1 { rowNodes.value.removeLast() } else { rowNodes.value.removeAll(keepingCapacity: true) }
            row(index)._makeNodes(rowContext.child(hashing: index), into: &rowNodes.value)
            if rowNodes.value.count == 1 { return ListNode.Row(node: rowNodes.value[0], isStack: false) }
            return ListNode.Row(node: StackNode(axis: .horizontal, spacing: 0, alignment: .start, children: rowNodes.value), isStack: true)
        })
    }
}

/// The scratch array `List` makes each row's nodes into.
@MainActor
private final class RowNodes {
    /// Main actor only, never reentered: no run-time exclusivity check per access.
    @exclusivity(unchecked) var value: [Node] = []
}

final class ListNode: Node, FocusableNode {
    override var focusable: (any FocusableNode)? { self }
    /// Kept between frames under the list's identity.
    struct State {
        /// The first row shown: the list only scrolls when the selection would leave the screen.
        var offset = 0
        var isSearching = false
        var query = ""
        /// The query of the last search, for `n` and `N`.
        var lastQuery = ""
        /// The current query matches no row.
        var notFound = false
    }

    /// One row's node: a stack of its views, or its only view's node.
    struct Row {
        let node: Node
        let isStack: Bool
    }

    let focusID: ViewID
    let count: Int
    let selection: Binding<Int>
    let marked: Binding<Set<Int>>?
    let searchText: (@MainActor (Int) -> String)?
    let makeRow: @MainActor (Int) -> Row
    let emit: EventEmitter<ListEvent>
    let state: WidgetStateBox<State>
    let style: Style
    let markedStyle: Style
    let queryStyle: Style
    let notFoundStyle: Style
    @exclusivity(unchecked) var isFocused = false
    private var visibleRows = 1

    /// Columns of the mark column in multi-selection mode: `✓` and a space.
    private var markWidth: Int { marked == nil ? 0 : 2 }

    init(context: ResolveContext, count: Int, selection: Binding<Int>, marked: Binding<Set<Int>>?,
         searchText: (@MainActor (Int) -> String)?, makeRow: @escaping @MainActor (Int) -> Row) {
        self.focusID = context.id
        self.count = count
        self.selection = selection
        self.marked = marked
        self.searchText = searchText
        self.makeRow = makeRow
        self.emit = context.emitter(ListEvent.self)
        self.state = context.stateBox(State())
        self.style = context.style
        self.markedStyle = context.theme[.selection]
        self.queryStyle = context.style(.accent)
        self.notFoundStyle = context.style(.error)
    }

    var takesTextInput: Bool { state.value.isSearching }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        // A list is greedy: it takes all the space it is offered (ideal: 40 x up to 10 rows).
        Size(width: min(proposal.width ?? 40, unboundedLength), height: min(proposal.height ?? min(count, 10), unboundedLength))
    }

    private var selectedRow: Int { count == 0 ? 0 : min(max(0, selection.wrappedValue), count - 1) }

    /// The search query takes the last row while searching (unless that is the only row).
    private var showsQueryLine: Bool { state.value.isSearching && frame.height > 1 }

    override func place(in rect: Rect) {
        frame = rect
        visibleRows = max(1, rect.height - (showsQueryLine ? 1 : 0))
        var first = state.value.offset
        let selected = selectedRow
        if selected < first { first = selected }
        if selected >= first + visibleRows { first = selected - visibleRows + 1 }
        first = max(0, min(first, count - visibleRows))
        state.value.offset = first
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        // A search ends when the list loses focus.
        if state.value.isSearching, !isFocused { endSearch() }
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        if count > 0 {
            drawRows(in: &canvas, area: area)
        } else if isFocused {
            // An empty list still shows that it has focus: the cursor row, on no row.
            canvas.restyle(Rect(x: frame.x, y: frame.y, width: frame.width, height: 1).intersection(area)) { style in
                style.attributes.insert(.reverse)
            }
        }
        if state.value.isSearching { drawQuery(in: &canvas, area: area) }
    }

    private func drawRows(in canvas: inout Canvas, area: Rect) {
        let first = state.value.offset
        let selected = selectedRow
        let last = min(count, first + (showsQueryLine ? visibleRows : frame.height))
        let markedRows = marked?.wrappedValue
        let markWidth = self.markWidth
        let isFocused = self.isFocused   // read once, not in the restyle closure for every cell
        for index in first..<last {
            let y = frame.y + index - first
            let rowRect = Rect(x: frame.x, y: y, width: frame.width, height: 1)
            let row = makeRow(index)
            Self.place(row, in: Rect(x: frame.x + markWidth, y: y, width: max(0, frame.width - markWidth), height: 1))
            row.node.draw(in: &canvas, clip: area)
            if let markedRows, markedRows.contains(index) {
                canvas.put("✓", at: Point(x: frame.x, y: y), style: style, clip: area)
                // The selection colours only: in monochrome they would be `reverse`, which is
                // the cursor's mark, so there the `✓` alone marks the row. Not on the cursor
                // row: reversed over these colours it became a bright bar, the loudest thing on
                // screen; the cursor row looks the same marked or not, and its `✓` tells.
                if index != selected {
                    let colours = markedStyle
                    canvas.restyle(rowRect.intersection(area)) { s in
                        if colours.foreground != .default { s.foreground = colours.foreground }
                        if colours.background != .default { s.background = colours.background }
                    }
                }
            }
            if index == selected {
                // The selected row is reversed across its full width; dimmer without focus.
                canvas.restyle(rowRect.intersection(area)) { style in
                    style.attributes.insert(.reverse)
                    if !isFocused { style.attributes.insert(.dim) }
                }
            }
        }
    }

    /// Where a row goes: a stack over the whole line; a lone view at the size it asks for, from
    /// the line's start, as the one child of a horizontal stack would be.
    static func place(_ row: Row, in line: Rect) {
        guard !row.isStack else { return row.node.place(in: line) }
        let size = row.node.sizeThatFits(ProposedSize(width: line.width, height: line.height))
        row.node.place(in: Rect(x: line.x, y: line.y, width: min(max(0, size.width), line.width),
                                height: min(max(0, size.height), line.height)))
    }

    /// `/query` on the last row; when it is too long, its end (where the typing is) shows.
    private func drawQuery(in canvas: inout Canvas, area: Rect) {
        let y = frame.maxY - 1
        let line = Rect(x: frame.x, y: y, width: frame.width, height: 1).intersection(area)
        guard !line.isEmpty else { return }
        canvas.fill(line, with: .blank(style))
        var text = "/" + state.value.query
        if text.terminalWidth > frame.width { text = "…" + Self.suffix(of: text, columns: frame.width - 1) }
        canvas.write(text, at: Point(x: frame.x, y: y), style: state.value.notFound ? notFoundStyle : queryStyle, clip: line)
    }

    /// The longest end of `text` that fits in `columns`, whole graphemes only.
    static func suffix(of text: String, columns: Int) -> String {
        var used = 0
        var start = text.endIndex
        while start > text.startIndex {
            let previous = text.index(before: start)
            let w = text[previous].terminalWidth
            if used + w > columns { break }
            used += w
            start = previous
        }
        return String(text[start...])
    }

    // MARK: Keys

    private func select(_ row: Int) {
        let target = max(0, min(count - 1, row))
        guard target != selection.wrappedValue else { return }
        selection.wrappedValue = target
        emit(.selected(target))
    }

    func usesKey(_ key: KeyEvent) -> Bool {
        guard count > 0, key.modifiers.subtracting(.shift).isEmpty else { return false }
        switch key.code {
        case .up, .down, .pageUp, .pageDown, .home, .end, .enter,
             .char("k"), .char("j"), .char("g"), .char("G"): return true
        case .char(" "): return marked != nil
        case .char("/"): return searchText != nil
        case .char("n"), .char("N"): return searchText != nil && !state.value.lastQuery.isEmpty
        default: return false
        }
    }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard count > 0 else {
            if state.value.isSearching { endSearch() }   // the rows went away mid-search
            return false
        }
        if state.value.isSearching, let handled = handleSearchKey(key) { return handled }
        guard key.modifiers.subtracting(.shift).isEmpty else { return false }
        let current = selectedRow
        let shift = key.modifiers.contains(.shift)
        if shift, let marked, key.code == .up || key.code == .down {
            // Shift-↑/↓ mark the rows moved over.
            let target = max(0, min(count - 1, current + (key.code == .up ? -1 : 1)))
            var rows = marked.wrappedValue
            let added = [current, target].filter { rows.insert($0).inserted }
            if !added.isEmpty { marked.wrappedValue = rows }
            for row in Set(added).sorted() { emit(.toggled(row, true)) }
            select(target)
            return true
        }
        let target: Int
        switch key.code {
        case .up, .char("k"): target = current - 1
        case .down, .char("j"): target = current + 1
        case .pageUp: target = current - visibleRows
        case .pageDown: target = current + visibleRows
        case .home, .char("g"): target = 0
        case .end, .char("G"): target = count - 1
        case .enter where !shift:
            emit(.activated(current))
            return true
        case .char(" ") where marked != nil:
            toggleMark(current)
            return true
        case .char("/") where searchText != nil:
            state.value.isSearching = true
            state.value.query = ""
            state.value.notFound = false
            return true
        case .char("n") where searchText != nil && !state.value.lastQuery.isEmpty:
            jump(to: state.value.lastQuery, from: current + 1, forward: true)
            return true
        case .char("N") where searchText != nil && !state.value.lastQuery.isEmpty:
            jump(to: state.value.lastQuery, from: current - 1, forward: false)
            return true
        default: return false
        }
        select(target)
        return true
    }

    /// A key while searching: nil for keys that keep their usual meaning (moves).
    private func handleSearchKey(_ key: KeyEvent) -> Bool? {
        switch key.code {
        case .enter, .escape:
            endSearch()
            return true
        case .backspace:
            if state.value.query.isEmpty {
                endSearch()
            } else {
                state.value.query.removeLast()
                searchFromSelection()
            }
            return true
        case .char(let c) where key.modifiers.subtracting(.shift).isEmpty:
            guard c.terminalWidth > 0 else { return false }
            state.value.query.append(c)
            searchFromSelection()
            return true
        case .char:
            return false   // Ctrl and Alt keys are commands, not text
        default:
            return nil
        }
    }

    func handlePaste(_ text: String) -> Bool {
        guard state.value.isSearching, count > 0 else { return false }
        // The first line only, without control characters.
        let line = text.prefix { !$0.isNewline }.filter { $0.terminalWidth > 0 }
        state.value.query += line
        searchFromSelection()
        return true
    }

    private func endSearch() {
        if !state.value.query.isEmpty { state.value.lastQuery = state.value.query }
        state.value.isSearching = false
        state.value.query = ""
        state.value.notFound = false
    }

    private func searchFromSelection() {
        let query = state.value.query
        if query.isEmpty {
            state.value.notFound = false
            return
        }
        jump(to: query, from: selectedRow, forward: true)
    }

    /// Selects the first row from `start` on (or back) whose text contains `query`, wrapping
    /// around. Looks at each row at most once and stops at the first match.
    private func jump(to query: String, from start: Int, forward: Bool) {
        guard let searchText, count > 0 else { return }
        let needle = query.lowercased()
        var row = ((start % count) + count) % count
        for _ in 0..<count {
            if searchText(row).lowercased().contains(needle) {
                state.value.notFound = false
                select(row)
                return
            }
            row = forward ? (row + 1 == count ? 0 : row + 1) : (row == 0 ? count - 1 : row - 1)
        }
        state.value.notFound = true
    }

    private func toggleMark(_ row: Int) {
        guard let marked else { return }
        var rows = marked.wrappedValue
        let isMarked: Bool
        if rows.remove(row) != nil { isMarked = false } else { rows.insert(row); isMarked = true }
        marked.wrappedValue = rows
        emit(.toggled(row, isMarked))
    }

    // MARK: Copy

    var hasCopyableText: Bool { count > 0 }

    /// The selected row's text; with rows marked, every marked row's, one a line, in order.
    /// A row's text is its search text when the list has one, else what the row shows at its
    /// ideal width. Stops once more than a clipboard takes (`OSC52.maximumText`) is gathered.
    var copyableText: String? {
        guard count > 0 else { return nil }
        let markedRows = (marked?.wrappedValue ?? []).filter { $0 >= 0 && $0 < count }
        let rows = markedRows.isEmpty ? [selectedRow] : markedRows.sorted()
        var lines: [String] = []
        var bytes = 0
        for row in rows {
            let line = copyText(of: row)
            lines.append(line)
            bytes += line.utf8.count + 1
            if bytes > OSC52.maximumText { break }
        }
        return lines.joined(separator: "\n")
    }

    private func copyText(of index: Int) -> String {
        if let searchText { return searchText(index) }
        let row = makeRow(index)
        let ideal = row.node.sizeThatFits(ProposedSize(width: nil, height: 1))
        var canvas = Canvas(size: Size(width: max(1, min(ideal.width, 4096)), height: 1))
        Self.place(row, in: canvas.bounds)
        row.node.draw(in: &canvas, clip: canvas.bounds)
        return canvas.line(0)
    }

    // MARK: Mouse

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        guard count > 0 else { return false }
        switch mouse.kind {
        case .scrollUp:
            select(selectedRow - 3)
        case .scrollDown:
            select(selectedRow + 3)
        case .press(.left):
            let line = mouse.position.y - frame.y
            let index = state.value.offset + line
            guard line < visibleRows, index >= 0, index < count else { return false }
            if marked != nil, mouse.position.x < frame.x + markWidth { toggleMark(index) }
            select(index)
        default:
            return false
        }
        return true
    }
}
