// Docs/Contributing.md, "Add a widget": the widget, its modifier and its tests, compiled and run
// here. DocSnippetsTests checks that each block marked
// `<!-- tested in Tests/AppletUITests/ContributingWidgetTests.swift -->` appears in this file line
// for line. A plain `import`, not `@testable`: the widget uses only what any module outside
// AppletUI can use, so it proves that a widget of an app's own is written the same way.
import AppletTesting
import Testing

// MARK: The widget

/// What a `TagPicker` sends when the user turns a tag on or off (a key or a click).
public enum TagPickerEvent: Sendable, Equatable {
    case toggled(String, on: Bool)
}

/// A row of tags to turn on and off: `[swift]  rust  [go]`, the tags that are on in brackets.
///
/// With focus, `←`/`→` (or `h`/`l`) move the cursor, drawn in the theme's focus style, and
/// `Space` or `Enter` turns the tag under it on or off; a click turns the clicked tag on or off.
/// Sends `TagPickerEvent.toggled(_:on:)` after updating `selection`.
///
/// ```swift
/// TagPicker(["swift", "rust", "go"], selection: $tags).limit(2)
/// ```
public struct TagPicker: View {
    public typealias Body = Never
    let tags: [String]
    let selection: Binding<Set<String>>
    var limit: Int?

    public init(_ tags: [String], selection: Binding<Set<String>>) {
        self.tags = tags
        self.selection = selection
    }

    /// At most `count` tags on at once: turning on one more does nothing.
    public func limit(_ count: Int) -> TagPicker {
        var copy = self
        copy.limit = count
        return copy
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(TagPickerNode(tags: tags, selection: selection, limit: limit, context: context))
    }
}

/// The node behind `TagPicker`: the tags side by side, one column apart.
final class TagPickerNode: Node, FocusableNode {
    let focusID: ViewID
    let tags: [String]
    let selection: Binding<Set<String>>
    let limit: Int?
    let style: Style
    let onStyle: Style
    let focusStyle: Style
    let emit: EventEmitter<TagPickerEvent>
    /// The tag under the cursor: the widget's own state, kept by the tree from frame to frame.
    let cursor: WidgetStateBox<Int>
    var isFocused = false

    init(tags: [String], selection: Binding<Set<String>>, limit: Int?, context: ResolveContext) {
        self.focusID = context.id
        self.tags = tags
        self.selection = selection
        self.limit = limit
        self.style = context.style
        self.onStyle = context.style(.accent)
        self.focusStyle = context.style(.focus)
        self.emit = context.emitter(TagPickerEvent.self)
        self.cursor = context.stateBox(0)
        super.init()
        // The tags may be fewer than when the cursor was last moved.
        cursor.value = min(cursor.value, max(0, tags.count - 1))
    }

    /// `[swift]` when on, ` rust ` when off: as wide either way, so no tag moves when one changes.
    static func label(_ tag: String, on: Bool) -> String { on ? "[\(tag)]" : " \(tag) " }

    /// Where each tag starts, from the node's left edge, and how wide it is.
    private var spans: [(x: Int, width: Int)] {
        var x = 0
        return tags.map { tag in
            defer { x += tag.terminalWidth + 3 }
            return (x, tag.terminalWidth + 2)
        }
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let ideal = spans.last.map { $0.x + $0.width } ?? 0
        return Size(width: min(ideal, max(0, proposal.width ?? ideal)), height: tags.isEmpty || proposal.height == 0 ? 0 : 1)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        let on = selection.wrappedValue
        for (index, span) in spans.enumerated() {
            let isOn = on.contains(tags[index])
            let look = isFocused && index == cursor.value ? focusStyle : (isOn ? onStyle : style)
            canvas.write(Self.label(tags[index], on: isOn), at: Point(x: frame.x + span.x, y: frame.y), style: look, clip: area)
        }
    }

    private func toggle(_ index: Int) {
        let tag = tags[index]
        var on = selection.wrappedValue
        if on.contains(tag) {
            on.remove(tag)
        } else if let limit, on.count >= limit {
            return
        } else {
            on.insert(tag)
        }
        selection.wrappedValue = on
        emit(.toggled(tag, on: on.contains(tag)))
    }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard !tags.isEmpty, key.modifiers.isEmpty else { return false }
        switch key.code {
        case .left, .char("h"): cursor.value = max(0, cursor.value - 1)
        case .right, .char("l"): cursor.value = min(tags.count - 1, cursor.value + 1)
        case .char(" "), .enter: toggle(cursor.value)
        default: return false
        }
        return true
    }

    /// The printable keys it takes: while it has focus, the footer and help leave out commands on them.
    func usesKey(_ key: KeyEvent) -> Bool {
        key.modifiers.isEmpty && [KeyCode.char("h"), .char("l"), .char(" ")].contains(key.code)
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        guard case .press(.left) = mouse.kind else { return false }
        let x = mouse.position.x - frame.x
        guard let index = spans.firstIndex(where: { x >= $0.x && x < $0.x + $0.width }) else { return false }
        cursor.value = index
        toggle(index)
        return true
    }

    /// What `Alt-C` copies while it has focus: the tags that are on.
    var copyableText: String? {
        let on = tags.filter(selection.wrappedValue.contains)
        return on.isEmpty ? nil : on.joined(separator: ", ")
    }
}

