import AppletTesting
import CounterAppletInterface
import DashboardApplet
import DashboardAppletInterface
import Testing

@Suite("Dashboard applet")
@MainActor
struct DashboardAppletTests {
    @Test func showsTheSharedCounterAndItsGoal() async throws {
        let host = try AppletTestHost(DashboardApplet(), width: 80, height: 12)
        #expect(host.contains("Shared counter: 0 (even)"))
        #expect(host.contains("Goal 20:") && host.contains("20 to go"))
        // The Counter applet (or anyone importing CounterAppletInterface) changes it.
        await host.perform { Application.state(\.counter).value.count = 7 }
        host.expectRows(4..<5, toShow: " Shared counter: 7 (odd)")
        #expect(host.contains("13 to go"))
    }

    @Test func keysChangeTheCounterAndTheGoal() async throws {
        let host = try AppletTestHost(DashboardApplet(), width: 80, height: 12)
        await host.perform { Application.state(\.counter).value.count = 3 }
        host.press("d")
        #expect(host.contains("Shared counter: 6 (even)"))
        host.press(">", ">")
        #expect(host.contains("Goal 30:"))
        host.press("<")
        #expect(host.contains("Goal 25:"))
        host.press("r")
        #expect(host.application.counter.value.count == 0)
        #expect(host.contains("25 to go"))
    }

    @Test(arguments: [Theme.dark, Theme.light])
    func theValueAndTheBarUseTheThemesRoles(theme: Theme) async throws {
        // Literal cyan and yellow were hard to read on a light background: the value is the
        // theme's accent, the bar its warning colour until the goal is reached, then success.
        let host = try AppletTestHost(DashboardApplet(), width: 80, height: 12, theme: theme)
        let roles = theme.resolved(for: .palette256)
        await host.perform { Application.state(\.counter).value.count = 7 }
        let value = try #require(host.position(of: "Shared counter: 7"))
        let digit = host.cell(x: value.x + 16, y: value.y)
        #expect(digit.grapheme == "7")
        #expect(digit.style.foreground == roles[.accent].foreground && digit.style.attributes.contains(.bold))
        let bar = try #require(host.position(of: "█"))
        #expect(host.cell(x: bar.x, y: bar.y).style.foreground == roles[.warning].foreground)
        await host.perform { Application.state(\.counter).value.count = 20 }
        let full = try #require(host.position(of: "█"))
        #expect(host.cell(x: full.x, y: full.y).style.foreground == roles[.success].foreground)
    }

    @Test func reachingTheGoalSaysSo() async throws {
        let host = try AppletTestHost(DashboardApplet(), width: 80, height: 12)
        await host.perform { Application.state(\.counter).value.count = 20 }
        #expect(host.contains("reached"))
    }
}
