import Testing
@testable import AppletUI

/// A tree that drew widgets of every kind is freed when its owner lets go of it: the nodes it
/// keeps (a list keeps a resolve context to make its rows lazily) refer to it without keeping it.
@Suite("View tree lifetime")
@MainActor
struct ViewTreeLifetimeTests {
    @Test func aTreeIsFreedAfterDrawingEveryKindOfWidget() {
        weak var weakTree: ViewTree?
        do {
            let tree = ViewTree()
            let manager = WidgetManager("lifetime", widgets: ["name": .visible, "list": .visible])
            weakTree = tree
            let text = Ref<String>()
            let on = Ref(false)
            let row = Ref(0)
            let view = VStack {
                TextField("name", text: text.binding).widget("name", in: manager, transition: .reveal)
                Toggle("on", isOn: on.binding).onEvent { (_: ToggleEvent) in on.value.toggle() }
                ScrollView { Text("a"); Text("b"); Button("press") {} }.frame(height: 2)
                List(count: 50, selection: row.binding) { Text("row \($0)") }.widget("list", in: manager).frame(height: 3)
                Table(Array(0..<5), columns: [TableColumn("n")], selection: row.binding, sort: .constant(TableSort())) { row, _ in "\(row)" }
                SplitView(ratio: .constant(0.5)) { Text("left") } second: { TextArea(text: text.binding) }
            }
            var canvas = Canvas(size: Size(width: 30, height: 20))
            tree.render(view, in: canvas.bounds, on: &canvas)
            tree.handleKey(KeyEvent(.char("x")))
            tree.handleKey(KeyEvent(.tab))
            tree.render(view, in: canvas.bounds, on: &canvas)
            #expect(text.value == "x")
            #expect(tree.focusedID != nil)
        }
        #expect(weakTree == nil)
    }
}