// MARK: Its tests

/// The picker as a test's applet shows it: its tags in the store, its last event below it.
enum Tags {
    static let picker = WidgetID<TagPickerEvent>("picker")
}

extension WidgetManager {
    static let tags = WidgetManager("tags", widgets: [Tags.picker.name: .visible])
}

extension Application {
    var pickedTags: State<Set<String>> { state(initial: ["swift"], feature: "Tags", id: "picked") }
    var lastTagEvent: State<String> { state(initial: "none", feature: "Tags", id: "last") }
}

struct TagsApplet: Applet {
    let id = "tags"
    let title = "Tags"
    @AppState(\.pickedTags) private var picked
    @AppState(\.lastTagEvent) private var last

    var body: some View {
        let lastEvent = $last
        VStack {
            TagPicker(["swift", "rust", "go"], selection: $picked)
                .limit(2)
                .widget(Tags.picker, in: .tags)
                .onEvent { (event: TagPickerEvent) in
                    if case .toggled(let tag, let on) = event { lastEvent.wrappedValue = "\(tag) \(on ? "on" : "off")" }
                }
            Text("Last: \(last)")
        }
    }

    /// On a key the picker takes, to show that the footer leaves it out while the picker has focus.
    var commands: [Command] { [Command(id: "tags.later", "Later", keys: ["l"]) {}] }
}

@Suite("Docs/Contributing.md: a widget")
@MainActor
struct ContributingWidgetTests {
    @Test func itDrawsTheTagsThatAreOnInBrackets() {
        let canvas = renderView(TagPicker(["swift", "rust", "go"], selection: .constant(["swift", "go"])), width: 24, height: 1)
        expectScreen(canvas, toShow: "[swift]  rust  [go]")
    }

    @Test func keysMoveTheCursorAndToggleUpToTheLimit() throws {
        let host = try AppletTestHost(TagsApplet(), width: 40, height: 6)
        host.press("l", "space")                     // the first widget has focus: to rust, on
        #expect(host.application.pickedTags.value == ["swift", "rust"])
        #expect(host.contains("Last: rust on"), "\(host.text)")
        host.press("right", "enter")                 // go: a third tag is over the limit
        #expect(host.application.pickedTags.value == ["swift", "rust"])
        host.press("h", "h", "space")                // back to swift, off
        #expect(host.application.pickedTags.value == ["rust"])
        #expect(host.contains("Last: swift off"), "\(host.text)")
        host.expectRows(1..<2, toShow: " swift  [rust]  go")
    }

    @Test func aClickTogglesTheClickedTag() throws {
        let host = try AppletTestHost(TagsApplet(), width: 40, height: 6)
        host.click("go")
        #expect(host.application.pickedTags.value == ["swift", "go"])
    }
}

extension ContributingWidgetTests {
    @Test func theFooterLeavesOutACommandOnAKeyThePickerTakes() throws {
        let host = try AppletTestHost(TagsApplet(), width: 60, height: 6)
        #expect(!host.row(5).contains("Later"), "the picker has focus and takes l: \(host.row(5))")
        host.press("tab")                            // focus leaves the picker: l is the command's again
        #expect(host.row(5).contains("l Later"), "\(host.row(5))")
    }

    @Test func itsEventsReachSubscribersAndItsManagerCanDisableIt() async throws {
        let host = try AppletTestHost(TagsApplet(), width: 40, height: 6)
        var heard: [TagPickerEvent] = []
        let subscription = try await host.perform {
            try WidgetManager.tags.subscribe(to: Tags.picker) { heard.append($0) }
        }
        host.press("space")
        #expect(heard == [.toggled("swift", on: false)])
        try await host.perform { try WidgetManager.tags.disable(Tags.picker) }
        host.press("space")                          // a disabled widget takes no keys
        #expect(heard.count == 1)
        #expect(host.application.pickedTags.value == [])
        subscription.cancel()
    }
}
