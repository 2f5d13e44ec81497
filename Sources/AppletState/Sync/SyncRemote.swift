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

/// Where `SyncState` values go beyond this machine: a server every instance of the app, on any
/// machine, reaches. AppletSync's PostgreSQL replicator is one (`SyncProvider.postgres`).
///
/// The store keeps its local copy as always (a file per value in `<state folder>/sync/`, shared
/// by the instances on this machine) and tells the remote of each change made here; the remote
/// sends it to the server, and writes changes made elsewhere into the local copy through the
/// `SyncReplica` it is started with. Without a remote, nothing here runs and `SyncState` syncs
/// the instances of one machine only.
///
/// ```swift
/// let remote = try SyncProvider.postgres.remote(url: "postgres://ada@db.example/notes", appID: "notes")
/// Application.shared.syncRemote = remote      // before or after the first SyncState access
/// ```
public protocol SyncRemote: AnyObject, Sendable {
    /// Names the server (host, port, database, user; never a password). Versions of values are
    /// the server's: those learnt from another server mean nothing here.
    var serverID: String { get }
    /// How the server is shown to people: the URL with its password masked.
    var displayName: String { get }
    /// Starts replicating the store's values: called once, by the store.
    func start(_ replica: SyncReplica)
    /// A value changed in this process; the local copy has it, marked as not yet sent. Called
    /// after every such change, from the thread that made it: must return at once.
    func localChange(_ key: SyncKey)
    /// Waits, at most `timeout`, until no change made here is still on its way to the server (at
    /// quit: the other instances get the last change now rather than at the next start). Returns
    /// at once when the server cannot be reached: what was not sent stays marked in the local copy.
    @discardableResult
    func finishPending(within timeout: Duration) -> Bool
    /// Stops replicating and closes the connection.
    func stop()
}

/// A synced value's name: `feature` and `id` as declared (`syncState(initial:feature:id:)`).
public struct SyncKey: Hashable, Sendable, CustomStringConvertible {
    public let feature: String
    public let id: String

    public init(feature: String, id: String) {
        self.feature = feature
        self.id = id
    }

    /// "Feature.id", as the store names it.
    public var description: String { "\(feature).\(id)" }
}

/// A value as the server has it: its JSON, its version (one more at every write), when the server
/// took it (its own clock) and who wrote it.
public struct SyncRecord: Sendable, Equatable {
    public var key: SyncKey
    /// The value's JSON text; nil when it was reset (the initial value, everywhere).
    public var json: String?
    public var version: Int64
    /// The server's clock when it took the write.
    public var updatedAt: Date
    /// The `SyncReplica.replicaID` of the folder that wrote it.
    public var writer: String
    /// Where that was, for people: a host name.
    public var writerName: String

    public init(key: SyncKey, json: String?, version: Int64, updatedAt: Date, writer: String, writerName: String) {
        self.key = key
        self.json = json
        self.version = version
        self.updatedAt = updatedAt
        self.writer = writer
        self.writerName = writerName
    }
}

/// A change made here that the server has not confirmed yet.
public struct SyncPendingChange: Sendable, Equatable {
    public var key: SyncKey
    /// The value's JSON text as the local copy has it; nil when it was reset.
    public var json: String?
    /// The server's version this change was made on: an older one than the server's own means
    /// someone else wrote in between (a conflict, which the later write wins).
    public var baseVersion: Int64
    /// When it was made (this machine's clock), for messages.
    public var changedAt: Date
}

/// Two writes of one value where the second was made without seeing the first. The later one,
/// in the server's order, is kept everywhere; the other is reported on both sides, never dropped
/// in silence.
public struct SyncConflict: Sendable, Equatable {
    public enum Side: Sendable, Equatable {
        /// A value written here was replaced by a later one from elsewhere.
        case oursLost
        /// A change sent from here replaced a value written elsewhere that it had not seen.
        case theirsLost
    }

    public var key: SyncKey
    public var side: Side
    public var lostJSON: String?
    /// When the server took the value that lost.
    public var lostAt: Date
    public var lostWriterName: String
    public var wonJSON: String?
    public var wonAt: Date
    public var wonWriterName: String

    public init(key: SyncKey, side: Side, lostJSON: String?, lostAt: Date, lostWriterName: String,
                wonJSON: String?, wonAt: Date, wonWriterName: String) {
        self.key = key
        self.side = side
        self.lostJSON = lostJSON
        self.lostAt = lostAt
        self.lostWriterName = lostWriterName
        self.wonJSON = wonJSON
        self.wonAt = wonAt
        self.wonWriterName = wonWriterName
    }

    /// The sentence the user reads, e.g. "Dashboard.goal: your change to 25 (12:03:01) was
    /// replaced by 15 from host-b (12:03:02): the later change wins."
    public var message: String {
        let lost = SyncConflict.shown(lostJSON), won = SyncConflict.shown(wonJSON)
        switch side {
        case .oursLost:
            return "\(key): your change to \(lost) (\(SyncConflict.clock(lostAt))) was replaced by \(won) from \(wonWriterName) (\(SyncConflict.clock(wonAt))): the later change wins."
        case .theirsLost:
            return "\(key): your change to \(won) (\(SyncConflict.clock(wonAt))) replaced \(lost), set on \(lostWriterName) at \(SyncConflict.clock(lostAt)) before this instance saw it: the later change wins."
        }
    }

    /// A value as a message shows it: its JSON, cut short, "the initial value" for a reset.
    static func shown(_ json: String?) -> String {
        guard let json else { return "the initial value" }
        let escaped = LogText.escaped(json)
        return escaped.count > 40 ? "'\(escaped.prefix(39))…'" : "'\(escaped)'"
    }

