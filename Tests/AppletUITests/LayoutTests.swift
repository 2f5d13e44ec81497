import Testing
@testable import AppletUI

/// Renders a view on a fresh canvas and returns it with the tree (for focus and keys).
@MainActor
func render<V: View>(_ view: V, width: Int, height: Int, tree: ViewTree = ViewTree()) -> Canvas {
    var canvas = Canvas(size: Size(width: width, height: height))
    tree.render(view, in: canvas.bounds, on: &canvas)
    return canvas
}

@Suite("Layout")
@MainActor
struct LayoutTests {
    @Test func vstackStacksWithSpacing() {
        let canvas = render(VStack(spacing: 1) { Text("one"); Text("two"); Text("three") }, width: 10, height: 6)
        #expect(canvas.lines == ["one", "", "two", "", "three", ""])
    }

    @Test func aStackTooShortCutsItsLastRowsNotItsFirst() {
        let view = VStack(spacing: 1) { Text("Title"); Text("Body"); Text("[ OK ]"); Text("footnote") }
        #expect(render(view, width: 10, height: 6).lines == ["Title", "", "Body", "", "[ OK ]", ""])
        #expect(render(view, width: 10, height: 3).lines == ["Title", "", "Body"])
        #expect(render(view, width: 10, height: 1).lines == ["Title"])
    }

    @Test func hstackWithSpacerPushesToTheEdges() {
        let canvas = render(HStack { Text("left"); Spacer(); Text("right") }, width: 20, height: 1)
        #expect(canvas.lines == ["left           right"])
    }

    @Test func hstackSpacing() {
        let canvas = render(HStack(spacing: 2) { Text("a"); Text("b"); Text("c") }, width: 10, height: 1)
        #expect(canvas.line(0) == "a  b  c")
    }

    @Test func textTruncatesWithEllipsis() {
        // One row for three wrapped lines: the first, marked as cut.
        let canvas = render(Text("a long line of text"), width: 8, height: 1)
        #expect(canvas.line(0) == "a long…")
        #expect(render(Text("a long line of text").lineLimit(1), width: 8, height: 3).lines == ["a long …", "", ""])
    }

    @Test func textWrapsAtWords() {
        let canvas = render(Text("the quick brown fox jumps over the lazy dog"), width: 10, height: 6)
        #expect(canvas.lines == ["the quick", "brown fox", "jumps over", "the lazy", "dog", ""])
        // Words longer than the line break by grapheme, never through a wide character.
        #expect(render(Text("abcdefghij"), width: 4, height: 3).lines == ["abcd", "efgh", "ij"])
        #expect(render(Text("中文字符串"), width: 5, height: 3).lines == ["中文", "字符", "串"])
        // Explicit newlines, and an empty line kept.
        #expect(render(Text("one\n\ntwo"), width: 10, height: 3).lines == ["one", "", "two"])
    }

    @Test func lineLimitAndHeightCutWithAnEllipsis() {
        #expect(render(Text("aa bb cc dd").lineLimit(2), width: 5, height: 4).lines == ["aa bb", "cc dd", "", ""])
        #expect(render(Text("aa bb cc dd ee").lineLimit(2), width: 5, height: 4).lines == ["aa bb", "cc d…", "", ""])
        #expect(render(Text("aa bb cc dd"), width: 5, height: 1).lines == ["aa b…"])
        // In a VStack, wrapped text takes the rows it needs and pushes the next view down.
        let stacked = render(VStack { Text("aa bb cc"); Text("next") }, width: 5, height: 4)
        #expect(stacked.lines == ["aa bb", "cc", "next", ""])
    }

    @Test func siblingsShareTheWidth() {
        let canvas = render(HStack(spacing: 1) { Text("aaaaaaaaaa"); Text("bbbbbbbbbb") }, width: 11, height: 1)
        #expect(canvas.line(0) == "aaaa… bbbb…")
    }

    @Test func paddingInsetsContent() {
        let canvas = render(Text("hi").padding(1), width: 6, height: 3)
        #expect(canvas.lines == ["", " hi", ""])
        let horizontal = render(Text("hi").padding(.horizontal, 2), width: 6, height: 1)
        #expect(horizontal.lines == ["  hi"])
    }

