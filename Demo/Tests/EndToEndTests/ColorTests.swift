import AppletTesting
import Foundation
import Testing

/// Colours as the terminal receives them: 256-colour and 8-colour terminals get colours they can
/// show, and `NO_COLOR` turns colour off while bold and reverse stay (so the selected tab and the
/// footer keys remain visible). The applets use the theme's roles, never literal colours: the
/// count is the theme's success colour.
@Suite("Colours")
struct ColorTests {
    /// Launches with extra environment, returns the rows of the first frame with their escapes.
    private func firstFrame(_ environment: [String: String]) async throws -> [String] {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let (run, _) = try await shell.launchAndWait(environment: environment)
        // The whole frame: the count, and the footer on the last row.
        try await AppUsageTests.waitForTab(shell.tmux, showing: "Count: 0", footer: AppUsageTests.counterFooter)
        let rows = try await shell.tmux.captureWithEscapes()
        try await shell.tmux.type("q")
        _ = try await shell.waitForExit(run)
        return rows
    }

    private static let esc = "\u{1B}["

    /// SGR parameter lists used on a row, e.g. ["0", "1;7;36"].
    private static func sgr(_ row: String) -> [String] {
        row.components(separatedBy: esc).dropFirst().compactMap { part in
            guard let m = part.firstIndex(of: "m") else { return nil }
            return String(part[..<m])
        }
    }

    private static func usesColour(_ rows: [String]) -> Bool {
        rows.flatMap(sgr).contains { params in
            params.split(separator: ";").contains { p in
                guard let n = Int(p) else { return false }
                return (30...39).contains(n) && n != 39 || (40...49).contains(n) && n != 49 || (90...107).contains(n)
            }
        }
    }

    /// The palette entry a 256-colour terminal gets for a role of the dark theme (the demo's).
    private static func paletteIndex(_ role: Theme.Role) throws -> String {
        let rgb = try #require(Theme.dark[role].foreground).rgb
        return String(ColorMapping.paletteIndex(rgb.0, rgb.1, rgb.2))
    }

    /// The first row holding `text`, with its escapes.
    private static func row(_ rows: [String], containing text: String) throws -> String {
        try #require(rows.first { $0.contains(text) }, "no row shows \(text)")
    }

    @Test("256-colour terminal: the count in the theme's success colour, the selected tab reversed in its accent colour")
    func colours() async throws {
        let rows = try await firstFrame([:])
        let count = try Self.row(rows, containing: "Count:")
        // The dark theme's success, (80, 250, 123), is a palette colour; not the basic green (32)
        // the applet once asked for by name.
        let success = try Self.paletteIndex(.success)
        #expect(Self.sgr(count).contains { $0.hasSuffix("38;5;\(success)") || $0.contains("38;5;\(success);") },
                "count row: \(count.debugDescription)")
        #expect(!Self.sgr(count).contains { $0.split(separator: ";").contains("32") }, "count row: \(count.debugDescription)")
        // tmux writes attributes and colours as separate sequences: look at the selected tab's run,
        // everything before its label.
        let selected = String(rows[0][..<(rows[0].range(of: " 1 Counter")?.lowerBound ?? rows[0].endIndex)])
        let params = Set(Self.sgr(selected).flatMap { $0.split(separator: ";").map(String.init) })
        // The dark theme's accent, (95, 215, 255), is palette colour 81 on a 256-colour terminal.
        #expect(params.contains("7") && params.contains("38") && params.contains("81"), "selected tab: \(selected.debugDescription)")
    }

    @Test("NO_COLOR: no colour at all, but reverse and bold remain")
    func noColor() async throws {
        let rows = try await firstFrame(["NO_COLOR": "1"])
        #expect(!Self.usesColour(rows), "colour codes under NO_COLOR:\n\(rows.filter { Self.usesColour([$0]) }.map(\.debugDescription).joined(separator: "\n"))")
        #expect(Self.sgr(rows[0]).contains { $0.split(separator: ";").contains("7") }, "the selected tab is not reversed: \(rows[0].debugDescription)")
        #expect(Self.sgr(rows.last ?? "").contains { $0.split(separator: ";").contains("1") }, "footer keys are not bold")
    }

    @Test("8-colour terminal (TERM=xterm): only the eight basic colours are used")
    func eightColours() async throws {
        let rows = try await firstFrame(["TERM": "xterm"])
        let params = rows.flatMap(Self.sgr).flatMap { $0.split(separator: ";") }
        #expect(!params.contains("38") && !params.contains("48"), "palette colours on an 8-colour terminal")
        #expect(!params.contains { Int($0).map { (90...107).contains($0) } ?? false }, "bright colours on an 8-colour terminal")
        // The success role's basic colour: green on the count's row.
        let count = try Self.row(rows, containing: "Count:")
        #expect(Self.sgr(count).contains { $0.split(separator: ";").contains("32") },
                "the count should be the success role's basic colour, green: \(count.debugDescription)")
    }
}
