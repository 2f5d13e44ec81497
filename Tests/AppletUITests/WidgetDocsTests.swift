// Each example in Docs/Widgets.md is rendered here and compared with its captured screen in
// Tests/__Snapshots__/AppletUITests/WidgetDocsTests (RECORD_SNAPSHOTS=1 records them, and fails).
import AppletTesting
import Foundation
import Synchronization
import Testing
@testable import AppletUI

@MainActor
private func check<V: View>(_ name: String, _ view: V, width: Int, height: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let canvas = renderView(view, width: width, height: height, application: Application.current)
    expectScreen(canvas, matchesGolden: name, sourceLocation: sourceLocation)
}

@Suite("Docs/Widgets.md examples")
@MainActor
struct WidgetDocsTests {
    @Test func text() throws {
        try Application.withCurrent(Application()) {

            try check("text", Text("The quick brown fox jumps over the lazy dog, twice."), width: 20, height: 3)
        }
    }

    @Test func label() throws {
        try Application.withCurrent(Application()) {

            try check("label", VStack { Label("Save", key: "ctrl-s"); Label("Quit", key: "q") }, width: 20, height: 2)
        }
    }

    @Test func button() throws {
        try Application.withCurrent(Application()) {

            try check("button", HStack(spacing: 2) { Button("Save") {}; Button("Cancel") {} }, width: 24, height: 1)
        }
    }

    @Test func toggleAndCheckbox() throws {
        try Application.withCurrent(Application()) {
            let wrap = Ref(true), notify = Ref(false)
            try check("toggle-and-checkbox", VStack { Toggle("Wrap lines", isOn: wrap.binding); Checkbox("Notify me", isOn: notify.binding) }, width: 24, height: 2)
        }
    }

    @Test func radiogroup() throws {
        try Application.withCurrent(Application()) {
            let size = Ref(1)
            try check("radiogroup", RadioGroup(["Small", "Medium", "Large"], selection: size.binding, axis: .horizontal), width: 36, height: 1)
        }
    }

    @Test func textfield() throws {
        try Application.withCurrent(Application()) {
            let name = Ref(""), password = Ref("hunter2")
            try check("textfield", VStack { TextField("your name", text: name.binding); TextField("password", text: password.binding).secure() }, width: 20, height: 2)
        }
    }

    @Test func textarea() throws {
        try Application.withCurrent(Application()) {
            let notes = Ref("First line\nSecond line\nThird line")
            try check("textarea", TextArea(text: notes.binding), width: 24, height: 3)
        }
    }

    @Test func list() throws {
        try Application.withCurrent(Application()) {
            let row = Ref(1)
            let marked = Ref<Set<Int>>([0, 2])
            let fruits = ["Apple", "Banana", "Cherry", "Date"]
            try check("list", List(count: 1_000_000, selection: row.binding) { Text("\(fruits[$0 % 4]) \($0)") }.multiSelection(marked.binding), width: 20, height: 4)
        }
    }

    @Test func table() throws {
        try Application.withCurrent(Application()) {
            let row = Ref(0), sort = Ref(TableSort(column: 1, ascending: false))
            let rows = [("sshd", 0.4), ("swift", 87.5), ("tmux", 1.2)]
            try check("table", Table(rows, columns: [TableColumn("Name"), TableColumn("CPU %", width: .fixed(7), alignment: .trailing)], selection: row.binding, sort: sort.binding) { r, c in c == 0 ? r.0 : String(r.1) }, width: 24, height: 4)
        }
    }

    @Test func tree() throws {
        try Application.withCurrent(Application()) {
            let open = Ref<Set<String>>(["Sources"]), selected = Ref<String?>("Sources")
            try check("tree", Tree([TreeItem("Sources", children: [TreeItem("App.swift"), TreeItem("Util.swift")]), TreeItem("README.md")], expanded: open.binding, selection: selected.binding), width: 24, height: 4)
        }
    }

    @Test func logview() throws {
        try Application.withCurrent(Application()) {

            try check("logview", LogView(lines: (1...50).map { "line \($0)" }), width: 20, height: 3)
        }
    }

    @Test func progressbarGaugeSparklineSpinner() throws {
        try Application.withCurrent(Application()) {

            try check("progressbar-gauge-sparkline-spinner", VStack { ProgressBar(value: 0.42, label: true); Gauge(value: 0.7, label: "CPU"); Sparkline([1, 3, 5, 7, 5, 3, 1, 2]); Spinner(frame: 3, title: "loading") }, width: 24, height: 4)
        }
    }

    @Test func box() throws {
        try Application.withCurrent(Application()) {

            try check("box", Box(title: "Status", style: .rounded) { Text("All good") }, width: 20, height: 3)
        }
    }

    @Test func scrollview() throws {
        try Application.withCurrent(Application()) {

            try check("scrollview", ScrollView { ForEach(0..<20) { Text("item \($0)") } }, width: 16, height: 4)
        }
    }

    @Test func tabs() throws {
        try Application.withCurrent(Application()) {
            let page = Ref(0)
            try check("tabs", Tabs(["General", "Advanced"], selection: page.binding) { i in Text(i == 0 ? "General settings" : "Advanced settings") }, width: 24, height: 2)
        }
    }

    @Test func splitview() throws {
        try Application.withCurrent(Application()) {
            let ratio = Ref(0.5)
            try check("splitview", SplitView(ratio: ratio.binding) { Text("left") } second: { Text("right") }, width: 21, height: 2)
        }
    }

    @Test func zstackAndFrame() throws {
        try Application.withCurrent(Application()) {

            try check("zstack-and-frame", ZStack(alignment: .bottomTrailing) { Box(title: "Card") { Text("content") }.frame(width: 18, height: 4); Text("!") }, width: 18, height: 4)
        }
    }

    @Test func grid() throws {
        try Application.withCurrent(Application()) {

            try check("grid", Grid { GridRow { Text("CPU"); Text("72%") }; GridRow { Text("Memory"); Text("1.2 GB") } }, width: 20, height: 2)
        }
    }

    @Test func widgetStates() throws {
        try Application.withCurrent(Application()) {
            let manager = WidgetManager("docs", widgets: ["advanced": .hidden, "save": .disabled])
            try check("widget-states", VStack { Text("Basic options"); Text("Advanced options").widget("advanced", in: manager); Button("Save") {}.widget("save", in: manager) }, width: 20, height: 3)
        }
    }

}
