import Testing
@testable import AppletUI

/// A widget drawn alone, to compare how it looks with and without focus.
struct FocusMarkCase: CustomTestStringConvertible, Sendable {
    let name: String
    let width: Int
    let height: Int
    let make: @MainActor @Sendable () -> AnyView

    init<V: View>(_ name: String, width: Int = 24, height: Int = 4, _ make: @escaping @MainActor @Sendable () -> V) {
        self.name = name
        self.width = width
        self.height = height
        self.make = { AnyView(make()) }
    }

    var testDescription: String { name }
}

private let manyLines = (0..<30).map { "line \($0)" }

let focusMarkCases: [FocusMarkCase] = [
    FocusMarkCase("button") { Button("OK") {} },
    FocusMarkCase("toggle, off") { Toggle("Wrap", isOn: Ref(false).binding) },
    FocusMarkCase("toggle, on") { Toggle("Wrap", isOn: Ref(true).binding) },
    FocusMarkCase("checkbox") { Checkbox("Notify", isOn: Ref(false).binding) },
    FocusMarkCase("radio group, vertical") { RadioGroup(["Small", "Large"], selection: Ref(0).binding) },
    FocusMarkCase("radio group, horizontal") { RadioGroup(["Small", "Large"], selection: Ref(1).binding, axis: .horizontal) },
    FocusMarkCase("text field, empty", height: 1) { TextField("", text: Ref("").binding) },
    FocusMarkCase("text field, placeholder", height: 1) { TextField("name", text: Ref("").binding) },
    FocusMarkCase("text field, text", height: 1) { TextField("name", text: Ref("Ann").binding) },
    FocusMarkCase("text field, secure", height: 1) { TextField("pw", text: Ref("pw").binding).secure() },
    FocusMarkCase("text area, empty") { TextArea(text: Ref("").binding) },
    FocusMarkCase("text area, text") { TextArea(text: Ref("one\ntwo").binding) },
    FocusMarkCase("list") { List(count: 3, selection: Ref(0).binding) { Text("row \($0)") } },
    FocusMarkCase("list, empty") { List(count: 0, selection: Ref(0).binding) { Text("row \($0)") } },
    FocusMarkCase("list, multi-selection") {
        List(count: 3, selection: Ref(1).binding) { Text("row \($0)") }.multiSelection(Ref<Set<Int>>([0, 1]).binding)
    },
    FocusMarkCase("table") {
        Table(["a", "b"], columns: [TableColumn("Name")], selection: Ref(0).binding, sort: Ref(TableSort()).binding) { row, _ in row }
    },
    FocusMarkCase("table, empty") {
        Table([String](), columns: [TableColumn("Name")], selection: Ref(0).binding, sort: Ref(TableSort()).binding) { row, _ in row }
    },
    FocusMarkCase("tree") {
        Tree([TreeItem("root", children: [TreeItem("leaf")])], expanded: Ref<Set<String>>(["root"]).binding, selection: Ref<String?>(nil).binding)
    },
    FocusMarkCase("tree, empty") { Tree([], expanded: Ref<Set<String>>([]).binding, selection: Ref<String?>(nil).binding) },
    FocusMarkCase("tabs") { Tabs(["One", "Two"], selection: Ref(0).binding) { Text("page \($0)") } },
    FocusMarkCase("scroll view") { ScrollView { ForEach(manyLines, id: \.self) { Text($0) } } },
    FocusMarkCase("scroll view, no indicators") { ScrollView(showsIndicators: false) { ForEach(manyLines, id: \.self) { Text($0) } } },
    FocusMarkCase("scroll view, one column", width: 1) { ScrollView { ForEach(manyLines, id: \.self) { Text($0) } } },
    FocusMarkCase("scroll view, horizontal", height: 2) { ScrollView(.horizontal) { ForEach(manyLines, id: \.self) { Text($0) } } },
    FocusMarkCase("log view") { LogView(lines: manyLines) },
    FocusMarkCase("log view, empty") { LogView(lines: []) },
    FocusMarkCase("log view, one column", width: 1) { LogView(lines: manyLines) },
    FocusMarkCase("split view divider") { SplitView(ratio: Ref(0.5).binding) { Text("left") } second: { Text("right") } },
]

