import AppletKit
import Foundation
import WidgetsAppletInterface

/// The widget gallery: every AppletUI widget on five pages, wired to the store.
///
/// Keys that work everywhere in the gallery (even in a text field): `F2` hides or shows the
/// name field, `F3` disables or enables the form, `F4` hides or shows the progress bar, `F5`
/// hides or shows the tree, `F6` adds a line to the log. `←`/`→` on the page strip turn pages.
public struct WidgetsApplet: Applet {
    public let id = "widgets"
    public let title = "Widgets"
    @AppState(\.gallery) private var gallery

    public init() {}

    public var body: some View {
        Tabs(["Inputs", "Lists", "Data", "Display", "Layout"], selection: $gallery.page) { page in
            switch page {
            case 0: InputsPage()
            case 1: ListsPage()
            case 2: DataPage()
            case 3: DisplayPage()
            default: LayoutPage()
            }
        }
        .onEvent { (event: TextFieldEvent) in Self.note("TextField \(event)") }
        .onEvent { (event: ToggleEvent) in Self.note("Toggle \(event)") }
        .onEvent { (event: RadioGroupEvent) in Self.note("RadioGroup \(event)") }
        .onEvent { (event: ButtonEvent) in Self.note("Button \(event)") }
        .onEvent { (event: TableEvent) in Self.note("Table \(event)") }
        .onEvent { (event: TreeEvent) in Self.note("Tree \(event)") }
        .onEvent { (event: ListEvent) in Self.note("List \(event)") }
        .padding(.horizontal, 1)
    }

    /// Typed events from any widget in the gallery end up in its log and its status line.
    @MainActor static func note(_ text: String) {
        Application.state(\.gallery).modify { state in
            state.lastEvent = text
            state.log.append(text)
            if state.log.count > 500 { state.log.removeFirst(state.log.count - 500) }
        }
    }

    public var commands: [Command] {
        [
            Command("f2", "Name field") { try? WidgetManager.gallery.toggle("name") },
            Command("f3", "Form on/off") { try? WidgetManager.gallery.toggleEnabled("form") },
            Command("f4", "Progress") { try? WidgetManager.gallery.toggle("progress") },
            Command("f5", "Tree") { try? WidgetManager.gallery.toggle("tree") },
            Command("f6", "Log line") { Self.note("F6 pressed at \(Date().formatted(date: .omitted, time: .standard))") },
        ]
    }

    /// Lets the spinner's clock run while the spinner is on screen (the demo calls this; tests
    /// do not, so screens stay still). It is a task of the spinner: hidden (another page, another
    /// tab, the spinner widget hidden), it stops, and the app does nothing at rest.
    @MainActor public static func startClock() { clockRuns = true }

    @MainActor static var clockRuns = false
}

extension Application {
    /// The spinner's frame: read only by the Display page, so the clock redraws nothing else.
    var galleryTick: State<Int> { state(initial: 0, feature: "Gallery", id: "tick") }
    /// Values of the form the factory builds.
    var galleryForm: State<[String: FormValue]> { state(initial: [:], feature: "Gallery", id: "form-values") }
}

/// Text fields, toggles, a radio group, buttons, a text area and a factory-built form.
struct InputsPage: View {
    @AppState(\.gallery) var gallery

    static let settings: [FormField] = (try? JSONDecoder().decode([FormField].self, from: Data("""
    [
      {"id": "host", "label": "Host", "kind": "text", "placeholder": "example.org"},
      {"id": "tls", "label": "TLS", "kind": "checkbox", "placeholder": "verify certificates"},
      {"id": "mode", "label": "Mode", "kind": "choice", "options": ["fast", "safe", "quiet"]}
    ]
    """.utf8))) ?? []

    /// The profile's text fields are this wide: a field is as wide as its text when nothing
    /// sets its width, and the box around them widened with every key typed.
    static let fieldWidth = 24

