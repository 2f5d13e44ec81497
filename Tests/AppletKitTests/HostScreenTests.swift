import AppletTesting
import Foundation
import Synchronization
import Testing
@testable import AppletKit
@testable import AppletState

/// Three tabs of test applets on a 120x40 headless screen, each host with a store of its own.
@MainActor
func threeTabs(width: Int = 120, height: Int = 40, tab: Int = 0) throws -> AppletTestHost {
    try AppletTestHost(tabs: [Tab(TallyApplet()), Tab(MirrorApplet()), Tab(RowsApplet())],
                       initialTab: tab, width: width, height: height)
}

@Suite("Host screen")
@MainActor
struct HostScreenTests {
    @Test func firstFrameShowsTabBarPaneAndFooter() throws {
        let h = try threeTabs()
        h.expectRows(0..<4, toShow: """
             1 Tally │ 2 Mirror │ 3 Rows

             Tally

            """)
        h.expectRows(4..<5, toShow: " Count: 0")
        h.expectRows(39..<40, toShow: "+ Up  - Down  0 Zero  1-3 Tab  ]/[ Next/Prev  Tab Focus  ? Help  q Quit")
        // The selected tab is highlighted, the others are not.
        #expect(h.cell(x: 1, y: 0).style.attributes.contains(.reverse))
        let mirror = try #require(h.position(of: "2 Mirror"))
        #expect(!h.cell(x: mirror.x, y: 0).style.attributes.contains(.reverse))
    }

    @Test func narrowFooterKeepsHelpAndQuit() throws {
        let h = try threeTabs(width: 60, height: 24)
        h.expectRows(23..<24, toShow: "+ Up  - Down  0 Zero  1-3 Tab  ]/[ Next/Prev  ? Help  q Quit")
        let tiny = try threeTabs(width: 20, height: 6)
        tiny.expectRows(5..<6, toShow: "+ Up  ? Help  q Quit")   // what fits, then ? and q
    }

    @Test func oneTabOffersNoTabKeys() throws {
        let h = try AppletTestHost(TallyApplet(), width: 80, height: 10)
        h.expectRows(9..<10, toShow: "+ Up  - Down  0 Zero  Tab Focus  ? Help  q Quit")
        h.press("?")
        #expect(h.contains("Keys: Tally"))
        #expect(!h.contains("Select tab N"))
    }

    @Test func switchesTabsByNumber() throws {
        let h = try threeTabs()
        h.press("2")
        #expect(h.contains("Mirrored: 0 (even)"))
        #expect(h.row(39).hasPrefix("d Double"))
        h.press("3")
        #expect(h.contains("row 1 of 1000000"))
        h.press("1")
        #expect(h.contains("Count: 0"))
        h.press("9")                                   // no tab 9: nothing happens
        #expect(h.contains("Count: 0"))
        #expect(h.host.selectedTab == 0)
    }

    @Test func switchesTabsWithBrackets() throws {
        let h = try threeTabs()
        h.press("]")
        #expect(h.host.selectedTab == 1)
        #expect(h.contains("Mirrored"))
        h.press("]", "]")
        #expect(h.host.selectedTab == 0)               // wraps around
        h.press("[")
        #expect(h.host.selectedTab == 2)
        #expect(h.contains("row 1 of"))
    }

    @Test func stateIsSharedBetweenApplets() throws {
        let h = try threeTabs()
        h.press("+", "+", "+")
        #expect(h.contains("Count: 3"))
        h.press("2")
        #expect(h.contains("Mirrored: 3 (odd)"))
        h.press("d")                                   // the other applet changes it back
        #expect(h.contains("Mirrored: 6 (even)"))
        h.press("1")
        #expect(h.contains("Count: 6"))
        h.press("-")
        #expect(h.contains("Count: 5"))
        #expect(h.application.tally.value.count == 5)
    }

    @Test func commandsOnlyReachTheActiveApplet() throws {
        let h = try threeTabs()
        h.press("d")                                   // Mirror's key, Tally tab active
        #expect(h.application.tally.value.count == 0)
        h.press("+", "2", "+")                         // Tally's key, Mirror tab active
        #expect(h.application.tally.value.count == 1)
    }

    @Test func buttonsWorkWithTabAndEnter() throws {
        let h = try threeTabs()
        h.press("tab", "enter", "space")               // Down -> Up, pressed twice
        #expect(h.contains("Count: 2"))
        h.press("shift-tab", "enter")                  // back to Down
        #expect(h.contains("Count: 1"))
    }

