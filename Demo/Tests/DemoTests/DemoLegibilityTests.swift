import AppletTesting
import DemoScreens
import Terminal
import Testing

/// Every character of every demo screen reads against what is behind it, on xterm with its
/// default palette, at 8, 16, 256 colours and truecolor, in the theme for a dark and for a light
/// background, whether or not the terminal turns bold into bright: 3:1 at least (the bar for
/// secondary text; `ThemeContrastTests` holds text roles to 4.5:1).
@Suite("Demo screens are legible at every depth")
@MainActor
struct DemoLegibilityTests {
    static let depths: [ColorSupport] = [.basic8, .basic16, .palette256, .truecolor]

    @Test(arguments: DemoScene.all.map(\.name))
    func everyCharacterReads(_ name: String) async throws {
        let scene = try #require(DemoScene.named(name))
        for (theme, dark) in [(Theme.dark, true), (Theme.light, false)] {
            for depth in Self.depths {
                let screen = try await scene.render(width: 80, height: 24, theme: theme, colorSupport: depth)
                var faint: [String] = []
                for bold in [true, false] {
                    let palette = TerminalPalette.xterm(darkBackground: dark, boldBrightens: bold)
                    for y in 0..<screen.size.height {
                        for x in 0..<screen.size.width {
                            let cell = screen[x, y]
                            guard cell.width > 0, !cell.grapheme.isWhitespace else { continue }
                            let contrast = palette.contrast(cell.style, support: depth)
                            if contrast < 3 {
                                faint.append("(\(x),\(y)) '\(cell.grapheme)' \(StyledScreen.describe(cell.style)) \((contrast * 100).rounded() / 100):1\(bold ? "" : " (bold not bright)")")
                            }
                        }
                    }
                }
                #expect(faint.isEmpty, "\(name), \(theme.name) theme at \(depth): \(faint.count) faint characters, first: \(faint.prefix(6).joined(separator: "; "))\n\(screen.text)")
            }
        }
    }

    /// The style of the first cell of the first `text` on the screen.
    private func style(of text: String, in screen: Canvas, sourceLocation: SourceLocation = #_sourceLocation) throws -> Style {
        let lines = screen.lines
        let row = try #require(lines.firstIndex { $0.contains(text) }, "no \(text) on\n\(screen.text)", sourceLocation: sourceLocation)
        let column = lines[row][..<lines[row].range(of: text)!.lowerBound].count
        return screen[column, row].style
    }

    /// Placeholders do not look typed, a disabled form does not look enabled, the focused page
    /// does not look like the others: at every depth, on both backgrounds (the 8-colour xterm on
    /// a white background showed none of these apart).
    @Test func statesLookDifferentFromNormalText() async throws {
        for (theme, dark) in [(Theme.dark, true), (Theme.light, false)] {
            let palette = TerminalPalette.xterm(darkBackground: dark)
            for depth in Self.depths {
                let where_ = "\(theme.name) theme at \(depth)"
                let gallery = try await DemoScene.named("widgets-gallery")!.render(width: 80, height: 24, theme: theme, colorSupport: depth)
                let typed = try await DemoScene.named("widgets-inputs")!.render(width: 80, height: 24, theme: theme, colorSupport: depth)
                let disabled = try await DemoScene.named("widgets-disabled")!.render(width: 80, height: 24, theme: theme, colorSupport: depth)
                #expect(palette.looksDifferent(try style(of: "your name", in: gallery), try style(of: "Ada", in: typed), support: depth),
                        "\(where_): the placeholder looks typed")
                #expect(palette.looksDifferent(try style(of: "Wrap lines", in: disabled), try style(of: "Wrap lines", in: gallery), support: depth),
                        "\(where_): the disabled form looks enabled")
                #expect(palette.looksDifferent(try style(of: "Inputs", in: gallery), try style(of: "Lists", in: gallery), support: depth),
                        "\(where_): the focused page looks like the others")
                #expect(palette.looksDifferent(try style(of: "4 Widgets", in: gallery), try style(of: "3 List", in: gallery), support: depth),
                        "\(where_): the active tab looks like the others")
            }
        }
    }
}
