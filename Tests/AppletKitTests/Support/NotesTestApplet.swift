import AppletKit

// A navigating applet for the host's navigation tests: a list of notes, a detail screen, an edit
// screen with a text field, a tags sheet (with a nested sheet) and a destructive delete.

enum NoteRoute: Hashable, Codable, Sendable {
    case detail(Int)
    case edit(Int)
}

enum NoteSheet: Hashable, Sendable {
    case tags(Int)
    case help
}

extension Application {
    var notesPath: StoredState<RouterPath<NoteRoute, NoteSheet>> {
        storedState(initial: RouterPath(), feature: "HostTests", id: "notesPath")
    }
    var notes: StoredState<[String]> {
        storedState(initial: ["Groceries", "Standup", "Ideas"], feature: "HostTests", id: "notes")
    }
    var notesSelection: State<Int> { state(initial: 0, feature: "HostTests", id: "notesSelection") }
    var noteTags: State<[String]> { state(initial: [], feature: "HostTests", id: "noteTags") }
}

struct NotesApplet: NavigationApplet {
    let id = "notes"
    let title = "Notes"
    @StoredState(\.notesPath) private var path
    @StoredState(\.notes) private var notes
    @AppState(\.notesSelection) private var selection

    var navigation: Binding<RouterPath<NoteRoute, NoteSheet>> { $path }

    var body: some View {
        VStack {
            Text("All notes (\(notes.count))").bold()
            List(notes, selection: $selection) { note in Text(note) }
                .onEvent(ListEvent.self) { event in
                    if case .activated(let row) = event { path.push(.detail(row)) }
                }
        }
        .padding(.horizontal, 1)
    }

    var commands: [Command] {
        let path = $path, notes = $notes, selection = $selection
        return [
            Command("d", "Delete") {
                let row = selection.wrappedValue
                guard notes.wrappedValue.indices.contains(row) else { return }
                confirm("Delete “\(notes.wrappedValue[row])”?", confirmTitle: "Delete", destructive: true) {
                    notes.wrappedValue.remove(at: row)
                    toast("Deleted", style: .success)
                }
            },
            Command("t", "Tags") { path.wrappedValue.present(.tags(selection.wrappedValue)) },
        ]
    }

    func title(for route: NoteRoute) -> String {
        switch route {
        case .detail(let row): notes.indices.contains(row) ? notes[row] : "Note \(row)"
        case .edit: "Edit"
        }
    }

    @ViewBuilder func destination(for route: NoteRoute) -> some View {
        switch route {
        case .detail(let row): NoteDetailView(row: row, path: $path)
        case .edit(let row): NoteEditView(row: row, notes: $notes)
        }
    }

    func title(for sheet: NoteSheet) -> String {
        switch sheet {
        case .tags: "Tags"
        case .help: "About tags"
        }
    }

    @ViewBuilder func sheet(for sheet: NoteSheet) -> some View {
        switch sheet {
        case .tags: TagsSheet(path: $path)
        case .help: Text("Tags group notes.")
        }
    }

    func commands(for sheet: NoteSheet) -> [Command] {
        let path = $path
        switch sheet {
        case .tags: return [Command("?", "About tags") { path.wrappedValue.present(.help) }]
        case .help: return []
        }
    }
}

struct NoteDetailView: View {
    let row: Int
    let path: Binding<RouterPath<NoteRoute, NoteSheet>>
    @StoredState(\.notes) private var notes

    var body: some View {
        VStack(spacing: 1) {
            Text("Detail of \(notes.indices.contains(row) ? notes[row] : "?")")
            Button("Edit") { path.wrappedValue.push(.edit(row)) }
        }
        .padding(.horizontal, 1)
    }
}

struct NoteEditView: View {
    let row: Int
    let notes: Binding<[String]>

    var body: some View {
        VStack(spacing: 1) {
            Text("Editing")
            TextField("Title", text: Binding(get: { notes.wrappedValue.indices.contains(row) ? notes.wrappedValue[row] : "" },
                                             set: { if notes.wrappedValue.indices.contains(row) { notes.wrappedValue[row] = $0 } }))
        }
        .padding(.horizontal, 1)
    }
}

struct TagsSheet: View {
    let path: Binding<RouterPath<NoteRoute, NoteSheet>>
    @AppState(\.noteTags) private var tags

    var body: some View {
        VStack(spacing: 1) {
            Text("Tags: \(tags.isEmpty ? "none" : tags.joined(separator: ", "))")
            HStack(spacing: 2) {
                Button("Work") { tags.append("work") }
                Button("Home") { tags.append("home") }
                Button("Done") { path.wrappedValue.dismiss() }
            }
        }
    }
}
