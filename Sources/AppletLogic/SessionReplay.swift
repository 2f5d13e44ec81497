import AppletState
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Plays a recorded session back: the host feeds its input events, side effects get the results
/// they had when recorded (the work is not done again), and coeffects return the values that were
/// read, in order. The same events on the same results give the same screen: a bug report you can
/// run.
///
/// ```swift
/// let replay = SessionReplay(session: try Session(contentsOf: "bug.session"))
/// logic.replaying(replay)
/// let report = try await replay.run(feed: { input in host.handle(try input.decode(Event.self)) },
///                                   settle: { await host.settle() })
/// ```
@MainActor
public final class SessionReplay {
    public let session: Session
    let effects = EffectReplay()
    private let values: CoeffectQueues

    public init(session: Session) {
        self.session = session
        values = CoeffectQueues(session.entries.filter { $0.kind == .coeffect })
    }

    /// What was checked on the way.
    public struct Report: Sendable, Equatable {
        public var inputs = 0
        public var results = 0
    }

    /// Coeffects that return the recorded values (and, past them, the last value of each name),
    /// on a clock that never waits.
    public var coeffects: Coeffects {
        let values = values
        return Coeffects(
            now: { values.next("now", Date.self) ?? Date(timeIntervalSince1970: 0) },
            clock: NoWaitClock(),
            random: { values.next("random", Int.self) ?? $0.lowerBound },
            environment: { _ in values.next("environment", String?.self) ?? nil },
            fileContents: { path in
                switch values.next("fileContents", CoeffectResult<Data>.self) {
                case .value(let data)?: return data
                case .error(let message)?: throw ReplayedError(message: message)
                case nil: throw ReplayedError(message: "\(path): no file read was recorded here")
                }
            },
            fileExists: { _ in values.next("fileExists", Bool.self) ?? false },
            terminalSize: { values.next("terminalSize", TerminalSize.self) ?? TerminalSize(columns: 0, rows: 0) },
            processes: {
                switch values.next("processes", CoeffectResult<[ProcessSnapshot]>.self) {
                case .value(let list)?: return list
                case .error(let message)?: throw ReplayedError(message: message)
                case nil: return []
                }
            })
    }

    /// Feeds every input in order, and each side effect's recorded result when its turn comes.
    /// `settle` lets the app finish what an input started (draw, run continuations). Throws when
    /// the app no longer does what it did when recorded (an effect it started then is not started
    /// now).
    public func run(feed: @MainActor (JSONValue) async throws -> Void, settle: @MainActor () async -> Void) async throws -> Report {
        var report = Report()
        var started: [Int: SessionEntry] = [:]
        defer { effects.cancelAll() }
        for entry in session.entries {
            switch entry.kind {
            case .input:
                guard let value = entry.value else { continue }
                try await feed(value)
                await settle()
                report.inputs += 1
            case .effect:
                if let number = entry.effect { started[number] = entry }
            case .result:
                guard let number = entry.effect, let start = started[number] else { continue }
                let key = EffectReplay.Key(type: start.type ?? "", payload: start.value ?? .null)
                var delivered = false
                for _ in 0..<400 {
                    if effects.deliver(key, entry) { delivered = true; break }
                    await settle()
                    try? await Task.sleep(for: .milliseconds(5))
                }
                guard delivered else {
                    throw SessionError("entry \(entry.n ?? 0): the app did not start side effect #\(number) \(start.text ?? start.type ?? "") as it did when recorded; the code has changed since, or the effect depends on something not recorded")
                }
                await settle()
                report.results += 1
            default:
                continue
            }
        }
        await settle()
        return report
    }
}

extension LogicModule {
    /// Makes this module replay `replay`'s session: effects take their recorded results (and run
    /// no performer) and coeffects return recorded values. Keep `replay` while it runs.
    public func replaying(_ replay: SessionReplay) {
        interceptor = replay.effects
        setCoeffects(replay.coeffects)
    }

    /// Records this module's events, requests, effects, results and coeffect reads to `recorder`.
    public func record(to recorder: SessionRecorder) {
        self.recorder = recorder
        setCoeffects(coeffects)
    }
}

/// Recorded coeffect values, served in order per name.
final class CoeffectQueues: Sendable {
    private let state: Mutex<[String: (values: [JSONValue], next: Int)]>

    init(_ entries: [SessionEntry]) {
        var queues: [String: (values: [JSONValue], next: Int)] = [:]
        for entry in entries {
            guard let name = entry.name else { continue }
            queues[name, default: ([], 0)].values.append(entry.value ?? .null)
        }
        state = Mutex(queues)
    }

    func next<T: Decodable>(_ name: String, _ type: T.Type) -> T? {
        let value = state.withLock { queues -> JSONValue? in
            guard var queue = queues[name], !queue.values.isEmpty else { return nil }
            let value = queue.values[min(queue.next, queue.values.count - 1)]
            queue.next += 1
            queues[name] = queue
            return value
        }
        return try? value?.decode(T.self)
    }
}

/// Side effects waiting for their recorded results during a replay: the module's interceptor, so
/// an effect runs no performer and ends, synchronously on the main actor, when the driver hands
/// it the result it had when recorded.
@MainActor
final class EffectReplay: LogicInterceptor {
    struct Key: Equatable {
        var type: String
        var payload: JSONValue
    }

    private var waiting: [(key: Key, effect: InterceptedEffect)] = []

    static func key(for effect: any SideEffect) -> Key {
        Key(type: "\(type(of: effect))", payload: (effect as? any Encodable).flatMap { try? JSONValue(encoding: $0) } ?? .null)
    }

    func effectStarted(_ effect: InterceptedEffect) { waiting.append((Self.key(for: effect.effect), effect)) }
    func effectCancelled(_ number: Int) { waiting.removeAll { $0.effect.number == number } }
    func requestApplied(_ request: any Request, error: (any Error)?) {}
    func unhandledError(_ error: any Error) {}

    /// Hands `entry`'s result to the first waiting effect with this key, which ends and runs its
    /// continuation before this returns; false if none waits yet.
    func deliver(_ key: Key, _ entry: SessionEntry) -> Bool {
        guard let index = waiting.firstIndex(where: { $0.key == key }) else { return false }
        let item = waiting.remove(at: index).effect
        switch entry.outcome {
        case .done?: _ = item.deliver(Self.output(of: item.effect, entry))
        case .failed?: _ = item.deliver(.failure(Self.failure(of: item.effect, entry)))
        default: item.cancel()
        }
        return true
    }

    /// Ends every wait (the replay is over): those effects are cancelled.
    func cancelAll() {
        let all = waiting
        waiting = []
        for item in all { item.effect.cancel() }
    }

    private static func output<E: SideEffect>(of effect: E, _ entry: SessionEntry) -> InterceptedResult {
        if E.Output.self == Void.self { return .output(() as! E.Output) }
        guard let type = E.Output.self as? any Decodable.Type, let value = entry.value,
              let output = try? value.decode(type) else {
            return .failure(ReplayedError(message: "\(E.self)'s output was not recorded (\(E.Output.self) is not Codable)"))
        }
        return .output(output as! E.Output)
    }

    private static func failure<E: SideEffect>(of effect: E, _ entry: SessionEntry) -> any Error {
        if let type = E.Failure.self as? any Decodable.Type, let value = entry.value,
           let error = (try? value.decode(type)) as? any Error {
            return error
        }
        return ReplayedError(message: entry.error ?? "failed")
    }
}
