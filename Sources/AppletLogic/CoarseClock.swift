#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's coarse monotonic clock, which tells whether a request was slow for a tenth of
/// the precise clock's price.
///
/// It advances once per tick of the kernel's timer (1 to 4 ms on Linux) and reading it is a load
/// from the vDSO page: about 10 ns on the development machine, where `ContinuousClock.now` takes
/// about 40 ns. A request reads the precise clock once, for its time; it reads the precise clock
/// a second time, for its duration, only when this clock moved while it ran, so the log shows the
/// duration of every request that took a tick or more, and none for the others (a few hundred
/// nanoseconds is no news).
///
/// ```swift
/// let tick = CoarseClock.tick()
/// try request.apply(to: store)
/// let slow = CoarseClock.tick() != tick
/// ```
enum CoarseClock {
    /// The clock's current reading, in nanoseconds; equal readings are within one tick.
    static func tick() -> Int {
        #if os(Linux)
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return time.tv_sec &* 1_000_000_000 &+ time.tv_nsec
        #else
        return Int(truncatingIfNeeded: clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW_APPROX))
        #endif
    }
}
