import Testing
@testable import AppletUI

@Suite("ViewThatFits")
@MainActor
struct ViewThatFitsTests {
    private var header: some View {
        ViewThatFits {
            HStack { Text("8 processes · sorted by CPU ▼"); Spacer(minLength: 1); Text("12:00:00") }
            Text("8 processes · sorted by CPU ▼")
            Text("8 · CPU ▼").lineLimit(1)
        }
    }

    @Test func theFirstChoiceThatFitsIsShownOnOneLine() {
        #expect(render(header, width: 40, height: 2).lines == ["8 processes · sorted by CPU ▼   12:00:00", ""])
        #expect(render(header, width: 37, height: 2).lines == ["8 processes · sorted by CPU ▼", ""])
        #expect(render(header, width: 29, height: 2).lines == ["8 processes · sorted by CPU ▼", ""])
        #expect(render(header, width: 28, height: 2).lines == ["8 · CPU ▼", ""])
        // None fits: the last, cut as it cuts itself.
        #expect(render(header, width: 6, height: 2).lines == ["8 · C…", ""])
        // In a stack it takes the one row its choice needs.
        let stacked = VStack { header; Text("next") }
        #expect(render(stacked, width: 20, height: 3).lines == ["8 · CPU ▼", "next", ""])
    }

    @Test func onlyTheChoiceShownTakesFocus() {
        let tree = ViewTree()
        let view = ViewThatFits {
            HStack(spacing: 1) { Button("Save all files") {}; Button("Quit") {} }
            Button("Save") {}
        }
        #expect(render(view, width: 30, height: 1, tree: tree).line(0) == "[ Save all files ] [ Quit ]")
        #expect(tree.focusables.count == 2)
        #expect(render(view, width: 12, height: 1, tree: tree).line(0) == "[ Save ]")
        #expect(tree.focusables.count == 1)
    }

    @Test func verticalChoicesFitTheHeight() {
        let view = ViewThatFits(in: .vertical) {
            VStack { Text("one"); Text("two"); Text("three") }
            Text("one, two, three")
        }
        #expect(render(view, width: 20, height: 3).lines == ["one", "two", "three"])
        #expect(render(view, width: 20, height: 2).lines == ["one, two, three", ""])
    }
}
