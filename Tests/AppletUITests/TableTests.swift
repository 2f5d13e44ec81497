import Synchronization
import Testing
@testable import AppletUI

private typealias TableValue<T: Sendable> = Ref<T>

private struct File {
    var name: String
    var size: Int
}

private let files = [File(name: "b.txt", size: 10), File(name: "a.txt", size: 200),
                     File(name: "file10", size: 3), File(name: "file2", size: 40)]
private let fileColumns = [TableColumn("Name"), TableColumn("Size", width: .fixed(6), alignment: .trailing)]

@Suite("Table")
@MainActor
struct TableTests {
    private func fileTable(_ selection: TableValue<Int>, _ sort: TableValue<TableSort>) -> Table {
        Table(files, columns: fileColumns, selection: selection.binding, sort: sort.binding) { file, column in
            column == 0 ? file.name : "\(file.size)"
        }
    }

    private func numbers(_ selection: TableValue<Int>, _ sort: TableValue<TableSort> = TableValue(.none), count: Int = 1_000_000) -> Table {
        Table(columns: [TableColumn("#", width: .fixed(7), alignment: .trailing), TableColumn("Name")],
              count: count, selection: selection.binding, sort: sort.binding) { row, column in
            column == 0 ? "\(row)" : "row \(row)"
        }
    }

