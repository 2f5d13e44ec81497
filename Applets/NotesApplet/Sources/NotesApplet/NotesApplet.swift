import AppletKit
import Foundation
import NotesAppletInterface

/// Notes: a list; `Enter` opens a note, `e` edits it (`Ctrl-S` saves, with a toast), `E` edits its
/// text in the user's `$EDITOR` (see `ExternalEdit`), `t` picks its tags in a sheet, `d` deletes it
/// after asking, `n` starts a new one. `Esc` goes back one screen. The stack is stored, so the app
/// reopens where it was.
public struct NotesApplet: NavigationApplet {
    public let id = "notes"
    public let title = "Notes"
    @StoredState(\.notes) private var state
    @StoredState(\.notesPath) private var path

    public init() {}

    public var navigation: Binding<RouterPath<NotesRoute, NotesSheet>> { $path }

    // MARK: Screens

    public var body: some View {
        VStack {
            HStack {
                Text("Notes").bold()
                Spacer()
                Text("\(state.notes.count) notes").themed(.muted)
            }
            Divider()
            if state.notes.isEmpty {
                Text("No notes yet: press n to write one.").themed(.muted)
            } else {
                let path = $path
                let notes = state.notes
                List(notes, selection: $state.selection) { note in
                    HStack {
                        Text(note.title)
                        Spacer()
                        Text(note.tags.joined(separator: " ")).themed(.muted)
                    }
                }
                .onEvent(ListEvent.self) { event in
                    if case .activated(let row) = event, notes.indices.contains(row) {
                        path.wrappedValue.push(.detail(notes[row].id))
                    }
                }
            }
        }
        .padding(.horizontal, 1)
    }

    public func title(for route: NotesRoute) -> String {
        switch route {
        case .detail(let id): state.note(id)?.title ?? "Deleted note"
        case .edit: "Edit"
        }
    }

    @ViewBuilder public func destination(for route: NotesRoute) -> some View {
        switch route {
        case .detail(let id): NoteDetailView(id: id)
        case .edit: NoteEditorView()
        }
    }

    public func title(for sheet: NotesSheet) -> String { "Tags" }

    @ViewBuilder public func sheet(for sheet: NotesSheet) -> some View {
        switch sheet {
        case .tags(let id): NoteTagsSheet(id: id)
        }
    }

    // MARK: Keys

    /// Every key of the applet, enabled where it applies: on the list, on a note, in the editor.
    /// (All are always listed, so help, the palette and `keys.toml` know every id.)
    public var commands: [Command] {
        let notes = $state, path = $path
        let top = path.wrappedValue.top
        // The note a key acts on: the one on screen, else the list's selection.
        let current: Note? = switch top {
        case .detail(let id): notes.wrappedValue.note(id)
        case nil: notes.wrappedValue.notes[safe: notes.wrappedValue.selection]
        case .edit: nil
        }
        let editing = if case .edit = top { true } else { false }
        let onDetail = if case .detail = top { true } else { false }
        return [
            Command(id: "notes.new", "New", keys: ["n"], isEnabled: top == nil) { Self.startNew(notes: notes, path: path) },
            Command(id: "notes.edit", "Edit", keys: ["e"], isEnabled: onDetail && current != nil) {
                if let current { Self.startEditing(current, path: path) }
            },
            Command(id: "notes.tags", "Tags", keys: ["t"], isEnabled: current != nil) {
                if let current { path.wrappedValue.present(.tags(current.id)) }
            },
            Command(id: "notes.delete", "Delete", keys: ["d"], isEnabled: current != nil) {
                if let current { Self.askToDelete(current, notes: notes, path: path) }
            },
            Command(id: "notes.save", "Save", keys: ["ctrl-s"], isEnabled: editing) { Self.save(notes: notes, path: path) },
            // Last: where the footer is short of room, the note's own keys stay.
            Command(id: "notes.external-edit", "Edit in $EDITOR", keys: ["E"], isEnabled: current != nil) {
                guard let current else { return }
                let editor = ExternalEdit.editor(in: ProcessEnvironment.current)
                Application.current.logic.value.send(.editInEditor(current, editor), to: NotesLogic())
            },
        ]
    }

