import AppletKit

/// One note.
public struct Note: Codable, Hashable, Sendable, Identifiable {
    public var id: Int
    public var title: String
    public var body: String
    public var tags: [String]

    public init(id: Int, title: String, body: String = "", tags: [String] = []) {
        self.id = id
        self.title = title
        self.body = body
        self.tags = tags
    }
}

/// Every note, kept across restarts, and which one the list has selected.
public struct NotesState: Codable, Hashable, Sendable {
    public var notes: [Note]
    public var selection: Int
    public var nextID: Int

    public init(notes: [Note] = NotesState.samples, selection: Int = 0) {
        self.notes = notes
        self.selection = selection
        self.nextID = (notes.map(\.id).max() ?? 0) + 1
    }

    public static let samples = [
        Note(id: 1, title: "Groceries", body: "Milk\nBread\nCoffee", tags: ["home"]),
        Note(id: 2, title: "Standup", body: "Ship the navigation stack.\nAsk about the release.", tags: ["work"]),
        Note(id: 3, title: "Ideas", body: "A terminal app for every team."),
    ]

    /// The note with `id`, if it still exists.
    public func note(_ id: Int) -> Note? { notes.first { $0.id == id } }
}

/// The screens of the Notes applet: the list is the root; a note's detail and its editor are pushed.
public enum NotesRoute: Hashable, Codable, Sendable {
    case detail(Int)
    case edit(Int)
}

/// The sheets the Notes applet presents.
public enum NotesSheet: Hashable, Sendable {
    case tags(Int)
}

/// The tags a note can have.
public let noteTags = ["home", "work", "idea", "later"]

extension Application {
    /// The notes, shared with any applet that wants them (a count in a dashboard, say).
    public var notes: StoredState<NotesState> { storedState(initial: NotesState(), feature: "Notes", id: "notes") }
    /// Where the Notes tab is: its stack comes back after a restart.
    public var notesPath: StoredState<RouterPath<NotesRoute, NotesSheet>> {
        storedState(initial: RouterPath(), feature: "Notes", id: "path")
    }
    /// The text being edited, until it is saved.
    public var noteDraft: State<Note?> { state(initial: nil, feature: "Notes", id: "draft") }
}
