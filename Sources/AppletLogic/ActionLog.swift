import Foundation
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
        /// When it happened.
        public let time: Date
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
    @ObservationIgnored private var buffer: [Entry] = []
    @ObservationIgnored private var start = 0
    @ObservationIgnored private var nextNumber = 1
    /// Changes with every entry (what a view observes).
    public private(set) var revision = 0

    nonisolated public init(capacity: Int = 500) {
        self.capacity = max(1, capacity)
        buffer.reserveCapacity(self.capacity)
    }

    /// The entries, oldest first.
    public var entries: [Entry] {
        _ = revision
        return Array(buffer[start...] + buffer[..<start])
    }

    /// The entries whose title, category or error contains `text` (case-insensitive), oldest first.
    public func entries(matching text: String) -> [Entry] {
        let needle = text.trimmingCharacters(in: .whitespaces)
        guard !needle.isEmpty else { return entries }
        return entries.filter {
            $0.title.localizedCaseInsensitiveContains(needle) || $0.category.localizedCaseInsensitiveContains(needle)
                || ($0.error?.localizedCaseInsensitiveContains(needle) ?? false)
        }
    }

    func append(_ kind: Entry.Kind, duration: Duration? = nil, error: (any Error)? = nil) {
        let entry = Entry(number: nextNumber, kind: kind, time: Date(), duration: duration, error: error.map { String(describing: $0) })
        nextNumber += 1
        if buffer.count < capacity {
            buffer.append(entry)
        } else {
            buffer[start] = entry
            start = (start + 1) % capacity
        }
        revision &+= 1
    }

    /// Empties the log (numbers go on).
    public func clear() {
        buffer.removeAll(keepingCapacity: true)
        start = 0
        revision &+= 1
    }
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
