import AppletTesting
import Dispatch
import Foundation
import Testing
@testable import AppletKit

extension Application {
    var raceValue: State<Int> { state(initial: 0, feature: "RaceTest", id: "value") }
}

/// Reads `raceValue`, then — once — has another thread change it and waits for that: the change
/// lands after the read but before the frame's observation is installed.
struct RacingApplet: Applet {
    let id = "race"
    let title = "Race"
    let fired: FiredFlag
    let app: Application

    var body: some View {
        let value = Application.state(\.raceValue).value
        if fired.fireOnce() {
            let done = DispatchSemaphore(value: 0)
            let app = self.app
            Thread.detachNewThread {
                app.raceValue.value = 42
                done.signal()
            }
            done.wait()
        }
        return Text("value \(value)")
    }
}

final class FiredFlag: @unchecked Sendable {
    private var fired = false
    private let lock = NSLock()
    func fireOnce() -> Bool { lock.withLock { defer { fired = true }; return !fired } }
}

@Suite("Frames and background changes")
@MainActor
struct RenderRaceTests {
    @Test func aChangeDuringEvaluationStillRedraws() async throws {
        let app = Application()
        let h = try AppletTestHost(RacingApplet(fired: FiredFlag(), app: app), width: 40, height: 8, application: app)
        #expect(h.contains("value 0"), "the first frame read 0 before the change")
        await h.settle()
        #expect(h.contains("value 42"), "the change made during the first frame was never drawn:\n\(h.text)")
    }
}
