import AppletTesting
import DemoScreens
import Foundation
import Testing

/// Every screen of the demo (each tab, each overlay and dialog) at 120x36, 80x24 and 50x12, in
/// both themes, at 8 and 256 colours, against golden screens of its text and styles. A change
/// that moves a cell or changes a colour shows here; run with `RECORD_SNAPSHOTS=1` to record what
/// is right.
@Suite("Demo screens: every tab and overlay, every size, theme and depth")
@MainActor
struct DemoScreenMatrixTests {
    static let sizes = [(120, 36), (80, 24), (50, 12)]
    static let themes: [(String, Theme)] = [("dark", .dark), ("light", .light)]
    static let depths: [(String, ColorSupport)] = [("8", .basic8), ("256", .palette256)]

    @Test(arguments: DemoScene.matrix)
    func scene(_ name: String) async throws {
        let scene = try #require(DemoScene.named(name))
        for (width, height) in Self.sizes {
            for (themeName, theme) in Self.themes {
                for (depthName, depth) in Self.depths {
                    let screen = try await scene.render(width: width, height: height, theme: theme, colorSupport: depth)
                    expectScreen(screen, matchesStyledGolden: "\(name)-\(width)x\(height)-\(themeName)-\(depthName)")
                }
            }
        }
    }

    /// No overlay, sheet or dialog is cut off: at every size its box has both borders, and its
    /// closing line is inside.
    @Test(arguments: ["help", "palette", "action-log", "sheet", "confirmation", "signal"], [(80, 24), (50, 12)])
    func overlaysFit(_ name: String, size: (Int, Int)) async throws {
        let scene = try #require(DemoScene.named(name))
        let lines = try await scene.render(width: size.0, height: size.1).lines
        let top = try #require(lines.firstIndex { $0.contains("╭") }, "no box in \(name):\n\(lines.joined(separator: "\n"))")
        let bottom = try #require(lines.lastIndex { $0.contains("╰") }, "\(name) at \(size) has no bottom border:\n\(lines.joined(separator: "\n"))")
        #expect(top < bottom && bottom < size.1 - 1, "the box reaches the footer:\n\(lines.joined(separator: "\n"))")
        #expect(lines.last?.isEmpty == false, "the footer is there")
    }
}

/// The screens in README.md and Docs/*.md are what the program draws on their scenes now.
@Suite("Screens in the documents")
@MainActor
struct DocumentScreensTests {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static var documents: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
    }

    @Test func everyMarkedScreenIsWhatTheProgramDraws() async throws {
        var count = 0
        for document in Self.documents {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            for block in try DocumentScreens(text: text).blocks() {
                count += 1
                let drawn = try await DocumentScreens.draw(block)
                #expect(drawn == block.contents,
                        "\(document): the \(block.scene) \(block.width)x\(block.height) screen is not what the program draws now; run make screens. Now:\n\(drawn.joined(separator: "\n"))")
            }
        }
        #expect(count >= 6, "the documents show \(count) screens made from scenes")
    }

    @Test func markersAreRead() throws {
        let text = "a\n<!-- screen help 80x24 light -->\n```\nold\n```\nb\n"
        let blocks = try DocumentScreens(text: text).blocks()
        #expect(blocks == [DocumentScreens.Block(scene: "help", width: 80, height: 24, theme: "light", contents: ["old"], contentLines: 3..<4)])
        #expect(throws: ScreenError.self) { try DocumentScreens(text: "<!-- screen help 80x24 -->\nno block\n").blocks() }
    }
}
