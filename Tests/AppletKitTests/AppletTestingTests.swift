@testable import AppletTesting
import Foundation
import Testing
@testable import AppletKit

/// The testing library applet authors use: its own behaviour, checked here.
@Suite("AppletTesting")
@MainActor
struct AppletTestingTests {
    @Test func aDiffShowsEveryRowAndMarksTheFirstDifference() {
        let diff = ScreenDiff(expected: " Title\n Count: 1\n", actual: [" Title", " Count: 2", "extra"],
                              region: Rect(x: 0, y: 3, width: 20, height: 3))
        #expect(!diff.matches)
        #expect(diff.differingRows == [1, 2])
        #expect(diff.report == """
            rows 3..<6, columns 0..<20: 2 of 3 rows differ (- expected, + actual)
             3  | Title
             4 -| Count: 1
             4 +| Count: 2
                |        ^ column 8
             5 -|
             5 +|extra
                |^ column 0

            """)
        // Trailing spaces never count; missing expected rows mean blank rows.
        #expect(ScreenDiff(expected: "a  \n", actual: ["a", ""], region: Rect(x: 0, y: 0, width: 5, height: 2)).matches)
    }

    @Test func theFirstDifferenceCountsWideCharactersAsTwoColumns() {
        #expect(ScreenDiff.firstDifference("東京 a", "東京 b") == 5)
        #expect(ScreenDiff.firstDifference("abc", "abc") == 3)
    }

    @Test func goldenScreensLiveOutsideTheTestTarget() {
        let golden = GoldenScreen(name: "empty", testFilePath: "/pkg/Tests/NotesTests/NotesTests.swift")
        #expect(golden.url.path == "/pkg/Tests/__Snapshots__/NotesTests/NotesTests/empty.txt")
        let nested = GoldenScreen(name: "x", testFilePath: "/pkg/Tests/NotesTests/Screens/ListScreenTests.swift")
        #expect(nested.url.path == "/pkg/Tests/__Snapshots__/NotesTests/ListScreenTests/x.txt")
        let loose = GoldenScreen(name: "x", testFilePath: "/tmp/Loose.swift")
        #expect(loose.url.path == "/tmp/__Snapshots__/Loose/x.txt")
    }

    @Test func recordingWritesTheFileAndNeverPasses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let golden = GoldenScreen(name: "counter", testFilePath: folder.appendingPathComponent("Tests/T/T.swift").path)
        let region = Rect(x: 0, y: 0, width: 10, height: 2)
        #expect(golden.check(["Count: 1", ""], region: region, recording: false) == .missing)
        let missing = try #require(golden.message(for: .missing, rows: ["Count: 1"]))
        #expect(missing.contains("RECORD_SNAPSHOTS=1"))

        let outcome = golden.check(["Count: 1  ", ""], region: region, recording: true)
        #expect(outcome == .recorded)
        let recorded = try #require(golden.message(for: outcome, rows: []))
        #expect(recorded.contains("always fails"), "a recording must fail the run: \(recorded)")
        #expect(try String(contentsOf: golden.url, encoding: .utf8) == "Count: 1\n\n")

        #expect(golden.check(["Count: 1", ""], region: region, recording: false) == .matches)
        guard case .differs(let diff) = golden.check(["Count: 2", ""], region: region, recording: false) else {
            Issue.record("a changed screen must differ")
            return
        }
        #expect(diff.differingRows == [0])
    }

    @Test func aWrongScreenFailsTheTest() throws {
        let host = try AppletTestHost(TallyApplet(), width: 40, height: 10)
        withKnownIssue {
            host.expectRows(4..<5, toShow: " Count: 9")
        }
        withKnownIssue {
            host.expectScreen(matchesGolden: "no-such-screen-\(UUID().uuidString)")
        }
        #expect(host.expectRows(4..<5, toShow: " Count: 0"))
    }

    @Test func aKeySpecThatDoesNotParseFailsTheTest() throws {
        let host = try AppletTestHost(TallyApplet(), width: 40, height: 10)
        withKnownIssue {
            host.press("+++")                              // text, not a key: type(_:) is for that
        }
        host.press("+", "tab", "enter")
        #expect(host.contains("Count: 2"), "Tab moved focus to Up, which took Enter: \(host.text)")
    }

    @Test func eachHostHasItsOwnStoreInATemporaryFolderThatGoesAway() async throws {
        var folder = ""
        do {
            let host = try AppletTestHost(TallyApplet(), width: 40, height: 10)
            folder = host.stateDirectory
            #expect(folder.hasPrefix(FileManager.default.temporaryDirectory.path))
            #expect(host.application !== Application.shared)
            host.press("+")
            host.application.flush()
            #expect(FileManager.default.fileExists(atPath: folder), "the stored tally was written to \(folder)")
            let other = try AppletTestHost(TallyApplet(), width: 40, height: 10)
            #expect(other.stateDirectory != folder)
            #expect(other.contains("Count: 0"), "a second host does not see the first one's state")
        }
        #expect(!FileManager.default.fileExists(atPath: folder), "the state folder outlived its host")
    }

    @Test func performChangesTheHostsStoreAndSettlesTheScreen() async throws {
        let host = try AppletTestHost(TallyApplet(), width: 40, height: 10)
        let sharedBefore = Application.shared.tally.value
        await host.perform { Application.state(\.tally).value.count = 7 }
        #expect(host.contains("Count: 7"))
        #expect(Application.shared.tally.value == sharedBefore, "perform reached the shared store")
    }

    /// The host's store makes ids from `UUIDGenerator.incrementing()`: whole toasts can be compared.
    @Test func toastsInATestHostHaveCountingIDs() async throws {
        let host = try AppletTestHost(TallyApplet(), width: 40, height: 10)
        await host.perform {
            toast("One")
            toast("Two", style: .error)
        }
        #expect(host.application.toasts.value == [Toast("One", id: UUID(0)), Toast("Two", style: .error, id: UUID(1))])
    }

    @Test func settleWaitsForChangesMadeOnOtherThreads() async throws {
        let host = try AppletTestHost(TallyApplet(), width: 40, height: 10)
        let tally = host.application.tally
        await Task.detached { tally.modify { $0.count = 5 } }.value
        await host.settle()
        #expect(host.contains("Count: 5"))
    }

    @Test func aStoreInATestProcessKeepsItsFilesInATemporaryFolder() {
        let directory = Application().storage.directory
        #expect(directory.hasPrefix(FileManager.default.temporaryDirectory.path), "\(directory)")
        #expect(!directory.contains("/.local/state/"))
    }

    @Test func renderViewDrawsOneViewWithoutAHost() {
        let canvas = renderView(HStack(spacing: 1) { Text("a"); Button("OK") {} }, width: 12, height: 1)
        expectScreen(canvas, toShow: "a [ OK ]")
    }
}
