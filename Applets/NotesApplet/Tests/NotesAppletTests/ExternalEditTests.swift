import AppletTesting
import Foundation
import Observation
import Synchronization
@testable import NotesApplet
import NotesAppletInterface
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `E`: a note's text in the user's editor, with the terminal's program run stood in for by the
/// test (what an editor would do to the file it is given).
@Suite("Notes: editing in $EDITOR")
@MainActor
struct ExternalEditTests {
    func notes() throws -> AppletTestHost { try AppletTestHost(NotesApplet(), width: 90, height: 20) }

    /// Presses `E` and waits until the edit has run to its end.
    func editInEditor(_ h: AppletTestHost) async {
        h.press("E")
        await h.application.logic.value.idle()
        await h.settle()
    }

    @Test func theEditorsTextBecomesTheNotesTextAndTheFileGoes() async throws {
        let h = try notes()
        var seen: (path: String, text: String, mode: mode_t)?
        h.terminal.programRunner = { program in
            let path = program.arguments.last!
            var info = stat()
            stat(path, &info)
            seen = (path, (try? String(contentsOfFile: path, encoding: .utf8)) ?? "", info.st_mode & 0o777)
            // What a person does in the editor: a line more (the editor keeps the final newline).
            try? "Milk\nBread\nCoffee\nTea\n".write(toFile: path, atomically: false, encoding: .utf8)
            return .exited(0)
        }
        #expect(h.lines.last?.contains("E Edit in $EDITOR") == true, "\(h.lines.last ?? "")")
        await editInEditor(h)
        let file = try #require(seen)
        #expect(file.text == "Milk\nBread\nCoffee\n", "the note's text, ending in a newline as text files do")
        #expect(file.mode == 0o600, "only this user can read it")
        #expect(file.path.hasPrefix(ProcessEnvironment.temporaryDirectory + "/note-") && file.path.hasSuffix(".txt"))
        #expect(!FileManager.default.fileExists(atPath: file.path), "the file is removed")
        #expect(h.application.notes.value.notes[0].body == "Milk\nBread\nCoffee\nTea")
        #expect(h.contains("✓ Updated “Groceries” from the editor"))
        #expect(h.terminal.programsRun.count == 1)
    }

    /// The note's change is observed the moment the store takes it: by then the temporary copy
    /// is gone, on the success path and on a failing editor's.
    @Test(arguments: [0, 3])
    func theFileIsGoneBeforeTheStoreHearsTheOutcome(status: Int32) async throws {
        let h = try notes()
        let heard = Heard()
        h.terminal.programRunner = { program in
            heard.state.withLock { $0.path = program.arguments.last! }
            try? "Edited\n".write(toFile: program.arguments.last!, atomically: false, encoding: .utf8)
            return .exited(status)
        }
        withObservationTracking {
            _ = h.application.notes.value
            _ = h.host.toasts
        } onChange: {
            heard.state.withLock { $0.fileExisted.append(FileManager.default.fileExists(atPath: $0.path)) }
        }
        await editInEditor(h)
        let seen = heard.state.withLock { $0.fileExisted }
        #expect(seen == [false], "the store heard once, with the file already gone: \(seen)")
    }

    /// What the store's observer saw, from whichever thread it is told on.
    final class Heard: Sendable {
        let state = Mutex((path: "", fileExisted: [Bool]()))
    }

