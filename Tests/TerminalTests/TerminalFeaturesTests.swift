import Foundation
import Testing
import TestSupport
@testable import Terminal
@testable import TerminalCore

@Suite("Hyperlinks in cells")
struct HyperlinkTests {
    @Test func aLinkIsKeptInTheCellWhichStaysSixteenBytes() {
        var cell = Cell("a")
        #expect(cell.hyperlink == nil)
        cell.hyperlink = Hyperlink("https://example.com/a")
        #expect(cell.hyperlink?.url == "https://example.com/a")
        #expect(MemoryLayout<Cell>.size == 16 && MemoryLayout<Cell>.stride == 16)
        // The same address is the same link; another is another.
        #expect(Hyperlink("https://example.com/a") == cell.hyperlink)
        #expect(Hyperlink("https://example.com/b") != cell.hyperlink)
    }

    @Test("Untrusted addresses: control characters go, bytes outside ASCII are percent-encoded", arguments: [
        ("https://a.example/x", "https://a.example/x"),
        ("https://a.example/\u{1B}]8;;https://evil\u{1B}\\", "https://a.example/]8;;https://evil\\"),
        ("https://a.example/\u{07}bell\u{9C}st", "https://a.example/bellst"),
        ("https://a.example/café", "https://a.example/caf%C3%A9"),
        ("  https://a.example/ \n", "https://a.example/"),
    ])
    func sanitizing(_ pair: (String, String)) {
        #expect(Hyperlink.sanitized(pair.0) == pair.1)
        #expect(Hyperlink(pair.0)?.url == pair.1)
    }

    @Test func nothingUsableOrTooLongIsNoLink() {
        #expect(Hyperlink("") == nil)
        #expect(Hyperlink("\u{1B}\u{07}\n") == nil)
        #expect(Hyperlink("https://a.example/" + String(repeating: "x", count: Hyperlink.maximumLength)) == nil)
        #expect(Hyperlink("https://a.example/" + String(repeating: "x", count: Hyperlink.maximumLength - 18)) != nil)
    }

    @Test func textKeepsItsCellsAndStylesKeepTheLinkButNewTextTakesItAway() {
        var canvas = Canvas(size: Size(width: 14, height: 2))
        let link = Hyperlink("https://example.com/docs")
        let used = canvas.write("see 東京 docs", at: Point(x: 0, y: 0))
        canvas.setHyperlink(link, in: Rect(x: 4, y: 0, width: 4, height: 1))
        #expect(canvas.lines == ["see 東京 docs", ""], "a link changes no text")
        #expect(used == 13)
        #expect(canvas.linkedRuns == [Canvas.LinkedRun(y: 0, columns: 4..<8, hyperlink: link!, text: "東京")])
        canvas.restyle(Rect(x: 0, y: 0, width: 14, height: 1)) { $0.attributes.insert(.bold) }
        #expect(canvas.linkedRuns.map(\.text) == ["東京"])
        canvas.write("ab", at: Point(x: 4, y: 0))
        #expect(canvas.linkedRuns.map(\.text) == ["京"], "the cells written over lose the link")
        canvas.fill(Rect(x: 0, y: 0, width: 14, height: 1))
        #expect(canvas.linkedRuns.isEmpty)
    }

    @Test func aChangedLinkIsAChangedCellForTheDiff() {
        var before = Canvas(size: Size(width: 10, height: 1))
        before.write("docs", at: .zero)
        before.setHyperlink(Hyperlink("https://example.com/1"), in: Rect(x: 0, y: 0, width: 4, height: 1))
        var after = before
        after.setHyperlink(Hyperlink("https://example.com/2"), in: Rect(x: 0, y: 0, width: 4, height: 1))
        #expect(after.changedSpans(since: before) == [Canvas.Span(y: 0, columns: 0..<4)])
        #expect(after.changes(since: before).count == 4)
        var shown = before
        for span in after.changedSpans(since: before) { shown.copy(span, from: after) }
        #expect(shown == after)
    }

    @MainActor @Test func theHeadlessScreenKeepsTheLinksOfWhatItWasSent() {
        let terminal = HeadlessTerminal(width: 10, height: 1)
        var frame = Canvas(size: terminal.size)
        frame.write("docs", at: Point(x: 1, y: 0))
        frame.setHyperlink(Hyperlink("https://example.com/docs"), in: Rect(x: 1, y: 0, width: 4, height: 1))
        terminal.present(frame)
        #expect(terminal.lines == [" docs"])
        #expect(terminal.cell(x: 1, y: 0).hyperlink?.url == "https://example.com/docs")
        #expect(terminal.screen.linkedRuns.map(\.text) == ["docs"])
    }
}

@Suite("The clipboard (OSC 52)")
struct ClipboardTests {
    @Test func theSequenceIsBase64BetweenOSC52AndST() {
        let (bytes, copy) = OSC52.sequence(for: "hello")
        #expect(bytes == Array("\u{1B}]52;c;aGVsbG8=\u{1B}\\".utf8))
        #expect(copy == ClipboardCopy(copied: "hello", isComplete: true, requestedLines: 1))
        #expect(copy.copiedLines == 1)
    }

