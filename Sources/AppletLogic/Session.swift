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
    public var size: TerminalSize?
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
///
/// A session file is a bug report: it comes from someone else, so everything in it is checked
/// before it is used. The file is at most `Limits.fileBytes`; the terminal size is one a terminal
/// can have; the state files it carries are at most `Limits.files`, each at most `Limits.fileText`,
/// under names that stay inside the folder they are restored to (`isContainedPath`). Reading is
/// linear in the file's size, and a file that breaks a rule is refused with its line and the rule.
///
/// ```swift
/// let session = try Session(contentsOf: "bug.session")   // SessionError: "bug.session:1: …"
/// ```
public struct Session: Sendable {
    public static let formatVersion = 1

    /// What a session file may hold.
    public enum Limits {
        /// The whole file.
        public static let fileBytes = 64 << 20
        /// The terminal's columns and rows (at least 1 each).
        public static let dimension = 1 ... 4_096
        /// The state files in the header.
        public static let files = 10_000
        /// Each state file's text, and the keymap's.
        public static let fileText = 1 << 20
        /// A state file's relative path, and each of its components.
        public static let pathBytes = 1_024
        public static let componentBytes = 255
        public static let pathDepth = 32
    }

    /// Where it was read from (for messages).
    public var file: String
    public var app: String
    public var size: TerminalSize
    /// The state folder's files at the start (relative path → text).
    public var files: [String: String]
    /// The keymap file's text, if one was in effect.
    public var keymap: String?
    /// The `--tab` the recording was started with.
    public var tab: String?
    public var entries: [SessionEntry]

    /// Reads a session file; throws with the line number when a line is not what `--record` writes
    /// or breaks one of the `Limits`.
    public init(contentsOf path: String) throws {
        let data: Data
        do {
            guard let read = try AtomicFile.read(path, limit: Limits.fileBytes) else {
                throw SessionError("cannot read \(path): \(String(cString: strerror(ENOENT)))")
            }
            data = read
        } catch let failure as AtomicFile.Failure {
            throw SessionError("cannot read \(failure)")
        } catch let tooLarge as AtomicFile.TooLarge {
            throw SessionError("\(path) is over \(tooLarge.limit >> 20) MiB, more than a session file may be; record a shorter session")
        }
        try self.init(data: data, file: path)
    }

    /// Parses a session file's bytes; `file` names it in errors.
    public init(data: Data, file: String) throws {
        guard data.count <= Limits.fileBytes else {
            throw SessionError("\(file) is over \(Limits.fileBytes >> 20) MiB, more than a session file may be; record a shorter session")
        }
        let decoder = JSONDecoder()
        var entries: [SessionEntry] = []
        var lineNumber = 0
        var lineStart = data.startIndex
        // One pass over the bytes, one decode per line: linear in the file's size.
        while lineStart < data.endIndex {
            let lineEnd = data[lineStart...].firstIndex(of: 0x0A) ?? data.endIndex
            lineNumber += 1
            let line = data[lineStart..<lineEnd]
            lineStart = lineEnd < data.endIndex ? data.index(after: lineEnd) : lineEnd
            if line.isEmpty { continue }
            do {
                entries.append(try decoder.decode(SessionEntry.self, from: line))
            } catch {
                throw SessionError("\(file):\(lineNumber): not a session entry (\(Self.describe(error)))")
            }
        }
        guard !entries.isEmpty else { throw SessionError("\(file) is empty: it is not a recorded session") }
        guard let header = entries.first, header.kind == .header, let app = header.app, let size = header.size else {
            throw SessionError("\(file):1: the first line is not a session header; was this file written by --record?")
        }
        guard header.version == Session.formatVersion else {
            throw SessionError("\(file):1: session format \(header.version ?? 0), this build reads \(Session.formatVersion)")
        }
        guard Limits.dimension.contains(size.columns), Limits.dimension.contains(size.rows) else {
            throw SessionError("\(file):1: the recorded terminal size \(size.columns)x\(size.rows) is not one a terminal has (each side \(Limits.dimension.lowerBound)–\(Limits.dimension.upperBound)); the file is damaged or was not written by --record")
        }
        let files = header.files ?? [:]
        guard files.count <= Limits.files else {
            throw SessionError("\(file):1: the header carries \(files.count) state files, more than the \(Limits.files) a session may")
        }
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            guard Self.isContainedPath(name) else {
                throw SessionError("\(file):1: the header names a state file \"\(LogText.escaped(name.count > 80 ? String(name.prefix(80)) + "…" : name))\" outside its folder; a session may only carry files by plain relative names (no \"..\", no leading \"/\")")
            }
            guard text.utf8.count <= Limits.fileText else {
                throw SessionError("\(file):1: the state file \"\(LogText.escaped(name.count > 80 ? String(name.prefix(80)) + "…" : name))\" is over \(Limits.fileText >> 20) MiB, more than a session carries")
            }
        }
        if let keymap = header.keymap, keymap.utf8.count > Limits.fileText {
            throw SessionError("\(file):1: the keymap is over \(Limits.fileText >> 20) MiB, more than a session carries")
        }
        self.file = file
        self.app = app
        self.size = size
        self.files = files
        self.keymap = header.keymap
        self.tab = header.tab
        self.entries = Array(entries.dropFirst())
    }

    /// Whether `path` names a file inside a folder it is appended to: relative, non-empty, with
    /// no empty, `.` or `..` component, no NUL, and within `Limits`' lengths and depth.
    ///
    /// ```swift
    /// Session.isContainedPath("files/notes.json")   // true
    /// Session.isContainedPath("../../.bashrc")      // false
    /// ```
    public static func isContainedPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= Limits.pathBytes, bytes.first != UInt8(ascii: "/"), !bytes.contains(0) else { return false }
        let components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard components.count <= Limits.pathDepth else { return false }
        return components.allSatisfy { component in
            !component.isEmpty && component.count <= Limits.componentBytes
                && !component.elementsEqual(".".utf8) && !component.elementsEqual("..".utf8)
        }
    }

    /// A decoding error in one line, without the coding path's noise.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return (context.codingPath.map(\.stringValue).joined(separator: ".") + ": " + context.debugDescription)
        case DecodingError.keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        default: return "\(error)"
        }
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
        // What was typed is in it: private to the user, like the state it came from, and never
        // written through a link put in its place.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0o600)
        guard fd >= 0 else {
            throw SessionError("cannot write the session file \(path): \(String(cString: strerror(errno)))")
        }
        _ = fchmod(fd, 0o600)
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
    public func begin(size: TerminalSize) {
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
        begin(size: TerminalSize(columns: 0, rows: 0))
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
