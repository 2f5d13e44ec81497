import AppletState
import Clocks
import Foundation
import Testing
@testable import AppletLogic

// A small app's state and logic: a counter, a log of lines, a file loaded through an effect.

extension Application {
    var logicCount: State<Int> { state(initial: 0, feature: "LogicTests", id: "count") }
    var logicLines: State<[String]> { state(initial: [], feature: "LogicTests", id: "lines") }
}

enum CounterRequest: Request, Codable, Equatable {
    case add(Int)
    case note(String)
    case fail

    func apply(to store: Application) throws {
        switch self {
        case .add(let n): store.logicCount.value += n
        case .note(let line): store.logicLines.value.append(line)
        case .fail: throw BadRequest()
        }
    }
}

struct BadRequest: Error, CustomStringConvertible { var description: String { "bad request" } }

/// A request that takes `milliseconds` to apply (a reducer doing too much work).
struct SlowRequest: Request {
    var milliseconds: Int
    func apply(to store: Application) {
        usleep(useconds_t(milliseconds * 1000))
        store.logicCount.value += 1
    }
}

struct LoadFile: SideEffect, Codable, Equatable {
    typealias Output = String
    typealias Failure = LoadError
    var path: String
}

struct LoadError: Error, Codable, Equatable, CustomStringConvertible {
    var path: String
    var description: String { "cannot load \(path)" }
}

/// Counts what its performer saw, from any thread.
final class Calls: Sendable {
    private let list = Mutex<[String]>([])
    func add(_ s: String) { list.withLock { $0.append(s) } }
    var all: [String] { list.withLock { $0 } }
}

import Synchronization

@MainActor
func makeModule(clock: any Clock<Duration> = TestClock(), calls: Calls = Calls()) -> LogicModule {
    let logic = LogicModule(store: Application(), coeffects: .fixed(clock: clock, files: ["/a": Data("alpha".utf8)]))
    logic.perform(LoadFile.self) { effect, coeffects throws(LoadError) in
        calls.add(effect.path)
        guard let data = try? coeffects.fileContents(effect.path) else { throw LoadError(path: effect.path) }
        return String(decoding: data, as: UTF8.self)
    }
    return logic
}

@Suite("Logic module")
@MainActor
struct LogicModuleTests {
    @Test func requestsApplyBeforeSendReturns() {
        let logic = makeModule()
        logic.send(.sequence(.request(CounterRequest.add(2)), .request(CounterRequest.add(3))))
        #expect(logic.store.logicCount.value == 5)
        #expect(logic.actionLog.entries.map(\.category) == ["request", "request"])
        #expect(logic.actionLog.entries.first?.title == "add(2)" || logic.actionLog.entries.first?.title == "CounterRequest.add(2)")
    }

    /// A lone request finishes before `send` returns; its task says how, and cancelling a
    /// finished task changes nothing (tasks of requests that applied are one shared value).
    @Test func aRequestsTaskIsFinishedWhenSendReturns() async {
        let logic = makeModule()
        let first = logic.send(.request(CounterRequest.add(1)))
        #expect(first.outcome == .succeeded && first.error == nil)
        first.cancel()
        #expect(first.outcome == .succeeded)
        let second = logic.send(.request(CounterRequest.add(1)))
        #expect(second.outcome == .succeeded)
        #expect(await second.finished() == .succeeded)
        #expect(logic.store.logicCount.value == 2)
        var failures: [String] = []
        logic.onUnhandledError = { failures.append("\($0)") }
        let failed = logic.send(.request(CounterRequest.fail))
        #expect(failed.outcome == .failed("bad request"))
        #expect(failed.error is BadRequest)
        failed.cancel()
        #expect(failed.outcome == .failed("bad request"))
        #expect(failures == ["bad request"])
    }

    /// A request is timed when it took a tick of the coarse clock or more (1-4 ms), precisely;
    /// a quick one is logged without a duration rather than pay a second precise clock read.
    @Test func aSlowRequestIsLoggedWithItsDuration() {
        let logic = makeModule()
        logic.send(.request(SlowRequest(milliseconds: 12)))
        let slow = logic.actionLog.entries.last
        #expect(slow?.category == "request")
        let duration = slow?.duration ?? .zero
        #expect(duration >= .milliseconds(12) && duration < .seconds(5), "\(duration)")
    }