    @Test func anEditorThatFailsLeavesTheNoteAndSaysSo() async throws {
        let h = try notes()
        var path = ""
        h.terminal.programRunner = { program in
            path = program.arguments.last!
            try? "changed\n".write(toFile: path, atomically: false, encoding: .utf8)
            return .exited(3)
        }
        h.press("down")
        await editInEditor(h)
        #expect(h.application.notes.value.notes[1].body == "Ship the navigation stack.\nAsk about the release.")
        #expect(h.host.toasts.map(\.message) == ["The editor exited with status 3; the note is unchanged"])
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aMissingEditorIsAnErrorToastAndTheFileGoes() async throws {
        let h = try notes()
        await editInEditor(h)
        let program = try #require(h.terminal.programsRun.first)
        #expect(h.host.toasts.map(\.style) == [.error])
        #expect(h.host.toasts.first?.message.hasPrefix("Could not run \(program.executable): not found") == true)
        #expect(!FileManager.default.fileExists(atPath: program.arguments.last!))
        #expect(h.application.notes.value == NotesState())
    }

    @Test func anUntrustedFileIsReadWithLimits() async throws {
        let h = try notes()
        // Larger than a note can be.
        h.terminal.programRunner = { program in
            let path = program.arguments.last!
            try? Data(repeating: 0x61, count: ExternalEdit.maximumBytes + 1).write(to: URL(fileURLWithPath: path))
            return .exited(0)
        }
        await editInEditor(h)
        #expect(h.host.toasts.map(\.message) == ["The edited note is larger than 1 MiB; the note is unchanged"])
        // Replaced by a link to another file.
        h.terminal.programRunner = { program in
            let path = program.arguments.last!
            unlink(path)
            symlink("/etc/hostname", path)
            return .exited(0)
        }
        await editInEditor(h)
        #expect(h.host.toasts.last?.message.hasPrefix("Could not read the edited note") == true, "\(h.host.toasts)")
        #expect(h.application.notes.value.notes[0].body == "Milk\nBread\nCoffee")
        // Control characters and CRLF line ends.
        h.terminal.programRunner = { program in
            try? Data("a\r\nb\u{1B}[31mc\u{7}\n".utf8).write(to: URL(fileURLWithPath: program.arguments.last!))
            return .exited(0)
        }
        await editInEditor(h)
        #expect(h.application.notes.value.notes[0].body == "a\nb[31mc")
    }

    @Test func theEditorIsEDITORElseViAndOneWithArgumentsRunsThroughTheShell() {
        #expect(ExternalEdit.editor(in: [:]).program(editing: "/t/n.txt") == RunProgram("vi", arguments: ["/t/n.txt"]))
        #expect(ExternalEdit.editor(in: ["EDITOR": " "]).command == "vi")
        #expect(ExternalEdit.editor(in: ["EDITOR": "/usr/bin/nano"]).program(editing: "/t/n.txt")
                == RunProgram("/usr/bin/nano", arguments: ["/t/n.txt"]))
        #expect(ExternalEdit.editor(in: ["EDITOR": "code --wait"]).program(editing: "/t/n.txt")
                == RunProgram("/bin/sh", arguments: ["-c", "code --wait \"$@\"", "code --wait", "/t/n.txt"]))
    }

    @Test func theTextReadBackLosesOneFinalNewline() {
        #expect(ExternalEdit.noteText(from: Array("a\nb\n".utf8)) == "a\nb")
        #expect(ExternalEdit.noteText(from: Array("a\n\n".utf8)) == "a\n")
        #expect(ExternalEdit.noteText(from: Array("x".utf8)) == "x")
        #expect(ExternalEdit.noteText(from: [0x61, 0xFF, 0x62]) == "a\u{FFFD}b")
    }

    /// The logic as values: each step's result handed in by the test, each state change checked.
    @Test func theStepsAreSideEffectsATestDrives() async throws {
        let note = NotesState.samples[0]
        let editor = ExternalEdit.Editor("ed")
        let path = "/tmp/note-abc123.txt"
        let test = TestLogic(NotesLogic())
        await test.send(.editInEditor(note, editor), effects: [WriteEditorFile(text: "Milk\nBread\nCoffee\n")])
        await test.effect(WriteEditorFile(text: "Milk\nBread\nCoffee\n"), returns: path,
                          effects: [RunProgram("ed", arguments: [path])])
        await test.effect(RunProgram("ed", arguments: [path]), returns: .exited(0), effects: [ReadEditorFile(path: path)])
        // The file goes first; the store hears the outcome after.
        await test.effect(ReadEditorFile(path: path), returns: "Milk", effects: [RemoveEditorFile(path: path)])
        await test.effect(RemoveEditorFile(path: path), requests: [NotesRequest.editedInEditor(id: 1, body: "Milk")]) { state in
            state[\.notes] = NotesState(notes: [Note(id: 1, title: "Groceries", body: "Milk", tags: ["home"])] + NotesState.samples.dropFirst())
            state[\.toasts] = test.store.toasts.value
        }
        // An editor that cannot start: the host said so; the file goes, nothing else happens.
        await test.send(.editInEditor(note, editor), effects: [WriteEditorFile(text: "Milk\nBread\nCoffee\n")])
        await test.effect(WriteEditorFile(text: "Milk\nBread\nCoffee\n"), returns: path, effects: [RunProgram("ed", arguments: [path])])
        await test.effect(RunProgram("ed", arguments: [path]), returns: .couldNotStart("ed: not found"),
                          effects: [RemoveEditorFile(path: path)])
        await test.effect(RemoveEditorFile(path: path))
        test.finish()
    }
}
