import Testing
@testable import AppletUI

@Suite("Grid")
@MainActor
struct GridTests {
    @Test func keyValueColumnsLineUp() {
        let grid = Grid(columns: 2) {
            Text("Name:"); Text("Ada")
            Text("E-mail:"); Text("ada@example.org")
            Text("Role:"); Text("admin")
        }
        let canvas = render(grid, width: 30, height: 4)
        #expect(canvas.lines == ["Name:   Ada", "E-mail: ada@example.org", "Role:   admin", ""])
        for y in 0..<3 { #expect(canvas[7, y].grapheme == " ") }   // the one-column gap
        // The grid is as wide as its columns: beside it, a stack puts the next view after them.
        let beside = render(HStack { grid; Text("|") }, width: 30, height: 3)
        #expect(beside.line(0) == "Name:   Ada            |")
    }

    @Test func gridRowsWithASpanningDivider() {
        let grid = Grid {
            GridRow { Text("Host"); Text("Load") }
            Divider()
            GridRow { Text("alpha"); Text("0.5") }
            GridRow { Text("b"); Text("12.25") }
        }
        let canvas = render(grid, width: 20, height: 5)
        #expect(canvas.lines == ["Host  Load", "───────────", "alpha 0.5", "b     12.25", ""])
    }

    @Test func aTrailingColumnThroughFrames() {
        let grid = Grid(spacing: 2) {
            GridRow { Text("a"); Text("1").frame(maxWidth: .max, alignment: .trailing) }
            GridRow { Text("bb"); Text("100").frame(maxWidth: .max, alignment: .trailing) }
        }
        #expect(render(grid, width: 20, height: 2).lines == ["a     1", "bb  100"])
    }

    @Test func cellAlignment() {
        let grid = Grid(columns: 2, alignment: .center) {
            Text("a"); Text("x\ny\nz")
            Text("ccc"); Text("w")
        }
        #expect(render(grid, width: 10, height: 4).lines == ["    x", " a  y", "    z", "ccc w"])
    }

    @Test func rowsAreAsTallAsTheirTallestCell() {
        let grid = Grid(columns: 3, rowSpacing: 1) {
            Text("a"); Text("1\n2"); Text("b")
            Text("c"); Text("d")                       // a short last row
        }
        #expect(render(grid, width: 10, height: 5).lines == ["a 1 b", "  2", "", "c d", ""])
    }

    @Test func columnsShrinkInProportion() {
        let grid = Grid(columns: 2) { Text("abcdefghijkl").lineLimit(1); Text("wxyz").lineLimit(1) }
        // Ideal 12 + 1 + 4 = 17 columns; on 9 the 8 left for cells are shared 6:2.
        #expect(render(grid, width: 9, height: 1).line(0) == "abcde… w…")
        let wrapping = Grid(columns: 2) { Text("aaaaaaaaaa"); Text("bbbbbbbbbb") }
        #expect(render(wrapping, width: 11, height: 3).lines == ["aaaaa bbbbb", "aaaaa bbbbb", ""])
    }

    @Test func focusGoesRowByRow() {
        let tree = ViewTree()
        var pressed: [String] = []
        let grid = Grid(columns: 2) {
            Button("A") { pressed.append("A") }; Button("B") { pressed.append("B") }
            Button("C") { pressed.append("C") }
        }
        let canvas = render(grid, width: 20, height: 2, tree: tree)
        #expect(canvas.lines == ["[ A ] [ B ]", "[ C ]"])
        for _ in 0..<3 {
            tree.handleKey(KeyEvent(.enter))
            tree.moveFocus()
        }
        #expect(pressed == ["A", "B", "C"])
    }

    @Test func gridRowOutsideAGridIsARow() {
        #expect(render(GridRow { Text("a"); Text("b") }, width: 5, height: 1).line(0) == "a b")
    }

    @Test(arguments: [(0, 0), (1, 1), (2, 1), (1, 3), (4, 2)])
    func tinySizesNeverCrash(width: Int, height: Int) {
        let view = Grid(columns: 3) {
            Text("中文"); Text("😀 x"); Button("OK") {}
            Divider(); Spacer(); ProgressBar(value: 0.5)
            Text("tail")
        }
        #expect(render(view, width: width, height: height).size == Size(width: width, height: height))
        #expect(render(Grid {}, width: width, height: height).size == Size(width: width, height: height))
        #expect(render(Grid { Divider(); GridRow {} }, width: width, height: height).size == Size(width: width, height: height))
    }

    // MARK: Hidden rows

    @Test func hidingARowLeavesTheOtherRowsWhereTheyWere() throws {
        // The widest label was in the hidden row: the other rows' second column once moved left.
        try Application.withCurrent(Application()) {
            let manager = WidgetManager("grid-rows", widgets: ["progress": .visible])
            let tree = ViewTree()
            let grid = Grid(spacing: 2) {
                GridRow { Text("ProgressBar"); Text("50%") }.widget("progress", in: manager)
                GridRow { Text("Gauge"); Text("72%") }
                GridRow { Text("Sparkline"); Text("▁▂▃") }
            }
            #expect(render(grid, width: 30, height: 3, tree: tree).lines == ["ProgressBar  50%", "Gauge        72%", "Sparkline    ▁▂▃"])
            try manager.hide("progress")
            // The row takes no space, and the columns keep their widths.
            #expect(render(grid, width: 30, height: 3, tree: tree).lines == ["Gauge        72%", "Sparkline    ▁▂▃", ""])
            // Row spacing is not left where the row was, either.
            let spaced = Grid(spacing: 2, rowSpacing: 1) {
                GridRow { Text("Gauge"); Text("72%") }
                GridRow { Text("ProgressBar"); Text("50%") }.widget("progress", in: manager)
                GridRow { Text("Sparkline"); Text("▁▂▃") }
            }
            try manager.show("progress")
            #expect(render(spaced, width: 30, height: 5, tree: tree).lines
                == ["Gauge        72%", "", "ProgressBar  50%", "", "Sparkline    ▁▂▃"])
            try manager.hide("progress")
            #expect(render(spaced, width: 30, height: 5, tree: tree).lines == ["Gauge        72%", "", "Sparkline    ▁▂▃", "", ""])
            // The same when the row goes with a transition (the real app animates): the widths
            // outlive the frames it takes.
            try manager.show("progress")
            let animated = ViewTree()
            animated.animationsEnabled = true
            var now = ContinuousClock.now
            animated.clock = { now }
            let revealed = Grid(spacing: 2) {
                GridRow { Text("ProgressBar"); Text("50%") }.widget("progress", in: manager, transition: .reveal(.milliseconds(100)))
                GridRow { Text("Gauge"); Text("72%") }
            }
            #expect(render(revealed, width: 30, height: 2, tree: animated).lines == ["ProgressBar  50%", "Gauge        72%"])
            try manager.hide("progress")
            for _ in 0..<3 {
                _ = render(revealed, width: 30, height: 2, tree: animated)
                now += .milliseconds(50)
            }
            #expect(render(revealed, width: 30, height: 2, tree: animated).lines == ["Gauge        72%", ""])
            // Outside a grid a hidden widget still takes no space at all.
            let stack = VStack(spacing: 1) { Text("a"); GridRow { Text("hidden") }.widget("progress", in: manager); Text("b") }
            #expect(render(stack, width: 10, height: 3, tree: tree).lines == ["a", "", "b"])
        }
    }
}
