import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// AppletKit used the way people outside this repository use it: a package of their own that
/// depends on it by URL and version or by path, made with `appletkit new-applet`, grown by following
/// Docs/WritingAnApplet.md, and rebuilt after AppletKit changes. Each test builds AppletKit again in
/// a fresh folder, so `make test` runs these last, on their own (`make test-packaging`).
@Suite("Packaging", .serialized)
struct PackagingTests {
    @Test("A package outside the repository depends on AppletKit by URL and version, builds, tests and runs")
    func outsidePackageByURL() async throws {
        let work = try TemporaryFolder("by-url")
        defer { work.remove() }
        let framework = work.url.appendingPathComponent("AppletKit")
        try await FrameworkCopy.make(at: framework, tag: "0.1.0")

        let generated = try await runTool(["new-applet", "Notes", "--path", work.path,
                                           "--framework-url", framework.absoluteURL.absoluteString, "--from", "0.1.0"])
        #expect(generated.status == 0, "new-applet: \(generated.stderrText)")
        let package = work.url.appendingPathComponent("NotesApplet").path
        let manifest = try String(contentsOfFile: package + "/Package.swift", encoding: .utf8)
        #expect(manifest.contains(".package(url: \"\(framework.absoluteURL.absoluteString)\", from: \"0.1.0\")"), "\(manifest)")

        let build = try await swift(["build", "--package-path", package])
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        print("PackagingTests: the generated package (AppletKit by URL) built cold in \(build.elapsed.seconds)")
        let resolved = try String(contentsOfFile: package + "/Package.resolved", encoding: .utf8)
        #expect(resolved.contains("\"version\" : \"0.1.0\""), "AppletKit was not resolved by version:\n\(resolved)")
        let test = try await swift(["test", "--package-path", package])
        #expect(test.status == 0, "swift test failed:\n\(test.output)")

        // The host it builds, as a person runs it: draws, counts, quits with status 0.
        let binary = package + "/.build/debug/notes"
        let state = work.url.appendingPathComponent("state").path
        let tmux = try await Tmux.start(command: ["sh", "-c", "XDG_STATE_HOME='\(state)' '\(binary)'; echo \"EXIT=$?\"; sleep 60"],
                                        directory: package, width: 80, height: 12)
        defer { tmux.kill() }
        try await tmux.waitFor(text: "Presses: 0")
        try await tmux.press("+")
        try await tmux.waitFor(text: "Presses: 1")
        try await tmux.press("q")
        try await tmux.waitFor(text: "EXIT=0")
    }

    @Test("A generated package passes its test, follows the tutorial, and survives a change of AppletKit's types")
    func generatedPackageTutorialAndIncrementalBuild() async throws {
        let work = try TemporaryFolder("tutorial")
        defer { work.remove() }
        let framework = work.url.appendingPathComponent("AppletKit")
        try await FrameworkCopy.make(at: framework, tag: nil)

        // 1. As generated: it builds and its test passes.
        let generated = try await runTool(["new-applet", "Notes", "--path", work.path, "--framework-path", framework.path])
        try #require(generated.status == 0, "new-applet: \(generated.stderrText)")
        let package = work.url.appendingPathComponent("NotesApplet")
        let cold = try await swift(["build", "--build-tests", "--package-path", package.path])
        try #require(cold.status == 0, "the generated package does not build:\n\(cold.output)")
        print("PackagingTests: the generated package (AppletKit by path) built cold, with its tests, in \(cold.elapsed.seconds)")
        let asGenerated = try await swift(["test", "--package-path", package.path])
        try #require(asGenerated.status == 0, "the generated test fails:\n\(asGenerated.output)")

        // An edit to the applet alone: the incremental build a person waits for while working.
        let appletFile = package.appendingPathComponent("Sources/NotesApplet/NotesApplet.swift")
        let applet = try String(contentsOf: appletFile, encoding: .utf8)
        try applet.replacingOccurrences(of: "Text(\"Notes\").bold()", with: "Text(\"My notes\").bold()")
            .write(to: appletFile, atomically: true, encoding: .utf8)
        let edit = try await swift(["build", "--package-path", package.path])
        try #require(edit.status == 0, "rebuilding after an edit failed:\n\(edit.output)")
        print("PackagingTests: rebuilt after editing the applet in \(edit.elapsed.seconds)")

        // 2. Docs/WritingAnApplet.md, step by step: every Swift block is a file, every check runs.
        let steps = try await follow("Docs/WritingAnApplet.md", of: framework, in: package)
        #expect(steps.filter { if case .file = $0 { true } else { false } }.count >= 4)
        #expect(steps.last.map { if case .check(["test"]) = $0 { true } else { false } } == true, "the tutorial must end by running its tests")

        // 2b. Docs/AppOptions.md goes on in the same package: options of the app's own, one of them
        //     required, and `keys --check` working without it.
        let options = try await follow("Docs/AppOptions.md", of: framework, in: package)
        #expect(options.contains(.check(["run", "notes", "keys", "--check"])), "AppOptions.md must run the built-in keys without the required option")

        // 3. AppletKit changes the layout of a type the applet uses only through `import AppletKit`
        //    (Color, in TerminalCore, re-exported twice): an incremental rebuild must recompile what
        //    depends on it.
        let style = framework.appendingPathComponent("Sources/TerminalCore/Style.swift")
        let source = try String(contentsOf: style, encoding: .utf8)
        let marker = "    private let rawValue: UInt32\n"
        try #require(source.contains(marker), "Sources/TerminalCore/Style.swift no longer declares Color's rawValue; update this test")
        try source.replacingOccurrences(of: marker, with: marker + "    private var layoutProbe: UInt64 = 0\n")
            .write(to: style, atomically: true, encoding: .utf8)
        let incremental = try await swift(["build", "--build-tests", "--package-path", package.path])
        try #require(incremental.status == 0, "the incremental build after a framework change failed:\n\(incremental.output)")
        print("PackagingTests: rebuilt after a change to AppletKit's Color in \(incremental.elapsed.seconds)")
        let after = try await swift(["test", "--package-path", package.path])
        #expect(after.status == 0 && after.signal == nil, "after a framework change the tests crash or fail (stale code?):\n\(after.output)")
    }