    /// A time as `HH:MM:SS` on this machine's clock, with the date when it is not today.
    static func clock(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var now = time(nil)
        var parts = tm(), today = tm()
        localtime_r(&seconds, &parts)
        localtime_r(&now, &today)
        let format = parts.tm_yday == today.tm_yday && parts.tm_year == today.tm_year ? "%H:%M:%S" : "%Y-%m-%d %H:%M:%S"
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Whether `SyncState` reaches other machines right now: `Application.syncStatus`.
///
/// ```swift
/// switch Application.state(\.syncStatus).value {
/// case .local: break                                  // no server configured
/// case .connecting(let server), .online(let server): print("syncing with", server)
/// case .offline(let since, let reason): print("offline since", since, reason)
/// }
/// ```
public enum SyncStatus: Sendable, Equatable {
    /// No server: values are shared by the instances on this machine only.
    case local
    /// Connecting to the server for the first time since the start.
    case connecting(String)
    /// Connected: changes go out at once and come in at once.
    case online(String)
    /// The server cannot be reached: changes are kept here and sent when it is back.
    case offline(since: Date, reason: String)

    /// A word or two for a status line: "", "connecting", "synced", "offline".
    public var label: String {
        switch self {
        case .local: ""
        case .connecting: "connecting"
        case .online: "synced"
        case .offline: "offline"
        }
    }

    public var isOffline: Bool { if case .offline = self { true } else { false } }
}

/// A kind of server `--sync-url` can name, and how to connect to it. An app that syncs links the
/// product that offers one (AppletSync's `.postgres`) and names it in its `AppletApp`:
///
/// ```swift
/// import AppletSync
///
/// @main struct NotesApp: AppletApp {
///     static let syncProvider: SyncProvider? = .postgres
///     var tabs: [Tab] { [Tab(NotesApplet())] }
/// }
/// ```
public struct SyncProvider: Sendable {
    /// What it connects to, for messages: "PostgreSQL".
    public let name: String
    /// The URL schemes it takes: `postgres`, `postgresql`.
    public let schemes: [String]
    private let check: @Sendable (String) throws -> Void
    private let make: @Sendable (String, String) throws -> any SyncRemote

    /// `validate` throws (with a message for the user) for a URL it cannot use; `make` makes a
    /// remote for a valid URL and an app id.
    public init(name: String, schemes: [String],
                validate: @escaping @Sendable (String) throws -> Void,
                make: @escaping @Sendable (_ url: String, _ appID: String) throws -> any SyncRemote) {
        self.name = name
        self.schemes = schemes
        check = validate
        self.make = make
    }

    /// Throws, with what is wrong, if `url` is not one this provider can use.
    public func validate(_ url: String) throws { try check(url) }

    /// A remote for `url`, replicating the values of the app `appID` (not started yet).
    public func remote(url: String, appID: String) throws -> any SyncRemote { try make(url, appID) }

    /// `url` as it may be shown or logged: a password (in the user part or a `password=`
    /// parameter) becomes `***`.
    ///
    /// ```swift
    /// SyncProvider.redacted("postgres://ada:s3cret@db/notes")   // "postgres://ada:***@db/notes"
    /// ```
    public static func redacted(_ url: String) -> String {
        var characters = Array(url)
        // user:password@ in the authority (between "://" and the first / ? or #).
        if let scheme = firstIndex(of: Array("://"), in: characters, from: 0) {
            let start = scheme + 3
            let end = characters[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? characters.endIndex
            if let at = characters[start..<end].lastIndex(of: "@"),
               let colon = characters[start..<at].firstIndex(of: ":") {
                characters.replaceSubrange((colon + 1)..<at, with: Array("***"))
            }
        }
        // password=... in the query, up to the next & or #.
        var from = 0
        while let found = firstIndex(of: Array("password="), in: characters, from: from, caseInsensitive: true) {
            let valueStart = found + 9
            from = valueStart
            guard found > 0, characters[found - 1] == "?" || characters[found - 1] == "&" else { continue }
            let end = characters[valueStart...].firstIndex { $0 == "&" || $0 == "#" } ?? characters.endIndex
            characters.replaceSubrange(valueStart..<end, with: Array("***"))
            from = valueStart + 3
        }
        return String(characters)
    }

    private static func firstIndex(of needle: [Character], in haystack: [Character], from: Int, caseInsensitive: Bool = false) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = from
        while index + needle.count <= haystack.count {
            var matches = true
            for offset in 0..<needle.count {
                let a = haystack[index + offset], b = needle[offset]
                if caseInsensitive ? a.lowercased() != b.lowercased() : a != b { matches = false; break }
            }
            if matches { return index }
            index += 1
        }
        return nil
    }
}

extension Application {
    /// Whether synced values reach other machines now: `.local` without a server, else
    /// connecting, online or offline (with since when and why). Views that show it redraw when it
    /// changes; an `AppletApp` shows it in its top line and says when it goes offline.
    ///
    /// ```swift
    /// if case .offline(let since, _) = Application.state(\.syncStatus).value { ... }
    /// ```
    public var syncStatus: State<SyncStatus> { state(initial: .local, feature: "AppletState", id: "syncStatus") }

    /// The server this store's `SyncState` values are replicated to, or nil (the default) for
    /// this machine only. Setting one starts it at once: it sends what changed here while it
    /// could not, and takes in what changed elsewhere, for every value in the state folder
    /// (declared yet or not). `AppletApp` sets it from `--sync-url`.
    ///
    /// ```swift
    /// Application.shared.syncRemote = try SyncProvider.postgres.remote(url: url, appID: "notes")
    /// ```
    public var syncRemote: (any SyncRemote)? {
        get { syncCenter.remote }
        set {
            syncCenter.attach(newValue, directory: Path.join(storage.directory, "sync"), appID: storage.appID)
        }
    }
}