    @Test func listScrollingKeepsTheSelectionVisible() throws {
        let h = try threeTabs(tab: 2)
        // Rows start under the header and the divider, at screen row 3.
        #expect(h.row(3).contains("r1 one"))
        for _ in 0..<50 { h.press("j") }
        #expect(h.contains("row 51 of 1000000"))
        let row = try #require(h.lines.firstIndex { $0.contains("r51 one") })
        #expect(row < 39, "selected row is on screen")
        #expect(h.cell(x: 2, y: row).style.attributes.contains(.reverse))
        #expect(!h.contains("r1 one"))                 // scrolled past the first row
        h.press("end")
        #expect(h.contains("r1000000 five"))
        #expect(h.contains("row 1000000 of 1000000"))
    }

    @Test func keysInTheSameBurstAsATabSwitchReachTheNewTab() throws {
        let h = try threeTabs()
        for ch in "3jjjj" { h.terminal.send(.key(KeyEvent(.char(ch)))) }   // one read, no frame between
        h.host.renderIfNeeded()
        #expect(h.contains("row 5 of 1000000"))
    }

    @Test func wideCharactersOccupyTwoCells() throws {
        let h = try threeTabs(tab: 2)
        let y = try #require(h.lines.firstIndex { $0.contains("r3 ") })
        let x = try #require(h.position(of: "東京")?.x)
        #expect(h.cell(x: x, y: y).grapheme == "東")
        #expect(h.cell(x: x, y: y).width == 2)
        #expect(h.cell(x: x + 1, y: y).isContinuation)
        #expect(h.cell(x: x + 2, y: y).grapheme == "京")
        #expect(h.cell(x: x + 4, y: y).grapheme == " ")
        #expect(h.cell(x: x + 5, y: y).grapheme == "w")
        let emoji = try #require(h.lines.firstIndex { $0.contains("🚀") })
        let rx = try #require(h.position(of: "🚀")?.x)
        #expect(h.cell(x: rx + 1, y: emoji).isContinuation)
        // The header's right-aligned text ends at the pane's right padding.
        #expect(h.row(1).hasSuffix("row 1 of 1000000"))
        #expect(h.row(1).terminalWidth == 119)
    }

    @Test func helpOverlayListsTheActiveBindingsAndEscClosesIt() throws {
        let h = try threeTabs()
        h.press("?")
        #expect(h.host.isShowingHelp)
        #expect(h.contains("Keys: Tally"))
        #expect(h.contains("Up") && h.contains("Zero"))
        #expect(h.contains("Tab 1") && h.contains("Next tab"))
        #expect(h.contains("Esc closes"))
        h.press("+", "2")                              // modal: keys reach neither the applet nor the host
        #expect(h.application.tally.value.count == 0)
        #expect(h.host.selectedTab == 0)
        h.press("esc")
        #expect(!h.host.isShowingHelp)
        #expect(!h.contains("Keys: Tally"))
        #expect(h.contains("Count: 0"))
        h.press("2", "?")                              // the other applet's own commands
        #expect(h.contains("Keys: Mirror"))
        #expect(h.contains("Double"))
        h.press("q")                                   // q closes the overlay, it does not quit
        #expect(h.host.isRunning)
        #expect(!h.host.isShowingHelp)
    }

    @Test func storeIssuesShowOnceAsAnErrorToastAndEscDismisses() async throws {
        let h = try threeTabs()
        #expect(h.host.toasts.isEmpty)
        await h.perform { h.application.report(StoreIssue("state.json was unreadable; moved aside")) }
        #expect(h.host.toasts.map(\.style) == [.error])
        // Bottom right, above the footer, in reverse video.
        let row = try #require((0..<40).first { h.row($0).contains("✗ state.json was unreadable") })
        #expect(row >= 34 && row < 39, "\(row)")
        let mark = try #require(h.position(of: "✗"))
        #expect(h.cell(x: mark.x, y: mark.y).style.attributes.contains(.reverse))
        #expect(h.row(row).hasSuffix("(Esc)"), "an error says how it goes: \(h.row(row))")
        // An error stays: it is a problem the user has to see, however long they were away.
        await h.advance(by: .seconds(60))
        #expect(h.contains("state.json was unreadable"))
        h.press("esc")
        #expect(h.host.toasts.isEmpty)
        #expect(!h.contains("state.json was unreadable"))
        h.press("+")                                   // redraws: the old issue does not come back
        #expect(!h.contains("state.json was unreadable"))
        #expect(h.application.tally.value.count == 1)
    }

