import AppletKit
import AppletTesting
import DemoTabs
import Testing

/// With no input and nothing moving, the demo runs nothing: no `.task` in any pane, no animation
/// frame; the process monitor's refresh runs only while its tab is up. (How many times the real
/// binary wakes is `make bench`'s idle benchmark; this is the cause it would find.)
@Suite("The demo at rest")
@MainActor
struct DemoAtRestTests {
    @Test func stillTabsRunNothingAndTheMonitorStopsWhenItsTabGoes() async throws {
        let app = try AppletTestHost(tabs: DemoTabs.all, width: 100, height: 30)
        await app.settle()
        for key in ["1", "2", "3", "4", "5"] {
            app.press(key)
            await app.settle()
            #expect(app.host.activity == [], "tab \(key): \(app.host.activity)")
        }
        app.press("6")
        await app.settle()
        #expect(app.host.activity.contains { $0.hasPrefix("Processes") && $0.contains("running") }, "\(app.host.activity)")
        app.press("1")
        await app.settle()
        #expect(app.host.activity == [], "the monitor still runs with its tab hidden: \(app.host.activity)")
        // The gallery's pages, each shown in turn.
        app.press("4")
        for _ in 0..<4 {
            app.press("right")
            await app.settle()
            #expect(app.host.activity == [], "\(app.lines[1]): \(app.host.activity)")
        }
    }
}
