import Foundation
import Testing

/// A Swift block in README.md or Docs/*.md that follows `<!-- tested in PATH -->` is compiled and
/// run by the test file PATH: every line of the block (indentation aside, blank lines skipped)
/// must appear there, in order and together. So a sample cannot drift from the code that the
/// tests compile and run; change one, and this fails until the other follows.
@Suite("Tested samples in the documents")
struct DocSnippetsTests {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    struct Snippet {
        var document: String
        var line: Int
        var testFile: String
        var lines: [String]
    }

    /// Every marked block of every document.
    static func snippets() throws -> [Snippet] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)) ?? []
        var snippets: [Snippet] = []
        for document in ["README.md"] + docs.filter({ $0.hasSuffix(".md") }).sorted().map({ "Docs/" + $0 }) {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            snippets += try Self.snippets(in: text, document: document)
        }
        return snippets
    }

    static func snippets(in text: String, document: String) throws -> [Snippet] {
        let lines = text.components(separatedBy: "\n")
        var snippets: [Snippet] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard let match = lines[index].wholeMatch(of: /<!-- tested in (\S+) -->/) else { continue }
            let marker = index + 1
            guard index + 1 < lines.count, lines[index + 1] == "```swift" else {
                throw DocumentError("\(document):\(marker): `<!-- tested in … -->` must be followed at once by a ```swift block")
            }
            var body: [String] = []
            index += 2
            while index < lines.count, lines[index] != "```" {
                body.append(lines[index])
                index += 1
            }
            guard index < lines.count else { throw DocumentError("\(document):\(marker): the block is never closed") }
            snippets.append(Snippet(document: document, line: marker, testFile: String(match.1), lines: body))
        }
        return snippets
    }

    /// The lines that count: without their indentation, blank ones left out.
    static func significant(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether `needle` appears in `haystack` as a run of consecutive elements.
    static func contains(_ haystack: [String], run needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    @Test func everyTestedSampleIsInItsTestFile() throws {
        let snippets = try Self.snippets()
        for snippet in snippets {
            let file = Self.root.appendingPathComponent(snippet.testFile)
            guard let source = try? String(contentsOf: file, encoding: .utf8) else {
                Issue.record("\(snippet.document):\(snippet.line): \(snippet.testFile) does not exist")
                continue
            }
            let wanted = Self.significant(snippet.lines)
            let have = Self.significant(source.components(separatedBy: "\n"))
            if !Self.contains(have, run: wanted) {
                // Say which line is the first that the file does not have where the sample has it.
                let longest = (0..<wanted.count).last { Self.contains(have, run: Array(wanted[...$0])) }
                let first = wanted[(longest ?? -1) + 1]
                Issue.record("""
                    \(snippet.document):\(snippet.line): this sample is not in \(snippet.testFile) as written; \
                    from its line “\(first)” on it differs. Change one to match the other.
                    """)
            }
        }
        // Logic.md (a toast, starting logic), Navigation.md (NoSheet and Enter) and the rest.
        #expect(snippets.count >= 4, "the documents mark \(snippets.count) tested samples")
    }

    @Test func aChangedSampleIsCaught() throws {
        let document = """
            Text
            <!-- tested in Tests/AppletKitTests/DocSnippetsTests.swift -->
            ```swift
                let marker = index + 1
            guard index + 1 < lines.count, lines[index + 1] == "```swift" else {
            ```
            """
        let snippet = try #require(try Self.snippets(in: document, document: "x.md").first)
        let source = try String(contentsOf: Self.root.appendingPathComponent(snippet.testFile), encoding: .utf8)
        let have = Self.significant(source.components(separatedBy: "\n"))
        #expect(Self.contains(have, run: Self.significant(snippet.lines)))
        #expect(!Self.contains(have, run: Self.significant(snippet.lines.reversed())), "out of order is not the same")
        #expect(throws: DocumentError.self) { try Self.snippets(in: "<!-- tested in A.swift -->\nno block", document: "x.md") }
    }
}

/// How a package depends on AppletKit, as the documents say it: never through a URL that
/// resolves nowhere (an earlier `https://github.com/appletkit/AppletKit` did), always a way that
/// `PackagingTests` checks (a clone by path, or by a `file://` URL and a version tagged in it).
@Suite("How the documents say to depend on AppletKit")
struct DependencyInstructionsTests {
    @Test func noDocumentNamesAPlaceholderURL() throws {
        let root = DocSnippetsTests.root
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)
        for document in ["README.md", "Package.swift"] + docs.filter({ $0.hasSuffix(".md") }).map({ "Docs/" + $0 }) {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            #expect(!text.contains("github.com/appletkit"), "\(document) names a URL where AppletKit is not")
        }
        let started = try String(contentsOf: root.appendingPathComponent("Docs/GettingStarted.md"), encoding: .utf8)
        #expect(started.contains(".package(name: \"AppletKit\", path: "))
        #expect(started.contains(".package(url: \"file:///"))
        #expect(started.contains("tag 0.1.0"))
    }
}

struct DocumentError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
