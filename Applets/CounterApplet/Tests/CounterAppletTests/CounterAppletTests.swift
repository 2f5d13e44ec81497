import AppletTesting
import CounterApplet
import CounterAppletInterface
import Testing

@Suite("Counter applet")
@MainActor
struct CounterAppletTests {
    @Test func keysChangeTheCount() throws {
        let host = try AppletTestHost(CounterApplet(), width: 80, height: 12)
        host.expectRows(1..<6, toShow: """

             Counter

             Count: 0

            """)
        host.press("+", "+", "+")
        host.expectRows(4..<5, toShow: " Count: 3")
        host.press("-")
        host.expectRows(4..<5, toShow: " Count: 2")
        host.press("0")
        host.expectRows(4..<5, toShow: " Count: 0")
        host.expectRows(11..<12, toShow: "+ Increment  - Decrement  0 Reset  Tab Focus  ? Help  q Quit")
    }

    @Test func buttonsWorkWithTabAndEnter() throws {
        let host = try AppletTestHost(CounterApplet(), width: 80, height: 12)
        host.press("tab", "enter", "enter")            // Decrement has focus first; Tab moves to Increment
        #expect(host.contains("Count: 2"))
        host.click("Reset")
        #expect(host.contains("Count: 0"))
    }

    @Test(arguments: [Theme.dark, Theme.light])
    func theCountIsInTheThemesSuccessColour(theme: Theme) throws {
        // A literal green was hard to read on a light background; the theme's role reads on both.
        let host = try AppletTestHost(CounterApplet(), width: 80, height: 12, theme: theme)
        let success = theme.resolved(for: .palette256)[.success]
        let count = try #require(host.position(of: "Count: 0"))
        for x in count.x..<(count.x + 8) {
            #expect(host.cell(x: x, y: count.y).style.foreground == success.foreground, "column \(x), \(theme.name) theme")
        }
        // Eight colours: the role's 8-colour look, still green (text on a dark background, behind
        // dark text on a light one, where xterm's green text does not read).
        let basic = try AppletTestHost(CounterApplet(), width: 80, height: 12, colorSupport: .basic8, theme: theme)
        let at = try #require(basic.position(of: "Count: 0"))
        let green = basic.cell(x: at.x, y: at.y).style
        #expect(green.foreground == .ansi(.green) || green.background == .ansi(.green), "\(theme.name) theme")
    }

    @Test func theCountIsKeptAcrossRestarts() throws {
        let first = try AppletTestHost(CounterApplet())
        first.press("+", "+")
        let second = try first.restart()
        #expect(second.contains("Count: 2"))
        #expect(second.application.counter.value == CounterState(count: 2))
    }
}
