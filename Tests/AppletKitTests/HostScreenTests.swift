import CounterApplet
import CounterAppletInterface
import DashboardApplet
import DashboardAppletInterface
import Dispatch
import ListApplet
import ListAppletInterface
import Foundation
import Synchronization
import Testing
@testable import AppletKit
@testable import AppletState

/// A demo host on a headless 120x40 screen with its own store.
@MainActor
final class Harness {
    let terminal: HeadlessTerminal
    let app = Application()
    let host: AppletHost
    /// Each harness keeps its stored state in a folder of its own.
    let stateFolder = FileManager.default.temporaryDirectory.appendingPathComponent("appletkit-screen-\(UUID().uuidString)").path

    init(width: Int = 120, height: Int = 40, tab: Int = 0) throws {
        app.storage = StorageConfiguration(appID: "test", directory: stateFolder)
        terminal = HeadlessTerminal(width: width, height: height)
        host = try AppletHost(tabs: [Tab(CounterApplet()), Tab(DashboardApplet()), Tab(ListApplet())],
                              initialTab: tab, application: app, terminal: terminal)
        try host.start()
    }

    /// Types keys (one event per character) and draws the resulting frame.
    deinit { try? FileManager.default.removeItem(atPath: stateFolder) }

    func press(_ keys: String) {
        for ch in keys { terminal.send(.key(KeyEvent(.char(ch)))) }
        host.renderIfNeeded()
    }

    func press(_ key: KeyEvent) {
        terminal.send(.key(key))
        host.renderIfNeeded()
    }

    var lines: [String] { terminal.lines }
    var screen: String { terminal.text }
    func shows(_ text: String) -> Bool { lines.contains { $0.contains(text) } }
}

/// Lets everything already queued on the main queue run (twice: a state change hops once to
/// the main queue and then schedules the frame).
@MainActor
func drainMainQueue() async {
    for _ in 0..<2 {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in DispatchQueue.main.async { c.resume() } }
    }
}

@Suite("Host screen")
@MainActor
struct HostScreenTests {
    @Test func firstFrameShowsTabBarPaneAndFooter() throws {
        let h = try Harness()
        #expect(h.lines[0].hasPrefix(" 1 Counter │ 2 Dashboard │ 3 List │"), "\(h.screen)")
        #expect(h.shows("Count: 0"))
        #expect(h.lines[39].hasPrefix("+ Increment  - Decrement  0 Reset  1-3 Tab  ]/[ Next/Prev  Tab Focus  ? Help  q Quit"), "\(h.lines[39])")
        // The selected tab is highlighted, the others are not.
        #expect(h.terminal.cell(x: 1, y: 0).style.attributes.contains(.reverse))
        let dashboard = try #require(h.terminal.position(of: "2 Dashboard"))
        #expect(!h.terminal.cell(x: dashboard.x, y: 0).style.attributes.contains(.reverse))
    }

    @Test func narrowFooterKeepsHelpAndQuit() throws {
        let h = try Harness(width: 80, height: 24)
        #expect(h.lines[23] == "+ Increment  - Decrement  0 Reset  1-3 Tab  ]/[ Next/Prev  ? Help  q Quit", "\(h.lines[23])")
        let tiny = try Harness(width: 20, height: 6)
        #expect(tiny.lines[5] == "? Help  q Quit")
    }

    @Test func switchesTabsByNumber() throws {
        let h = try Harness()
        h.press("2")
        #expect(h.shows("Shared counter: 0"))
        #expect(h.lines[39].hasPrefix("d Double"))
        h.press("3")
        #expect(h.shows("row 1 of 1000000"))
        h.press("1")
        #expect(h.shows("Count: 0"))
        h.press("9")                                   // no tab 9: nothing happens
        #expect(h.shows("Count: 0"))
        #expect(h.host.selectedTab == 0)
    }

    @Test func switchesTabsWithBrackets() throws {
        let h = try Harness()
        h.press("]")
        #expect(h.host.selectedTab == 1)
        #expect(h.shows("Shared counter"))
        h.press("]]")
        #expect(h.host.selectedTab == 0)               // wraps around
        h.press("[")
        #expect(h.host.selectedTab == 2)
        #expect(h.shows("Long list"))
    }

    @Test func counterIsSharedBetweenApplets() throws {
        let h = try Harness()
        h.press("+++")
        #expect(h.shows("Count: 3"))
        h.press("2")
        #expect(h.shows("Shared counter: 3 (odd)"))
        h.press("d")                                   // the Dashboard changes it back
        #expect(h.shows("Shared counter: 6 (even)"))
        h.press("1")
        #expect(h.shows("Count: 6"))
        h.press("-")
        #expect(h.shows("Count: 5"))
        #expect(h.app.counter.value.count == 5)
    }