    @Test func anEffectsOutputGoesToThen() async {
        let logic = makeModule()
        let task = logic.send(.effect(LoadFile(path: "/a")) { text in .request(CounterRequest.note(text)) })
        #expect(logic.store.logicLines.value.isEmpty, "an effect runs after send returns")
        #expect(await task.finished() == .succeeded)
        #expect(logic.store.logicLines.value == ["alpha"])
        #expect(logic.actionLog.entries.map(\.category) == ["effect", "done", "request"])
        #expect(logic.actionLog.entries[1].duration != nil)
    }

    @Test func aTypedErrorGoesToTheEffectsOnError() async {
        let logic = makeModule()
        let task = logic.send(.effect(LoadFile(path: "/missing"), onError: { (error: LoadError) in
            .request(CounterRequest.note("failed: \(error.path)"))
        }))
        await task.finished()
        #expect(logic.store.logicLines.value == ["failed: /missing"])
        #expect(logic.actionLog.entries.contains { $0.category == "failed" && $0.error == "cannot load /missing" })
    }

    @Test func aSequenceStopsAtTheFirstFailureAndOnErrorCatchesIt() async {
        let logic = makeModule()
        var unhandled: [String] = []
        logic.onUnhandledError = { unhandled.append("\($0)") }
        logic.send(.sequence(.request(CounterRequest.add(1)), .request(CounterRequest.fail), .request(CounterRequest.add(10))))
        #expect(logic.store.logicCount.value == 1)
        #expect(unhandled == ["bad request"])
        #expect(logic.actionLog.entries.last?.category == "error")

        logic.send(.sequence(.request(CounterRequest.fail), .request(CounterRequest.add(10)))
            .onError { _ in .request(CounterRequest.note("recovered")) })
        #expect(logic.store.logicLines.value == ["recovered"])
        #expect(unhandled.count == 1)
    }

    @Test func aParallelGroupFinishesWhenAllHave() async {
        let calls = Calls()
        let logic = makeModule(calls: calls)
        let task = logic.send(.parallel(
            .effect(LoadFile(path: "/a")) { .request(CounterRequest.note($0)) },
            .effect(LoadFile(path: "/a")) { _ in .request(CounterRequest.add(1)) },
            .request(CounterRequest.add(100))
        ))
        #expect(logic.store.logicCount.value == 100, "the request part applies at once")
        #expect(await task.finished() == .succeeded)
        #expect(logic.store.logicCount.value == 101)
        #expect(calls.all.count == 2)
    }

    @Test func anEffectWithoutAPerformerFailsClearly() async {
        struct Unregistered: SideEffect {}
        let logic = makeModule()
        let task = logic.send(.effect(Unregistered()))
        guard case .failed(let message) = await task.finished() else { Issue.record("should fail"); return }
        #expect(message.contains("no performer for side effect Unregistered"))
    }

    @Test func sleepWaitsOnTheModulesClockAndCancelStopsIt() async {
        let clock = TestClock()
        let logic = makeModule(clock: clock)
        let task = logic.send(.effect(Sleep(.seconds(2)), id: "timer") { .request(CounterRequest.add(1)) })
        await sleeperWaits(on: clock)
        await clock.advance(by: .seconds(1))
        #expect(logic.store.logicCount.value == 0)
        await clock.advance(by: .seconds(1))
        await task.finished()
        #expect(logic.store.logicCount.value == 1)

        let second = logic.send(.effect(Sleep(.seconds(2)), id: "timer") { .request(CounterRequest.add(1)) })
        logic.send(.cancel("timer"))
        #expect(await second.finished() == .cancelled)
        await clock.advance(by: .seconds(5))
        #expect(logic.store.logicCount.value == 1, "a cancelled effect never continues")
        #expect(logic.actionLog.entries.last?.category == "cancelled")
    }

    @Test func anEffectWithTheSameIDReplacesTheRunningOne() async {
        let clock = TestClock()
        let logic = makeModule(clock: clock)
        let first = logic.send(.effect(Sleep(.seconds(1)), id: "search") { .request(CounterRequest.note("first")) })
        let second = logic.send(.effect(Sleep(.seconds(1)), id: "search") { .request(CounterRequest.note("second")) })
        // Until the second one has slept its second (its task may reach the clock late).
        for _ in 0..<500 where second.outcome == nil {
            await clock.advance(by: .seconds(1))
            try? await Task.sleep(for: .milliseconds(2))
        }
        #expect(await first.finished() == .cancelled)
        #expect(await second.finished() == .succeeded)
        #expect(logic.store.logicLines.value == ["second"])
    }

