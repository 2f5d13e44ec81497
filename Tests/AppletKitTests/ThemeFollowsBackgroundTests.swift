import AppletKit
import AppletUI
import Terminal
import Testing

/// `theme: nil` (what `--theme auto` passes) takes the theme for the terminal's background as the
/// start-up probe found it; a theme given by name wins over the background.
@Suite("The theme follows the terminal's background")
@MainActor
struct ThemeFollowsBackgroundTests {
    private func startedTheme(background dark: Bool?, theme: Theme?) throws -> String {
        let terminal = HeadlessTerminal(width: 60, height: 12)
        terminal.backgroundIsDark = dark
        let host = try AppletHost(tabs: [Tab("One", view: Text("hello"))], application: Application(), terminal: terminal, theme: theme)
        try host.start()
        #expect(host.resolvedTheme == host.theme.resolved(for: terminal.colorSupport))
        return host.theme.name
    }

    @Test func aLightBackgroundGetsTheLightTheme() throws {
        #expect(try startedTheme(background: false, theme: nil) == "light")
    }

    @Test func aDarkOrUnknownBackgroundGetsTheDarkTheme() throws {
        #expect(try startedTheme(background: true, theme: nil) == "dark")
        #expect(try startedTheme(background: nil, theme: nil) == "dark")
    }

    @Test func aChosenThemeWins() throws {
        #expect(try startedTheme(background: false, theme: .dark) == "dark")
        #expect(try startedTheme(background: true, theme: .light) == "light")
    }
}
