import Foundation
import Testing

/// Colours as the terminal receives them: 256-colour and 8-colour terminals get colours they can
/// show, and `NO_COLOR` turns colour off while bold and reverse stay (so the selected tab and the
/// footer keys remain visible).
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

    @Test("256-colour terminal: the count is green, the selected tab reversed in the theme's accent colour")
    func colours() async throws {
        let rows = try await firstFrame([:])
        let count = try #require(rows.first { $0.contains("Count:") })
        #expect(Self.sgr(count).contains { $0.split(separator: ";").contains("32") }, "count row: \(count.debugDescription)")
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
        #expect(params.contains("32"), "the count should still be green")
    }
}