    @Test func commandsOnlyReachTheActiveApplet() throws {
        let h = try Harness()
        h.press("d")                                   // Dashboard's key, Counter tab active
        #expect(h.app.counter.value.count == 0)
        h.press("+")
        h.press("2")
        h.press("+")                                   // Counter's key, Dashboard tab active
        #expect(h.app.counter.value.count == 1)
    }

    @Test func buttonsWorkWithTabAndEnter() throws {
        let h = try Harness()
        h.press(KeyEvent(.tab))                        // Decrement -> Increment
        h.press(KeyEvent(.enter))
        h.press(KeyEvent(.char(" ")))
        #expect(h.shows("Count: 2"))
        h.press(KeyEvent(.tab, modifiers: .shift))     // back to Decrement
        h.press(KeyEvent(.enter))
        #expect(h.shows("Count: 1"))
    }

    @Test func listScrollingKeepsTheSelectionVisible() throws {
        let h = try Harness(tab: 2)
        // Rows start under the header and the divider, at screen row 3.
        #expect(h.lines[3].contains("#0000001  alpha"))
        for _ in 0..<50 { h.press("j") }
        #expect(h.shows("row 51 of 1000000"))
        let row = try #require(h.lines.firstIndex { $0.contains("#0000051") })
        #expect(row < 39, "selected row is on screen")
        #expect(h.terminal.cell(x: 2, y: row).style.attributes.contains(.reverse))
        #expect(!h.shows("#0000001 "))                 // scrolled past the first row
        h.press(KeyEvent(.end))
        #expect(h.shows("#1000000"))
        #expect(h.shows("row 1000000 of 1000000"))
    }

    @Test func keysInTheSameBurstAsATabSwitchReachTheNewTab() throws {
        let h = try Harness()
        for ch in "3jjjj" { h.terminal.send(.key(KeyEvent(.char(ch)))) }   // one read, no frame between
        h.host.renderIfNeeded()
        #expect(h.shows("row 5 of 1000000"))
    }

    @Test func wideCharactersOccupyTwoCells() throws {
        let h = try Harness(tab: 2)
        let y = try #require(h.lines.firstIndex { $0.contains("#0000003") })
        let x = try #require(h.terminal.position(of: "東京")?.x)
        #expect(h.terminal.cell(x: x, y: y).grapheme == "東")
        #expect(h.terminal.cell(x: x, y: y).width == 2)
        #expect(h.terminal.cell(x: x + 1, y: y).isContinuation)
        #expect(h.terminal.cell(x: x + 2, y: y).grapheme == "京")
        #expect(h.terminal.cell(x: x + 4, y: y).grapheme == " ")
        #expect(h.terminal.cell(x: x + 5, y: y).grapheme == "T")
        // The emoji row too, and the status text on the right edge stays put.
        let emoji = try #require(h.lines.firstIndex { $0.contains("🚀") })
        let rx = try #require(h.terminal.position(of: "🚀")?.x)
        #expect(h.terminal.cell(x: rx + 1, y: emoji).isContinuation)
        #expect(h.lines[1].hasSuffix("row 1 of 1000000"))
        #expect(h.lines[1].terminalWidth == 119)
    }

    @Test func helpOverlayListsTheActiveBindingsAndEscClosesIt() throws {
        let h = try Harness()
        h.press("?")
        #expect(h.host.isShowingHelp)
        #expect(h.shows("Keys: Counter"))
        #expect(h.shows("+") && h.shows("Increment"))
        #expect(h.shows("Select tab N"))
        #expect(h.shows("Esc closes"))
        h.press("+2")                                  // modal: keys do not reach the applet or the host
        #expect(h.app.counter.value.count == 0)
        #expect(h.host.selectedTab == 0)
        h.press(KeyEvent(.escape))
        #expect(!h.host.isShowingHelp)
        #expect(!h.shows("Keys: Counter"))
        #expect(h.shows("Count: 0"))
        h.press("2?")                                  // the Dashboard's own commands
        #expect(h.shows("Keys: Dashboard"))
        #expect(h.shows("Double"))
        h.press("q")                                   // q closes the overlay, it does not quit
        #expect(h.host.isRunning)
        #expect(!h.host.isShowingHelp)
    }

    @Test func storeIssuesShowOnceInTheStatusLineAndEscDismisses() async throws {
        let h = try Harness()
        #expect(!h.host.isShowingStatus)
        h.app.report(StoreIssue("state.json was unreadable; moved aside as state.json.corrupt-20261123-101500"))
        await drainMainQueue()
        #expect(h.host.isShowingStatus)
        #expect(h.lines[38].contains("⚠ state.json was unreadable"), "\(h.lines[38])")
        #expect(h.terminal.cell(x: 1, y: 38).style.attributes.contains(.reverse))
        h.press(KeyEvent(.escape))
        #expect(!h.host.isShowingStatus)
        #expect(!h.shows("state.json was unreadable"))
        h.press("+")                                   // redraws: the old issue does not come back
        #expect(!h.shows("state.json was unreadable"))
        h.app.report(StoreIssue("cannot save state in /nowhere"))
        await drainMainQueue()
        #expect(h.shows("cannot save state in /nowhere"))
    }

