import AppletKit
import Foundation

/// The screens shown in README.md and Docs/*.md, made from `DemoScene`s rather than from anyone's
/// terminal. A screen in a document is a fenced block under a marker naming its scene and size:
///
/// ````markdown
/// <!-- screen dashboard 100x20 -->
/// ```
///  1 Counter │ 2 Dashboard │ …
/// ```
/// ````
///
/// `make screens` writes each block from its scene (`appletkit-screens`); `make test` checks that
/// every block is what the program draws now.
///
/// ```swift
/// let document = DocumentScreens(text: readme)
/// let updated = try await document.rendered()   // the same text, every block drawn again
/// ```
public struct DocumentScreens: Sendable {
    /// A marked block: where it is and what it asks for.
    public struct Block: Sendable, Equatable {
        public let scene: String
        public let width: Int
        public let height: Int
        public let theme: String
        /// The lines of the block's contents (between the fences), and where they are in the text.
        public let contents: [String]
        let contentLines: Range<Int>

        public init(scene: String, width: Int, height: Int, theme: String, contents: [String], contentLines: Range<Int>) {
            self.scene = scene
            self.width = width
            self.height = height
            self.theme = theme
            self.contents = contents
            self.contentLines = contentLines
        }
    }

    public let lines: [String]

    public init(text: String) {
        lines = text.components(separatedBy: "\n")
    }

    /// Every marked block, in order. A marker without a fenced block after it is an error.
    public func blocks() throws -> [Block] {
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard let marker = Self.marker(lines[index]) else { continue }
            guard index + 1 < lines.count, lines[index + 1].hasPrefix("```") else {
                throw ScreenError("line \(index + 1): a screen marker must be followed by a ``` block")
            }
            guard let close = lines[(index + 2)...].firstIndex(where: { $0.hasPrefix("```") }) else {
                throw ScreenError("line \(index + 2): the screen's block is not closed")
            }
            blocks.append(Block(scene: marker.scene, width: marker.width, height: marker.height, theme: marker.theme,
                                contents: Array(lines[(index + 2)..<close]), contentLines: (index + 2)..<close))
            index = close
        }
        return blocks
    }

    /// `<!-- screen NAME WxH [light] -->`.
    static func marker(_ line: String) -> (scene: String, width: Int, height: Int, theme: String)? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("<!-- screen "), trimmed.hasSuffix("-->") else { return nil }
        let words = trimmed.dropFirst("<!-- screen ".count).dropLast(3).split(separator: " ").map(String.init)
        guard words.count >= 2 else { return nil }
        let size = words[1].split(separator: "x").compactMap { Int($0) }
        guard size.count == 2 else { return nil }
        return (words[0], size[0], size[1], words.count > 2 ? words[2] : "dark")
    }

    /// The text drawn for a block now: the scene's screen, trailing blanks and blank last rows
    /// trimmed.
    @MainActor
    public static func draw(_ block: Block) async throws -> [String] {
        guard let scene = DemoScene.named(block.scene) else { throw ScreenError("no scene named \(block.scene)") }
        let theme: Theme = block.theme == "light" ? .light : .dark
        let screen = try await scene.render(width: block.width, height: block.height, theme: theme)
        var rows = screen.lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
        while rows.last?.isEmpty == true { rows.removeLast() }
        return rows
    }

    /// The document with every block drawn again.
    @MainActor
    public func rendered() async throws -> String {
        var result = lines
        for block in try blocks().reversed() {
            result.replaceSubrange(block.contentLines, with: try await Self.draw(block))
        }
        return result.joined(separator: "\n")
    }
}

public struct ScreenError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
