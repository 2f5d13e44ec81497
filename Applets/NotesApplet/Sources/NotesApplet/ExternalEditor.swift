import AppletKit
import Foundation
import NotesAppletInterface
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Editing a note's text in the user's own editor (`E`): the text goes to a private temporary
/// file, the editor gets the terminal (`RunProgram`, which the host performs), and what the file
/// holds when the editor exits with status 0 becomes the note's text. The file is removed on
/// every path, before the outcome reaches the store: once a person sees the result, no copy of
/// the note is left in the temporary folder. Every step is a value, so a test delivers each result and checks what follows.
///
/// ```swift
/// logic.send(ExternalEdit.executable(for: note, editor: ExternalEdit.editor(in: ProcessEnvironment.current)))
/// ```
public enum ExternalEdit {
    /// The largest file read back: a note is text a person typed.
    public static let maximumBytes = 1 << 20

    /// The editor to run on a file: `$EDITOR`, else `vi`. A plain command name or path runs as
    /// it is (so a missing one is reported before the screen changes); one with arguments or
    /// shell syntax (`code --wait`, `emacs -nw`) runs through `/bin/sh`, as git runs it.
    public static func editor(in environment: [String: String]) -> Editor {
        let value = environment["EDITOR"]?.trimmingCharacters(in: .whitespaces) ?? ""
        return Editor(value.isEmpty ? "vi" : value)
    }

    /// How an editor is started on a file.
    public struct Editor: Hashable, Sendable {
        /// What the user named (`vi`, `code --wait`).
        public let command: String

        public init(_ command: String) { self.command = command }

        /// The program that edits `path`.
        public func program(editing path: String) -> RunProgram {
            let plain = command.unicodeScalars.allSatisfy { !CharacterSet.whitespaces.contains($0) && !"'\"\\$`;&|<>()*?[]#~=%!{}".unicodeScalars.contains($0) }
            if plain { return RunProgram(command, arguments: [path]) }
            return RunProgram("/bin/sh", arguments: ["-c", command + " \"$@\"", command, path])
        }
    }

    /// Writes the note, runs the editor, reads the file back into the note, removes the file.
    public static func executable(for note: Note, editor: Editor) -> Executable {
        let id = note.id
        return .effect(WriteEditorFile(text: note.body + "\n"), then: { path in
            let remove = Executable.effect(RemoveEditorFile(path: path))
            return .effect(editor.program(editing: path), then: { outcome in
                switch outcome {
                case .exited(0):
                    return .effect(ReadEditorFile(path: path), then: { text in
                        remove.then(.request(NotesRequest.editedInEditor(id: id, body: text)))
                    }, onError: { error in
                        remove.then(.request(NotesRequest.editorProblem("\(error.description); the note is unchanged")))
                    })
                case .couldNotStart:
                    // The host said why in an error toast.
                    return remove
                case .exited, .signalled:
                    return remove.then(.request(NotesRequest.editorProblem("The editor \(outcome); the note is unchanged")))
                }
            })
        }, onError: { error in
            .request(NotesRequest.editorProblem("\(error.description); the note is unchanged"))
        })
    }

    /// The text read back from the editor: at most one final newline dropped (editors end a
    /// file with one), `\r\n` as `\n`, control characters other than newlines and tabs removed,
    /// bytes that are not UTF-8 replaced.
    static func noteText(from bytes: [UInt8]) -> String {
        var text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        text.unicodeScalars.removeAll { scalar in
            (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
        }
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

/// The Notes applet's events that go through the logic layer (the action log and `--record`
/// show them; a test drives them with `TestLogic`).
public struct NotesLogic: EventLogic {
    public enum Event: Sendable, Hashable {
        /// `E`: edit the note's text in `editor`.
        case editInEditor(Note, ExternalEdit.Editor)
    }

    public init() {}

    public func executable(for event: Event, in context: LogicContext) -> Executable {
        switch event {
        case .editInEditor(let note, let editor): ExternalEdit.executable(for: note, editor: editor)
        }
    }
}

/// Why the note's file could not be written or read.
public struct EditorFileError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Writes `text` to a new file only this user can read (mkstemp: 0600, a name no one else has)
/// in the temporary folder; its path is the output.
public struct WriteEditorFile: LiveSideEffect, Codable, Hashable, CustomStringConvertible {
    public typealias Output = String
    public typealias Failure = EditorFileError
    public var text: String

    public var description: String { "WriteEditorFile(\(text.utf8.count) bytes)" }

    public func perform(with coeffects: Coeffects) async throws(EditorFileError) -> String {
        var template = Array((ProcessEnvironment.temporaryDirectory + "/note-XXXXXX.txt").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else { throw EditorFileError("Could not make a file for the editor: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let why = String(cString: strerror(errno))
                unlink(path)
                throw EditorFileError("Could not write the file for the editor: \(why)")
            }
            written += n
        }
        return path
    }
}

/// Reads the file the editor was given, as untrusted text: a regular file (not a link to
/// another), at most `ExternalEdit.maximumBytes`.
public struct ReadEditorFile: LiveSideEffect, Codable, Hashable {
    public typealias Output = String
    public typealias Failure = EditorFileError
    public var path: String

    public func perform(with coeffects: Coeffects) async throws(EditorFileError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { throw EditorFileError("Could not read the edited note: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw EditorFileError("The edited note is not a plain file")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw EditorFileError("Could not read the edited note: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[..<n])
            guard bytes.count <= ExternalEdit.maximumBytes else {
                throw EditorFileError("The edited note is larger than \(ExternalEdit.maximumBytes / (1 << 20)) MiB")
            }
        }
        return ExternalEdit.noteText(from: bytes)
    }
}

/// Removes the editor's file (and the backup or swap file some editors leave is theirs).
public struct RemoveEditorFile: LiveSideEffect, Codable, Hashable {
    public typealias Failure = Never
    public var path: String

    public func perform(with coeffects: Coeffects) async {
        unlink(path)
    }
}

/// What editing in the editor changes in the store.
public enum NotesRequest: Request, Codable, Hashable {
    /// The note's new text, from the editor.
    case editedInEditor(id: Int, body: String)
    /// Why the editor's text was not taken.
    case editorProblem(String)

    @MainActor
    public func apply(to store: Application) {
        switch self {
        case .editedInEditor(let id, let body):
            guard let index = store.notes.value.notes.firstIndex(where: { $0.id == id }) else {
                store.toast("The note was deleted meanwhile; the text from the editor was not kept", style: .warning)
                return
            }
            let title = store.notes.value.notes[index].title
            if store.notes.value.notes[index].body == body {
                store.toast("“\(title)” unchanged", style: .info)
            } else {
                store.notes.modify { $0.notes[index].body = body }
                store.toast("Updated “\(title)” from the editor", style: .success)
            }
        case .editorProblem(let message):
            store.toast(message, style: .warning)
        }
    }
}
