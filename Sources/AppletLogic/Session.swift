import AppletState
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    /// Header: the state folder's files when the recording started (relative path → text), so a
    /// replay starts from the same state; secrets are never included.
    public var files: [String: String]?
    /// Header: the keymap file in effect (its text), if there was one.
    public var keymap: String?
    /// Header: the tab the app was asked to open on (`--tab`), if any.
    public var tab: String?

    public init(kind: Kind) { self.kind = kind }
}

/// A session file read back: its header and entries.
public struct Session: Sendable {
    public static let formatVersion = 1

    public var app: String
    public var size: ScreenSize
    /// The state folder's files at the start (relative path → text).
    public var files: [String: String]
    /// The keymap file's text, if one was in effect.
    public var keymap: String?
    /// The `--tab` the recording was started with.
    public var tab: String?
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
                throw SessionError("\(path):\(index + 1): not a session entry (\(error))")
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
        self.files = header.files ?? [:]
        self.keymap = header.keymap
        self.tab = header.tab
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
///
/// ```swift
/// let recorder = try SessionRecorder(path: "bug.session", app: "monitor", files: stateFiles)
/// host.recorder = recorder          // the host writes the header with the terminal's size
/// ```
public final class SessionRecorder: Sendable {
    public let path: String
    private let started = ContinuousClock.now
    private let state: Mutex<State>
    /// Held for a whole flush (encoding and writing), never while `state` is taken by a caller.
    private let writing = Mutex(())

    private struct State {
        var pending: [Pending] = []
        /// Requests that applied, the most frequent entry, kept apart in a record a third of the
        /// size of `Pending` and as they came (making an `Any` of each cost a copy and a destroy);
        /// merged with `pending` by number at the flush.
        var requests: [RecordedRequest] = []
        var number = 1
        /// The session file, open for writing; -1 once closed.
        var fd: Int32 = -1
        var header: SessionEntry?
        var failure: String?
    }

    /// `at` is a `Duration` (a frozen type) rather than the `ContinuousClock.Instant` (a resilient
    /// one): with a field of unknown layout every append went through the runtime's value witnesses.
    private struct RecordedRequest: @unchecked Sendable {
        var number: Int
        var at: Duration
        var request: any Request
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

    /// Creates (or truncates) the file; the header goes out with `begin(size:)` (or the first
    /// flush), once the terminal's size is known.
    public init(path: String, app: String, files: [String: String] = [:], keymap: String? = nil, tab: String? = nil) throws {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw SessionError("cannot write the session file \(path): \(String(cString: strerror(errno)))")
        }
        var header = SessionEntry(kind: .header)
        header.n = 1
        header.app = app
        header.version = Session.formatVersion
        header.files = files.isEmpty ? nil : files
        header.keymap = keymap
        header.tab = tab
        state = Mutex(State(fd: fd, header: header))
    }

    /// Writes the header with the terminal's size (the host calls it as it starts).
    public func begin(size: ScreenSize) {
        let header = state.withLock { state -> SessionEntry? in
            state.header?.size = size
            defer { state.header = nil }
            return state.header
        }
        guard let header else { return }
        write((try? JSONValue.sessionEncoder.encode(header)).map { $0 + Data("\n".utf8) } ?? Data())
    }

    private func write(_ data: Data) {
        let fd = state.withLock { $0.fd }
        guard fd >= 0 else { return }
        if !AtomicFile.writeAll(fd, data) {
            let reason = String(cString: strerror(errno))
            state.withLock { $0.failure = "cannot write the session file \(path): \(reason)" }
        }
    }

    /// `instant` is when it happened, if the caller has read the clock already.
    private func add(_ kind: SessionEntry.Kind, at instant: ContinuousClock.Instant = .now, value: Any? = nil, type: String? = nil,
                     effect: Int? = nil, outcome: EffectOutcomeSummary? = nil, name: String? = nil, error: String? = nil) {
        let at = instant - started
        state.withLock {
            $0.number += 1
            $0.pending.append(Pending(number: $0.number, at: at, kind: kind, value: value, type: type, effect: effect,
                                      outcome: outcome, name: name, error: error))
        }
    }

    /// An input event the host received (a key, a paste, a click, a resize).
    public func input(_ event: some Encodable & Sendable) { add(.input, value: event) }
    func event(_ event: Any, logic: String) { add(.event, value: event, type: logic) }
    func request(_ request: any Request, at instant: ContinuousClock.Instant = .now, error: (any Error)? = nil) {
        if let error {
            add(.request, at: instant, value: request, error: String(describing: error))
            return
        }
        let at = instant - started
        state.withLock {
            $0.number += 1
            $0.requests.append(RecordedRequest(number: $0.number, at: at, request: request))
        }
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
        // One flush at a time, to the end: the periodic one and the last must not interleave
        // lines, nor the last close the file under the other.
        writing.withLock { _ in flushPending() }
    }

    private func flushPending() {
        begin(size: ScreenSize(columns: 0, rows: 0))
        // Taken out and replaced by buffers made here, outside the lock, as large as the last
        // flush's: the sends that follow append without growing them.
        var freshRequests: [RecordedRequest] = []
        freshRequests.reserveCapacity(state.withLock { $0.requests.count })
        let (others, requests) = state.withLock { state -> ([Pending], [RecordedRequest]) in
            defer { state.pending = [] }
            swap(&state.requests, &freshRequests)
            return (state.pending, freshRequests)
        }
        guard !others.isEmpty || !requests.isEmpty else { return }
        var pending = others
        if !requests.isEmpty {
            pending += requests.map { Pending(number: $0.number, at: $0.at, kind: .request, value: $0.request) }
            pending.sort { $0.number < $1.number }
        }
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
        write(data)
    }

    /// Flushes and closes the file.
    public func close() {
        writing.withLock { _ in
            flushPending()
            state.withLock {
                if $0.fd >= 0 { Glibc.close($0.fd) }
                $0.fd = -1
            }
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
