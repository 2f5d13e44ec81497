import AppletTesting
import CounterAppletInterface
import Testing
@testable import AppletKitDemo
import DemoTabs

/// The demo as `make run` shows it, on a headless screen.
@Suite("Demo host")
@MainActor
struct DemoScreenTests {
    @Test func sixTabsAndTheCounterFooter() throws {
        let demo = try AppletTestHost(tabs: DemoTabs.all, width: 120, height: 40)
        demo.expectRows(0..<1, toShow: " 1 Counter │ 2 Dashboard │ 3 List │ 4 Widgets │ 5 Notes │ 6 Processes")
        demo.expectRows(39..<40, toShow: "+ Increment  - Decrement  0 Reset  1-6 Tab  ]/[ Next/Prev  Tab Focus  ? Help  q Quit")
    }

    @Test func theCounterAndTheDashboardShareOneCount() throws {
        let demo = try AppletTestHost(tabs: DemoTabs.all, width: 120, height: 40)
        demo.press("+", "+", "+")
        #expect(demo.contains("Count: 3"))
        demo.press("2")
        #expect(demo.contains("Shared counter: 3 (odd)"))
        demo.press("d")
        demo.press("1")
        #expect(demo.contains("Count: 6"))
        #expect(demo.application.counter.value.count == 6)
    }

    @Test func eachTabOpensByNumberAndId() throws {
        let tabs = DemoTabs.all
        #expect(tabs.namesForHelp == "1 counter, 2 dashboard, 3 list, 4 widgets, 5 notes, 6 processes")
        #expect(tabs.index(named: "widgets") == 3)
        #expect(tabs.index(named: "processes") == 5)
        #expect(tabs.index(named: "7") == nil)
    }
}