    @Test func syncStatusShowsInTheTabBarAndGoingOfflineAndBackIsToldOnce() async throws {
        let h = try threeTabs()
        #expect(!h.row(0).contains("sync:"), "no server, nothing shown: \(h.row(0))")
        await h.perform { h.application.syncStatus.value = .connecting("postgres://db/x") }
        #expect(h.row(0).hasSuffix("sync: connecting"), "\(h.row(0))")
        await h.perform { h.application.syncStatus.value = .online("postgres://db/x") }
        #expect(h.row(0).hasSuffix("sync: synced"), "\(h.row(0))")
        #expect(h.host.toasts.isEmpty, "the first connection is not news")

        await h.perform { h.application.syncStatus.value = .offline(since: Date(), reason: "connection refused") }
        #expect(h.row(0).hasSuffix("sync: offline"), "\(h.row(0))")
        #expect(h.host.toasts.map(\.style) == [.warning])
        #expect(h.contains("Sync offline (connection refused)"))
        // A new reason while still offline says nothing more.
        await h.perform { h.application.syncStatus.value = .offline(since: Date(), reason: "no such file or directory") }
        #expect(h.host.toasts.count == 1)

        await h.perform { h.application.syncStatus.value = .online("postgres://db/x") }
        #expect(h.row(0).hasSuffix("sync: synced"), "\(h.row(0))")
        #expect(h.host.toasts.map(\.style) == [.success], "the warning goes, a success says so")
        #expect(h.contains("Sync back online"))

        // Where the tabs leave less room, a shorter label, then none: the tabs are never cut for it.
        var tabs = h.row(0).components(separatedBy: "sync:")[0]
        while tabs.hasSuffix(" ") { tabs.removeLast() }   // " 1 Tally │ 2 Mirror │ 3 Rows"
        h.resize(width: tabs.count + 10, height: 40)
        await h.settle()
        #expect(h.row(0).hasSuffix(" synced") && !h.row(0).contains("sync:") && h.row(0).hasPrefix(tabs), "\(h.row(0))")
        h.resize(width: tabs.count + 3, height: 40)
        await h.settle()
        #expect(!h.row(0).contains("synced") && h.row(0).hasPrefix(tabs), "\(h.row(0))")
    }

    @Test func infoToastsGoAfterFourSecondsOnTheHostClockAndStack() async throws {
        let h = try threeTabs()
        await h.perform { h.application.toast("Saved", style: .success) }
        await h.advance(by: .seconds(1))
        await h.perform { h.application.toast("Synced", style: .info) }
        await h.perform { h.application.toast("Disk almost full", style: .warning) }
        let saved = try #require((0..<40).first { h.row($0).contains("✓ Saved") })
        let synced = try #require((0..<40).first { h.row($0).contains("ℹ Synced") })
        let warning = try #require((0..<40).first { h.row($0).contains("⚠ Disk almost full") })
        #expect(saved < synced && synced < warning, "newest at the bottom")
        // Keys still reach the applet: a toast is not modal.
        h.press("+")
        #expect(h.application.tally.value.count == 1)
        // A test clock: a slow machine cannot hurry it. "Saved" showed 1 s before "Synced".
        await h.advance(by: .milliseconds(2_999))
        #expect(h.contains("✓ Saved"))
        await h.advance(by: .milliseconds(1))
        #expect(!h.contains("✓ Saved"))
        #expect(h.contains("ℹ Synced"))
        await h.advance(by: .seconds(1))
        #expect(!h.contains("ℹ Synced"))
        #expect(h.contains("⚠ Disk almost full"), "a warning stays until Esc")
        h.press("esc")
        #expect(h.host.toasts.isEmpty)
    }

    @Test func atMostFiveToastsAreKept() async throws {
        let h = try threeTabs()
        await h.perform { for i in 1...7 { h.application.toast("note \(i)", style: .warning) } }
        #expect(h.host.toasts.map(\.message) == (3...7).map { "note \($0)" })
        #expect(!h.contains("note 2") && h.contains("note 3") && h.contains("note 7"))
        h.press("esc")                                 // the newest first
        #expect(!h.contains("note 7") && h.contains("note 6"))
    }

