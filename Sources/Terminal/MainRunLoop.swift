import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TerminalCore

// libdispatch's hooks for a run loop that owns the main thread (Foundation's RunLoop uses them):
// a descriptor that becomes readable when work is queued on the main queue, and the call that
// runs that work on the calling (main) thread.
@_silgen_name("_dispatch_get_main_queue_handle_4CF")
private func dispatchMainQueueHandle() -> Int32
@_silgen_name("_dispatch_main_queue_callback_4CF")
private func dispatchMainQueueDrain(_ message: UnsafeMutableRawPointer?)

/// The main thread as an event loop: it waits in one `poll` for the terminal's descriptors and
/// for work queued on the main queue (main-actor tasks, `DispatchQueue.main`), and runs each on
/// the main thread itself.
///
/// Without it a program that ends in `dispatchMain()` (what an `async` `main` does) hears of a
/// key through two threads: libdispatch's manager thread wakes from `epoll`, then wakes the
/// thread that runs the main queue. Here the thread that waits is the one that handles the key
/// and draws: one wake-up per key, as in a C program's `getch` loop.
///
/// Invariants: handlers run on the main thread, one at a time, never inside another handler;
/// a descriptor is watched at most once (watching it again replaces the handler); main-queue
/// work runs before the loop waits again.
///
/// ```swift
/// @main enum Tool {
///     static func main() {
///         MainRunLoop.watch(STDIN_FILENO) { /* read and handle the keys */ }
///         MainRunLoop.addBeforeWaiting { /* draw what they changed */ }
///         Task { await work(); exit(0) }   // main-actor tasks run on this thread too
///         MainRunLoop.run()                // never returns
///     }
/// }
/// ```
@MainActor
public enum MainRunLoop {
    /// Whether `run()` owns the main thread (code that would otherwise use a `DispatchSource`
    /// for a descriptor asks).
    public private(set) static var isRunning = false

    /// The thread `run()` was called on (0 before): what `perform` compares with.
    private nonisolated static let loopThread = Atomic<UInt>(0)

    private nonisolated static var currentThread: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// Runs `body` on the main actor: at once when called on the loop's own thread (a change a
    /// key's handler made; whatever `body` asks to draw is drawn before the loop waits), else on
    /// the main queue's next turn. For callbacks that arrive on the thread that caused them, such
    /// as an Observation `onChange`.
    ///
    /// ```swift
    /// withObservationTracking { draw() } onChange: {
    ///     MainRunLoop.perform { host.setNeedsDisplay() }
    /// }
    /// ```
    public nonisolated static func perform(_ body: @escaping @MainActor @Sendable () -> Void) {
        let loop = loopThread.load(ordering: .relaxed)
        if loop != 0, loop == currentThread {
            MainActor.assumeIsolated(body)
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated(body) }
        }
    }

    private struct Watch {
        let fd: Int32
        let handler: @MainActor () -> Void
    }

    private static var watches: [Watch] = []
    private static var beforeWaiting: [(id: Int, body: @MainActor () -> Void)] = []
    private static var nextObserver = 0

    /// Calls `body` each time the loop is about to wait, after the main queue's work ran: the
    /// place to draw what the handlers changed, once however many changes they made. Returns an
    /// id for `removeBeforeWaiting`.
    ///
    /// ```swift
    /// let id = MainRunLoop.addBeforeWaiting { frames.renderIfNeeded() }
    /// MainRunLoop.removeBeforeWaiting(id)
    /// ```
    @discardableResult
    public static func addBeforeWaiting(_ body: @escaping @MainActor () -> Void) -> Int {
        nextObserver += 1
        beforeWaiting.append((nextObserver, body))
        return nextObserver
    }

    /// Stops calling an observer `addBeforeWaiting` added.
    public static func removeBeforeWaiting(_ id: Int) {
        beforeWaiting.removeAll { $0.id == id }
    }

    /// Calls `handler` on the main thread whenever `fd` is readable (or hung up: the handler's
    /// `read` sees it), until `unwatch(fd)`.
    public static func watch(_ fd: Int32, _ handler: @escaping @MainActor () -> Void) {
        watches.removeAll { $0.fd == fd }
        watches.append(Watch(fd: fd, handler: handler))
    }

    /// The descriptors watched, in the order they were first watched (tests).
    static var watchedDescriptors: [Int32] { watches.map(\.fd) }

    /// Stops watching `fd` (nothing if it was not watched).
    public static func unwatch(_ fd: Int32) {
        watches.removeAll { $0.fd == fd }
    }

    /// Runs the loop on the main thread for the rest of the process. Call it last in a
    /// synchronous `main`; the program ends with `exit`.
    public static func run() -> Never {
        isRunning = true
        loopThread.store(currentThread, ordering: .relaxed)
        let queue = dispatchMainQueueHandle()
        var descriptors: [pollfd] = []
        while true {
            dispatchMainQueueDrain(nil)
            for observer in beforeWaiting { observer.body() }
            descriptors.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: queue, events: Int16(POLLIN), revents: 0))
            for watch in watches { descriptors.append(pollfd(fd: watch.fd, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                fatalError("MainRunLoop: poll failed (errno \(errno))")
            }
            if descriptors[0].revents != 0 {
                var value: UInt64 = 0
                _ = read(queue, &value, MemoryLayout<UInt64>.size)
            }
            // Handlers may watch or unwatch: call those whose descriptor fired and is still watched.
            for descriptor in descriptors.dropFirst() where descriptor.revents != 0 {
                guard let watch = watches.first(where: { $0.fd == descriptor.fd }) else { continue }
                watch.handler()
            }
        }
    }
}