    @Test func dividerFollowsTheStackAxis() {
        let v = render(VStack { Text("a"); Divider(); Text("b") }, width: 4, height: 3)
        #expect(v.lines == ["a", "────", "b"])
        let h = render(HStack { Text("a"); Divider(); Text("b") }, width: 4, height: 1)
        #expect(h.lines == ["a│b"])
    }

    @Test func stylesApplyToContent() {
        let canvas = render(VStack { Text("b").bold(); Text("c").foregroundColor(.red).reverse() }, width: 3, height: 2)
        #expect(canvas[0, 0].style.attributes == .bold)
        #expect(canvas[0, 1].style == Style(foreground: .red, attributes: .reverse))
        let filled = render(Text("x").backgroundColor(.blue), width: 3, height: 1)
        #expect(filled[0, 0].style.background == .blue)
    }

    @Test func wideCharactersKeepColumnsAligned() {
        let canvas = render(VStack {
            HStack { Text("中文"); Spacer(); Text("|") }
            HStack { Text("ab"); Spacer(); Text("|") }
            HStack { Text("😀x"); Spacer(); Text("|") }
        }, width: 8, height: 3)
        #expect(canvas.lines == ["中文   |", "ab     |", "😀x    |"])
        for y in 0..<3 { #expect(canvas[7, y].grapheme == "|") }
        // Too narrow for the last wide character: it is dropped, not split.
        let narrow = render(Text("中文字"), width: 5, height: 1)
        #expect(narrow.line(0) == "中文…")
        #expect(render(Text("中文字"), width: 4, height: 1).line(0) == "中…")
    }

    @Test func conditionalAndForEach() {
        struct Screen: View {
            var showExtra: Bool
            var body: some View {
                VStack {
                    ForEach(0..<3) { i in Text("row \(i)") }
                    if showExtra { Text("extra") } else { Text("none") }
                }
            }
        }
        #expect(render(Screen(showExtra: true), width: 10, height: 4).lines == ["row 0", "row 1", "row 2", "extra"])
        #expect(render(Screen(showExtra: false), width: 10, height: 4).lines == ["row 0", "row 1", "row 2", "none"])
    }

    @Test(arguments: [(0, 0), (1, 1), (2, 1), (1, 3), (3, 2)])
    func tinyAreasNeverCrash(width: Int, height: Int) {
        let view = VStack(spacing: 1) {
            HStack { Text("中文 emoji 😀"); Spacer(); Button("OK") {} }
            Divider()
            List(count: 100, selection: .constant(50)) { Text("row \($0)") }
        }.padding(2)
        let canvas = render(view, width: width, height: height)
        #expect(canvas.size == Size(width: width, height: height))
    }
}

@Suite("Widgets")
@MainActor
struct WidgetTests {
    @Test func buttonShowsFocusAndActivates() {
        let tree = ViewTree()
        var pressed: [String] = []
        let view = HStack(spacing: 1) {
            Button("One") { pressed.append("one") }
            Button("Two") { pressed.append("two") }
        }
        var canvas = render(view, width: 20, height: 1, tree: tree)
        #expect(canvas.line(0) == "[ One ] [ Two ]")
        #expect(canvas[0, 0].style.attributes.contains(.reverse))      // first button focused
        #expect(!canvas[8, 0].style.attributes.contains(.reverse))
        #expect(tree.handleKey(KeyEvent(.enter)))
        #expect(tree.moveFocus())
        canvas = render(view, width: 20, height: 1, tree: tree)
        #expect(canvas[8, 0].style.attributes.contains(.reverse))
        #expect(tree.handleKey(KeyEvent(.char(" "))))
        #expect(!tree.handleKey(KeyEvent(.char("x"))))                  // passed on
        #expect(pressed == ["one", "two"])
    }

    @Test func clickActivatesAButton() {
        let tree = ViewTree()
        var clicks = 0
        _ = render(VStack { Text("title"); Button("Go") { clicks += 1 } }, width: 10, height: 2, tree: tree)
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 1))))
        #expect(!tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 0))))
        #expect(clicks == 1)
    }
}