    @Test func observersSeeOldAndNewAndStopWhenReleased() async {
        let logic = makeModule()
        var seen: [String] = []
        var observer: LogicObserver? = logic.observe({ $0.logicCount.value }) { old, new in
            seen.append("\(old)→\(new)")
            return new >= 3 ? .request(CounterRequest.note("three or more")) : .none
        }
        logic.send(.request(CounterRequest.add(1)))
        logic.send(.request(CounterRequest.note("not observed")))
        logic.send(.request(CounterRequest.add(2)))
        #expect(seen == ["0→1", "1→3"])
        #expect(logic.store.logicLines.value == ["not observed", "three or more"])
        #expect(observer != nil)
        observer = nil
        #expect(logic.observerCount == 0)
        logic.send(.request(CounterRequest.add(1)))
        #expect(seen.count == 2)
    }

    @Test func anObserverHearsAChangeMadeOutsideTheModule() async throws {
        let logic = makeModule()
        var seen: [Int] = []
        let observer = logic.observe({ $0.logicCount.value }) { _, new in seen.append(new); return .none }
        logic.store.logicCount.value = 7
        for _ in 0..<100 where seen.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        #expect(seen == [7])
        observer.cancel()
        #expect(logic.observerCount == 0)
    }

    @Test func eventLogicReadsStateAndCoeffects() async {
        struct Clicks: EventLogic {
            enum Event: Sendable, Codable { case click, roll }
            func executable(for event: Event, in context: LogicContext) -> Executable {
                switch event {
                case .click: .request(CounterRequest.add(context.store.logicCount.value == 0 ? 10 : 1))
                case .roll: .request(CounterRequest.add(context.coeffects.random(1...6)))
                }
            }
        }
        let logic = makeModule()
        logic.send(.click, to: Clicks())
        logic.send(.click, to: Clicks())
        #expect(logic.store.logicCount.value == 11)
        let other = makeModule()
        logic.send(.roll, to: Clicks())
        other.send(.click, to: Clicks())
        other.send(.roll, to: Clicks())
        #expect(logic.store.logicCount.value - 11 == other.store.logicCount.value - 10, "a fixed seed gives the same rolls")
        #expect(logic.actionLog.entries.first?.category == "event")
    }
}

/// Performs itself; a registered performer replaces it.
struct Shout: LiveSideEffect, Codable, Equatable {
    typealias Output = String
    var text: String
    func perform(with coeffects: Coeffects) async throws -> String { text.uppercased() }
}

@Suite("Live side effects")
@MainActor
struct LiveSideEffectTests {
    @Test func anEffectPerformsItselfUnlessAPerformerIsRegistered() async {
        let logic = makeModule()
        await logic.send(.effect(Shout(text: "hi")) { .request(CounterRequest.note($0)) }).finished()
        logic.perform(Shout.self) { effect, _ in "fake \(effect.text)" }
        await logic.send(.effect(Shout(text: "hi")) { .request(CounterRequest.note($0)) }).finished()
        #expect(logic.store.logicLines.value == ["HI", "fake hi"])
    }
}

/// Returns once something sleeps on `clock` (its task has started and reached the clock), so that
/// advancing the clock wakes it; under load a tick's task may not have run yet.
func sleeperWaits(on clock: TestClock<Duration>) async {
    for _ in 0..<2000 {
        do { try await clock.checkSuspension() } catch { return }     // throws: something sleeps
        try? await Task.sleep(for: .milliseconds(1))
    }
}

@Suite("Repeating timers")
@MainActor
struct RepeatingTimerTests {
    @Test func aTimerTicksUntilCancelledAndHoldsOneTickAtATime() async {
        let clock = TestClock()
        let logic = makeModule(clock: clock)
        let started = logic.send(.repeating(every: .seconds(2), id: "tick") { .request(CounterRequest.add(1)) })
        #expect(started.outcome == .succeeded, "starting a timer finishes at once")
        for expected in 1...20 {
            await sleeperWaits(on: clock)
            await clock.advance(by: .seconds(2))
            for _ in 0..<500 where logic.store.logicCount.value < expected { try? await Task.sleep(for: .milliseconds(1)) }
            #expect(logic.store.logicCount.value == expected)
            #expect(logic.runningEffectCount == 1, "one tick waits at a time")
        }
        logic.send(.cancel("tick"))
        await logic.idle()
        await clock.advance(by: .seconds(10))
        #expect(logic.store.logicCount.value == 20)
        #expect(logic.runningEffectCount == 0)
    }
}
