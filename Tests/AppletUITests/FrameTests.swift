import Testing
@testable import AppletUI

/// The size a view asks for when offered `width` x `height` (nil = its ideal size).
@MainActor
private func measured<V: View>(_ view: V, width: Int? = nil, height: Int? = nil) -> Size {
    withNode(view) { $0.measure(ProposedSize(width: width, height: height)) }
}

@Suite("Frame")
@MainActor
struct FrameTests {
    @Test func fixedWidthCentresByDefault() {
        #expect(render(HStack { Text("OK").frame(width: 6); Text("|") }, width: 20, height: 1).line(0) == "  OK  |")
        #expect(render(HStack { Text("OK").frame(width: 6, alignment: .leading); Text("|") }, width: 20, height: 1).line(0) == "OK    |")
        #expect(render(HStack { Text("OK").frame(width: 6, alignment: .trailing); Text("|") }, width: 20, height: 1).line(0) == "    OK|")
        // Taken even when the content is wider: the content gets the frame's width.
        #expect(render(HStack { Text("a long title").frame(width: 6); Text("|") }, width: 20, height: 1).line(0) == "a lon…|")
    }

    @Test func fixedHeight() {
        let canvas = render(VStack { Text("a").frame(height: 3, alignment: .bottom); Text("b") }, width: 5, height: 5)
        #expect(canvas.lines == ["", "", "a", "b", ""])
        let top = render(VStack { Text("a").frame(width: 3, height: 2, alignment: .topTrailing); Text("b") }, width: 5, height: 5)
        #expect(top.lines == ["  a", "", "b", "", ""])
        // A list given a fixed height leaves the rest to what follows.
        let list = render(VStack {
            List(count: 100, selection: .constant(0)) { Text("row \($0)") }.frame(height: 2)
            Text("after")
        }, width: 10, height: 5)
        #expect(list.lines == ["row 0", "row 1", "after", "", ""])
    }

    @Test func fixedFrameProposesItsSize() {
        // The text is offered 5 columns, so it wraps.
        let canvas = render(HStack { Text("hello world").frame(width: 5); Text("|") }, width: 20, height: 3)
        #expect(canvas.lines == ["hello|", "world", ""])
        #expect(measured(Text("hello world").frame(width: 5)) == Size(width: 5, height: 2))
        #expect(measured(Text("abc").frame(width: 7, height: 4), width: 2, height: 1) == Size(width: 7, height: 4))
    }

    @Test func maxWidthInfinityFillsAndAligns() {
        #expect(render(Text("right").frame(maxWidth: .max, alignment: .trailing), width: 10, height: 1).line(0) == "     right")
        let two = render(HStack { Text("a").frame(maxWidth: .max); Text("b").frame(maxWidth: .max) }, width: 10, height: 1)
        #expect(two[2, 0].grapheme == "a")
        #expect(two[7, 0].grapheme == "b")
        // Ideally it is as wide as its content.
        #expect(measured(Text("abc").frame(maxWidth: .max)) == Size(width: 3, height: 1))
        #expect(measured(Text("abc").frame(maxWidth: .max), width: 40) == Size(width: 40, height: 1))
        #expect(measured(Text("abc").frame(maxWidth: .max, maxHeight: .max), width: 40, height: 9) == Size(width: 40, height: 9))
    }

    @Test func minAndMaxClamp() {
        #expect(render(HStack { Text("x").frame(minWidth: 5, alignment: .leading); Text("|") }, width: 20, height: 1).line(0) == "x    |")
        #expect(render(HStack { Text("abcdefghij").frame(maxWidth: 4); Text("|") }, width: 20, height: 1).line(0) == "abc…|")
        #expect(measured(Text("x").frame(minWidth: 5, minHeight: 2)) == Size(width: 5, height: 2))
        #expect(measured(Text("abcdefghij").frame(maxWidth: 4), width: 20) == Size(width: 4, height: 3))   // wraps at 4
        // Offered less than the minimum: the minimum (the parent cuts it).
        #expect(measured(Text("x").frame(minWidth: 5), width: 2) == Size(width: 5, height: 1))
        // In a VStack a flexible height takes the rest and centres.
        let canvas = render(VStack { Text("a").frame(maxHeight: .max); Text("b") }, width: 3, height: 5)
        #expect(canvas.lines == ["", "a", "", "", "b"])
        // max below min: min wins.
        #expect(measured(Text("abc").frame(minWidth: 6, maxWidth: 2), width: 20) == Size(width: 6, height: 1))
    }

    @Test func idealSizes() {
        #expect(measured(Text("x").frame(idealWidth: 7, maxWidth: .max)) == Size(width: 7, height: 1))
        #expect(measured(Text("x").frame(idealWidth: 7, maxWidth: .max), width: 30) == Size(width: 30, height: 1))
        #expect(measured(Text("x").frame(idealHeight: 3, maxHeight: .max)) == Size(width: 1, height: 3))
    }

    @Test func largerThanTheScreenIsCut() {
        // A 20-wide frame on 8 columns keeps its layout and is cut at the edge.
        let canvas = render(Text("abcdefghijkl").frame(width: 20), width: 8, height: 2)
        #expect(canvas.lines == ["    abcd", ""])
        // A fixed frame taller than the screen, below a text: the text keeps its row and the frame
        // is cut at the bottom edge, as a screen cuts what does not fit.
        let tall = render(VStack { Text("top"); Text("x").frame(width: 3, height: 50, alignment: .topLeading) }, width: 4, height: 3)
        #expect(tall.lines == ["top", "x", ""])
        let bottom = render(Text("x").frame(width: 3, height: 50, alignment: .bottomLeading), width: 4, height: 3)
        #expect(bottom.lines == ["", "", ""])
    }

    @Test func zeroAndNegativeSizes() {
        #expect(measured(Text("abc").frame(width: 0, height: 0)) == .zero)
        #expect(measured(Text("abc").frame(width: -3, height: -1), width: 10, height: 10) == .zero)
        #expect(measured(Text("abc").frame(minWidth: -5, maxWidth: -2), width: 10) == Size(width: 0, height: 1))
        #expect(render(HStack { Text("abc").frame(width: -4); Text("|") }, width: 5, height: 1).line(0) == "|")
        #expect(render(Text("abc").frame(width: .max, height: .max), width: 5, height: 2).size == Size(width: 5, height: 2))
    }

    @Test(arguments: [(0, 0), (1, 1), (2, 1), (1, 3)])
    func tinySizesNeverCrash(width: Int, height: Int) {
        let view = VStack {
            Text("中文 😀").frame(width: 9, height: 2, alignment: .bottomTrailing)
            Button("OK") {}.frame(minWidth: 4, maxWidth: .max, minHeight: 1, maxHeight: .max, alignment: .trailing)
            Text("x").frame(width: 0, height: 0)
        }
        #expect(render(view, width: width, height: height).size == Size(width: width, height: height))
    }
}