    @Test func quitAndSignalsFlushTheStore() throws {
        for ending in ["q", "ctrl-c", "sigterm"] {
            let h = try threeTabs()
            let flushed = Mutex(0)
            h.application.onFlush { flushed.withLock { $0 += 1 } }
            if ending == "sigterm" { h.send(.terminate(signal: 15)) } else { h.press(ending) }
            #expect(flushed.withLock { $0 } == 1, "\(ending) did not flush")
        }
    }

    @Test func quitKeys() throws {
        let h = try threeTabs()
        h.press("q")
        #expect(!h.host.isRunning)
        #expect(!h.terminal.isRunning)
        #expect(h.host.terminationSignal == nil)
        let h2 = try threeTabs()
        h2.press("ctrl-c")
        #expect(!h2.host.isRunning)
        #expect(h2.host.terminationSignal == 2, "Ctrl-C is an interrupt: exit status 130")
    }

    @Test func terminateSignalQuitsAndIsRemembered() throws {
        let h = try threeTabs()
        h.send(.terminate(signal: 15))
        #expect(!h.host.isRunning)
        #expect(h.host.terminationSignal == 15)
    }

    @Test func ctrlZSuspends() throws {
        let h = try threeTabs()
        h.press("ctrl-z")
        #expect(h.terminal.suspendCount == 1)
        #expect(h.host.isRunning)
    }

    @Test func pasteNeverTriggersBindings() throws {
        let h = try threeTabs()
        h.paste("+++q1")
        #expect(h.host.isRunning)
        #expect(h.contains("Count: 0"))
    }

    @Test func tooSmallShowsAMessageAndRecovers() throws {
        let h = try threeTabs()
        h.resize(width: 19, height: 4)
        #expect(h.contains("Terminal too small"))
        #expect(h.contains("19x4, need 20x5"))
        h.resize(width: 1, height: 1)
        #expect(h.lines == ["…"])
        h.resize(width: 0, height: 0)
        h.press("q")                                   // still answers keys
        #expect(!h.host.isRunning)
        let h2 = try threeTabs()
        h2.resize(width: 30, height: 6)
        #expect(h2.row(0).hasPrefix(" 1 Tally"))
        #expect(h2.lines.count == 6)
        h2.resize(width: 120, height: 40)
        #expect(h2.contains("Count: 0"))
    }

    @Test func clickingATabSelectsIt() throws {
        let h = try threeTabs()
        h.click("3 Rows")
        #expect(h.host.selectedTab == 2)
    }

    @Test func onlyChangedCellsAreWritten() throws {
        let h = try threeTabs()
        h.press("+")
        #expect(h.terminal.lastWriteCount == 1, "Count: 0 -> Count: 1 changes one cell")
    }

    @Test func manyChangesInOneTurnDrawOneFrame() async throws {
        let h = try threeTabs()
        let before = h.terminal.frameCount
        await h.perform {
            for _ in 0..<100 { Application.state(\.tally).value.count += 1 }
        }
        #expect(h.terminal.frameCount == before + 1)
        #expect(h.contains("Count: 100"))
    }

    @Test func changesFromAnotherThreadRedraw() async throws {
        let h = try threeTabs()
        let tally = h.application.tally
        await Task.detached { tally.modify { $0.count = 42 } }.value
        await h.settle()
        #expect(h.contains("Count: 42"))
    }

    @Test func stateOnlyAHiddenTabReadsDoesNotRedraw() async throws {
        let h = try threeTabs()
        let before = h.terminal.frameCount
        await h.perform { Application.state(\.mirrorTarget).value = 50 }   // read only by the Mirror tab
        #expect(h.terminal.frameCount == before)
        h.press("2")
        #expect(h.contains("Target 50"))
    }

    @Test func storedStateComesBackAfterARestart() throws {
        let first = try AppletTestHost(TallyApplet())
        first.press("+", "+", "+")
        let second = try first.restart()
        let data = try String(contentsOfFile: first.stateDirectory + "/applet-test.json", encoding: .utf8)
        #expect(data.contains("\"count\" : 3") || data.contains("\"count\":3"), "\(data)")
        #expect(!first.host.isRunning)
        #expect(second.application !== first.application)
        #expect(second.contains("Count: 3"))
    }
}
