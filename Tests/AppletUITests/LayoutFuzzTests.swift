import AppletTesting
import Foundation
import Testing
import AppletUI

/// Layout fuzz (issue 9, item 5): every view, at the edge sizes and at random sizes in
/// `0...300 x 0...100`, must not crash and must draw nothing outside the rectangle it is given.
///
/// Each size is drawn three ways:
/// - *margin*: in a rectangle 2 columns / 1 row in from every side of a larger canvas whose every
///   cell holds a sentinel; every cell outside the rectangle must still hold it afterwards;
/// - *edge*: on a canvas exactly the rectangle's size, at the origin (drawing that runs past an
///   edge of the canvas would crash);
/// - *resize*: with one tree kept across all the sizes, as a resized pane keeps it, and a key sent
///   to the focused widget after each frame (scroll offsets, cursors and searches that were right
///   for a larger size must still fit a smaller one), checked as in *margin*.
///
/// The sizes come from a seeded generator: a failure names the seed, and `LAYOUT_FUZZ_SEED=<n>`
/// runs the same sizes again (or other ones).
enum LayoutFuzz {
    /// A named view to fuzz; `make` builds it with bindings of its own (once per pass).
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let make: @MainActor @Sendable () -> AnyView
        var testDescription: String { name }

        init<V: View>(_ name: String, _ make: @escaping @MainActor @Sendable () -> V) {
            self.name = name
            self.make = { AnyView(make()) }
        }
    }

    static let seed: UInt64 = ProcessInfo.processInfo.environment["LAYOUT_FUZZ_SEED"].flatMap { UInt64($0) }
        ?? 0x5EED_0009_0005_2026

    static let edgeSizes: [Size] = [
        Size(width: 0, height: 0), Size(width: 1, height: 1), Size(width: 0, height: 100), Size(width: 300, height: 0),
        Size(width: 1, height: 100), Size(width: 300, height: 1), Size(width: 300, height: 100),
    ]

    /// The edge sizes, then random ones: most over the whole range, some small (where layouts
    /// run out of room for borders, labels and scroll bars).
    static let sizes: [Size] = {
        var random = SeededRandom(seed: seed)
        let wide = (0..<17).map { _ in Size(width: Int.random(in: 0...300, using: &random), height: Int.random(in: 0...100, using: &random)) }
        let small = (0..<8).map { _ in Size(width: Int.random(in: 0...12, using: &random), height: Int.random(in: 0...6, using: &random)) }
        return edgeSizes + wide + small
    }()

    /// Keys sent between frames of the *resize* pass, in turn.
    static let keys: [KeyEvent] = [
        KeyEvent(.end), KeyEvent(.pageDown), KeyEvent(.right), KeyEvent(.char("/")), KeyEvent(.char("日")),
        KeyEvent(.down), KeyEvent(.enter), KeyEvent(.escape), KeyEvent(.left), KeyEvent(.home), KeyEvent(.up),
        KeyEvent(.char(" ")), KeyEvent(.pageUp), KeyEvent(.down, modifiers: .shift), KeyEvent(.backspace),
    ]

    /// What every cell holds before drawing: a character and colours no view draws with.
    static let sentinel = Cell("¤", style: Style(foreground: .rgb(1, 2, 3), background: .rgb(4, 5, 6), attributes: [.blink]))

    // MARK: Content

    static let longLine = "The quick brown fox 日本語のテキスト jumps over 😀👍🏽 the lazy dog, " +
        String(repeating: "and keeps running without a single break ", count: 12) + "end."
    static let paragraph = (0..<40).map { "\($0): \(longLine.prefix(20 + $0 * 7))" }.joined(separator: "\n")
    static let wideWord = String(repeating: "日本語", count: 60)
    static let emojiWord = String(repeating: "👨‍👩‍👧‍👦😀🇯🇵", count: 40)

    /// Rows of every kind (wide, emoji, very long, empty), made once: views ask for them a lot.
    static let rowTexts: [String] = (0..<1000).map { i in
        switch i % 4 {
        case 0: "row \(i) 日本語 \(wideWord.prefix(i % 50))"
        case 1: "row \(i) 😀 \(emojiWord.prefix(i % 30))"
        case 2: "row \(i) " + String(repeating: "x", count: i % 400)
        default: ""
        }
    }

    static func rowText(_ i: Int) -> String { rowTexts[i % rowTexts.count] }

    static let treeItems: [TreeItem] = (0..<6).map { a in
        TreeItem(id: "a\(a)", title: "Folder \(a) 日本語 \(longLine.prefix(a * 20))", children: (0..<8).map { b in
            TreeItem(id: "a\(a)b\(b)", title: "Sub \(b) 😀", children: (0..<5).map { c in
                TreeItem(id: "a\(a)b\(b)c\(c)", title: "Leaf \(c) \(wideWord.prefix(c * 10))", children: [
                    TreeItem(id: "a\(a)b\(b)c\(c)d", title: "Deep 👨‍👩‍👧‍👦 \(longLine)"),
                ])
            })
        })
    }

    static var allTreeIDs: Set<String> {
        var ids = Set<String>()
        func walk(_ items: [TreeItem]) { for item in items { ids.insert(item.id); walk(item.children) } }
        walk(treeItems)
        return ids
    }

    static let columns = [
        TableColumn("Name 日本語", width: .flexible(2)),
        TableColumn("Size", width: .fixed(8), alignment: .trailing),
        TableColumn("Kind 😀", width: .flexible(1)),
        TableColumn("Wide fixed", width: .fixed(120)),
        TableColumn("", width: .fixed(0)),
    ]

    // MARK: Cases

    static let cases: [Case] = [
        Case("EmptyView") { EmptyView() },
        Case("Text") { Text(longLine + "\n" + paragraph + "\n" + wideWord + "\n" + emojiWord) },
        Case("Text.lineLimit") { Text(paragraph).lineLimit(2) },
        Case("Text empty and controls") { Text("\n\n\t\u{1B}[31m\u{7}x\r\n\u{200B}\u{301}") },
        Case("Label") { Label(longLine, key: "ctrl+shift+日") },
        Case("Button") { Button("OK 😀 日本語 " + longLine) {} },
        Case("Toggle") { Toggle(longLine, isOn: Ref(true).binding) },
        Case("Checkbox") { Checkbox(wideWord, isOn: Ref(false).binding) },
        Case("Gauge") { Gauge(value: 0.73, label: "CPU 日本語 " + longLine) },
        Case("Gauge odd values") {
            VStack {
                Gauge(value: .nan, label: "nan")
                Gauge(value: -.infinity, in: -5...5, label: "")
                Gauge(value: 1e300, in: 3...3, label: "😀")
                Gauge(value: -12.345, in: -20...(-10), label: wideWord)
            }
        },
        Case("ProgressBar") {
            VStack {
                ProgressBar(value: 0.42, label: true)
                ProgressBar(value: 7, total: 0, label: true)
                ProgressBar(value: .nan, total: .infinity)
                ProgressBar(value: 1, label: true)
            }
        },
        Case("Sparkline") {
            VStack {
                Sparkline((0..<500).map { sin(Double($0) / 7) * Double($0) })
                Sparkline([])
                Sparkline([3])
                Sparkline([.nan, .infinity, -.infinity, 1, -1e308, 1e308])
            }
        },
        Case("Spinner") {
            HStack {
                Spinner(frame: -7, style: .dots, title: longLine)
                Spinner(frame: Int.max, style: .line, title: "")
                Spinner(frame: 3)
            }
        },
        Case("Box square") { Box(title: longLine) { Text(paragraph) } },
        Case("Box rounded nested") {
            Box(title: "😀", style: .rounded) {
                Box(title: wideWord) { Box { Text(wideWord + "\n" + emojiWord) } }
            }
        },
        Case("Frame fixed larger than offered") {
            HStack { Text(wideWord).frame(width: 500, height: 200, alignment: .bottomTrailing); Text("|") }
        },
        Case("Frame zero") { VStack { Text(longLine).frame(width: 0, height: 0); Button("x") {}.frame(width: 0) } },
        Case("Frame flexible") {
            VStack {
                Text(emojiWord).frame(minWidth: 400, maxWidth: .max, minHeight: 150, alignment: .bottomTrailing)
                Text("tail").frame(maxWidth: .max, maxHeight: .max, alignment: .topTrailing)
            }
        },
        Case("Padding") {
            VStack {
                Text(wideWord).padding(3)
                Text("huge").padding(.all, 400)
                Text(emojiWord).padding([.leading, .bottom], 7).padding(.horizontal, 0)
            }
        },
        Case("Styled and themed") {
            ZStack {
                Text(paragraph).bold().italic().underline().reverse().dim()
                Text("").frame(width: 500, height: 150).backgroundColor(.blue)
                Text(wideWord).foregroundColor(.red).themed(.error)
            }
        },
        Case("VStack") {
            VStack(alignment: .end, spacing: 3) {
                Text(longLine); Spacer(minLength: 50); Divider(); Text(wideWord); Spacer(); Text(emojiWord)
            }
        },
        Case("HStack") {
            HStack(alignment: .center, spacing: 5) {
                Text(wideWord); Divider(); Spacer(minLength: 200); Text(paragraph); Button("OK") {}; Text(emojiWord)
            }
        },
        Case("Nested stacks") {
            VStack(spacing: 1) {
                ForEach(0..<6) { i in
                    HStack(alignment: .end, spacing: i) {
                        ForEach(0..<5) { j in
                            VStack(alignment: .center) { Text(rowText(i * 5 + j)); Divider(); Text("\(j) 😀") }
                        }
                        Spacer()
                    }
                }
            }
        },
        Case("Spacer and Divider alone") { VStack { Spacer(minLength: 300); HStack { Divider(); Spacer(minLength: 400) }; Divider() } },
        Case("ZStack") {
            ZStack(alignment: .bottomTrailing) {
                Text(paragraph)
                Box(title: "overlay") { Text(wideWord) }.frame(width: 350, height: 120)
                Button("😀") {}
                Divider()
            }
        },
        Case("Grid") {
            Grid(alignment: .bottomTrailing, spacing: 3, rowSpacing: 2) {
                GridRow { Text("Name"); Text(wideWord); Text("😀") }
                Divider()
                ForEach(0..<30) { i in GridRow { Text(rowText(i)); Text("\(i)"); Button("Open \(i)") {} } }
                Text("spans the whole row " + longLine)
            }
        },
        Case("Grid columns") {
            Grid(columns: 7, spacing: 0) { ForEach(0..<200) { i in Text(rowText(i)) } }
        },
        Case("List") {
            List(count: 1000, selection: Ref(998).binding) { i in Text(rowText(i)) }
                .multiSelection(Ref<Set<Int>>([1, 3, 998, 999]).binding)
                .searchable { rowText($0) }
        },
        Case("List data") {
            List(["a", wideWord, emojiWord, "", longLine], selection: Ref(4).binding) { s in HStack { Text(s); Spacer(); Text("›") } }
        },
        Case("List empty") { List(count: 0, selection: Ref(5).binding) { i in Text("\(i)") } },
        Case("LogView") { LogView(lines: (0..<600).map(rowText), follow: Ref(true).binding) },
        Case("LogView provider") { LogView(count: 100_000) { i in rowText(i) } },
        Case("RadioGroup vertical") { RadioGroup((0..<40).map(rowText), selection: Ref(39).binding) },
        Case("RadioGroup horizontal") { RadioGroup([wideWord, "b", emojiWord, longLine], selection: Ref(2).binding, axis: .horizontal) },
        // The widget of Docs/Contributing.md (ContributingWidgetTests.swift).
        Case("TagPicker") { TagPicker([wideWord, "b", emojiWord, longLine], selection: Ref(Set([wideWord, "b"])).binding).limit(3) },
        Case("ScrollView vertical") {
            ScrollView(spacing: 1) { ForEach(0..<200) { i in Text(rowText(i)) }; Box { Text(wideWord) } }
        },
        Case("ScrollView horizontal") {
            ScrollView(.horizontal, spacing: 2) { ForEach(0..<60) { i in VStack { Text(rowText(i)); Text(wideWord) } } }
        },
        Case("ScrollView no indicators") { ScrollView(showsIndicators: false) { Text(paragraph + "\n" + paragraph) } },
        Case("SplitView horizontal") {
            SplitView(ratio: Ref(0.3).binding) { Text(paragraph) } second: { List(count: 300, selection: Ref(150).binding) { Text(rowText($0)) } }
        },
        Case("SplitView vertical extremes") {
            VStack {
                SplitView(.vertical, ratio: Ref(1.0).binding, minimum: 50) { Text(wideWord) } second: { Text(emojiWord) }
                SplitView(ratio: Ref(0.0).binding, minimum: 0) { Box { Text("a") } } second: { Box { Text(longLine) } }
                SplitView(ratio: Ref(Double.nan).binding) { Text("nan") } second: { Text("ratio") }
            }
        },
        Case("Table") {
            Table((0..<200).map { $0 }, columns: columns, selection: Ref(199).binding,
                  sort: Ref(TableSort(column: 0, ascending: false)).binding) { row, column in
                column == 1 ? "\(row * 1234)" : rowText(row + column)
            }
        },
        Case("Table provider") {
            Table(columns: columns, count: 50_000, selection: Ref(25_000).binding, sort: Ref(TableSort.none).binding) { row, column in
                "\(row):\(column) \(wideWord.prefix(row % 20))"
            }
        },
        Case("Table no columns") {
            Table(columns: [], count: 10, selection: Ref(0).binding, sort: Ref(TableSort(column: 3)).binding) { _, _ in "x" }
        },
        Case("Tabs") {
            Tabs(["General", wideWord, "😀 Emoji", longLine, "", "Last"], selection: Ref(3).binding) { index in
                VStack { Text("Page \(index) " + longLine); List(count: 100, selection: Ref(50).binding) { Text(rowText($0)) } }
            }
        },
        Case("Tabs empty") { Tabs([], selection: Ref(2).binding) { _ in Text("nothing") } },
        Case("TextField") { TextField("Placeholder 日本語", text: Ref(longLine + wideWord + emojiWord).binding) },
        Case("TextField secure and empty") {
            VStack {
                TextField("", text: Ref(emojiWord).binding).secure()
                TextField(longLine, text: Ref("").binding)
            }
        },
        Case("TextArea") { TextArea(text: Ref(paragraph + "\n" + wideWord + "\n\n" + emojiWord).binding, placeholder: "Write") },
        Case("TextArea empty") { TextArea(text: Ref("").binding, placeholder: longLine) },
        Case("Tree") { Tree(treeItems, expanded: Ref(allTreeIDs).binding, selection: Ref<String?>("a5b7c4d").binding) },
        Case("Tree collapsed, missing selection") {
            Tree(treeItems, expanded: Ref<Set<String>>(["a0", "nope"]).binding, selection: Ref<String?>("missing").binding)
        },
        Case("Disabled") { VStack { Button("Can't " + wideWord) {}.disabled(); TextField("x", text: Ref(longLine).binding).disabled() } },
        Case("Managed widgets") {
            let manager = WidgetManager("fuzz", widgets: ["shown": .visible, "hidden": .hidden, "off": .disabled])
            return VStack {
                Button("shown " + longLine) {}.widget("shown", in: manager)
                Text("hidden").widget("hidden", in: manager)
                List(count: 50, selection: Ref(49).binding) { Text(rowText($0)) }.widget("off", in: manager, transition: .reveal)
            }
        },
        Case("FormFactory") {
            let fields = [
                FormField(id: "name", label: "Name 日本語", kind: .text, placeholder: longLine),
                FormField(id: "secret", label: "Password", kind: .secure),
                FormField(id: "on", label: wideWord, kind: .toggle, placeholder: "Enabled"),
                FormField(id: "box", label: "😀", kind: .checkbox, placeholder: emojiWord),
                FormField(id: "pick", label: "Choice", kind: .choice, options: [longLine, "b", wideWord]),
                FormField(id: "gone", label: "Hidden", kind: .text, state: .hidden),
            ]
            let factory = FormFactory(values: Application.current.state(initial: [:], id: "fuzz-form"))
            guard let form = try? factory.makeWidgets(from: fields, in: WidgetManager("fuzz-form")) else {
                return AnyView(Text("FormFactory threw"))
            }
            return AnyView(form)
        },
        Case("Everything") {
            Box(title: "Dashboard 😀", style: .rounded) {
                SplitView(ratio: Ref(0.4).binding) {
                    VStack {
                        Tabs(["Files", "Log"], selection: Ref(0).binding) { _ in
                            Tree(treeItems, expanded: Ref(allTreeIDs).binding, selection: Ref<String?>("a3b2").binding)
                        }
                        Divider()
                        HStack { Gauge(value: 0.5, label: "CPU"); Spinner(frame: 2, title: "Busy") }
                    }
                } second: {
                    VStack(spacing: 1) {
                        Table((0..<100).map { $0 }, columns: columns, selection: Ref(7).binding, sort: Ref(TableSort.none).binding) { r, c in rowText(r * c) }
                        ScrollView { LogView(lines: (0..<100).map(rowText)) }
                        Grid { GridRow { Text("Name"); TextField("name", text: Ref(wideWord).binding) }; GridRow { Toggle("On", isOn: Ref(true).binding) } }
                        ProgressBar(value: 0.9, label: true).padding(.horizontal, 2)
                    }
                }
            }
        },
    ]
}

