import AppletState
import Foundation
import Synchronization

/// One line of a session file (`--record FILE`): JSON Lines, one entry per line, in the order
/// things happened. The first line is the header.
///
/// ```
/// {"kind":"header","app":"appletkit","version":1,"size":{"columns":100,"rows":30}}
/// {"kind":"input","n":2,"at":0.51,"value":{"key":{"_0":{"code":{"char":"j"},"modifiers":0}}}}
/// {"kind":"request","n":3,"at":0.51,"type":"MonitorRequest","text":"select(row: 1)","value":{"select":{"row":1}}}
/// {"kind":"effect","n":4,"at":0.52,"effect":1,"type":"Sleep","value":{"milliseconds":2000}}
/// {"kind":"result","n":5,"at":2.52,"effect":1,"outcome":"done","value":null}
/// {"kind":"coeffect","n":6,"at":2.52,"name":"processes","value":[…]}
/// ```
///
/// `input` entries (keys, pastes, clicks, resizes) and effect `result`s are what a replay feeds
/// back, in order; `coeffect` values are what the replay's coeffects return, in order per name;
/// `event`, `request` and `effect` entries show what the app made of them (and let a replay
/// check it made the same).
public struct SessionEntry: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable {
        case header, input, event, request, effect, result, coeffect, error
    }

    public var kind: Kind
    /// The entry's number (the header is 1).
    public var n: Int?
    /// Seconds since the recording started.
    public var at: Double?
    /// The value's type (a request's, an effect's, an event's logic).
    public var type: String?
    /// The value described, for people reading the file.
    public var text: String?
    /// The value as JSON (null when it is not `Codable`).
    public var value: JSONValue?
    /// The side effect's number, for `effect` and `result`.
    public var effect: Int?
    /// How the side effect ended: `done`, `failed` or `cancelled`.
    public var outcome: EffectOutcomeSummary?
    /// A coeffect's name.
    public var name: String?
    /// An error's description.
    public var error: String?
    /// Header: the app's id, the format's version, the terminal size.
    public var app: String?
    public var version: Int?
    public var size: ScreenSize?

    public init(kind: Kind) { self.kind = kind }
}

/// A session file read back: its header and entries.
public struct Session: Sendable {
    public static let formatVersion = 1

    public var app: String
    public var size: ScreenSize
    public var entries: [SessionEntry]

    /// Reads a session file; throws with the line number when a line is not what `--record` writes.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SessionError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        guard let first = lines.first else { throw SessionError("\(path) is empty: it is not a recorded session") }
        let decoder = JSONDecoder()
        var entries: [SessionEntry] = []
        for (index, line) in lines.enumerated() {
            do {
                entries.append(try decoder.decode(SessionEntry.self, from: Data(line.utf8)))
            } catch {
                throw SessionError("\(path):\(index + 1): not a session entry (\(error.localizedDescription))")
            }
        }
        _ = first
        guard let header = entries.first, header.kind == .header, let app = header.app, let size = header.size else {
            throw SessionError("\(path):1: the first line is not a session header; was this file written by --record?")
        }
        guard header.version == Session.formatVersion else {
            throw SessionError("\(path):1: session format \(header.version ?? 0), this build reads \(Session.formatVersion)")
        }
        self.app = app
        self.size = size
        self.entries = Array(entries.dropFirst())
    }
}

/// A session file that cannot be used, with what to do.
public struct SessionError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Writes what a logic module and its host do to a session file. Appending costs a lock and an
/// array append (values are kept as they are); encoding happens at `flush()`, which the host
/// calls every second and at the end.
public final class SessionRecorder: Sendable {
    public let path: String
    private let started = ContinuousClock.now
    private let state: Mutex<State>

    private struct State {
        var pending: [Pending] = []
        var number = 1
        var handle: FileHandle?
        var failure: String?
    }

    private struct Pending: @unchecked Sendable {
        var number: Int
        var at: Duration
        var kind: SessionEntry.Kind
        var value: Any?
        var type: String?
        var effect: Int?
        var outcome: EffectOutcomeSummary?
        var name: String?
        var error: String?
    }