    static func startNew(notes: Binding<NotesState>, path: Binding<RouterPath<NotesRoute, NotesSheet>>) {
        let id = notes.wrappedValue.nextID
        Application.current.noteDraft.value = Note(id: id, title: "")
        path.wrappedValue.push(.edit(id))
    }

    static func startEditing(_ note: Note, path: Binding<RouterPath<NotesRoute, NotesSheet>>) {
        Application.current.noteDraft.value = note
        path.wrappedValue.push(.edit(note.id))
    }

    static func askToDelete(_ note: Note, notes: Binding<NotesState>, path: Binding<RouterPath<NotesRoute, NotesSheet>>) {
        let title = note.title.isEmpty ? "this note" : "“\(note.title)”"
        confirm("Delete \(title)?", confirmTitle: "Delete", destructive: true) {
            notes.wrappedValue.notes.removeAll { $0.id == note.id }
            notes.wrappedValue.selection = min(notes.wrappedValue.selection, max(0, notes.wrappedValue.notes.count - 1))
            path.wrappedValue.popToRoot()
            toast("Deleted \(title)", style: .success)
        }
    }

    /// Writes the draft into the notes, goes back, and says so.
    static func save(notes: Binding<NotesState>, path: Binding<RouterPath<NotesRoute, NotesSheet>>) {
        guard var draft = Application.current.noteDraft.value else { return }
        draft.title = draft.title.trimmingCharacters(in: .whitespaces)
        guard !draft.title.isEmpty else {
            toast("A note needs a title", style: .warning)
            return
        }
        if let index = notes.wrappedValue.notes.firstIndex(where: { $0.id == draft.id }) {
            notes.wrappedValue.notes[index] = draft
        } else {
            notes.wrappedValue.notes.append(draft)
            notes.wrappedValue.nextID = draft.id + 1
            notes.wrappedValue.selection = notes.wrappedValue.notes.count - 1
        }
        Application.current.noteDraft.value = nil
        path.wrappedValue.pop()
        toast("Saved “\(draft.title)”", style: .success)
    }
}

/// A note: its title, tags and text.
struct NoteDetailView: View {
    let id: Int
    @StoredState(\.notes) private var state

    var body: some View {
        if let note = state.note(id) {
            VStack(spacing: 1) {
                Text(note.title).bold()
                Text(note.tags.isEmpty ? "no tags" : note.tags.map { "#\($0)" }.joined(separator: " ")).themed(.muted)
                Text(note.body.isEmpty ? "(empty)" : note.body)
            }
            .padding(.horizontal, 1)
        } else {
            Text("This note was deleted.").themed(.muted).padding(.horizontal, 1)
        }
    }
}

/// The editor: a title field and the text; `Ctrl-S` saves, `Esc` leaves the field, then goes
/// back without saving.
struct NoteEditorView: View {
    @AppState(\.noteDraft) private var draft

    var body: some View {
        let draft = $draft
        return VStack(spacing: 1) {
            TextField("Title", text: Binding(get: { draft.wrappedValue?.title ?? "" }, set: { draft.wrappedValue?.title = $0 }))
            TextArea(text: Binding(get: { draft.wrappedValue?.body ?? "" }, set: { draft.wrappedValue?.body = $0 }), placeholder: "Write here")
            Text("Ctrl-S save · Esc leave the field, Esc again to go back without saving").themed(.muted)
        }
        .padding(.horizontal, 1)
    }
}

/// The tags sheet: a button per tag turns it on or off.
struct NoteTagsSheet: View {
    let id: Int
    @StoredState(\.notes) private var state

    var body: some View {
        let tags = state.note(id)?.tags ?? []
        let notes = $state
        let id = self.id
        return VStack(spacing: 1) {
            Text("Tags of \(state.note(id)?.title ?? "a deleted note")")
            HStack(spacing: 1) {
                ForEach(noteTags, id: \.self) { tag in
                    Button(tags.contains(tag) ? "✓ \(tag)" : "  \(tag)") {
                        guard let index = notes.wrappedValue.notes.firstIndex(where: { $0.id == id }) else { return }
                        if let at = notes.wrappedValue.notes[index].tags.firstIndex(of: tag) {
                            notes.wrappedValue.notes[index].tags.remove(at: at)
                        } else {
                            notes.wrappedValue.notes[index].tags.append(tag)
                        }
                    }
                }
            }
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
