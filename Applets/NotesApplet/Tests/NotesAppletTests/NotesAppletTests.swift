import AppletTesting
import Foundation
import NotesApplet
import NotesAppletInterface
import Testing

@Suite("Notes applet")
@MainActor
struct NotesAppletTests {
    func notes() throws -> AppletTestHost { try AppletTestHost(NotesApplet(), width: 70, height: 20) }

    @Test func listThenDetailThenBack() throws {
        let h = try notes()
        #expect(h.contains("3 notes") && h.contains("Groceries") && h.contains("Standup"))
        h.press("down", "enter")
        #expect(h.contains("Notes › Standup"))
        #expect(h.contains("Ship the navigation stack."))
        #expect(h.contains("#work"))
        h.press("esc")
        #expect(h.contains("3 notes"))
    }

    @Test func editingSavesWithCtrlSAndSaysSo() throws {
        let h = try notes()
        h.press("enter", "e")
        #expect(h.contains("Notes › Groceries › Edit"))
        h.press("end")
        h.type(" list")
        h.press("ctrl-s")
        #expect(h.application.notes.value.notes[0].title == "Groceries list")
        #expect(h.contains("Notes › Groceries list"), "back on the detail")
        #expect(h.contains("✓ Saved “Groceries list”"))
    }

    @Test func leavingTheEditorWithoutSavingKeepsTheNote() throws {
        let h = try notes()
        h.press("enter", "e")
        h.type("XYZ")
        h.press("esc", "esc")                          // leave the field, then go back
        #expect(h.contains("Notes › Groceries"))
        #expect(h.application.notes.value.notes[0].title == "Groceries")
    }

    @Test func aNewNoteNeedsATitle() throws {
        let h = try notes()
        h.press("n")
        #expect(h.contains("Notes › Edit"))
        h.press("ctrl-s")
        #expect(h.contains("A note needs a title"))
        #expect(h.application.notes.value.notes.count == 3)
        h.type("Plan")
        h.press("ctrl-s")
        #expect(h.application.notes.value.notes.map(\.title) == ["Groceries", "Standup", "Ideas", "Plan"])
        #expect(h.contains("4 notes"))
    }

    @Test func deletingAsksFirstAndEnterRightAwayIsSafe() throws {
        let h = try notes()
        h.press("d")
        #expect(h.contains("Delete “Groceries”?"))
        h.press("enter")
        #expect(h.application.notes.value.notes.count == 3)
        h.press("d", "right", "enter")
        #expect(h.application.notes.value.notes.map(\.title) == ["Standup", "Ideas"])
        #expect(h.contains("✓ Deleted “Groceries”"))
    }

    @Test func tagsAreChosenInASheet() throws {
        let h = try notes()
        h.press("down", "t")
        #expect(h.contains("Tags of Standup"))
        #expect(h.contains("✓ work"))
        h.press("enter")                               // the first tag, "home", has the focus
        #expect(h.application.notes.value.notes[1].tags == ["work", "home"])
        h.press("esc")
        #expect(!h.host.isShowingModal)
        #expect(h.contains("work home"))
    }

    @Test func theStackComesBackAfterARestart() throws {
        let h = try notes()
        h.press("down", "down", "enter")
        #expect(h.contains("Notes › Ideas"))
        let again = try h.restart()
        #expect(again.contains("Notes › Ideas"))
        #expect(again.contains("A terminal app for every team."))
    }
}
