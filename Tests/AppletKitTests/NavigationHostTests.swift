import AppletKit
import AppletTesting
import Foundation
import Synchronization
import Testing

/// A notes applet and the tally, as a navigating app has them.
@MainActor
func notesApp(tab: Int? = nil) throws -> AppletTestHost {
    try AppletTestHost(tabs: [Tab(NotesApplet()), Tab(TallyApplet())], initialTab: tab, width: 100, height: 30)
}

@Suite("Navigation in the host")
@MainActor
struct NavigationHostTests {
    @Test func enterPushesEscAndBackspacePopWithABreadcrumbAbove() throws {
        let h = try notesApp()
        #expect(h.contains("All notes (3)"))
        #expect(!h.contains("›"), "no breadcrumb at the root")
        h.press("down", "enter")
        #expect(h.contains("Notes › Standup"))
        #expect(h.contains("Detail of Standup"))
        #expect(!h.contains("All notes"))
        #expect(h.row(29).contains("Esc Back"), "\(h.row(29))")
        h.press("enter")                               // the Edit button has the focus
        #expect(h.contains("Notes › Standup › Edit"))
        // Backspace belongs to the focused text field first: it edits, it does not go back.
        h.press("backspace")
        #expect(h.application.notes.value[1] == "Standu")
        #expect(h.contains("Notes › Standu › Edit"))
        h.press("esc")                                 // leaves the field
        #expect(h.contains("Notes › Standu › Edit"))
        h.press("backspace")                           // now it goes back
        #expect(h.contains("Detail of Standu"))
        #expect(h.application.notesPath.value.path == [.detail(1)])
        h.press("esc")
        #expect(h.contains("All notes (3)"))
        #expect(h.application.notesPath.value.depth == 0)
        h.press("esc")                                 // at the root Esc goes nowhere and changes nothing
        #expect(h.contains("All notes (3)"))
        #expect(!h.row(29).contains("Esc Back"))
    }

    @Test func aClickOnTheBreadcrumbGoesBackToThatLevel() throws {
        let h = try notesApp()
        h.press("enter", "enter")
        #expect(h.contains("Notes › Groceries › Edit"))
        h.click("Groceries")
        #expect(h.application.notesPath.value.path == [.detail(0)])
        #expect(h.contains("Detail of Groceries"))
        h.press("enter")
        h.click("Notes ›")
        #expect(h.application.notesPath.value.depth == 0)
        #expect(h.contains("All notes (3)"))
    }

    @Test func eachScreenKeepsItsOwnWidgetState() throws {
        let h = try notesApp()
        h.press("down", "down")
        #expect(h.application.notesSelection.value == 2)
        h.press("enter")
        #expect(h.contains("Detail of Ideas"))
        h.press("esc")
        // The list is as it was left: the third row still selected.
        let y = try #require(h.position(of: "Ideas")?.y)
        #expect(h.cell(x: 2, y: y).style.attributes.contains(.reverse))
    }

    @Test func theStackComesBackAfterARestartButASheetDoesNot() throws {
        let h = try notesApp()
        h.press("down", "enter", "enter")
        #expect(h.contains("Notes › Standup › Edit"))
        h.press("esc", "t")
        #expect(h.host.isShowingModal)
        let again = try h.restart()
        #expect(again.contains("Notes › Standup › Edit"))
        #expect(!again.host.isShowingModal, "a dialog never comes back by itself")
        // It is in the state file on disk, as routes.
        let files = try FileManager.default.contentsOfDirectory(atPath: again.stateDirectory)
        let text = try files.filter { $0.hasSuffix(".json") }
            .map { try String(contentsOfFile: again.stateDirectory + "/" + $0, encoding: .utf8) }.joined()
        #expect(text.contains("notesPath") && text.contains("edit"), "\(files): \(text)")
        again.press("esc", "esc")                      // out of the title field, then back
        #expect(again.contains("Detail of Standup"))
    }