    /// Creates (or truncates) the file and writes the header.
    public init(path: String, app: String, size: ScreenSize) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw SessionError("cannot write the session file \(path): \(String(cString: strerror(errno)))")
        }
        var header = SessionEntry(kind: .header)
        header.n = 1
        header.app = app
        header.version = Session.formatVersion
        header.size = size
        let line = try JSONValue.sessionEncoder.encode(header) + Data("\n".utf8)
        try handle.write(contentsOf: line)
        state = Mutex(State(handle: handle))
    }

    private func add(_ kind: SessionEntry.Kind, value: Any? = nil, type: String? = nil, effect: Int? = nil,
                     outcome: EffectOutcomeSummary? = nil, name: String? = nil, error: String? = nil) {
        let at = ContinuousClock.now - started
        state.withLock {
            $0.number += 1
            $0.pending.append(Pending(number: $0.number, at: at, kind: kind, value: value, type: type, effect: effect,
                                      outcome: outcome, name: name, error: error))
        }
    }

    /// An input event the host received (a key, a paste, a click, a resize).
    public func input(_ event: some Encodable & Sendable) { add(.input, value: event) }
    func event(_ event: Any, logic: String) { add(.event, value: event, type: logic) }
    func request(_ request: any Request, error: (any Error)? = nil) {
        add(.request, value: request, error: error.map { String(describing: $0) })
    }
    func effectStarted(_ effect: any SideEffect, number: Int) { add(.effect, value: effect, effect: number) }
    func effectEnded(_ effect: any SideEffect, number: Int, outcome: EffectOutcome) {
        switch outcome {
        case .succeeded(_, let output): add(.result, value: output, type: "\(Swift.type(of: effect))", effect: number, outcome: .done)
        case .failed(_, let error): add(.result, value: error, type: "\(Swift.type(of: effect))", effect: number, outcome: .failed, error: String(describing: error))
        case .cancelled: add(.result, type: "\(Swift.type(of: effect))", effect: number, outcome: .cancelled)
        }
    }
    func coeffect(_ name: String, _ value: Any) { add(.coeffect, value: value, name: name) }
    func unhandled(_ error: any Error) { add(.error, error: String(describing: error)) }

    /// Coeffects whose every read is recorded.
    public func recording(_ base: Coeffects) -> Coeffects {
        var coeffects = base
        coeffects.now = { let value = base.now(); self.coeffect("now", value); return value }
        coeffects.random = { let value = base.random($0); self.coeffect("random", value); return value }
        coeffects.environment = { let value = base.environment($0); self.coeffect("environment", value as Any); return value }
        coeffects.fileContents = { path in
            do {
                let value = try base.fileContents(path)
                self.coeffect("fileContents", CoeffectResult<Data>.value(value))
                return value
            } catch {
                self.coeffect("fileContents", CoeffectResult<Data>.error(String(describing: error)))
                throw error
            }
        }
        coeffects.fileExists = { let value = base.fileExists($0); self.coeffect("fileExists", value); return value }
        coeffects.terminalSize = { let value = base.terminalSize(); self.coeffect("terminalSize", value); return value }
        coeffects.processes = {
            do {
                let value = try base.processes()
                self.coeffect("processes", CoeffectResult<[ProcessSnapshot]>.value(value))
                return value
            } catch {
                self.coeffect("processes", CoeffectResult<[ProcessSnapshot]>.error(String(describing: error)))
                throw error
            }
        }
        return coeffects
    }

    /// Writes what was recorded since the last flush. Values that are not `Codable` are written
    /// with their description only.
    public func flush() {
        let (pending, handle) = state.withLock { state -> ([Pending], FileHandle?) in
            let pending = state.pending
            state.pending.removeAll(keepingCapacity: true)
            return (pending, state.handle)
        }
        guard let handle, !pending.isEmpty else { return }
        var data = Data()
        for item in pending {
            var entry = SessionEntry(kind: item.kind)
            entry.n = item.number
            entry.at = Double(item.at.components.seconds) + Double(item.at.components.attoseconds) / 1e18
            entry.effect = item.effect
            entry.outcome = item.outcome
            entry.name = item.name
            entry.error = item.error
            entry.type = item.type
            if let value = item.value {
                if entry.type == nil, item.kind != .coeffect { entry.type = "\(Swift.type(of: value))" }
                if item.kind != .input { entry.text = String(describing: value) }
                if let encodable = value as? any Encodable { entry.value = try? JSONValue(encoding: encodable) }
                else if value is Void || value is () { entry.value = .null }
            }
            if let line = try? JSONValue.sessionEncoder.encode(entry) { data += line + Data("\n".utf8) }
        }
        do {
            try handle.write(contentsOf: data)
        } catch {
            state.withLock { $0.failure = "cannot write the session file \(path): \(error.localizedDescription)" }
        }
    }

    /// Flushes and closes the file.
    public func close() {
        flush()
        state.withLock {
            try? $0.handle?.close()
            $0.handle = nil
        }
    }

    /// A write that failed, if one did.
    public var failure: String? { state.withLock { $0.failure } }
}

/// A coeffect read that may fail, as recorded.
enum CoeffectResult<Value: Codable>: Codable {
    case value(Value)
    case error(String)
}
