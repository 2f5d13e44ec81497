#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Observation

/// The last things the logic module did, newest last: events, requests, side effects (started and
/// ended, with how long they took) and errors. The devtools overlay lists and filters it.
///
/// ```swift
/// for entry in logic.actionLog.entries where entry.isError {
///     print(entry.number, entry.title, entry.error ?? "")
/// }
/// ```
///
/// Invariants: at most `capacity` entries (the oldest go first); numbers increase by one per
/// entry and are never reused; appending costs no formatting (titles are made when read).
@MainActor
@Observable
public final class ActionLog {
    /// One thing that happened.
    public struct Entry: Sendable {
        public enum Kind: Sendable {
            case event(any Sendable, logic: String)
            case request(any Request)
            case effectStarted(any SideEffect, number: Int, id: EffectID?)
            case effectEnded(any SideEffect, number: Int, outcome: EffectOutcomeSummary)
            case unhandledError
        }

        public let number: Int
        public let kind: Kind
        /// When it happened: how long after `clockOrigin`'s instant (`time` makes it a date when
        /// read, so that appending reads no wall clock). A `Duration`, not an instant, so that an
        /// entry has a layout known when compiling (`ContinuousClock.Instant`'s is not).
        let offset: Duration
        /// How long the request took to apply, or the effect to run.
        public let duration: Duration?
        /// The error's description, when it failed.
        public let error: String?

        /// What the devtools show in the column "what": `request`, `effect`, `done`…
        public var category: String {
            switch kind {
            case .event: "event"
            case .request: "request"
            case .effectStarted: "effect"
            case .effectEnded(_, _, let outcome): outcome.rawValue
            case .unhandledError: "error"
            }
        }

        /// The value, described (`MonitorRequest.sort(by: memory)`).
        public var title: String {
            switch kind {
            case .event(let event, let logic): "\(logic) ← \(event)"
            case .request(let request): describe(request)
            case .effectStarted(let effect, let number, let id): "#\(number) \(describe(effect))" + (id.map { " [\($0)]" } ?? "")
            case .effectEnded(let effect, let number, _): "#\(number) \(describe(effect))"
            case .unhandledError: "unhandled"
            }
        }

        /// When it happened.
        public var time: Date { clockOrigin.date.addingTimeInterval(seconds(offset)) }

        /// Whether something failed.
        public var isError: Bool { error != nil }

        private func describe(_ value: Any) -> String {
            let text = String(describing: value)
            let type = String(describing: Swift.type(of: value))
            return text.hasPrefix(type) || value is CustomStringConvertible ? text : "\(type).\(text)"
        }
    }

    /// How many entries are kept.
    public let capacity: Int
    /// The entries and the counters, kept in one property so that logging an entry makes one
    /// access to the log's storage, and not checked for exclusivity at run time: the log is the
    /// main actor's, and no access to it overlaps another (a `Ring` method never calls out).
    @ObservationIgnored @exclusivity(unchecked) private var log = Ring()

    /// Changes with every entry (what a view observes).
    public var revision: Int {
        access(keyPath: \.revision)
        log.mayBeObserved = true
        return log.revision
    }

    nonisolated public init(capacity: Int = 500) {
        self.capacity = max(1, capacity)
        log.buffer.reserveCapacity(self.capacity)
    }

    /// The entries, oldest first.
    public var entries: [Entry] {
        _ = revision
        return Array(log.buffer[log.start...] + log.buffer[..<log.start])
    }

    /// The entries whose title, category or error contains `text` (case-insensitive), oldest first.
    public func entries(matching text: String) -> [Entry] {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else { return entries }
        let needle = text[first...last].lowercased()
        return entries.filter {
            $0.title.lowercased().contains(needle) || $0.category.lowercased().contains(needle)
                || ($0.error?.lowercased().contains(needle) ?? false)
        }
    }

    /// Logs `kind`; `at` is when it happened, if the caller has read the clock already.
    func append(_ kind: consuming Entry.Kind, at instant: ContinuousClock.Instant = .now, duration: Duration? = nil,
                error: (any Error)? = nil) {
        let offset = clockOrigin.instant.duration(to: instant)
        if log.add(kind, at: offset, duration: duration, error: error.map { String(describing: $0) }, capacity: capacity) {
            announce()
        }
    }

    /// Adds an entry at a given time (how long after the first entry's time, for the view's
    /// `+0.00s` column) with a given duration: what a fixture or a screen made from one shows, the
    /// same on every machine. The logic module appends its own entries as they happen.
    ///
    /// ```swift
    /// log.record(.request(MonitorRequest.sort(by: .memory)), at: .milliseconds(2950), duration: .microseconds(151))
    /// ```
    public func record(_ kind: Entry.Kind, at offset: Duration, duration: Duration? = nil, error: String? = nil) {
        if log.add(kind, at: offset, duration: duration, error: error, capacity: capacity) {
            announce()
        }
    }

    /// Empties the log (numbers go on).
    public func clear() {
        if log.clear() { announce() }
    }

    /// Tells the observers of `revision` that it changes, and changes it.
    private func announce() {
        withMutation(keyPath: \.revision) { log.revision &+= 1 }
    }

    private struct Ring {
        var buffer: [Entry] = []
        var start = 0
        var nextNumber = 1
        var revision = 0
        /// Whether `revision` was read since its observers were last told of a change.
        /// Observation tracking (`withObservationTracking`, `Observations`, a view's evaluation)
        /// starts with a read and ends at the first change it is told of: when nothing read it
        /// since the last change was announced, nobody can be observing it, and a new entry skips
        /// the registrar (two locks and a key path per entry).
        var mayBeObserved = false

        /// Adds an entry, in place of the oldest when full. Returns true when the new revision
        /// must be announced (`announce()` makes it), else makes it.
        mutating func add(_ kind: consuming Entry.Kind, at offset: Duration, duration: Duration?, error: String?,
                          capacity: Int) -> Bool {
            let entry = Entry(number: nextNumber, kind: kind, offset: offset, duration: duration, error: error)
            nextNumber += 1
            // Moved, not copied, into its slot (an entry is a dozen words with an existential).
            if buffer.count < capacity {
                buffer.append(consume entry)
            } else {
                buffer[start] = consume entry
                start = (start + 1) % capacity
            }
            return revise()
        }

        mutating func clear() -> Bool {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            return revise()
        }

        private mutating func revise() -> Bool {
            if mayBeObserved {
                mayBeObserved = false
                return true
            }
            revision &+= 1
            return false
        }
    }
}

/// A date and the continuous clock's instant at that date, read once: an entry's `time` is its
/// offset from this instant, added to this date.
private let clockOrigin = ClockOrigin()

private final class ClockOrigin: Sendable {
    let date = Date()
    let instant = ContinuousClock.now
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// How a side effect ended, for logs.
public enum EffectOutcomeSummary: String, Sendable, Codable {
    case done, failed, cancelled
}

extension EffectOutcome {
    var summary: EffectOutcomeSummary {
        switch self {
        case .succeeded: .done
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }
}
