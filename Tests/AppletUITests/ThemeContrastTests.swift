import AppletTesting
import AppletUI
import Terminal
import Testing

// Every role of both themes, at every colour depth, on the background it is for, as xterm with
// its default palette shows it (with and without bold turned bright): text at 4.5:1 or more,
// secondary text at 3:1, and the states a person must tell apart looking different from text.

private let depths: [ColorSupport] = [.basic8, .basic16, .palette256, .truecolor]
private let cases: [(theme: Theme, darkBackground: Bool)] = [(.dark, true), (.light, false)]

@Suite("Theme contrast")
struct ThemeContrastTests {
    @Test(arguments: depths)
    func everyRoleReadsOnItsBackground(_ depth: ColorSupport) {
        for (theme, dark) in cases {
            let resolved = theme.resolved(for: depth)
            for bold in [true, false] {
                let palette = TerminalPalette.xterm(darkBackground: dark, boldBrightens: bold)
                for role in Theme.Role.allCases {
                    let needed = role.isSecondary ? 3.0 : 4.5
                    let contrast = palette.contrast(resolved[role], support: depth)
                    #expect(contrast >= needed,
                            "\(theme.name) at \(depth)\(bold ? "" : " (bold not brightened)"): \(role) is \(contrast):1, needs \(needed)")
                }
            }
        }
    }

    @Test(arguments: depths)
    func everyRoleReadsInsideSelectedAndFocusedRows(_ depth: ColorSupport) {
        // A key label inside the palette's selected row, an accent in a focused tab, a disabled
        // command under the cursor.
        for (theme, dark) in cases {
            let resolved = theme.resolved(for: depth)
            for bold in [true, false] {
                let palette = TerminalPalette.xterm(darkBackground: dark, boldBrightens: bold)
                for row in [Theme.Role.selection, .focus] {
                    for role in Theme.Role.allCases {
                        let needed = role.isSecondary ? 3.0 : 4.5
                        let contrast = palette.contrast(resolved.style(role, over: resolved[row]), support: depth)
                        #expect(contrast >= needed, "\(theme.name) at \(depth): \(role) in a \(row) row is \(contrast):1")
                    }
                }
            }
        }
    }

    @Test func aRoleOnAHighlightedRowKeepsTheRowsColours() {
        let theme = Theme.dark.resolved(for: .palette256)
        let row = theme[.selection]
        #expect(theme.style(.muted, over: row).foreground == row.foreground)
        #expect(theme.style(.muted, over: row).background == row.background)
        #expect(theme.style(.header, over: row).attributes == row.attributes.union(.underline))   // not bold
        #expect(theme.style(.muted, over: .plain) == theme[.muted])
        #expect(theme.style(.accent, over: Style(attributes: .underline)) == Style(attributes: .underline).merged(with: theme[.accent]))
        // A role with its own background (focus inside a selection) is drawn as itself.
        #expect(theme.style(.focus, over: row) == theme[.focus])
    }

    @Test(arguments: depths)
    func statesLookDifferentFromText(_ depth: ColorSupport) {
        for (theme, dark) in cases {
            let resolved = theme.resolved(for: depth)
            let palette = TerminalPalette.xterm(darkBackground: dark)
            // Placeholders are drawn in the muted role.
            for role in [Theme.Role.muted, .disabled, .focus, .selection] {
                #expect(palette.looksDifferent(resolved[role], resolved[.text], support: depth),
                        "\(theme.name) at \(depth): \(role) looks like normal text")
            }
            #expect(palette.looksDifferent(resolved[.focus], resolved[.selection], support: depth),
                    "\(theme.name) at \(depth): focus looks like selection")
        }
    }

    @Test func withoutColourFocusAndSelectionStillShow() {
        for (theme, _) in cases {
            let resolved = theme.resolved(for: .none)
            for role in Theme.Role.allCases {
                #expect(resolved[role].foreground == .default && resolved[role].background == .default,
                        "\(theme.name): \(role) has a colour under NO_COLOR")
            }
            #expect(resolved[.selection].attributes.contains(.reverse))
            #expect(resolved[.focus].attributes.isSuperset(of: [.reverse, .bold]))
        }
    }

    @Test func thePaletteModelsWhatXtermShows() {
        let light = TerminalPalette.xterm(darkBackground: false)
        let black = TerminalColor(red: 0, green: 0, blue: 0), white = TerminalColor(red: 255, green: 255, blue: 255)
        // The default colours; reverse swaps them.
        #expect(light.shown(Style(), support: .basic8) == (black, white))
        #expect(light.shown(Style(attributes: .reverse), support: .basic8) == (white, black))
        // Bold brightens an explicit basic colour only (xterm's boldColors).
        let grey = TerminalColor(red: 127, green: 127, blue: 127)
        #expect(light.shown(Style(foreground: .black, attributes: .bold), support: .basic16).foreground == grey)
        #expect(TerminalPalette.xterm(darkBackground: false, boldBrightens: false)
            .shown(Style(foreground: .black, attributes: .bold), support: .basic16).foreground == black)
        #expect(light.shown(Style(attributes: .bold), support: .basic16).foreground == black)
        // Dim is two thirds of an explicit colour; default-coloured text is not dimmed.
        let dark = TerminalPalette.xterm(darkBackground: true)
        #expect(dark.shown(Style(foreground: .white, attributes: .dim), support: .basic8).foreground == TerminalColor(red: 152, green: 152, blue: 152))
        #expect(dark.shown(Style(attributes: .dim), support: .basic8).foreground == white)
        // Bright black has no 8-colour form: it is the default colour there.
        #expect(dark.shown(Style(foreground: .gray), support: .basic8).foreground == white)
        // 256 colours: the nearest palette entry; truecolor: the colour itself.
        #expect(dark.shown(Style(foreground: .rgb(250, 10, 10)), support: .palette256).foreground == TerminalColor(red: 255, green: 0, blue: 0))
        #expect(dark.shown(Style(foreground: .rgb(250, 10, 10)), support: .truecolor).foreground == TerminalColor(red: 250, green: 10, blue: 10))
        // WCAG's figures.
        #expect(black.contrast(with: white) == 21)
        #expect(abs(TerminalColor(red: 0, green: 0, blue: 238).contrast(with: white) - 9.4) < 0.05)
        #expect(!dark.looksDifferent(Style(foreground: .white), Style(), support: .basic16))
        #expect(dark.looksDifferent(Style(foreground: .white, attributes: .dim), Style(), support: .basic8))
        #expect(!dark.looksDifferent(Style(attributes: .dim), Style(), support: .basic8))
    }
}