    @Test func aSheetIsModalDimsThePaneAndEscClosesTheTopOne() throws {
        let h = try notesApp()
        h.press("t")
        #expect(h.host.isShowingModal)
        #expect(h.contains("╭") && h.contains("Tags"))
        #expect(h.contains("Tags: none"))
        #expect(h.contains("Esc closes"))
        // What is behind is greyed out (the muted role); the sheet is not.
        let behind = try #require(h.position(of: "All notes"))
        #expect(h.cell(x: behind.x, y: behind.y).style == h.host.resolvedTheme[.muted])
        let inside = try #require(h.position(of: "Tags: none"))
        #expect(h.cell(x: inside.x, y: inside.y).style != h.host.resolvedTheme[.muted])
        // The applet's keys do not reach it: "d" asks nothing, "2" changes no tab.
        h.press("d", "2")
        #expect(h.application.confirmations.value.isEmpty)
        #expect(h.host.selectedTab == 0)
        // Enter presses the first button; Tab moves inside the sheet and wraps, never out of it.
        h.press("enter")
        #expect(h.contains("Tags: work"))
        h.press("tab", "enter")
        #expect(h.contains("Tags: work, home"))
        h.press("tab", "tab", "enter")                 // Done, Work: wrapped around
        #expect(h.contains("Tags: work, home, work"))
        // The footer lists the sheet's keys, not the tab's.
        #expect(h.row(29).contains("Esc Close") && h.row(29).contains("? About tags"), "\(h.row(29))")
        #expect(!h.row(29).contains("Delete"))
        // A sheet over a sheet: Esc closes the top one only.
        h.press("?")
        #expect(h.contains("Tags group notes."))
        #expect(h.application.notesPath.value.sheets == [.tags(0), .help])
        h.press("esc")
        #expect(!h.contains("Tags group notes."))
        #expect(h.contains("Tags: work, home, work"))
        h.press("esc")
        #expect(!h.host.isShowingModal)
        #expect(!h.contains("Tags:"))
        let after = try #require(h.position(of: "All notes"))
        #expect(!h.cell(x: after.x, y: after.y).style.attributes.contains(.dim))
    }

    @Test func aSheetsButtonCanCloseIt() throws {
        let h = try notesApp()
        h.press("t")
        h.click("Done")
        #expect(!h.host.isShowingModal)
        // A click outside a sheet does not reach the pane behind it.
        h.press("t")
        let row = try #require(h.position(of: "Standup"))
        h.click(at: row)
        #expect(h.host.isShowingModal)
        #expect(h.application.notesSelection.value == 0)
    }

    @Test func aDestructiveConfirmationStartsOnCancelSoEnterIsSafe() throws {
        let h = try notesApp()
        h.press("d")
        #expect(h.contains("Delete “Groceries”?"))
        #expect(h.contains("Confirm (cannot be undone)"))
        #expect(h.host.isShowingModal)
        h.press("enter")                               // Cancel had the focus
        #expect(!h.host.isShowingModal)
        #expect(h.application.notes.value.count == 3)
        h.press("d", "esc")                            // Esc cancels too
        #expect(h.application.notes.value.count == 3)
        h.press("d", "+")                              // other keys go nowhere while it waits
        #expect(h.host.isShowingModal)
        h.press("right", "enter")                      // → to Delete, then Enter
        #expect(h.application.notes.value == ["Standup", "Ideas"])
        #expect(h.contains("All notes (2)"))
        #expect(h.contains("✓ Deleted"), "the action's toast shows")
    }

    @Test func aConfirmationHasOneBlankRowAboveItsMessageAndNoneUnderItsButtons() throws {
        let h = try notesApp()
        h.press("d")
        // The box the host gives it: six rows, four inside the border.
        let title = try #require(h.position(of: "Confirm (cannot be undone)"))
        let (left, top) = (title.x - 3, title.y)
        #expect(h.cell(x: left, y: top).grapheme == "╭" && h.cell(x: left, y: top + 5).grapheme == "╰")
        let right = try #require((left + 1..<h.terminal.size.width).first { h.cell(x: $0, y: top).grapheme == "╮" })
        let inside = h.screen.lines(in: Rect(x: left + 1, y: top + 1, width: right - left - 1, height: 4))
        #expect(inside[0] == "", "a blank row above the message")
        #expect(inside[1] == " Delete “Groceries”?")
        #expect(inside[2] == "", "a blank row between the message and the buttons")
        #expect(inside[3].hasSuffix("[ Cancel ]  [ Delete ]"), "the buttons on the last row inside: \(inside)")
    }

    @Test func aConfirmationThatIsNotDestructiveStartsOnItsAction() async throws {
        let h = try notesApp()
        let ran = Mutex(0)
        await h.perform { h.application.confirm("Sync now?", confirmTitle: "Sync") { ran.withLock { $0 += 1 } } }
        #expect(h.contains("Sync now?") && h.contains("Confirm") && !h.contains("cannot be undone"))
        h.press("enter")
        #expect(ran.withLock { $0 } == 1)
        #expect(!h.host.isShowingModal)
    }

    @Test func anAppletSelectsATabThroughTheStoreAndTheTabComesBackAfterARestart() async throws {
        let h = try notesApp()
        #expect(h.host.selectedTab == 0)
        await h.perform { h.application.tabRouter.value.select("tally") }
        #expect(h.host.selectedTab == 1)
        #expect(h.contains("Count: 0"))
        h.press("1")                                   // the host writes the store too
        #expect(h.application.tabRouter.value.selectedTab == "notes")
        h.press("2")
        let again = try h.restart()
        #expect(again.host.selectedTab == 1, "the tab that was up when it ended")
        #expect(again.contains("Count: 0"))
        // A tab given explicitly wins over the stored one.
        let explicit = try notesApp(tab: 0)
        #expect(explicit.host.selectedTab == 0)
    }
}
