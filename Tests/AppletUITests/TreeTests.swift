import Synchronization
import Testing
@testable import AppletUI

private typealias TreeValue<T: Sendable> = Ref<T>

private let project = [
    TreeItem(id: "src", title: "Sources", children: [
        TreeItem(id: "ui", title: "AppletUI", children: [TreeItem(id: "ui/t", title: "Table.swift")]),
        TreeItem(id: "term", title: "Terminal", children: [
            TreeItem(id: "term/c", title: "Canvas.swift"),
            TreeItem(id: "term/e", title: "Event.swift"),
        ]),
    ]),
    TreeItem(id: "tests", title: "Tests", children: [TreeItem(id: "tests/l", title: "ListTests.swift")]),
    TreeItem(id: "readme", title: "README.md"),
]

@Suite("Tree")
@MainActor
struct TreeTests {
    @MainActor
    private struct Fixture {
        let expanded: TreeValue<Set<String>>
        let selection: TreeValue<String?>
        let tree = ViewTree()
        var events: [TreeEvent] { eventLog.value }
        let eventLog = TreeValue<[TreeEvent]>([])

        init(expanded: Set<String>, selection: String?) {
            self.expanded = TreeValue(expanded)
            self.selection = TreeValue(selection)
        }

        @MainActor var view: some View {
            let log = eventLog
            return Tree(project, expanded: expanded.binding, selection: selection.binding)
                .onEvent { (event: TreeEvent) in log.storage.withLock { $0.append(event) } }
        }

        @MainActor func draw(width: Int = 24, height: Int = 8) -> Canvas { render(view, width: width, height: height, tree: tree) }
        @MainActor func key(_ code: KeyCode) { #expect(tree.handleKey(KeyEvent(code))) }
    }