    var body: some View {
        VStack(spacing: 1) {
            Box(title: "Profile", style: .rounded) {
                Grid(spacing: 2) {
                    // Both labels in the text style: the same kind of thing looks the same.
                    GridRow { Label("Name", key: "f2"); TextField("your name", text: $gallery.name).frame(width: Self.fieldWidth) }
                        .widget("name", in: .gallery, transition: .reveal)
                    GridRow { Text("Password"); TextField("secret", text: $gallery.password).secure().frame(width: Self.fieldWidth) }
                        .widget("password", in: .gallery)
                }
            }
            VStack {
                HStack(spacing: 3) {
                    Toggle("Wrap lines", isOn: $gallery.wrap)
                    Checkbox("Notify me", isOn: $gallery.notify)
                }
                RadioGroup(["Small", "Medium", "Large"], selection: $gallery.size, axis: .horizontal)
                HStack(spacing: 2) {
                    Button("Submit") { WidgetsApplet.note("submitted \(Application.state(\.gallery).value.name)") }
                    Button("Clear") { Application.state(\.gallery).modify { $0.name = ""; $0.password = "" } }
                }
            }
            .widget("form", in: .gallery, transition: .fade)
            // No blank rows between these: the page still fits an 80x24 terminal with the notes'
            // frame, and the boxes' borders set them apart.
            VStack {
                Box(title: "Settings (built by FormFactory from JSON)") {
                    (try? FormFactory(values: Application.state(\.galleryForm)).makeWidgets(from: Self.settings, in: .gallery))
                }
                // Framed, so it reads as a place to type rather than as text on the page.
                Box(title: "Notes (TextArea)") {
                    TextArea(text: $gallery.notes, placeholder: "Write here; Enter starts a new line")
                }
                .frame(height: 6)
                .widget("notes", in: .gallery)
                Text("Last event: \(gallery.lastEvent)").lineLimit(1).themed(.muted)
            }
        }
    }
}

/// A list with multi-select and search, and a log that follows its tail.
struct ListsPage: View {
    @AppState(\.gallery) var gallery
    static let fruits = ["Apple", "Apricot", "Banana", "Blackberry", "Blueberry", "Cherry", "Clementine", "Coconut",
                         "Date", "Dragon fruit", "Fig", "Grape", "Grapefruit", "Guava", "Kiwi", "Lemon", "Lime",
                         "Lychee", "Mango", "Melon", "Nectarine", "Orange", "Papaya", "Peach", "Pear", "Pineapple",
                         "Plum", "Pomegranate", "Raspberry", "Strawberry", "Tangerine", "Watermelon", "柿 (kaki)", "🍓 emoji"]

    var body: some View {
        HStack(spacing: 1) {
            // A short title that fits the box; the keys on a muted line under the list.
            Box(title: "List") {
                VStack {
                    List(count: Self.fruits.count, selection: $gallery.fruit) { Text(Self.fruits[$0]) }
                        .multiSelection($gallery.picked)
                        .searchable { Self.fruits[$0] }
                    Text("Space marks, / searches, n next").lineLimit(1).themed(.muted)
                }
            }
            .frame(width: 38)
            Box(title: "LogView (F6 adds; End follows)") {
                LogView(lines: gallery.log, follow: $gallery.follow)
            }
        }
    }
}

/// A sortable table and a tree, side by side in a resizable split.
struct DataPage: View {
    @AppState(\.gallery) var gallery
    struct Process: Sendable { let pid: Int; let name: String; let cpu: Double; let memory: Int }
    static let processNames = ["swift-frontend", "sshd", "tmux", "bash", "appletkit", "postgres", "nginx"]
    static let processes: [Process] = (0..<300).map { (i: Int) -> Process in
        let name: String = processNames[i % 7] + "-\(i)"
        let cpu = Double((i * 37) % 1000) / 10
        return Process(pid: 100 + i * 7, name: name, cpu: cpu, memory: (i * 7919) % 65536)
    }
    static let tree = [
        TreeItem("Sources", children: [
            TreeItem("AppletUI", children: [TreeItem("Table.swift"), TreeItem("Tree.swift"), TreeItem("TextField.swift")]),
            TreeItem("AppletState", children: [TreeItem("State.swift"), TreeItem("StoredState.swift")]),
            TreeItem("Terminal", children: [TreeItem("Canvas.swift"), TreeItem("NcursesTerminal.swift")]),
        ]),
        TreeItem("Tests", children: [TreeItem("AppletUITests"), TreeItem("EndToEndTests")]),
        TreeItem("README.md"),
    ]