@Suite("Layout fuzz")
@MainActor
struct LayoutFuzzTests {
    typealias Case = LayoutFuzz.Case
    static let seed = LayoutFuzz.seed
    static let sizes = LayoutFuzz.sizes
    static let keys = LayoutFuzz.keys
    static let sentinel = LayoutFuzz.sentinel

    // MARK: Drawing and checking

    /// Draws `view` with `tree` in `rect` on `canvas`, as a pane would (theme, store).
    static func draw(_ view: AnyView, tree: ViewTree, in rect: Rect, on canvas: inout Canvas, application: Application) {
        Application.withCurrent(application) { tree.render(view, in: rect, on: &canvas) }
    }

    /// The first cell outside `rect` that is no longer the sentinel, with what it holds now.
    static func firstCellChanged(outside rect: Rect, of canvas: Canvas) -> (Point, Cell)? {
        for y in 0..<canvas.size.height {
            for x in 0..<canvas.size.width {
                let inside = x >= rect.minX && x < rect.maxX && y >= rect.minY && y < rect.maxY
                if !inside, canvas[x, y] != sentinel { return (Point(x: x, y: y), canvas[x, y]) }
            }
        }
        return nil
    }

    /// Draws in a rectangle inside a sentinel-filled canvas and checks nothing outside it changed.
    static func checkMargin(_ fuzzCase: Case, _ view: AnyView, size: Size, tree: ViewTree, pass: String, application: Application) {
        let rect = Rect(x: 2, y: 1, width: size.width, height: size.height)
        var canvas = Canvas(size: Size(width: size.width + 4, height: size.height + 2), fill: sentinel)
        draw(view, tree: tree, in: rect, on: &canvas, application: application)
        if let (p, cell) = firstCellChanged(outside: rect, of: canvas) {
            Issue.record("""
                \(fuzzCase.name) at \(size.width)x\(size.height) (\(pass), LAYOUT_FUZZ_SEED=\(seed)): drew outside its rect \
                \(rect) at (\(p.x), \(p.y)): \(String(reflecting: cell.grapheme)) width \(cell.width) \(cell.style)
                """)
        }
    }

