@testable import AppletKit
import AppletTesting
import Dispatch
import Testing

extension Application {
    /// A service the tests install in place of the declared one.
    var greeter: Dependency<String> { dependency("declared greeter", feature: "HostTests") }
}

/// Shows what the app's greeter service says.
struct GreeterApplet: Applet {
    let id = "greeter"
    let title = "Greeter"
    @AppDependency(\.greeter) private var greeter
    var body: some View { Text("Service: \(greeter)").padding(1) }
}

/// A status bar drawn from the store.
struct TallyStatusBar: View {
    @StoredState(\.tally) private var tally
    var body: some View { Text(" ● \(tally.count) counted").themed(.muted) }
}

@Suite("Host chrome, layout and services")
@MainActor
struct HostChromeTests {
    @Test func anAppsStatusBarSitsBetweenThePanesAndTheFooterAndFollowsTheStore() throws {
        let h = try threeTabs(width: 60, height: 12)
        #expect(!h.contains("counted"))
        h.host.statusBar = AnyView(TallyStatusBar())
        h.host.renderIfNeeded()
        #expect(h.row(10) == " ● 0 counted")
        #expect(h.row(11).hasPrefix("+ Up"), "the footer stays last")
        h.press("+", "+")
        #expect(h.row(10) == " ● 2 counted")
        h.press("2")
        #expect(h.row(10) == " ● 2 counted", "on every tab")
    }

    /// A frame whose chrome reads only state that did not change installs no new observation
    /// (Observation cannot cancel one: each left behind was kept until the state moved, ~3 KB a
    /// frame), and the waiting one still redraws the chrome when that state moves.
    @Test func framesThatChangeNothingTheChromeReadsLeaveNoObservationBehind() async throws {
        let h = try threeTabs(width: 60, height: 12, tab: 1)
        h.host.statusBar = AnyView(TallyStatusBar())
        h.host.renderIfNeeded()
        let installed = h.host.chromeObservationsInstalled
        for target in 30..<60 {   // read by the Mirror pane only: a frame each
            Application.withCurrent(h.application) { Application.state(\.mirrorTarget).value = target }
            await h.settle()
        }
        #expect(h.contains("Target 59"), "the pane drew: \(h.text)")
        #expect(h.host.chromeObservationsInstalled == installed, "no frame added one")
        Application.withCurrent(h.application) { Application.storedState(\.tally).value.count = 7 }
        await h.settle()
        #expect(h.row(10) == " ● 7 counted", "the waiting observation saw the status bar's state: \(h.text)")
        #expect(h.host.chromeObservationsInstalled > installed)
        h.press("3")              // another tab: the chrome reads again, observed again
        #expect(h.row(10) == " ● 7 counted")
    }

    @Test func servicesAreInstalledOnceAndEveryAppletReadsThem() throws {
        let h = try AppletTestHost(tabs: [Tab(GreeterApplet()), Tab(TallyApplet())], initialTab: 0, width: 60, height: 10)
        #expect(h.contains("Service: declared greeter"))
        h.host.dependencies { $0.greeter = "installed greeter" }
        h.host.renderIfNeeded()
        #expect(h.contains("Service: installed greeter"))
        // The store sees it too, outside any view.
        #expect(Application.withCurrent(h.application) { Application.dependency(\.greeter) } == "installed greeter")
        // Another store (another app, another test) does not.
        let other = Application()
        #expect(Application.withCurrent(other) { Application.dependency(\.greeter) } == "declared greeter")
    }

    @Test func dependenciesEndWithTheValueThatMadeThem() {
        let store = Application()
        var dependencies = Dependencies(store)
        dependencies.greeter = "first"
        dependencies.greeter = "second"
        #expect(dependencies.greeter == "second")
        dependencies.removeAll()
        #expect(Application.withCurrent(store) { Application.dependency(\.greeter) } == "declared greeter")
    }

    @Test func aClickOnATabLabelSelectsItAndTheBarUsesTheThemeAccent() throws {
        let h = try threeTabs(width: 80, height: 12)
        let ranges = TabBarView.hitRanges(titles: ["Tally", "Mirror", "Rows"])
        #expect(ranges == [0..<9, 10..<20, 21..<29])
        // Dividers between tabs only: nothing follows the last.
        #expect(h.row(0) == " 1 Tally │ 2 Mirror │ 3 Rows")
        h.click(at: Point(x: 25, y: 0))
        #expect(h.host.selectedTab == 2)
        h.click(at: Point(x: 9, y: 0))                 // the divider selects nothing
        #expect(h.host.selectedTab == 2)
        #expect(h.cell(x: 22, y: 0).style.attributes.contains(.reverse))
        #expect(!h.cell(x: 1, y: 0).style.attributes.contains(.reverse))
    }

