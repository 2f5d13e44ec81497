import Testing
@testable import AppletUI

/// The size a view asks for when offered `proposal` (nil = its ideal size).
@MainActor
private func size<V: View>(_ view: V, width: Int? = nil, height: Int? = nil) -> Size {
    withNode(view) { $0.measure(ProposedSize(width: width, height: height)) }
}

@Suite("Display widgets")
@MainActor
struct DisplayWidgetTests {
    // MARK: ProgressBar

    @Test func progressBarHalf() {
        let canvas = render(ProgressBar(value: 0.5), width: 10, height: 1)
        #expect(canvas.line(0) == "█████░░░░░")
        #expect(canvas[4, 0].style == .plain)
        #expect(canvas[5, 0].style.attributes == .dim)
        #expect(canvas[9, 0].style.attributes == .dim)
    }

    @Test func progressBarPartialCells() {
        #expect(render(ProgressBar(value: 0.55), width: 10, height: 1).line(0) == "█████▌░░░░")
        let canvas = render(ProgressBar(value: 0.55), width: 10, height: 1)
        #expect(canvas[5, 0].grapheme == "▌")
        #expect(!canvas[5, 0].style.attributes.contains(.dim))
        // Every eighth of one cell.
        let expected = ["░", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"]
        for eighths in 0...8 {
            #expect(render(ProgressBar(value: Double(eighths), total: 8), width: 1, height: 1).line(0) == expected[eighths])
        }
        // Whole cells with a total: 3 of 4 over 8 cells.
        #expect(render(ProgressBar(value: 3, total: 4), width: 8, height: 1).line(0) == "██████░░")
    }

    @Test func progressBarLabel() {
        #expect(render(ProgressBar(value: 0.42, label: true), width: 20, height: 1).line(0) == "██████▋░░░░░░░░░ 42%")
        #expect(render(ProgressBar(value: 1, label: true), width: 10, height: 1).line(0) == "█████ 100%")
        #expect(render(ProgressBar(value: 0, label: true), width: 5, height: 1).line(0) == "░░ 0%")
        // Rounded down, without binary rounding errors: 0.29 is 29%, 0.999 is not yet 100%.
        #expect(render(ProgressBar(value: 0.29, label: true), width: 10, height: 1).line(0).hasSuffix(" 29%"))
        #expect(render(ProgressBar(value: 0.999, label: true), width: 10, height: 1).line(0).hasSuffix(" 99%"))
        // Too narrow for the label beside at least one cell of bar: the bar alone.
        #expect(render(ProgressBar(value: 0.5, label: true), width: 4, height: 1).line(0) == "██░░")
        #expect(render(ProgressBar(value: 0.5, label: true), width: 5, height: 1).line(0) == "▌ 50%")
    }

    @Test func progressBarClamps() {
        #expect(render(ProgressBar(value: 2), width: 4, height: 1).line(0) == "████")
        #expect(render(ProgressBar(value: -1), width: 4, height: 1).line(0) == "░░░░")
        #expect(render(ProgressBar(value: 5, total: 0), width: 4, height: 1).line(0) == "░░░░")
        #expect(render(ProgressBar(value: 5, total: -3), width: 4, height: 1).line(0) == "░░░░")
        #expect(render(ProgressBar(value: .nan), width: 4, height: 1).line(0) == "░░░░")
        #expect(render(ProgressBar(value: .infinity, label: true), width: 9, height: 1).line(0) == "████ 100%")
        #expect(render(ProgressBar(value: 1, total: .infinity), width: 4, height: 1).line(0) == "░░░░")
    }

    @Test func progressBarFillsTheOfferedWidth() {
        #expect(size(ProgressBar(value: 0.5), width: 37, height: 5) == Size(width: 37, height: 1))
        #expect(size(ProgressBar(value: 0.5)) == Size(width: 20, height: 1))
        let canvas = render(HStack(spacing: 1) { Text("CPU"); ProgressBar(value: 1); Text("|") }, width: 12, height: 1)
        #expect(canvas.line(0) == "CPU ██████ |")
        let stacked = render(VStack { ProgressBar(value: 0.5); Text("x") }, width: 4, height: 3)
        #expect(stacked.lines == ["██░░", "x", ""])
    }

    @Test func progressBarInheritsStyle() {
        let canvas = render(ProgressBar(value: 0.5).foregroundColor(.green).bold(), width: 4, height: 1)
        #expect(canvas[0, 0].style == Style(foreground: .green, attributes: .bold))
        #expect(canvas[3, 0].style == Style(foreground: .green, attributes: [.bold, .dim]))
    }

    // MARK: Gauge

    @Test func gaugeLine() {
        let canvas = render(Gauge(value: 42, in: 0...100, label: "CPU"), width: 23, height: 1)
        #expect(canvas.line(0) == "CPU [█████▉········] 42")
        #expect(canvas[10, 0].style == .plain)                   // the partial block
        #expect(canvas[11, 0].style.attributes == .dim)          // the empty part
        #expect(canvas[19, 0].grapheme == "]")
        #expect(size(Gauge(value: 42, in: 0...100, label: "CPU")) == Size(width: 23, height: 1))
        #expect(size(Gauge(value: 42, in: 0...100, label: "CPU"), width: 50) == Size(width: 50, height: 1))
        #expect(render(Gauge(value: 42, in: 0...100, label: "CPU"), width: 12, height: 1).line(0) == "CPU [█▎·] 42")
    }

    @Test func gaugeValuesAndClamping() {
        #expect(render(Gauge(value: 150, in: 0...100, label: "T"), width: 12, height: 1).line(0) == "T [████] 150")
        #expect(render(Gauge(value: -5, in: 0...100, label: "T"), width: 11, height: 1).line(0) == "T [····] -5")
        #expect(render(Gauge(value: 42.25, in: 0...100, label: "T"), width: 13, height: 1).line(0) == "T [█▋··] 42.3")
        #expect(render(Gauge(value: 15, in: 10...20, label: "T"), width: 11, height: 1).line(0) == "T [██··] 15")
        #expect(render(Gauge(value: 5, in: 5...5, label: "T"), width: 10, height: 1).line(0) == "T [····] 5")
        #expect(render(Gauge(value: 0.5, label: ""), width: 10, height: 1).line(0) == "[██··] 0.5")
        #expect(gaugeValueText(-0.5) == "-0.5")
        #expect(gaugeValueText(3) == "3")
        #expect(gaugeValueText(.nan) == "-")
    }

    @Test func gaugeWideLabelAndNarrowWidths() {
        #expect(render(Gauge(value: 42, in: 0...100, label: "温度"), width: 24, height: 1).line(0) == "温度 [█████▉········] 42")
        #expect(size(Gauge(value: 1, label: "温度")).width == 24)
        // No room for a bar: label and value, then cut.
        #expect(render(Gauge(value: 42, in: 0...100, label: "CPU"), width: 9, height: 1).line(0) == "CPU 42")
        #expect(render(Gauge(value: 42, in: 0...100, label: "CPU"), width: 4, height: 1).line(0) == "CPU…")
        #expect(render(Gauge(value: 42, in: 0...100, label: "CPU"), width: 1, height: 1).line(0) == "…")
        #expect(render(Gauge(value: 42, in: 0...100, label: "CPU"), width: 0, height: 1).lines == [""])
    }

    // MARK: Sparkline

    @Test func sparklineScalesMinToMax() {
        let values: [Double] = [1, 2, 3, 4, 5, 6, 7, 8]
        #expect(render(Sparkline(values), width: 10, height: 1).line(0) == "▁▂▃▄▅▆▇█")
        #expect(render(Sparkline([10, 0, 5]), width: 10, height: 1).line(0) == "█▁▅")
        #expect(size(Sparkline(values)) == Size(width: 8, height: 1))
        #expect(size(Sparkline(values), width: 3) == Size(width: 3, height: 1))
    }

    @Test func sparklineShowsTheLastValues() {
        let canvas = render(Sparkline([100, 1, 2, 3, 4, 5, 6, 7, 8]), width: 4, height: 1)
        #expect(canvas.line(0) == "▁▃▆█")          // 5...8, scaled over what is shown
        #expect(render(Sparkline([3, 9]), width: 1, height: 1).line(0) == "▄")
        let inStack = render(HStack { Sparkline([0, 1]); Text("|") }, width: 10, height: 1)
        #expect(inStack.line(0) == "▁█|")
    }

    @Test func sparklineEdgeCases() {
        #expect(render(Sparkline([]), width: 5, height: 1).line(0) == "")
        #expect(size(Sparkline([])) == Size(width: 0, height: 0))
        #expect(render(Sparkline([3, 3, 3]), width: 5, height: 1).line(0) == "▄▄▄")
        #expect(render(Sparkline([0, .nan, 1, .infinity]), width: 5, height: 1).line(0) == "▁ █")
        #expect(render(Sparkline([.nan]), width: 5, height: 1).line(0) == "")
        #expect(render(Sparkline([1, 2]), width: 0, height: 1).lines == [""])
        let styled = render(Sparkline([1, 2]).foregroundColor(.cyan), width: 2, height: 1)
        #expect(styled[1, 0].style.foreground == .cyan)
    }

    // MARK: Spinner

    @Test func spinnerFrames() {
        let line = (0..<5).map { render(Spinner(frame: $0, style: .line), width: 3, height: 1).line(0) }
        #expect(line == ["|", "/", "-", "\\", "|"])
        #expect(render(Spinner(frame: -1, style: .line), width: 3, height: 1).line(0) == "\\")
        let dots = (0..<11).map { render(Spinner(frame: $0), width: 1, height: 1).line(0) }
        #expect(dots == ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏", "⠋"])
        #expect(render(Spinner(frame: Int.min, style: .dots), width: 1, height: 1).line(0).count == 1)
        #expect(size(Spinner(frame: 0)) == Size(width: 1, height: 1))
    }

    @Test func spinnerTitle() {
        let canvas = render(Spinner(frame: 2, style: .dots, title: "Loading").foregroundColor(.yellow), width: 20, height: 1)
        #expect(canvas.line(0) == "⠹ Loading")
        #expect(canvas[0, 0].style.foreground == .yellow)
        #expect(canvas[2, 0].style.foreground == .yellow)
        #expect(size(Spinner(frame: 0, title: "Loading")) == Size(width: 9, height: 1))
        #expect(render(Spinner(frame: 0, title: "Loading"), width: 5, height: 1).line(0) == "⠋ Lo…")
        #expect(render(Spinner(frame: 0, title: "Loading"), width: 2, height: 1).line(0) == "⠋")
        #expect(render(Spinner(frame: 0, title: "Loading"), width: 1, height: 1).line(0) == "⠋")
        #expect(render(Spinner(frame: 0, title: "読み込み"), width: 6, height: 1).line(0) == "⠋ 読…")
        #expect(render(Spinner(frame: 0, title: "読み込み"), width: 20, height: 1).line(0) == "⠋ 読み込み")
    }

    // MARK: Box

    @Test func boxWithTitle() {
        let canvas = render(Box(title: "Title") { Text("hello") }, width: 12, height: 3)
        #expect(canvas.lines == ["┌─ Title ──┐", "│hello     │", "└──────────┘"])
        // The border and title take the theme's roles; the content keeps its own style.
        let theme = ResolvedTheme.standard
        #expect(canvas[3, 0].style == theme[.title])           // title (the role is bold)
        #expect(canvas[3, 0].style.attributes.contains(.bold))
        #expect(canvas[0, 0].style == theme[.border])          // border
        #expect(canvas[2, 0].style == theme[.border])          // the space before the title
        #expect(canvas[1, 1].style == .plain)                 // content
        // In monochrome the roles fall back to attributes: a dim border, a bold title.
        let monoTree = ViewTree()
        monoTree.theme = Theme.dark.resolved(for: .none)
        let mono = render(Box(title: "Title") { Text("hello") }, width: 12, height: 3, tree: monoTree)
        #expect(mono[0, 0].style == Style(attributes: .dim))
        #expect(mono[3, 0].style == Style(attributes: .bold))
        let rounded = render(Box(title: "T", style: .rounded) { Text("x") }, width: 7, height: 3)
        #expect(rounded.lines == ["╭─ T ─╮", "│x    │", "╰─────╯"])
        let untitled = render(Box { Text("hi") }, width: 4, height: 3)
        #expect(untitled.lines == ["┌──┐", "│hi│", "└──┘"])
    }

    @Test func boxSizesToItsContent() {
        #expect(size(Box { Text("hello") }) == Size(width: 7, height: 3))
        #expect(size(Box(title: "A title") { Text("x") }) == Size(width: 12, height: 3))
        #expect(size(Box { Text("hello") }, width: 4, height: 2) == Size(width: 4, height: 2))
        let row = render(HStack { Box { Text("hi") }; Text("x") }, width: 10, height: 3)
        #expect(row.lines == ["┌──┐x", "│hi│", "└──┘"])
        let column = render(Box(title: "Log") { VStack { Text("a"); Text("b") } }, width: 8, height: 5)
        #expect(column.lines == ["┌─ Log ┐", "│a     │", "│b     │", "│      │", "└──────┘"])
        // Content too big is cut inside the border: the text wraps, and its one visible line says so.
        let cut = render(Box { Text("a long line") }, width: 6, height: 3)
        #expect(cut.lines == ["┌────┐", "│a…  │", "└────┘"])
        let oneLine = render(Box { Text("a long line").lineLimit(1) }, width: 6, height: 3)
        #expect(oneLine.lines == ["┌────┐", "│a l…│", "└────┘"])
    }

    @Test func boxTitleTruncation() {
        #expect(render(Box(title: "A long title") { EmptyView() }, width: 10, height: 2).line(0) == "┌─ A lo… ┐")
        #expect(render(Box(title: "中文标题") { EmptyView() }, width: 10, height: 2).line(0) == "┌─ 中文… ┐")
        #expect(render(Box(title: "中文标题") { EmptyView() }, width: 9, height: 2).line(0) == "┌─ 中… ─┐")
        #expect(render(Box(title: "中文") { EmptyView() }, width: 12, height: 2).line(0) == "┌─ 中文 ───┐")
        #expect(render(Box(title: "Title") { EmptyView() }, width: 6, height: 2).line(0) == "┌─ … ┐")
        #expect(render(Box(title: "Title") { EmptyView() }, width: 5, height: 2).line(0) == "┌───┐")
        #expect(render(Box(title: "") { EmptyView() }, width: 5, height: 2).line(0) == "┌───┐")
    }

    @Test func boxTooSmallDrawsWhatFits() {
        #expect(render(Box(title: "T") { Text("x") }, width: 2, height: 2).lines == ["┌┐", "└┘"])
        #expect(render(Box { Text("x") }, width: 1, height: 3).lines == ["│", "│", "│"])
        #expect(render(Box { Text("x") }, width: 5, height: 1).lines == ["─────"])
        #expect(render(Box { Text("x") }, width: 1, height: 1).lines == ["─"])
        #expect(render(Box(title: "Title") { Text("x") }, width: 12, height: 1).lines == ["── Title ───"])
        #expect(render(Box { Text("x") }, width: 0, height: 0).lines == [])
        #expect(render(Box { Text("x") }, width: 3, height: 0).lines == [])
    }

    @Test func boxStyleAndFocusPassThrough() {
        let tree = ViewTree()
        var pressed = 0
        let view = Box(title: "B") { Button("OK") { pressed += 1 } }.foregroundColor(.blue)
        let canvas = render(view, width: 10, height: 3, tree: tree)
        #expect(canvas.lines == ["┌─ B ────┐", "│[ OK ]  │", "└────────┘"])
        #expect(canvas[0, 0].style.foreground == .blue)
        #expect(canvas[3, 0].style == Style(foreground: .blue, attributes: .bold))
        #expect(canvas[1, 1].style.foreground == .blue)
        #expect(canvas[1, 1].style.attributes.contains(.reverse))   // the button inside has focus
        #expect(tree.handleKey(KeyEvent(.enter)))
        #expect(pressed == 1)
    }

    // MARK: Label

    @Test func labelWithKey() {
        let canvas = render(Label("Save", key: "ctrl-s"), width: 20, height: 1)
        #expect(canvas.line(0) == "Save  Ctrl-S")
        #expect(canvas[0, 0].style == .plain)
        #expect(canvas[6, 0].style.attributes == .dim)
        #expect(canvas[11, 0].style.attributes == .dim)
        #expect(size(Label("Save", key: "ctrl-s")) == Size(width: 12, height: 1))
        let bold = render(Label("Quit", key: "q").bold(), width: 20, height: 1)
        #expect(bold.line(0) == "Quit  q")
        #expect(bold[0, 0].style.attributes == .bold)
        #expect(bold[6, 0].style.attributes == [.bold, .dim])
        #expect(render(Label("Only text", key: ""), width: 20, height: 1).line(0) == "Only text")
    }

    @Test func labelKeyFormatting() {
        #expect(Label.displayKey("ctrl-s") == "Ctrl-S")
        #expect(Label.displayKey("shift-tab") == "Shift-Tab")
        #expect(Label.displayKey("ctrl+shift+p") == "Ctrl-Shift-P")
        #expect(Label.displayKey("esc") == "Esc")
        #expect(Label.displayKey("f5") == "F5")
        #expect(Label.displayKey("pageDown") == "PageDown")
        #expect(Label.displayKey("q") == "q")
        #expect(Label.displayKey("?") == "?")
        #expect(Label.displayKey("+") == "+")
        #expect(Label.displayKey("ctrl--") == "Ctrl--")
        #expect(Label.displayKey("ctrl-+") == "Ctrl-+")
        #expect(Label.displayKey("") == "")
    }

    @Test func labelNarrowAndWide() {
        #expect(render(Label("Save", key: "ctrl-s"), width: 10, height: 1).line(0) == "S…  Ctrl-S")
        #expect(render(Label("Save", key: "ctrl-s"), width: 9, height: 1).line(0) == "…  Ctrl-S")
        #expect(render(Label("Save", key: "ctrl-s"), width: 8, height: 1).line(0) == "Save")
        #expect(render(Label("Save", key: "ctrl-s"), width: 3, height: 1).line(0) == "Sa…")
        #expect(render(Label("Save", key: "ctrl-s"), width: 0, height: 1).lines == [""])
        let wide = render(Label("保存", key: "ctrl-s"), width: 20, height: 1)
        #expect(wide.line(0) == "保存  Ctrl-S")
        #expect(wide[6, 0].grapheme == "C")
        #expect(wide[6, 0].style.attributes == .dim)
        #expect(render(Label("保存する", key: "ctrl-s"), width: 12, height: 1).line(0) == "保…  Ctrl-S")
    }

    // MARK: Everything, in tiny areas

    @Test(arguments: [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 3), (3, 2), (5, 1), (7, 4)])
    func tinyAreasNeverCrash(width: Int, height: Int) {
        let view = Box(title: "中文 title 😀", style: .rounded) {
            VStack {
                ProgressBar(value: 0.37, label: true)
                Gauge(value: 42, in: 0...100, label: "温度")
                Sparkline([1, 5, 2, 8])
                Spinner(frame: 3, title: "読み込み")
                Label("保存", key: "ctrl-s")
            }
        }
        let canvas = render(view, width: width, height: height)
        #expect(canvas.size == Size(width: width, height: height))
        for widget in [AnyView(ProgressBar(value: 0.5, label: true)), AnyView(Gauge(value: 1, label: "中")),
                       AnyView(Sparkline([1, 2])), AnyView(Spinner(frame: 1, title: "中")),
                       AnyView(Label("中", key: "ctrl-x")), AnyView(Box(title: "中") { Text("中") })] {
            #expect(render(widget, width: width, height: height).size == Size(width: width, height: height))
        }
    }
}
