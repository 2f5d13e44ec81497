import Foundation
import Terminal

/// A screen kept as a text file beside the tests, that a test's screen must match.
///
/// The file for a test in `Tests/NotesAppletTests/NotesAppletTests.swift` named `"empty"` is
/// `Tests/__Snapshots__/NotesAppletTests/NotesAppletTests/empty.txt`: outside every test target's
/// folder, so the package needs no `exclude:` for it. Run the tests with `RECORD_SNAPSHOTS=1` to
/// write the files; such a run always fails, so that a recording is never mistaken for a pass.
///
/// ```swift
/// host.expectScreen(matchesGolden: "empty")        // through AppletTestHost
/// expectScreen(canvas, matchesGolden: "toolbar")   // any canvas
/// ```
public struct GoldenScreen: Sendable, Equatable {
    /// The screen's name, unique among the screens of one test file.
    public let name: String
    /// Where its text is kept.
    public let url: URL

    /// The golden screen `name` of the test file at `testFilePath`.
    public init(name: String, testFilePath: String) {
        self.name = name
        let file = URL(fileURLWithPath: testFilePath)
        let fileName = file.deletingPathExtension().lastPathComponent
        // The test target's folder is the one directly inside `Tests`.
        var folder = file.deletingLastPathComponent()
        var target: URL?
        while folder.path != "/" {
            if folder.deletingLastPathComponent().lastPathComponent == "Tests" { target = folder; break }
            folder.deleteLastPathComponent()
        }
        let base: URL
        if let target {
            base = target.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
                .appendingPathComponent(target.lastPathComponent)
        } else {
            base = file.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
        }
        url = base.appendingPathComponent(fileName).appendingPathComponent("\(name).txt")
    }

    /// Whether this run records golden screens instead of checking them (`RECORD_SNAPSHOTS=1`).
    public static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

    /// The recorded rows, or nil when there is no file yet.
    public func recorded() -> [String]? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        return ScreenDiff.rows(of: text)
    }

    /// Writes `rows` as this screen's text.
    public func record(_ rows: [String]) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (rows.map(ScreenDiff.trimmed).joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    /// What a check of `rows` found.
    public enum Outcome: Sendable, Equatable {
        case matches
        /// The screen differs; the diff says how.
        case differs(ScreenDiff)
        /// There is no file yet (run with `RECORD_SNAPSHOTS=1`).
        case missing
        /// `RECORD_SNAPSHOTS=1`: the file was written (the run must still fail).
        case recorded
        /// The file could not be written.
        case unwritable(String)
    }

    /// Compares `rows` (the screen's `region`) with the file, or writes the file when recording.
    public func check(_ rows: [String], region: Rect, recording: Bool = GoldenScreen.isRecording) -> Outcome {
        if recording {
            do { try record(rows) } catch { return .unwritable("\(error)") }
            return .recorded
        }
        guard let expected = recorded() else { return .missing }
        let diff = ScreenDiff(expected: expected, actual: rows, region: region)
        return diff.matches ? .matches : .differs(diff)
    }

    /// The message a test failure shows for `outcome`, or nil when it matched.
    public func message(for outcome: Outcome, rows: [String]) -> String? {
        switch outcome {
        case .matches:
            return nil
        case .differs(let diff):
            return "The screen differs from golden screen '\(name)' (\(url.path)):\n\(diff.report)"
                + "If the new screen is right, run the tests with RECORD_SNAPSHOTS=1 to record it."
        case .missing:
            return "There is no golden screen '\(name)' yet (\(url.path)). Run the tests with RECORD_SNAPSHOTS=1 "
                + "to record this screen:\n" + rows.joined(separator: "\n")
        case .recorded:
            return "Recorded golden screen '\(name)' at \(url.path). A recording run always fails: "
                + "run the tests again without RECORD_SNAPSHOTS=1 to check against it."
        case .unwritable(let why):
            return "Could not record golden screen '\(name)' at \(url.path): \(why)"
        }
    }
}
