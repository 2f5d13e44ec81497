/// A random number generator that gives the same numbers for the same seed on every machine
/// (SplitMix64), for fuzz and random-input tests whose failures must be reproducible: print the
/// seed in the failure message and run it again.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// let bytes = (0..<1024).map { _ in UInt8.random(in: 0...255, using: &random) }
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose stream is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