    @Test("Base64 as RFC 4648 has it", arguments: ["", "f", "fo", "foo", "foob", "fooba", "foobar", "a\tb\nc", "東京 👩‍💻"])
    func base64(_ text: String) {
        var out: [UInt8] = []
        OSC52.appendBase64(of: text.utf8, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == Data(text.utf8).base64EncodedString())
    }

    @Test func lines() {
        #expect(ClipboardCopy.lineCount("") == 0)
        #expect(ClipboardCopy.lineCount("a") == 1)
        #expect(ClipboardCopy.lineCount("a\nb\nc") == 3)
        #expect(ClipboardCopy.lineCount("a\nb\n") == 2)
    }

    @Test func aTextTooLongForTerminalsIsCutAtALineEndAndSaysSo() {
        let line = String(repeating: "x", count: 99) + "\n"   // 100 bytes
        let text = String(repeating: line, count: 1000)        // 100,000 bytes: more than 75,000
        let (bytes, copy) = OSC52.sequence(for: text)
        #expect(!copy.isComplete)
        #expect(copy.requestedLines == 1000)
        #expect(copy.copiedLines == 750)
        #expect(copy.copied == String(repeating: line, count: 750))
        #expect(bytes.count - 9 <= OSC52.maximumPayload)
    }

    @Test func oneLongLineIsCutAtACharacter() {
        let text = String(repeating: "é", count: 50_000)   // 100,000 bytes, one line
        let copy = OSC52.sequence(for: text).copy
        #expect(!copy.isComplete)
        #expect(copy.copied == String(repeating: "é", count: 37_500))
    }

    @MainActor @Test func theHeadlessTerminalRecordsWhatWasCopied() {
        let terminal = HeadlessTerminal(width: 10, height: 2)
        let copy = terminal.copyToClipboard("a\nb")
        #expect(copy.isComplete && copy.copiedLines == 2)
        #expect(terminal.clipboard == ["a\nb"])
    }
}

@Suite("Programs the terminal is handed to")
struct ExternalProgramTests {
    @Test func aNameIsLookedUpInThePathAsAShellDoes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ak-path-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("tool").path
        _ = FileManager.default.createFile(atPath: script, contents: Data("#!/bin/sh\nexit 0\n".utf8), attributes: [.posixPermissions: 0o644])
        #expect(ExternalProgram("tool").resolvedPath(searchPath: folder.path)
                == .failure(ProgramError("tool", "permission denied (not executable)")))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        #expect(ExternalProgram("tool").resolvedPath(searchPath: "/nonexistent:" + folder.path) == .success(script))
        #expect(ExternalProgram("no-such-tool").resolvedPath(searchPath: folder.path) == .failure(ProgramError("no-such-tool", "not found")))
        #expect(ExternalProgram(folder.path).resolvedPath() == .failure(ProgramError(folder.path, "is a folder")))
        #expect(ExternalProgram("").resolvedPath().isFailure)
    }

    @Test func exitStatusesAndSignalsComeBack() {
        #expect(ProgramLauncher.run(ExternalProgram("/bin/sh", arguments: ["-c", "exit 3"]), path: "/bin/sh") == .exited(3))
        #expect(ProgramLauncher.run(ExternalProgram("/bin/sh", arguments: ["-c", "true"]), path: "/bin/sh") == .exited(0))
        #expect(ProgramLauncher.run(ExternalProgram("/bin/sh", arguments: ["-c", "kill -TERM $$"]), path: "/bin/sh")
                == .signalled(SIGTERM))
    }

    @Test func theEnvironmentGivenIsTheProgramsWholeEnvironment() throws {
        let out = temporaryPath("ak-env")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = ProgramLauncher.run(ExternalProgram("/bin/sh", arguments: ["-c", "env > \"$0\"", out],
                                                          environment: ["ONLY": "this"]), path: "/bin/sh")
        #expect(outcome == .exited(0))
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
            .filter { line in !["PWD=", "OLDPWD=", "SHLVL=", "_="].contains { line.hasPrefix($0) } }
        #expect(lines == ["ONLY=this"])
    }

    @Test func aProgramThatCannotStartSaysWhy() throws {
        let file = temporaryPath("ak-noexec")
        _ = FileManager.default.createFile(atPath: file, contents: Data("not a program".utf8), attributes: [.posixPermissions: 0o644])
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(ProgramLauncher.run(ExternalProgram("/no/such/program"), path: "/no/such/program")
                == .couldNotStart("/no/such/program: not found"))
        #expect(ProgramLauncher.run(ExternalProgram(file), path: file)
                == .couldNotStart("\(file): permission denied (not executable)"))
    }

    @MainActor @Test func theHeadlessTerminalRunsNothingUnlessTheTestStandsInForTheProgram() {
        let terminal = HeadlessTerminal(width: 10, height: 2)
        #expect(terminal.runProgram(ExternalProgram("vi", arguments: ["/tmp/x"]))
                == .couldNotStart("vi: not found (a headless terminal runs no programs)"))
        terminal.programRunner = { _ in .exited(3) }
        #expect(terminal.runProgram(ExternalProgram("ed")) == .exited(3))
        #expect(terminal.programsRun == [ExternalProgram("vi", arguments: ["/tmp/x"]), ExternalProgram("ed")])
    }
}

private extension Result {
    var isFailure: Bool { if case .failure = self { true } else { false } }
}
