import Testing
@testable import AppletUI

@Suite("ZStack")
@MainActor
struct ZStackTests {
    private let block = "-----\n-----\n-----"

    /// Where the "X" of a ZStack { 5x3 block; "X" } lands for an alignment.
    private func position(of alignment: Alignment) -> Point? {
        let canvas = render(ZStack(alignment: alignment) { Text(block); Text("X") }, width: 5, height: 3)
        for y in 0..<3 { for x in 0..<5 where canvas[x, y].grapheme == "X" { return Point(x: x, y: y) } }
        return nil
    }

    @Test func alignsEachChildInsideTheLargest() {
        #expect(position(of: .center) == Point(x: 2, y: 1))
        #expect(position(of: .topLeading) == Point(x: 0, y: 0))
        #expect(position(of: .top) == Point(x: 2, y: 0))
        #expect(position(of: .topTrailing) == Point(x: 4, y: 0))
        #expect(position(of: .leading) == Point(x: 0, y: 1))
        #expect(position(of: .trailing) == Point(x: 4, y: 1))
        #expect(position(of: .bottomLeading) == Point(x: 0, y: 2))
        #expect(position(of: .bottom) == Point(x: 2, y: 2))
        #expect(position(of: .bottomTrailing) == Point(x: 4, y: 2))
        #expect(render(ZStack { Text(block); Text("X") }, width: 5, height: 3).lines == ["-----", "--X--", "-----"])
    }

    @Test func sizeIsTheLargestChild() {
        #expect(withNode(ZStack { Text("abc"); Text("1\n2\n3\n4") }) { $0.measure(.ideal) } == Size(width: 3, height: 4))
        // Beside other views in a stack it takes only that size.
        let canvas = render(HStack { ZStack(alignment: .topLeading) { Text("abc"); Text("xy") }; Text("|") }, width: 10, height: 1)
        #expect(canvas.line(0) == "xyc|")
    }

    @Test func laterChildrenDrawOnTop() {
        let canvas = render(ZStack(alignment: .leading) { Text("abcdef"); Text("XY") }, width: 6, height: 1)
        #expect(canvas.line(0) == "XYcdef")
        // A background makes an overlay opaque over its whole frame.
        let covered = render(ZStack {
            Text("abcdef")
            Text("").frame(width: 6, height: 1).backgroundColor(.blue)
        }, width: 6, height: 1)
        #expect(covered.line(0) == "")
        #expect(covered[0, 0].style.background == .blue)
        #expect(covered[5, 0].style.background == .blue)
    }

    @Test func focusFollowsTheWrittenOrder() {
        let tree = ViewTree()
        var pressed: [String] = []
        let view = ZStack(alignment: .topLeading) {
            Button("First") { pressed.append("first") }
            Text("").frame(width: 12, height: 2)
            VStack { Text(""); Button("Second") { pressed.append("second") } }
        }
        let canvas = render(view, width: 12, height: 2, tree: tree)
        #expect(canvas.lines == ["[ First ]", "[ Second ]"])
        tree.handleKey(KeyEvent(.enter))
        tree.moveFocus()
        tree.handleKey(KeyEvent(.enter))
        #expect(pressed == ["first", "second"])
    }

    @Test(arguments: [(0, 0), (1, 1), (2, 1), (1, 3)])
    func tinySizesNeverCrash(width: Int, height: Int) {
        let view = ZStack(alignment: .bottomTrailing) {
            Text("中文 emoji 😀\nline")
            Button("OK") {}
            Spacer()
            Divider()
        }
        #expect(render(view, width: width, height: height).size == Size(width: width, height: height))
        #expect(render(ZStack {}, width: width, height: height).size == Size(width: width, height: height))
    }
}