    @Test("Every view at edge and random sizes: no crash, nothing drawn outside its rect", arguments: LayoutFuzz.cases)
    func fuzz(_ fuzzCase: Case) async {
        // The main actor is shared with every other test running now (host tests with timers):
        // yield after each size rather than holding it for the whole case.
        let application = Application()
        let theme = Theme.dark.resolved(for: .palette256)
        // Margin: a fresh tree per size.
        let view = Application.withCurrent(application) { fuzzCase.make() }
        for size in Self.sizes {
            let tree = ViewTree()
            tree.theme = theme
            Self.checkMargin(fuzzCase, view, size: size, tree: tree, pass: "margin", application: application)
            await Task.yield()
        }
        // Edge: the canvas is exactly the rectangle.
        for size in Self.sizes {
            let tree = ViewTree()
            tree.theme = theme
            var canvas = Canvas(size: size, fill: Self.sentinel)
            Self.draw(view, tree: tree, in: canvas.bounds, on: &canvas, application: application)
            #expect(canvas.size == size)
            await Task.yield()
        }
        // Resize: one tree (and one set of bindings) through every size, a key after each frame.
        let resized = Application.withCurrent(application) { fuzzCase.make() }
        let tree = ViewTree()
        tree.theme = theme
        for (index, size) in Self.sizes.enumerated() {
            Self.checkMargin(fuzzCase, resized, size: size, tree: tree, pass: "resize, frame \(index)", application: application)
            Application.withCurrent(application) { _ = tree.handleKey(Self.keys[index % Self.keys.count]) }
            await Task.yield()
        }
    }

    @Test("The check sees a view that draws outside its rect")
    func checkSeesDrawingOutside() {
        let rect = Rect(x: 2, y: 1, width: 10, height: 3)
        var canvas = Canvas(size: Size(width: 14, height: 5), fill: Self.sentinel)
        Self.draw(AnyView(Text("inside")), tree: ViewTree(), in: rect, on: &canvas, application: Application())
        #expect(Self.firstCellChanged(outside: rect, of: canvas) == nil)
        #expect(canvas[2, 1].grapheme == "i")
        Self.draw(AnyView(OutOfBounds()), tree: ViewTree(), in: rect, on: &canvas, application: Application())
        #expect(Self.firstCellChanged(outside: rect, of: canvas)?.0 == Point(x: 12, y: 1))
    }
}

/// A view that ignores its clip and draws one cell right of its frame (for the check's own test).
private struct OutOfBounds: View {
    typealias Body = Never
    func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) { nodes.append(OutOfBoundsNode()) }
}

private final class OutOfBoundsNode: Node {
    override func draw(in canvas: inout Canvas, clip: Rect) {
        canvas.put("X", at: Point(x: frame.maxX, y: frame.minY))
    }
}
