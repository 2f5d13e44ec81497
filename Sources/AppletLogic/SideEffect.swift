/// Work on the system, as a value: write a file, signal a process, wait two seconds. The logic
/// module hands it to the performer the app registered for its type (`LogicModule.perform(_:_:)`),
/// which runs it asynchronously; its `Output` goes to the executable's `then`, its `Failure` to
/// `onError`.
///
/// ```swift
/// struct SignalProcess: SideEffect, Codable, Equatable {
///     typealias Failure = SignalError          // a typed error, as performers report it
///     var pid: Int32
///     var signal: Int32
/// }
///
/// logic.perform(SignalProcess.self) { effect, _ throws(SignalError) in
///     if kill(effect.pid, effect.signal) != 0 { throw SignalError(errno: errno) }
/// }
/// ```
///
/// Invariants: the value says everything the performer needs (so a test can assert it and a
/// recording can show it); the performer is the only code that touches the system for it.
/// Recording needs `Output` to be `Codable` (or `Void`) for `--replay` to give the same result
/// back without doing the work again.
public protocol SideEffect: Sendable {
    /// What the work gives back (`Void` when nothing).
    associatedtype Output: Sendable = Void
    /// The error the performer throws.
    associatedtype Failure: Error = any Error
}

/// A side effect that can perform itself on the real system: the module runs `perform` unless the
/// app registered a performer for its type (`LogicModule.perform(_:_:)` wins, so an app or a test
/// can replace it). `TestLogic` and `--replay` never call it.
///
/// ```swift
/// struct SignalProcess: LiveSideEffect, Codable, Equatable {
///     var pid: Int32
///     var signal: Int32
///     func perform(with coeffects: Coeffects) async throws(SignalError) {
///         if kill(pid, signal) != 0 { throw SignalError(pid: pid, errno: errno) }
///     }
/// }
/// ```
public protocol LiveSideEffect: SideEffect {
    func perform(with coeffects: Coeffects) async throws(Failure) -> Output
}

/// Waits on the logic module's clock (live: the continuous clock; in tests: a `TestClock`). The
/// way to do something later or repeatedly: `.effect(Sleep(.seconds(2)), id: "refresh") { _ in .send(...) }`.
/// Performed by the module itself.
public struct Sleep: SideEffect, Codable, Equatable, CustomStringConvertible {
    public typealias Failure = CancellationError
    public var duration: Duration

    public init(_ duration: Duration) { self.duration = duration }

    public var description: String { "Sleep(\(duration))" }

    enum CodingKeys: String, CodingKey { case milliseconds }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        duration = .milliseconds(try container.decode(Int64.self, forKey: .milliseconds))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let (seconds, attoseconds) = duration.components
        try container.encode(seconds * 1000 + attoseconds / 1_000_000_000_000_000, forKey: .milliseconds)
    }
}

/// What went wrong in the logic layer itself (the app's own errors are its effects' `Failure`s).
public enum LogicError: Error, Equatable, CustomStringConvertible {
    /// No performer was registered for this type of side effect.
    case noPerformer(String)
    /// A `--replay` file was not what this app wrote, or its events no longer lead to the same
    /// effects.
    case replay(String)

    public var description: String {
        switch self {
        case .noPerformer(let type): "no performer for side effect \(type): register one with logic.perform(\(type).self) { … }"
        case .replay(let message): "replay: \(message)"
        }
    }
}
