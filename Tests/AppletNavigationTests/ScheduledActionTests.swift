import AppletNavigation
import Clocks
import Testing

@MainActor
@Suite("ScheduledAction")
struct ScheduledActionTests {
    final class Counter { var runs = 0; var ran: [String] = [] }

    /// Lets the tasks a TestClock woke run to completion.
    static func settle() async {
        for _ in 0..<20 { await Task.yield() }
    }

    @Test("It runs once when the clock reaches the delay, not a tick before")
    func runsOnTime() async {
        let clock = TestClock()
        let timer = ScheduledAction(clock: clock)
        let counter = Counter()
        timer.schedule(after: .seconds(1)) { counter.runs += 1 }
        #expect(timer.isScheduled)
        await clock.advance(by: .milliseconds(999))
        await Self.settle()
        #expect(counter.runs == 0 && timer.isScheduled)
        await clock.advance(by: .milliseconds(1))
        await Self.settle()
        #expect(counter.runs == 1 && !timer.isScheduled)
        await clock.advance(by: .seconds(10))
        await Self.settle()
        #expect(counter.runs == 1)
    }

    @Test("Scheduling again replaces the pending action and restarts the delay")
    func replaces() async {
        let clock = TestClock()
        let timer = ScheduledAction(clock: clock)
        let log = Counter()
        timer.schedule(after: .seconds(1)) { log.ran.append("first") }
        await clock.advance(by: .milliseconds(600))
        timer.schedule(after: .seconds(1)) { log.ran.append("second") }
        await clock.advance(by: .milliseconds(600))
        await Self.settle()
        #expect(log.ran.isEmpty)
        await clock.advance(by: .milliseconds(400))
        await Self.settle()
        #expect(log.ran == ["second"])
    }

    @Test("Cancel means it never runs")
    func cancels() async {
        let clock = TestClock()
        let timer = ScheduledAction(clock: clock)
        let counter = Counter()
        timer.schedule(after: .seconds(1)) { counter.runs += 1 }
        timer.cancel()
        #expect(!timer.isScheduled)
        await clock.advance(by: .seconds(5))
        await Self.settle()
        #expect(counter.runs == 0)
    }
}
