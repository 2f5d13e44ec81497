import Dispatch
import Testing
@testable import Terminal
@testable import TerminalCore

/// `MainRunLoop.run()` takes the main thread for good, so it is exercised by the real binary on a
/// pseudo-terminal (Demo's ReliabilityTests: one wake-up per key, every exit path). Here: what
/// code running without the loop (tests, a host under an `async` `main`) gets.
@Suite("Main run loop, when it is not running")
@MainActor
struct MainRunLoopTests {
    final class Flag: @unchecked Sendable {
        var value = false
    }

    @Test("perform without the loop runs on the next turn of the main queue, not inside the caller")
    func performHopsWithoutTheLoop() async {
        #expect(!MainRunLoop.isRunning)
        let flag = Flag()
        MainRunLoop.perform { flag.value = true }
        #expect(!flag.value, "ran inside the caller although no loop owns this thread")
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        #expect(flag.value)
    }

    @Test("perform from another thread reaches the main actor")
    func performFromAnotherThread() async {
        let flag = Flag()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                MainRunLoop.perform {
                    flag.value = MainActor.assumeIsolated { true }
                    continuation.resume()
                }
            }
        }
        #expect(flag.value)
    }

    @Test("A watched descriptor is watched once; unwatching forgets it")
    func watchReplacesAndUnwatches() {
        MainRunLoop.watch(97) {}
        MainRunLoop.watch(97) {}
        #expect(MainRunLoop.watchedDescriptors == [97])
        MainRunLoop.unwatch(97)
        #expect(MainRunLoop.watchedDescriptors.isEmpty)
    }
}