    @Test func drawsGuidesAndMarkers() {
        let f = Fixture(expanded: ["src", "term"], selection: "term")
        var canvas = f.draw()
        #expect(canvas.lines == ["▾ Sources",
                                 "├─ ▸ AppletUI",
                                 "└─ ▾ Terminal",
                                 "   ├─ Canvas.swift",
                                 "   └─ Event.swift",
                                 "▸ Tests",
                                 "README.md",
                                 ""])
        let selection = ResolvedTheme.standard[.selection]
        #expect(canvas[5, 2].style == selection)                    // "Terminal"
        #expect(canvas[23, 2].style == selection)                   // across the full width
        #expect(canvas[0, 1].style == ResolvedTheme.standard[.border])   // guides in the border style
        #expect(canvas[5, 1].style == .plain)
        f.expanded.set(["src", "term", "ui"])
        canvas = f.draw()
        #expect(canvas.lines == ["▾ Sources",
                                 "├─ ▾ AppletUI",
                                 "│  └─ Table.swift",
                                 "└─ ▾ Terminal",
                                 "   ├─ Canvas.swift",
                                 "   └─ Event.swift",
                                 "▸ Tests",
                                 "README.md"])
    }

    @Test func selectionIsDimmerWithoutFocus() {
        let f = Fixture(expanded: [], selection: "tests")
        var canvas = Canvas(size: Size(width: 12, height: 3))
        f.tree.render(f.view, in: canvas.bounds, on: &canvas, isActive: false)
        #expect(canvas[2, 1].style.attributes.contains(.dim))
        #expect(canvas[2, 1].style.background == ResolvedTheme.standard[.selection].background)
    }

    @Test func expandMoveIntoAndBackOut() {
        let f = Fixture(expanded: [], selection: "src")
        #expect(f.draw().lines == ["▸ Sources", "▸ Tests", "README.md", "", "", "", "", ""])
        f.key(.right)                                               // expands
        #expect(f.expanded.value == ["src"])
        #expect(f.draw().lines.prefix(4) == ["▾ Sources", "├─ ▸ AppletUI", "└─ ▸ Terminal", "▸ Tests"])
        f.key(.char("l"))                                           // open: to the first child
        #expect(f.selection.value == "ui")
        _ = f.draw()
        f.key(.char("j"))
        f.key(.right)
        #expect(f.expanded.value == ["src", "term"])
        _ = f.draw()
        f.key(.right)
        #expect(f.selection.value == "term/c")
        _ = f.draw()
        f.key(.right)                                               // a leaf: nothing
        #expect(f.selection.value == "term/c")
        f.key(.left)                                                // a leaf: to the parent
        #expect(f.selection.value == "term")
        _ = f.draw()
        f.key(.char("h"))                                           // open: collapses
        #expect(f.expanded.value == ["src"])
        #expect(f.selection.value == "term")
        _ = f.draw()
        f.key(.left)                                                // closed: to the parent
        #expect(f.selection.value == "src")
        #expect(f.events == [.expanded("src"), .selected("ui"), .selected("term"), .expanded("term"),
                             .selected("term/c"), .selected("term"), .collapsed("term"), .selected("src")])
        let canvas = f.draw()
        #expect(canvas.lines.prefix(4) == ["▾ Sources", "├─ ▸ AppletUI", "└─ ▸ Terminal", "▸ Tests"])
        #expect(canvas[2, 0].style == ResolvedTheme.standard[.selection])
    }

    @Test func enterTogglesBranchesAndActivatesLeaves() {
        let f = Fixture(expanded: [], selection: "tests")
        _ = f.draw()
        f.key(.enter)
        #expect(f.expanded.value == ["tests"])
        _ = f.draw()
        f.key(.char(" "))
        #expect(f.expanded.value == [])
        _ = f.draw()
        f.key(.char("G"))
        #expect(f.selection.value == "readme")
        f.key(.enter)
        f.key(.home)
        #expect(f.selection.value == "src")
        f.key(.end)
        #expect(f.events == [.expanded("tests"), .collapsed("tests"), .selected("readme"), .activated("readme"),
                             .selected("src"), .selected("readme")])
        #expect(!f.tree.handleKey(KeyEvent(.char("x"))))
        #expect(!f.tree.handleKey(KeyEvent(.tab)))
        #expect(!f.tree.handleKey(KeyEvent(.escape)))
        #expect(!f.tree.handleKey(KeyEvent(.char("c"), modifiers: .ctrl)))
    }

    @Test func noSelectionShowsTheFirstRowAndHiddenSelectionItsAncestor() {
        let f = Fixture(expanded: ["src", "term"], selection: nil)
        var canvas = f.draw()
        #expect(canvas[2, 0].style == ResolvedTheme.standard[.selection])
        f.key(.down)
        #expect(f.selection.value == "ui")
        // The selected file's folder is closed from outside: the folder shows selected.
        f.selection.set("term/e")
        f.expanded.set(["src"])
        canvas = f.draw()
        #expect(canvas.line(2) == "└─ ▸ Terminal")
        #expect(canvas[5, 2].style == ResolvedTheme.standard[.selection])
        f.key(.up)
        #expect(f.selection.value == "ui")
    }

    @Test func clicksSelectAndMarkersToggle() {
        let f = Fixture(expanded: ["src"], selection: "src")
        _ = f.draw()
        // A click on the title of "Terminal" selects it.
        #expect(f.tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 8, y: 2))))
        #expect(f.selection.value == "term")
        #expect(f.expanded.value == ["src"])
        // A click on its marker opens it.
        f.tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 3, y: 2)))
        #expect(f.expanded.value == ["src", "term"])
        let canvas = f.draw()
        #expect(canvas.line(3) == "   ├─ Canvas.swift")
        f.tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 3, y: 2)))
        #expect(f.selection.value == "tests")
        f.tree.handleMouse(MouseEvent(kind: .scrollUp, position: Point(x: 3, y: 2)))
        #expect(f.selection.value == "term")
        #expect(f.events == [.selected("term"), .expanded("term"), .selected("tests"), .selected("term")])
    }

    @Test func scrollsToKeepTheSelectionVisible() {
        let leaves = (0..<1000).map { TreeItem(id: "f\($0)", title: "file \($0)") }
        let expanded = TreeValue<Set<String>>(["root"])
        let selection = TreeValue<String?>("root")
        let view = Tree([TreeItem(id: "root", title: "root", children: leaves)], expanded: expanded.binding, selection: selection.binding)
        let tree = ViewTree()
        _ = render(view, width: 16, height: 4, tree: tree)
        tree.handleKey(KeyEvent(.end))
        var canvas = render(view, width: 16, height: 4, tree: tree)
        #expect(selection.value == "f999")
        #expect(canvas.lines == ["├─ file 996", "├─ file 997", "├─ file 998", "└─ file 999"])
        tree.handleKey(KeyEvent(.pageUp))
        #expect(selection.value == "f995")
        canvas = render(view, width: 16, height: 4, tree: tree)
        #expect(canvas.line(0) == "├─ file 995")
    }

    @Test func branchesWhoseChildrenComeLater() {
        let expanded = TreeValue<Set<String>>([])
        let selection = TreeValue<String?>(nil)
        var events: [TreeEvent] = []
        let view = Tree([TreeItem(id: "remote", title: "Remote", hasChildren: true)], expanded: expanded.binding, selection: selection.binding)
            .onEvent { (event: TreeEvent) in events.append(event) }
        let tree = ViewTree()
        #expect(render(view, width: 10, height: 2, tree: tree).line(0) == "▸ Remote")
        tree.handleKey(KeyEvent(.right))
        #expect(events == [.expanded("remote")])
        #expect(render(view, width: 10, height: 2, tree: tree).lines == ["▾ Remote", ""])
        tree.handleKey(KeyEvent(.right))                            // open but empty: nothing
        #expect(selection.value == nil)
        tree.handleKey(KeyEvent(.enter))                            // closes it
        #expect(expanded.value == [])
    }

    @Test func longAndWideTitlesAreCut() {
        let items = [TreeItem(id: "a", title: "日本語のファイル", children: [TreeItem(id: "b", title: "averyverylongname")])]
        let view = Tree(items, expanded: TreeValue<Set<String>>(["a"]).binding, selection: TreeValue<String?>("a").binding)
        #expect(render(view, width: 9, height: 2).lines == ["▾ 日本語…", "└─ avery…"])
    }

    @Test func disabledTreeTakesNoFocusOrKeys() {
        let f = Fixture(expanded: [], selection: "src")
        let canvas = render(f.view.disabled(), width: 20, height: 3, tree: f.tree)
        #expect(!f.tree.hasFocusableWidgets)
        #expect(!f.tree.handleKey(KeyEvent(.right)))
        #expect(f.expanded.value == [])
        #expect(canvas[2, 0].style.attributes.contains(.dim))
    }

    @Test func tinySizesAndEmptyTrees() {
        let f = Fixture(expanded: ["src", "term"], selection: "src")
        #expect(render(f.view, width: 0, height: 0).lines == [])
        #expect(render(f.view, width: 1, height: 1).lines == ["▾"])
        #expect(render(f.view, width: 3, height: 1).lines == ["▾ …"])
        f.selection.set("term/e")                                   // deep: only guides fit
        #expect(render(f.view, width: 2, height: 1).lines == [""])
        #expect(render(f.view, width: 7, height: 1).lines == ["   └─ …"])
        let empty = Tree([], expanded: TreeValue<Set<String>>([]).binding, selection: TreeValue<String?>(nil).binding)
        let tree = ViewTree()
        #expect(render(empty, width: 5, height: 2, tree: tree).lines == ["", ""])
        #expect(!tree.handleKey(KeyEvent(.down)))
    }
}