@MainActor
private func cells(_ canvas: Canvas, in rect: Rect) -> [Cell] {
    var result: [Cell] = []
    for y in rect.minY..<rect.maxY { for x in rect.minX..<rect.maxX { result.append(canvas[x, y]) } }
    return result
}

@Suite("Focus marks")
@MainActor
struct FocusMarkTests {
    /// Every focusable widget looks different with focus than without, inside its own frame:
    /// without focus because Esc took it away (`resignFocus`), and because its pane is not active.
    @Test(arguments: focusMarkCases)
    func aFocusedWidgetLooksDifferentFromAnUnfocusedOne(_ example: FocusMarkCase) throws {
        let size = Size(width: example.width, height: example.height)
        let tree = ViewTree()
        var focused = Canvas(size: size)
        tree.render(example.make(), in: focused.bounds, on: &focused)
        let widget = try #require(tree.focusables.first)
        #expect(widget.isFocused)
        let rect = widget.frame.intersection(focused.bounds)
        #expect(!rect.isEmpty)

        tree.resignFocus()
        var resigned = Canvas(size: size)
        tree.render(example.make(), in: resigned.bounds, on: &resigned)
        #expect(tree.focusables.first?.isFocused == false)
        #expect(cells(focused, in: rect) != cells(resigned, in: rect), "no focus mark: \(focused.lines)")
        #expect(focused.lines == resigned.lines || example.name.hasPrefix("log view"),
                "only the log view's bar changes what is written")

        let inactive = ViewTree()
        var elsewhere = Canvas(size: size)
        inactive.render(example.make(), in: elsewhere.bounds, on: &elsewhere, isActive: false)
        #expect(cells(elsewhere, in: rect) == cells(resigned, in: rect))
    }

    @Test func anEmptyListWithFocusShowsAReversedEmptyRow() {
        let tree = ViewTree()
        let list = List(count: 0, selection: Ref(0).binding) { Text("row \($0)") }
        let focused = render(list, width: 6, height: 3, tree: tree)
        #expect(focused.lines == ["", "", ""])
        #expect((0..<6).allSatisfy { focused[$0, 0].style.attributes.contains(.reverse) })
        #expect(!focused[0, 1].style.attributes.contains(.reverse))
        tree.resignFocus()
        let unfocused = render(list, width: 6, height: 3, tree: tree)
        #expect(!(0..<6).contains { unfocused[$0, 0].style.attributes.contains(.reverse) })
        // A search needs rows: `/` on an empty searchable list is not taken.
        let searchable = list.searchable { "row \($0)" }
        let searchTree = ViewTree()
        _ = render(searchable, width: 6, height: 3, tree: searchTree)
        #expect(!searchTree.handleKey(KeyEvent(.char("/"))))
    }

    @Test func anEmptyTableWithFocusShowsAnEmptySelectedRowUnderItsHeader() {
        let tree = ViewTree()
        let table = Table([String](), columns: [TableColumn("Name")], selection: Ref(0).binding, sort: Ref(TableSort()).binding) { row, _ in row }
        let focused = render(table, width: 8, height: 3, tree: tree)
        #expect(focused.lines == ["Name", "", ""])
        #expect(focused[7, 1].style != focused[7, 2].style)
        // One row: the header alone, nowhere to show a row.
        let short = render(table, width: 8, height: 1, tree: ViewTree())
        #expect(short.lines == ["Name"])
    }

    @Test func aScrollViewWithoutABarMarksTheThumbCellsOverItsContent() {
        let tree = ViewTree()
        let view = ScrollView(showsIndicators: false) { ForEach(manyLines, id: \.self) { Text($0) } }
        let focused = render(view, width: 8, height: 3, tree: tree)
        // The text is untouched; the thumb (one cell: 3 of 30 lines) is in the last column.
        #expect(focused.lines == ["line 0", "line 1", "line 2"])
        let focusStyle = tree.theme[.focus]
        #expect(focused[7, 0].style == focusStyle)
        #expect(focused[7, 1].style != focusStyle)
        #expect(focused[6, 0].style != focusStyle)
    }
}
