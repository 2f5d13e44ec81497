@testable import AppletKit
import AppletTesting
import Foundation
import Testing

/// An effect that always fails, to see errors in the log and as toasts.
struct BrokenEffect: LiveSideEffect, Codable, Equatable {
    struct Failure: Error, CustomStringConvertible { var description: String { "the disk is on fire" } }
    func perform(with coeffects: Coeffects) async throws(Failure) { throw Failure() }
}

@Suite("Devtools: the action log")
@MainActor
struct ActionLogOverlayTests {
    @Test func f12ListsWhatTheLogicDidAndTypingFiltersIt() async throws {
        let h = try AppletTestHost(tabs: [Tab(DiceApplet())], width: 100, height: 24)
        h.press("r", "w")
        await h.host.logic.idle()
        await h.settle()
        h.press("f12")
        #expect(h.contains("Action log"))
        #expect(h.contains("event") && h.contains("DiceLogic ← roll"), "\(h.text)")
        #expect(h.contains("request") && h.contains("rolled("), "\(h.text)")
        #expect(h.contains("effect") && h.contains("FetchWord"), "\(h.text)")
        #expect(h.contains("done"), "the effect's end, with its duration: \(h.text)")
        // The effect's end shows how long it took, in µs, ms or s as long as it took.
        let doneRow = h.text.split(separator: "\n").first { $0.contains("done") } ?? ""
        #expect(doneRow.contains(/[0-9] (µs|ms|s)/), "the effect's duration is shown: \(h.text)")
        h.type("fetch")
        #expect(h.contains("filter › fetch"))
        #expect(!h.contains("rolled("), "filtered out: \(h.text)")
        #expect(h.contains("3 of 6"), "the event, the effect and its end: \(h.text)")
        h.press("esc")
        #expect(!h.contains("Action log"))
        #expect(h.contains("Dice:"))
    }

    @Test func anUnhandledErrorIsAToastAndARedLineInTheLog() async throws {
        let h = try AppletTestHost(tabs: [Tab(DiceApplet())], width: 100, height: 24)
        h.host.logic.send(.effect(BrokenEffect()))
        await h.host.logic.idle()
        await h.settle()
        #expect(h.contains("the disk is on fire"), "an error toast: \(h.text)")
        h.press("esc")                                    // dismisses the sticky toast
        h.press("f12")
        #expect(h.contains("failed") && h.contains("BrokenEffect"), "\(h.text)")
        let row = try #require(h.position(of: "the disk is on fire"))
        let plain = try #require(h.position(of: "Action log"))
        #expect(h.cell(x: row.x, y: row.y).style != h.cell(x: plain.x, y: plain.y).style, "a failure is drawn in the error colour")
        h.type("fire")
        #expect(h.contains("2 of"), "the failed effect and the unhandled error match: \(h.text)")
    }

    // Halves round away from zero (printf rounds the binary value, so 0.995 may differ by 0.01).
    @Test func timesAndDurationsAreRoundedAsPrintfWouldWithoutFoundation() {
        #expect(ActionLogView.fixed(2.346, places: 2) == "2.35")
        #expect(ActionLogView.fixed(9.96, places: 1) == "10.0")
        #expect(ActionLogView.fixed(3.05, places: 0) == "3")
        #expect(ActionLogView.fixed(0, places: 2) == "0.00")
        #expect(ActionLogView.fixed(0.004, places: 2) == "0.00")
        #expect(ActionLogView.fixed(-1.5, places: 1) == "-1.5")
        #expect(ActionLogView.fixed(-0.001, places: 2) == "0.00")
        #expect(ActionLogView.fixed(12.07, places: 2) == "12.07")
        #expect(ActionLogView.fixed(.infinity, places: 2) == "inf")
        #expect(ActionLogView.format(.microseconds(12)) == "12 µs")
        #expect(ActionLogView.format(.microseconds(1_500)) == "1.5 ms")
        #expect(ActionLogView.format(.milliseconds(2_345)) == "2.35 s")
    }
}