    @Test func quitAndSignalsFlushTheStore() throws {
        for ending in ["q", "ctrl-c", "sigterm"] {
            let h = try Harness()
            let flushed = Mutex(0)
            h.app.onFlush { flushed.withLock { $0 += 1 } }
            switch ending {
            case "q": h.press("q")
            case "ctrl-c": h.press(KeyEvent(.char("c"), modifiers: .ctrl))
            default: h.terminal.send(.terminate(signal: 15))
            }
            #expect(flushed.withLock { $0 } == 1, "\(ending) did not flush")
        }
    }

    @Test func quitKeys() throws {
        let h = try Harness()
        h.press("q")
        #expect(!h.host.isRunning)
        #expect(!h.terminal.isRunning)
        #expect(h.host.terminationSignal == nil)
        let h2 = try Harness()
        h2.press(KeyEvent(.char("c"), modifiers: .ctrl))
        #expect(!h2.host.isRunning)
        #expect(h2.host.terminationSignal == 2, "Ctrl-C is an interrupt: exit status 130")
    }

    @Test func terminateSignalQuitsAndIsRemembered() throws {
        let h = try Harness()
        h.terminal.send(.terminate(signal: 15))
        #expect(!h.host.isRunning)
        #expect(h.host.terminationSignal == 15)
    }

    @Test func ctrlZSuspends() throws {
        let h = try Harness()
        h.press(KeyEvent(.char("z"), modifiers: .ctrl))
        #expect(h.terminal.suspendCount == 1)
        #expect(h.host.isRunning)
    }

    @Test func pasteNeverTriggersBindings() throws {
        let h = try Harness()
        h.terminal.send(.paste("+++q1"))
        h.host.renderIfNeeded()
        #expect(h.host.isRunning)
        #expect(h.shows("Count: 0"))
    }

    @Test func tooSmallShowsAMessageAndRecovers() throws {
        let h = try Harness()
        h.terminal.resize(width: 19, height: 4)
        h.host.renderIfNeeded()
        #expect(h.shows("Terminal too small"))
        #expect(h.shows("19x4, need 20x5"))
        h.terminal.resize(width: 1, height: 1)
        h.host.renderIfNeeded()
        #expect(h.lines == ["…"])
        h.terminal.resize(width: 0, height: 0)
        h.host.renderIfNeeded()
        h.press("q")                                   // still answers keys
        #expect(!h.host.isRunning)
        let h2 = try Harness()
        h2.terminal.resize(width: 30, height: 6)
        h2.host.renderIfNeeded()
        #expect(h2.lines[0].hasPrefix(" 1 Counter"))
        #expect(h2.lines.count == 6)
        h2.terminal.resize(width: 120, height: 40)
        h2.host.renderIfNeeded()
        #expect(h2.shows("Count: 0"))
    }

    @Test func clickingATabSelectsIt() throws {
        let h = try Harness()
        let p = try #require(h.terminal.position(of: "3 List"))
        h.terminal.send(.mouse(MouseEvent(kind: .press(.left), position: p)))
        h.host.renderIfNeeded()
        #expect(h.host.selectedTab == 2)
    }

    @Test func onlyChangedCellsAreWritten() throws {
        let h = try Harness()
        h.press("+")
        #expect(h.terminal.lastWriteCount == 1, "Count: 0 -> Count: 1 changes one cell")
    }

    @Test func manyChangesInOneTurnDrawOneFrame() async throws {
        let h = try Harness()
        let before = h.terminal.frameCount
        for _ in 0..<100 { h.app.counter.value.count += 1 }
        await drainMainQueue()
        #expect(h.terminal.frameCount == before + 1)
        #expect(h.shows("Count: 100"))
    }

    @Test func changesFromAnotherThreadRedraw() async throws {
        let h = try Harness()
        let counter = h.app.counter
        await Task.detached { counter.modify { $0.count = 42 } }.value
        await drainMainQueue()
        #expect(h.shows("Count: 42"))
    }

    @Test func stateOnlyAHiddenTabReadsDoesNotRedraw() async throws {
        let h = try Harness()
        let before = h.terminal.frameCount
        h.app.dashboardGoal.value = 50                 // read only by the Dashboard tab
        await drainMainQueue()
        #expect(h.terminal.frameCount == before)
        h.press("2")
        #expect(h.shows("Goal 50"))
    }
}
