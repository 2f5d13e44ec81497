import Dispatch
import Terminal

/// When the host draws: at most one frame per turn of the main queue however many changes asked
/// for one, and, while something animates, one every `interval`. It owns no drawing; `draw`
/// does that.
///
/// Invariants: `draw` never runs while inactive; many `setNeedsDisplay()` calls in one turn
/// draw once; `hasPendingFrame` is false exactly when nothing is waiting to be drawn.
///
/// ```swift
/// let frames = FrameScheduler { terminal.present(host.drawFrame()) }
/// frames.isActive = true
/// frames.setNeedsDisplay()   // drawn on the next turn of the main queue
/// frames.renderIfNeeded()    // or now (tests)
/// ```
@MainActor
final class FrameScheduler {
    private let draw: @MainActor () -> Void
    private let interval: Duration
    private var needsDisplay = true
    private var frameScheduled = false
    private var animationFrameScheduled = false
    /// Frames are drawn only while this is set (the host is running).
    var isActive = false {
        didSet { observeRunLoop() }
    }
    /// Set while `MainRunLoop` draws the frame before it waits (no main-queue hop per frame).
    private var runLoopObserver: Int?

    init(animationInterval: Duration = .milliseconds(33), draw: @escaping @MainActor () -> Void) {
        self.draw = draw
        self.interval = animationInterval
    }

    /// Asks for a frame on the next turn of the main queue; many calls in one turn draw once.
    func setNeedsDisplay() {
        needsDisplay = true
        guard !frameScheduled, isActive, runLoopObserver == nil else { return }
        frameScheduled = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                self?.frameScheduled = false
                self?.renderIfNeeded()
            }
        }
    }

    /// Under `MainRunLoop` the frame is drawn when the loop is about to wait: after the key's
    /// handler and whatever main-queue work it caused, once.
    private func observeRunLoop() {
        if isActive, runLoopObserver == nil, MainRunLoop.isRunning {
            runLoopObserver = MainRunLoop.addBeforeWaiting { [weak self] in self?.renderIfNeeded() }
        } else if !isActive, let id = runLoopObserver {
            MainRunLoop.removeBeforeWaiting(id)
            runLoopObserver = nil
        }
    }

    /// Draws now if a frame is wanted.
    func renderIfNeeded() {
        guard needsDisplay, isActive else { return }
        needsDisplay = false
        draw()
    }

    /// Whether a frame is wanted and not yet drawn.
    var hasPendingFrame: Bool { isActive && (needsDisplay || frameScheduled) }

    /// The frame clock: while a transition runs, a frame every `interval`.
    func scheduleAnimationFrame() {
        guard !animationFrameScheduled, isActive else { return }
        animationFrameScheduled = true
        let nanoseconds = interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
        DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.animationFrameScheduled = false
                self.setNeedsDisplay()
            }
        }
    }
}