    @Test(arguments: [(1, 80), (2, 81), (3, 80), (4, 7), (5, 3)])
    func paneLayoutTilesTheAreaExactly(panes: Int, length: Int) {
        for split in [Axis.horizontal, .vertical] {
            let area = split == .horizontal ? Rect(x: 2, y: 1, width: length, height: 5) : Rect(x: 2, y: 1, width: 5, height: length)
            let layout = PaneLayout(panes: panes, split: split, in: area)
            #expect(layout.rects.count == panes && layout.dividers.count == panes - 1)
            var covered = 0
            for rect in layout.rects + layout.dividers {
                #expect(rect.width >= 0 && rect.height >= 0)
                covered += rect.width * rect.height
            }
            let all = layout.rects + layout.dividers
            for (i, a) in all.enumerated() { for b in all[(i + 1)...] { #expect(a.intersection(b).isEmpty, "\(a) \(b)") } }
            if length >= panes * 2 - 1 { #expect(covered == area.width * area.height, "\(split) \(panes) in \(length)") }
            let lengths = layout.rects.map { split == .horizontal ? $0.width : $0.height }
            #expect((lengths.max() ?? 0) - (lengths.min() ?? 0) <= 1, "even split: \(lengths)")
        }
    }

    @Test func theFooterKeepsHelpAndQuitAndDropsWhatDoesNotFit() {
        let items = [FooterItem(key: "+", title: "Up"), FooterItem(key: "-", title: "Down"), FooterItem(key: "0", title: "Zero"),
                     FooterItem(key: "?", title: "Help"), FooterItem(key: "q", title: "Quit")]
        #expect(FooterItem.fitted(items, width: 80) == items)
        #expect(FooterItem.fitted(items, width: 20).map(\.key) == ["+", "?", "q"])
        #expect(FooterItem.fitted(items, width: 14).map(\.key) == ["?", "q"])
        #expect(FooterItem.fitted(items, width: 6).map(\.key) == ["?"])
        #expect(FooterItem.fitted([], width: 10).isEmpty)
    }

    @Test func aTabKeepsItsStackWhileAnotherIsShown() throws {
        let h = try notesApp()
        h.press("enter")
        #expect(h.contains("Notes › Groceries"))
        h.press("2")
        #expect(h.contains("Count: 0"))
        h.press("1")
        #expect(h.contains("Notes › Groceries"))
        #expect(h.contains("Detail of Groceries"))
    }

    @Test func manyRequestsInOneTurnDrawOneFrameAndNoneWhileInactive() async {
        var drawn = 0
        let frames = FrameScheduler { drawn += 1 }
        frames.setNeedsDisplay()
        frames.renderIfNeeded()
        #expect(drawn == 0, "inactive: nothing is drawn")
        frames.isActive = true
        for _ in 0..<5 { frames.setNeedsDisplay() }
        #expect(frames.hasPendingFrame)
        await withCheckedContinuation { done in DispatchQueue.main.async { done.resume() } }
        #expect(drawn == 1)
        #expect(!frames.hasPendingFrame)
        frames.renderIfNeeded()
        #expect(drawn == 1, "nothing new was asked for")
    }
}

/// Three rows in a list, with commands on a key the list uses (`j`) and one it does not (`x`).
struct ListWithCommandsApplet: Applet {
    let id = "rowsx"
    let title = "Rows"
    @AppState(\.rowsSelection) private var selection
    var body: some View { List(count: 3, selection: $selection) { Text("row \($0)") } }
    var commands: [Command] { [Command("j", "Jump") {}, Command("x", "Export") {}] }
}

@Suite("Keys the focused widget takes")
@MainActor
struct WidgetKeysTests {
    @Test func theFooterLeavesOutAndHelpMarksACommandWhoseKeyTheFocusedWidgetTakes() throws {
        let h = try AppletTestHost(ListWithCommandsApplet(), width: 80, height: 10)
        #expect(h.row(9).contains("x Export"), "\(h.row(9))")
        #expect(!h.row(9).contains("Jump"), "j moves the list: its command cannot run now")
        h.press("?")
        #expect(h.contains("Jump (the focused widget takes this key)"))
        h.press("esc", "j")
        #expect(h.application.rowsSelection.value == 1, "the list took j")
        // Without the focus on the list (Tab steps out of a lone widget), j reaches its command.
        h.press("tab")
        #expect(h.row(9).contains("j Jump"), "\(h.row(9))")
    }
}

extension Application {
    /// Kept per instance: each pane showing a `ScopedCounterApplet` has its own.
    var scopedCount: State<Int> { scopedState(initial: 0, feature: "HostTests", id: "scopedCount") }
}

/// A counter whose count is per instance (scoped state), with a `+` command and a button.
struct ScopedCounterApplet: Applet {
    let id = "scoped"
    let title = "Scoped"
    @AppState(\.scopedCount) private var count
    var body: some View {
        VStack {
            Text("count \(count)")
            Button("Add") { count += 1 }
        }
    }
    var commands: [Command] {
        let count = $count
        return [Command("+", "Add") { count.wrappedValue += 1 }]
    }
}

@Suite("Panes are instances")
@MainActor
struct PaneScopeTests {
    @Test func twoInstancesOfOneAppletInASplitKeepTheirOwnScopedState() throws {
        let h = try AppletTestHost(tabs: [Tab("Two", split: .horizontal, [ScopedCounterApplet(), ScopedCounterApplet()])],
                                   initialTab: 0, width: 60, height: 10)
        #expect(h.row(1).hasPrefix("count 0") && h.row(1).contains("│count 0"), "\(h.row(1))")
        h.press("+")                                   // the left pane has the focus
        #expect(h.row(1).hasPrefix("count 1") && h.row(1).contains("│count 0"), "\(h.row(1))")
        h.press("tab")                                 // the left button had the focus: on to the right pane
        h.press("enter")                               // its button
        h.press("+", "+")
        #expect(h.row(1).hasPrefix("count 1") && h.row(1).contains("│count 3"), "\(h.row(1))")
        // A click goes to the instance under it.
        h.click(at: Point(x: 2, y: 2))
        #expect(h.row(1).hasPrefix("count 2"), "\(h.row(1))")
    }
}

/// A custom top line: the app's name and a button per tab, switching through the store.
struct TitleBar: View {
    let shell: ShellState
    var body: some View {
        HStack(spacing: 1) {
            Text("MyApp").bold()
            ForEach(Array(shell.titles.enumerated()), id: \.offset) { index, title in
                Button(index == shell.selected ? "*\(title)" : title) {
                    Application.current.tabRouter.value.select(shell.ids[index])
                }
            }
        }
    }
}

@Suite("The host's shell")
@MainActor
struct HostShellTests {
    @Test func oneViewFullScreenHasNoTabBar() throws {
        let h = try AppletTestHost(tabs: [Tab("Editor", view: VStack { Text("Just the editor") })], width: 40, height: 6)
        h.host.shell = .none
        h.host.renderIfNeeded()
        #expect(h.row(0) == "Just the editor")
        #expect(!h.contains("1 Editor"))
        #expect(h.row(5).hasSuffix("q Quit") || h.row(5).contains("q Quit"), "the footer stays: \(h.row(5))")
    }

    @Test func theAppsOwnTopLineSwitchesTabsThroughTheStore() throws {
        let h = try threeTabs(width: 80, height: 10)
        h.host.shell = .custom { AnyView(TitleBar(shell: $0)) }
        h.host.renderIfNeeded()
        #expect(h.row(0).hasPrefix("MyApp [ *Tally ] [ Mirror ] [ Rows ]"), "\(h.row(0))")
        #expect(h.contains("Count: 0"), "the pane starts on the next row")
        h.click("Mirror ]")
        #expect(h.host.selectedTab == 1)
        #expect(h.row(0).contains("[ *Mirror ]"))
        h.press("3")                                   // keys still switch tabs
        #expect(h.row(0).contains("[ *Rows ]"))
    }

    @Test func withoutATabBarTheTabKeysStillWork() throws {
        let h = try threeTabs(width: 80, height: 10)
        h.host.shell = .none
        h.press("alt-2")
        #expect(h.host.selectedTab == 1)
        #expect(h.row(1).contains("Mirrored: 0"), "the pane starts on the first row, under its padding: \(h.row(1))")
    }
}

@Suite("Applets inside a view")
@MainActor
struct EmbeddedAppletTests {
    @Test func theCommandsOfEveryAppletInThePaneAreRoutedAndListed() throws {
        let h = try AppletTestHost(tabs: [Tab("Both", view: VStack { TallyApplet(); Divider(); MirrorApplet() })], width: 80, height: 16)
        #expect(h.contains("Count: 0") && h.contains("Mirrored: 0"))
        #expect(h.row(15).contains("+ Up") && h.row(15).contains("d Double"), "both applets' keys: \(h.row(15))")
        h.press("+", "+", "+")                         // the Tally's command
        #expect(h.contains("Count: 3") && h.contains("Mirrored: 3 (odd)"))
        h.press("d")                                   // the Mirror's
        #expect(h.contains("Count: 6"))
        h.press("?")
        #expect(h.contains("Zero") && h.contains("Double"), "help lists both")
        h.press("esc", "ctrl-p")
        h.type("double")
        h.press("enter")
        #expect(h.contains("Count: 12"), "the palette runs an embedded applet's command")
    }

    @Test func anAppletInItsOwnPaneIsNotCountedTwice() throws {
        let h = try threeTabs()
        let ids = h.host.activeRegistry().entries.filter { $0.scope == .applet }.map(\.id)
        #expect(ids == ["tally.up", "tally.down", "tally.zero"])
    }
}

/// An applet with one button and a command on `x` that writes its name: two of them embedded in
/// one view bind the same key, and the focused one must win.
private struct NamedKeyApplet: Applet {
    let id: String
    var title: String { id }
    @AppState(\.lastX) private var lastX

    var body: some View {
        HStack(spacing: 1) {
            Text(id)
            Button("Press \(id)") {}
        }
    }

    var commands: [Command] {
        let name = id
        let last = $lastX
        return [Command("x", "Mark \(name)") { last.wrappedValue = name }]
    }
}

private extension Application {
    var lastX: State<String> { state(initial: "none", feature: "EmbeddedTests", id: "lastX") }
}

@Suite("Applets inside a view: which one a key reaches")
@MainActor
struct EmbeddedAppletFocusTests {
    @Test func theAppletHoldingTheFocusedWidgetGetsTheKeyFirst() throws {
        let view = VStack { NamedKeyApplet(id: "left"); NamedKeyApplet(id: "right") }
        let h = try AppletTestHost(tabs: [Tab("Both", view: view)], width: 60, height: 10)
        h.press("x")
        #expect(h.host.application.lastX.value == "left", "focus starts on the left applet's button")
        h.press("tab")
        h.press("x")
        #expect(h.host.application.lastX.value == "right", "the focused button is now the right applet's")
        let owners = h.host.activeRegistry().entries.filter { $0.scope == .applet }.map(\.owner)
        #expect(owners.first == "right")
    }
}

/// How many times the `.task` of `TaskCountingApplet` started.
@MainActor private var embeddedTaskStarts = 0

private struct TaskCountingApplet: Applet {
    let id = "counting"
    let title = "Counting"
    var body: some View {
        Text("counting").task { embeddedTaskStarts += 1 }
    }
}

@Suite("Applets inside a view: keys known before they are drawn")
@MainActor
struct EmbeddedAppletKeymapTests {
    @Test func aKeymapMayRebindTheCommandOfAnAppletInATabNotYetShown() async throws {
        embeddedTaskStarts = 0
        let keymap = Keymap(bindings: ["mirror.double": [KeySequence("m")!]])
        let h = try AppletTestHost(tabs: [Tab(TallyApplet()),
                                          Tab("Both", view: VStack { MirrorApplet(); TaskCountingApplet() })],
                                   keymap: keymap)
        #expect(h.host.keyProblems().isEmpty, "mirror.double is known though tab 2 was never drawn: \(h.host.keyProblems())")
        try await Task.sleep(for: .milliseconds(100))
        #expect(embeddedTaskStarts == 0, "looking inside a pane starts none of its tasks")
        h.press("+", "alt-2")
        for _ in 0..<200 where embeddedTaskStarts == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(embeddedTaskStarts == 1, "drawing the tab starts it")
        h.press("m")
        #expect(h.contains("Mirrored: 2"), "m is the embedded Mirror's Double now")
    }
}