    // MARK: Helpers

    /// Follows a document of `framework` in `package`, as a reader would: every Swift block after
    /// `<!-- file: PATH -->` is written there, every `<!-- check: swift … -->` runs and must succeed.
    @discardableResult
    func follow(_ document: String, of framework: URL, in package: URL) async throws -> [Tutorial.Step] {
        let text = try String(contentsOf: framework.appendingPathComponent(document), encoding: .utf8)
        let steps = try Tutorial.steps(of: text, document: document)
        for step in steps {
            switch step {
            case .file(let path, let contents):
                let url = package.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try contents.write(to: url, atomically: true, encoding: .utf8)
            case .check(let command):
                // `swift run notes keys --check`: the package path goes before the program's arguments.
                let result = try await swift(Array(command.prefix(1)) + ["--package-path", package.path] + command.dropFirst())
                try #require(result.status == 0, "\(document): `swift \(command.joined(separator: " "))` failed:\n\(result.output)")
            }
        }
        return steps
    }

    /// Runs the `appletkit` tool.
    func runTool(_ arguments: [String]) async throws -> ProcessResult {
        try await runProcess(try AppBinary.path(), arguments, timeout: .seconds(30))
    }

    /// Runs `swift` with a long time limit (a cold build compiles AppletKit).
    func swift(_ arguments: [String]) async throws -> ProcessResult {
        guard let swift = findExecutable("swift") else { throw HarnessError("swift is not on PATH") }
        return try await runProcess(swift, arguments, timeout: .seconds(15 * 60))
    }
}

extension Duration {
    /// "12.3 s".
    var seconds: String {
        let (whole, attoseconds) = components
        return "\(whole).\(attoseconds / 100_000_000_000_000_000) s"
    }
}

extension ProcessResult {
    /// Both streams, for failure messages (the end, where the errors are).
    var output: String {
        let text = stdoutText + stderrText
        return text.count > 6000 ? "…" + String(text.suffix(6000)) : text
    }
}

/// A new folder under the system's temporary folder.
struct TemporaryFolder {
    let url: URL
    var path: String { url.path }

    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("appletkit-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A copy of this repository as it is on disk (tracked and new files, never ignored ones such as
/// .build), committed in a git repository of its own and optionally tagged: what a user clones.
enum FrameworkCopy {
    static func make(at folder: URL, tag: String?) async throws {
        guard let git = findExecutable("git") else { throw HarnessError("git is not on PATH") }
        let root = AppBinary.repositoryRoot.path
        let listed = try await runProcess(git, ["-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        guard listed.status == 0 else { throw HarnessError("git ls-files in \(root) failed: \(listed.stderrText)") }
        let files = listed.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let fileManager = FileManager.default
        for file in files {
            let source = (root as NSString).appendingPathComponent(file)
            guard fileManager.fileExists(atPath: source) else { continue }   // deleted, not yet committed
            let target = folder.appendingPathComponent(file)
            try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fileManager.copyItem(atPath: source, toPath: target.path)
        }
        let identity = ["-c", "user.name=AppletKit tests", "-c", "user.email=tests@appletkit.invalid", "-c", "commit.gpgsign=false"]
        for arguments in [["init", "-q"], ["add", "-A"], identity + ["commit", "-q", "-m", "AppletKit as on disk"]] + (tag.map { [["tag", $0]] } ?? []) {
            let result = try await runProcess(git, ["-C", folder.path] + arguments)
            guard result.status == 0 else { throw HarnessError("git \(arguments.joined(separator: " ")) failed: \(result.stderrText)") }
        }
    }
}

/// A tutorial (Docs/WritingAnApplet.md, Docs/AppOptions.md) as steps: a file to write (a Swift
/// block after `<!-- file: PATH -->`) or a command to run (`<!-- check: swift build -->`).
enum Tutorial {
    enum Step: Equatable {
        case file(String, String)
        case check([String])
    }

    static func steps(of markdown: String, document: String) throws -> [Step] {
        var steps: [Step] = []
        var pendingFile: String?
        var inBlock: (language: String, file: String?)?
        var body = ""
        for line in markdown.components(separatedBy: "\n") {
            if let block = inBlock {
                if line == "```" {
                    if let file = block.file { steps.append(.file(file, body)) }
                    inBlock = nil
                    body = ""
                } else {
                    body += line + "\n"
                }
                continue
            }
            if let match = line.wholeMatch(of: /<!-- file: (\S+) -->/) {
                pendingFile = String(match.1)
            } else if let match = line.wholeMatch(of: /<!-- check: swift (.+) -->/) {
                steps.append(.check(match.1.split(separator: " ").map(String.init)))
            } else if line.hasPrefix("```") {
                let language = String(line.dropFirst(3))
                if language == "swift", pendingFile == nil {
                    throw HarnessError("\(document) has a Swift block with no <!-- file: … --> before it: every Swift block must be compiled")
                }
                inBlock = (language, language == "swift" ? pendingFile : nil)
                pendingFile = nil
            }
        }
        return steps
    }
}