    var body: some View {
        SplitView(ratio: $gallery.ratio, minimum: 10) {
            Table(Self.processes, columns: [
                TableColumn("PID", width: .fixed(6), alignment: .trailing),
                TableColumn("Name", width: .flexible(2)),
                TableColumn("CPU %", width: .fixed(6), alignment: .trailing),
                TableColumn("Mem KB", width: .fixed(7), alignment: .trailing),
            ], selection: $gallery.row, sort: $gallery.sort) { process, column in
                switch column {
                case 0: "\(process.pid)"
                case 1: process.name
                case 2: String(format: "%.1f", process.cpu)
                default: "\(process.memory)"
                }
            }
            .widget("table", in: .gallery)
        } second: {
            // The heading hides with the tree (F5), and the split then leaves the table the
            // whole width: hidden takes no space.
            VStack {
                Text("Tree: → opens, ← closes").themed(.title)
                Tree(Self.tree, expanded: $gallery.expanded, selection: $gallery.node)
            }
            .widget("tree", in: .gallery, transition: .reveal)
        }
    }
}

/// Progress, gauges, sparklines, a spinner, labels, text and theme roles.
struct DisplayPage: View {
    @AppState(\.gallery) var gallery
    @AppState(\.galleryTick) var tick
    static let samples: [Double] = (0..<48).map { sin(Double($0) / 4) * 10 + 12 }

    /// The spinner's clock: a task of the spinner itself, so it runs only while the spinner is on
    /// screen (this page shown, the spinner widget not hidden) and the app is at rest otherwise.
    @MainActor static func turnSpinner() async {
        guard WidgetsApplet.clockRuns else { return }
        while !Task.isCancelled {
            try? await MainQueueClock().sleep(for: .milliseconds(120))
            Application.state(\.galleryTick).value &+= 1
        }
    }

    var body: some View {
        VStack(spacing: 1) {
            Grid(spacing: 2, rowSpacing: 0) {
                GridRow { Text("ProgressBar"); ProgressBar(value: gallery.progress, label: true).frame(width: 40) }
                    .widget("progress", in: .gallery, transition: .reveal)
                GridRow { Text("Gauge"); Gauge(value: 0.72, label: "CPU").frame(width: 40) }
                GridRow { Text("Sparkline"); Sparkline(Self.samples).frame(width: 40) }
                GridRow { Text("Spinner"); Spinner(frame: tick, title: "working…").task { await Self.turnSpinner() } }
                    .widget("spinner", in: .gallery)
                GridRow { Text("Label"); Label("Toggle the tree", key: "f5") }
            }
            HStack(spacing: 2) {
                Box(title: "Text wraps", style: .rounded) {
                    Text("Text wraps at word boundaries and cuts what does not fit with an ellipsis. 東京 and 🚀 take two columns.")
                }
                .frame(width: 30, height: 6)
                Box(title: "Theme roles") {
                    VStack {
                        Text("accent").themed(.accent)
                        Text("success").themed(.success)
                        Text("warning").themed(.warning)
                        Text("error").themed(.error)
                        Text("muted").themed(.muted)
                    }
                }
                .frame(width: 20)
            }
        }
    }
}

/// ZStack, frames, a grid and a scroll view.
struct LayoutPage: View {
    @AppState(\.gallery) var gallery

    var body: some View {
        HStack(spacing: 2) {
            VStack(spacing: 1) {
                ZStack(alignment: .bottomTrailing) {
                    Box(title: "ZStack") { Text("Layers, later on top") }.frame(width: 30, height: 5)
                    Text(" badge ").themed(.selection)
                }
                Text("fixed 20x1").themed(.selection).frame(width: 20, height: 1, alignment: .leading)
                Grid(columns: 3, spacing: 2) {
                    Text("key"); Text("value"); Text("unit")
                    Text("cpu"); Text("72"); Text("%")
                    Text("memory"); Text("1024"); Text("MB")
                }
            }
            Box(title: "ScrollView (wheel, ↑↓)") {
                ScrollView {
                    ForEach(0..<40) { i in
                        Button("Item \(i)") { Application.state(\.gallery).modify { $0.scrollPick = i } }
                    }
                }
            }
            .frame(width: 28)
            Text("Picked item \(gallery.scrollPick)").themed(.accent)
        }
    }
}