    @Test func headerAndRows() {
        let canvas = render(fileTable(TableValue(0), TableValue(.none)), width: 20, height: 6)
        #expect(canvas.lines == ["Name            Size",
                                 "b.txt             10",
                                 "a.txt            200",
                                 "file10             3",
                                 "file2             40",
                                 ""])
        let header = ResolvedTheme.standard[.header]
        #expect(canvas[0, 0].style == header)
        #expect(canvas[10, 0].style == header)                      // the whole header row
        let selection = ResolvedTheme.standard[.selection]
        #expect(canvas[0, 1].style == selection)                    // row 0 is selected (focused)
        #expect(canvas[19, 1].style == selection)                   // across the full width
        #expect(canvas[0, 2].style == .plain)
    }

    @Test func columnWidths() {
        let flexible = [TableColumn("a"), TableColumn("b", width: .flexible(2)), TableColumn("c", width: .fixed(4))]
        #expect(tableColumnWidths(flexible, total: 20) == [5, 9, 4])     // 20 - 2 separators - 4 = 14 → 4.67 / 9.33
        #expect(tableColumnWidths(flexible, total: 5) == [0, 0, 3])      // fixed first, while there is room
        #expect(tableColumnWidths(flexible, total: 0) == [0, 0, 0])
        #expect(tableColumnWidths([], total: 10) == [])
        #expect(tableColumnWidths([TableColumn("a"), TableColumn("b")], total: 10) == [5, 4])
    }

    @Test func sortsByTheColumnsValue() {
        let sort = TableValue(TableSort(column: 0))
        let table = fileTable(TableValue(0), sort)
        var canvas = render(table, width: 20, height: 5)
        // Natural order: file2 before file10.
        #expect(canvas.lines == ["Name ▲          Size", "a.txt            200", "b.txt             10",
                                 "file2             40", "file10             3"])
        sort.storage.withLock { $0 = TableSort(column: 1, ascending: true) }
        canvas = render(table, width: 20, height: 5)
        // Numbers as numbers: 3 < 10 < 40 < 200.
        #expect(canvas.lines == ["Name          Size ▲", "file10             3", "b.txt             10",
                                 "file2             40", "a.txt            200"])
        sort.storage.withLock { $0 = TableSort(column: 1, ascending: false) }
        canvas = render(table, width: 20, height: 5)
        #expect(canvas.line(0) == "Name          Size ▼")
        #expect(canvas.line(1) == "a.txt            200")
        #expect(canvas.line(4) == "file10             3")
        // No sort column, descending: the array reversed.
        sort.storage.withLock { $0 = TableSort(column: nil, ascending: false) }
        canvas = render(table, width: 20, height: 5)
        #expect(canvas.line(1) == "file2             40")
    }

    @Test func naturalCompare() {
        #expect(tableCompare("file2", "file10") < 0)
        #expect(tableCompare("File2", "file2") == 0)
        #expect(tableCompare("a", "B") < 0)
        #expect(tableCompare("10", "9") > 0)
        #expect(tableCompare("-1.5", "1") < 0)
        #expect(tableCompare("007", "7") == 0)
        #expect(tableCompare("ab", "abc") < 0)
        #expect(tableCompare("", "a") < 0)
    }

    @Test func sortKeysAndEvents() {
        let selection = TableValue(0)
        let sort = TableValue(TableSort.none)
        var events: [TableEvent] = []
        let table = fileTable(selection, sort).onEvent { (event: TableEvent) in events.append(event) }
        let tree = ViewTree()
        _ = render(table, width: 20, height: 5, tree: tree)
        #expect(tree.handleKey(KeyEvent(.char(">"))))
        #expect(sort.value == TableSort(column: 0, ascending: true))
        #expect(tree.handleKey(KeyEvent(.char(">"), modifiers: .shift)))
        #expect(sort.value == TableSort(column: 1, ascending: true))
        tree.handleKey(KeyEvent(.char(">")))                            // already the last column
        #expect(sort.value == TableSort(column: 1, ascending: true))
        #expect(tree.handleKey(KeyEvent(.char("r"))))
        #expect(sort.value == TableSort(column: 1, ascending: false))
        tree.handleKey(KeyEvent(.char("<")))
        #expect(sort.value == TableSort(column: 0, ascending: true))
        #expect(events == [.sorted(TableSort(column: 0)), .sorted(TableSort(column: 1)),
                           .sorted(TableSort(column: 1, ascending: false)), .sorted(TableSort(column: 0))])
        let canvas = render(table, width: 20, height: 5, tree: tree)
        #expect(canvas.line(0) == "Name ▲          Size")
        // The selection is an index into the rows: b.txt (index 0) stays selected, now second.
        #expect(selection.value == 0)
        #expect(canvas[0, 2].style == ResolvedTheme.standard[.selection])
        #expect(canvas[0, 1].style == .plain)
    }

    @Test func selectionMovesInShownOrderAndReportsRowIndexes() {
        let selection = TableValue(2)                               // file10
        let sort = TableValue(TableSort(column: 1))                 // by size: file10, b.txt, file2, a.txt
        var events: [TableEvent] = []
        let table = fileTable(selection, sort).onEvent { (event: TableEvent) in events.append(event) }
        let tree = ViewTree()
        var canvas = render(table, width: 20, height: 5, tree: tree)
        #expect(canvas[0, 1].style == ResolvedTheme.standard[.selection])
        tree.handleKey(KeyEvent(.char("j")))
        #expect(selection.value == 0)                        // b.txt
        tree.handleKey(KeyEvent(.down))
        #expect(selection.value == 3)                        // file2
        tree.handleKey(KeyEvent(.enter))
        tree.handleKey(KeyEvent(.end))
        #expect(selection.value == 1)                        // a.txt, last by size
        tree.handleKey(KeyEvent(.down))                      // clamped: no event
        #expect(events == [.selected(0), .selected(3), .activated(3), .selected(1)])
        canvas = render(table, width: 20, height: 5, tree: tree)
        #expect(canvas[0, 4].style == ResolvedTheme.standard[.selection])
        #expect(canvas.line(4) == "a.txt            200")
    }

    @Test func scrollsToKeepTheSelectionVisible() {
        let selection = TableValue(0)
        let table = numbers(selection)
        let tree = ViewTree()
        var canvas = render(table, width: 16, height: 4, tree: tree)
        #expect(canvas.lines == ["      # Name", "      0 row 0", "      1 row 1", "      2 row 2"])
        for _ in 0..<4 { tree.handleKey(KeyEvent(.char("j"))) }
        canvas = render(table, width: 16, height: 4, tree: tree)
        #expect(canvas.lines == ["      # Name", "      2 row 2", "      3 row 3", "      4 row 4"])
        tree.handleKey(KeyEvent(.pageDown))
        #expect(selection.value == 7)
        canvas = render(table, width: 16, height: 4, tree: tree)
        #expect(canvas.line(1) == "      5 row 5")
        tree.handleKey(KeyEvent(.pageUp))
        tree.handleKey(KeyEvent(.char("k")))
        #expect(selection.value == 3)
        canvas = render(table, width: 16, height: 4, tree: tree)
        #expect(canvas.line(1) == "      3 row 3")
        tree.handleKey(KeyEvent(.char("G")))
        canvas = render(table, width: 16, height: 4, tree: tree)
        #expect(selection.value == 999_999)
        #expect(canvas.line(3) == " 999999 row 999…")
        tree.handleKey(KeyEvent(.home))
        #expect(selection.value == 0)
        #expect(!tree.handleKey(KeyEvent(.char("x"))))
        #expect(!tree.handleKey(KeyEvent(.tab)))
        #expect(!tree.handleKey(KeyEvent(.escape)))
        #expect(!tree.handleKey(KeyEvent(.char("c"), modifiers: .ctrl)))
    }

    @Test func onlyVisibleRowsAreAskedFor() {
        let selection = TableValue(500_000)
        var asked: Set<Int> = []
        var calls = 0
        let table = Table(columns: [TableColumn("a"), TableColumn("b")], count: 1_000_000,
                          selection: selection.binding, sort: TableValue(TableSort.none).binding) { row, column in
            asked.insert(row)
            calls += 1
            return "\(row):\(column)"
        }
        let canvas = render(table, width: 20, height: 11, tree: ViewTree())
        #expect(asked == Set(499_991...500_000))
        #expect(calls == 20)
        #expect(canvas.line(10) == "500000:0   500000:1")
    }

    @Test func headerClickSortsAndRowClickSelects() {
        let selection = TableValue(0)
        let sort = TableValue(TableSort.none)
        var events: [TableEvent] = []
        let table = fileTable(selection, sort).onEvent { (event: TableEvent) in events.append(event) }
        let tree = ViewTree()
        _ = render(table, width: 20, height: 5, tree: tree)
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 18, y: 0))))
        #expect(sort.value == TableSort(column: 1, ascending: true))
        var canvas = render(table, width: 20, height: 5, tree: tree)
        #expect(canvas.line(1) == "file10             3")
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 19, y: 0)))   // again: reversed
        #expect(sort.value == TableSort(column: 1, ascending: false))
        canvas = render(table, width: 20, height: 5, tree: tree)
        #expect(canvas.line(0) == "Name          Size ▼")
        #expect(canvas.line(1) == "a.txt            200")
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 0)))
        #expect(sort.value == TableSort(column: 0, ascending: true))
        canvas = render(table, width: 20, height: 5, tree: tree)
        // Clicking the third row (file2 in name order) selects rows[3].
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 3, y: 3))))
        #expect(selection.value == 3)
        tree.handleMouse(MouseEvent(kind: .scrollUp, position: Point(x: 3, y: 3)))
        #expect(selection.value == 1)                        // a.txt, the first in name order
        #expect(events == [.sorted(TableSort(column: 1)), .sorted(TableSort(column: 1, ascending: false)),
                           .sorted(TableSort(column: 0)), .selected(3), .selected(1)])
    }

    @Test func wheelMovesByThree() {
        let selection = TableValue(0)
        let tree = ViewTree()
        _ = render(numbers(selection), width: 16, height: 5, tree: tree)
        tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 1, y: 2)))
        #expect(selection.value == 3)
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 1, y: 2)))
        #expect(selection.value == 1)
    }

    @Test func truncatesWithEllipsisAndKeepsWideCharactersWhole() {
        let rows = ["日本語のテキスト", "short"]
        let table = Table(rows, columns: [TableColumn("Title", width: .fixed(7)), TableColumn("N", width: .fixed(3), alignment: .trailing)],
                          selection: TableValue(1).binding, sort: TableValue(TableSort.none).binding) { row, column in
            column == 0 ? row : "12345"
        }
        let canvas = render(table, width: 11, height: 3)
        #expect(canvas.line(1) == "日本語… 12…")
        #expect(canvas.line(2) == "short   12…")
        // A long sorted title keeps its arrow.
        let sorted = Table(rows, columns: [TableColumn("Description", width: .fixed(6))],
                           selection: TableValue(0).binding, sort: TableValue(TableSort(column: 0, ascending: false)).binding) { row, _ in row }
        #expect(render(sorted, width: 6, height: 1).line(0) == "Des… ▼")
    }

    @Test func selectionIsDimmerWithoutFocus() {
        let table = fileTable(TableValue(0), TableValue(.none))
        var canvas = Canvas(size: Size(width: 20, height: 3))
        ViewTree().render(table, in: canvas.bounds, on: &canvas, isActive: false)
        #expect(canvas[0, 1].style.attributes.contains(.dim))
        #expect(canvas[0, 1].style.background == ResolvedTheme.standard[.selection].background)
    }

    @Test func disabledTableTakesNoFocusOrKeys() {
        let selection = TableValue(0)
        let sort = TableValue(TableSort.none)
        let tree = ViewTree()
        let canvas = render(fileTable(selection, sort).disabled(), width: 20, height: 5, tree: tree)
        #expect(!tree.hasFocusableWidgets)
        #expect(!tree.handleKey(KeyEvent(.down)))
        #expect(!tree.handleKey(KeyEvent(.char(">"))))
        #expect(selection.value == 0)
        #expect(sort.value == .none)
        #expect(canvas[0, 1].style.attributes.contains(.dim))
    }

    @Test func tinySizesAndEmptyTables() {
        let table = numbers(TableValue(5))
        #expect(render(table, width: 0, height: 0).lines == [])
        #expect(render(table, width: 1, height: 1).lines == [""])       // no room for a column
        #expect(render(table, width: 3, height: 2).lines == [" #", " 5"])
        let empty = numbers(TableValue(0), count: 0)
        let tree = ViewTree()
        #expect(render(empty, width: 16, height: 3, tree: tree).lines == ["      # Name", "", ""])
        #expect(!tree.handleKey(KeyEvent(.down)))
        #expect(!tree.handleKey(KeyEvent(.enter)))
        #expect(tree.handleKey(KeyEvent(.char(">"))))     // sorting an empty table still works
        let noColumns = Table(columns: [], count: 3, selection: TableValue(0).binding, sort: TableValue(TableSort.none).binding) { _, _ in "x" }
        #expect(render(noColumns, width: 5, height: 3).lines == ["", "", ""])
    }
}
