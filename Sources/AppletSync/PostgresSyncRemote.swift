import AppletState
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// Replicates an app's `SyncState` values through a PostgreSQL table, every instance being told
/// of a change made elsewhere by `LISTEN`/`NOTIFY`.
///
/// One connection per instance. On connecting it makes the table if missing, listens on the
/// `appletkit_sync` channel, takes in every value changed since (newer than the local copy's),
/// hears of the conflicts it lost while away, and sends every change made here meanwhile (kept
/// in the state folder, so a quit while offline loses nothing). Then each change made here is
/// sent at once, and each notification from another instance written into the local copy.
/// When the connection fails it says so (`Application.syncStatus` goes `.offline`) and tries
/// again after 0.5, 1, 2, 4, 8, then every 15 seconds (waiting on `MainQueueClock`), at once
/// when a change is made here; connected and idle, it sets no timer and wakes nothing (the
/// connection uses TCP keepalive, which the kernel runs, to notice a peer that vanished). A
/// connection's own timeouts, cancelled once it is made, still end once each: the last about
/// `connect_timeout` (10 s) after it was made.
///
/// ```swift
/// let remote = try PostgresSyncRemote(url: "postgres://ada@db.example/notes", appID: "notes")
/// Application.shared.syncRemote = remote
/// ```
///
/// Concurrent writes resolve last-writer-wins by the server's clock: the write the server takes
/// last is kept everywhere, and the value it replaced without having seen it is reported on both
/// sides (`SyncConflict`), in `Application.storeIssues`.
public final class PostgresSyncRemote: SyncRemote {
    public let url: PostgresSyncURL
    public let appID: String
    public var serverID: String { url.serverID }
    public var displayName: String { url.displayName }

    private let logger: Logger
    private let tls: PostgresConnection.Configuration.TLS
    /// Every connection of this remote on one event loop: a connection's timeouts (cancelled once
    /// it is made) end in one thread, never wake another.
    private let eventLoop: any EventLoop
    private let inbox = SyncInbox()
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let online = Atomic<Bool>(false)
    /// Changes told by `localChange` and not yet sent (or found sent already).
    private let outstanding = Atomic<Int>(0)
    private static let connectionIDs = Atomic<Int>(0)

    /// Figures for benchmarks and tests: notifications taken in, changes sent, connections made.
    public let counters = Counters()

    public final class Counters: Sendable {
        public let received = Atomic<Int>(0)
        public let sent = Atomic<Int>(0)
        public let connections = Atomic<Int>(0)
    }

    /// A remote for `url` (see `PostgresSyncURL`) replicating the app `appID`'s values. Throws
    /// `PostgresSyncURL.Invalid` for a URL it cannot use, or a TLS error for a `sslrootcert` it
    /// cannot read.
    public init(url: String, appID: String, logger: Logger = Logger(label: "AppletSync"),
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.url = try PostgresSyncURL(url, environment: environment)
        self.appID = appID
        self.logger = logger
        tls = try Self.tls(for: self.url)
        eventLoop = MultiThreadedEventLoopGroup.singleton.next()
    }

    // MARK: SyncRemote

    public func start(_ replica: SyncReplica) {
        let started = Task.detached { [self] in await self.run(replica) }
        task.withLock { $0?.cancel(); $0 = started }
    }

    public func localChange(_ key: SyncKey) {
        outstanding.add(1, ordering: .relaxed)
        inbox.local(key)
    }

    @discardableResult
    public func finishPending(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while outstanding.load(ordering: .acquiring) > 0 {
            // Offline: what was not sent is kept in the state folder for the next connection.
            guard online.load(ordering: .acquiring), ContinuousClock.now < deadline else { return false }
            usleep(2_000)
        }
        return true
    }

    public func stop() {
        task.withLock { $0?.cancel(); $0 = nil }
    }

    // MARK: The connection's life

    private func run(_ replica: SyncReplica) async {
        var attempt = 0
        var offlineSince: Date?
        var lastReason = ""
        while !Task.isCancelled {
            let began = ContinuousClock.now
            do {
                let connection = try await connect()
                counters.connections.add(1, ordering: .relaxed)
                attempt = 0
                do {
                    try await session(connection, replica) {
                        if let since = offlineSince {
                            logger.notice("sync: back online with \(displayName) after \(Int(Date().timeIntervalSince(since))) s offline")
                        } else {
                            logger.info("sync: online with \(displayName)")
                        }
                        offlineSince = nil
                        lastReason = ""
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
            } catch {
                online.store(false, ordering: .releasing)
                if Task.isCancelled { break }
                let reason = Self.describe(error)
                if offlineSince == nil {
                    offlineSince = Date()
                    logger.warning("sync: offline, changes are kept here until \(displayName) is back: \(reason)")
                } else if reason != lastReason {
                    logger.info("sync: still offline: \(reason)")
                }
                lastReason = reason
                replica.setStatus(.offline(since: offlineSince ?? Date(), reason: reason))
            }
            // Wait before the next attempt; a change made here cuts it short, but attempts stay
            // a second apart.
            let delay = Self.backoff(attempt)
            attempt += 1
            await inbox.waitForLocalChange(upTo: delay)
            let since = began.duration(to: .now)
            if since < .seconds(1), !Task.isCancelled { try? await MainQueueClock().sleep(for: .seconds(1) - since) }
        }
        online.store(false, ordering: .releasing)
    }

    /// 0.5, 1, 2, 4, 8, then 15 seconds, each ±20%.
    static func backoff(_ attempt: Int) -> Duration {
        let base = min(15.0, 0.5 * pow(2.0, Double(min(attempt, 5))))
        return .milliseconds(Int(base * Double.random(in: 0.8...1.2) * 1000))
    }

    private func connect() async throws -> PostgresConnection {
        let timeout = TimeAmount.nanoseconds(Int64(url.connectTimeout.components.seconds) * 1_000_000_000)
        let channel: any Channel
        var serverName: String?
        switch url.address {
        case .unixSocket(let folder, let port):
            channel = try await ClientBootstrap(group: eventLoop)
                .connectTimeout(timeout)
                .connect(unixDomainSocketPath: "\(folder)/.s.PGSQL.\(port)").get()
        case .tcp(let host, let port):
            // Resolved here (getaddrinfo, on this task's thread) rather than by NIO, whose
            // resolver runs on a Dispatch queue: the first job there starts a thread that wakes
            // every second for the rest of the process.
            let address = try SocketAddress.makeAddressResolvingHost(host, port: port)
            if !(host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." })) { serverName = host }
            channel = try await ClientBootstrap(group: eventLoop)
                .connectTimeout(timeout)
                .channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
                .channelOption(ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: TCP_KEEPIDLE)), value: 30)
                .channelOption(ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: TCP_KEEPINTVL)), value: 10)
                .channelOption(ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: TCP_KEEPCNT)), value: 3)
                .channelOption(ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: TCP_USER_TIMEOUT)), value: 60_000)
                .connect(to: address).get()
        }
        var configuration = PostgresConnection.Configuration(establishedChannel: channel, tls: tls, username: url.user,
                                                             password: url.password, database: url.database)
        configuration.options.connectTimeout = timeout
        configuration.options.tlsServerName = serverName
        configuration.options.additionalStartupParameters = [
            ("application_name", url.applicationName ?? "\(appID) (AppletKit sync)"),
            // A write that waits longer than this fails, and the connection is made again.
            ("statement_timeout", "30000"),
        ]
        do {
            return try await PostgresConnection.connect(on: eventLoop, configuration: configuration,
                                                        id: Self.connectionIDs.add(1, ordering: .relaxed).newValue, logger: logger)
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// One connection: the schema, `LISTEN`, catching up, then changes both ways until it fails.
    private func session(_ connection: PostgresConnection, _ replica: SyncReplica, online announce: () -> Void) async throws {
        try await connection.query(PostgresQuery(unsafeSQL: PostgresSyncSchema.setup), logger: logger)
        try await connection.listen(on: PostgresSyncSchema.channel) { notifications in
            try await withThrowingTaskGroup(of: Void.self) { group in
                let inbox = self.inbox
                group.addTask {
                    for try await notification in notifications { inbox.notify(notification.payload) }
                    throw ConnectionEnded()
                }
                group.addTask { try await self.catchUp(connection, replica) }
                // Catching up ends first (or the connection does).
                try await group.next()
                self.online.store(true, ordering: .releasing)
                replica.setStatus(.online(self.displayName))
                announce()
                group.addTask { try await self.serve(connection, replica) }
                defer { group.cancelAll() }
                try await group.next()
            }
        }
    }

    private struct ConnectionEnded: Error, CustomStringConvertible {
        var description: String { "the server closed the connection" }
    }

    /// Takes in what changed elsewhere since the local copy last heard, then sends what changed here.
    private func catchUp(_ connection: PostgresConnection, _ replica: SyncReplica) async throws {
        var taken = 0
        for record in try await fetch(connection, key: nil) where replica.apply(record) { taken += 1 }
        try await takeConflicts(connection, replica)
        let pending = replica.pendingChanges()
        for change in pending { try await send(change, connection, replica) }
        if taken > 0 || !pending.isEmpty {
            logger.info("sync: took in \(taken) value(s) changed elsewhere, sent \(pending.count) changed here")
        }
    }

    /// Changes both ways, for as long as the connection lasts.
    private func serve(_ connection: PostgresConnection, _ replica: SyncReplica) async throws {
        while true {
            let batch = try await inbox.next()
            defer { outstanding.subtract(batch.localCount, ordering: .releasing) }
            var lost = false
            for payload in batch.notifications {
                guard let notice = Notice(payload), notice.app == appID else { continue }
                if notice.conflictLoser == replica.replicaID { lost = true }
                guard notice.writer != replica.replicaID else { continue }
                counters.received.add(1, ordering: .relaxed)
                if let record = notice.record {
                    replica.apply(record)
                } else {
                    for record in try await fetch(connection, key: notice.key) { replica.apply(record) }
                }
            }
            for key in batch.keys {
                if let change = replica.pendingChange(for: key) { try await send(change, connection, replica) }
            }
            if lost { try await takeConflicts(connection, replica) }
        }
    }

    // MARK: Statements

    private func send(_ change: SyncPendingChange, _ connection: PostgresConnection, _ replica: SyncReplica) async throws {
        let rows = try await connection.query("""
            SELECT r_version, r_micros, r_lost_value, r_lost_micros, r_lost_writer_name
            FROM appletkit_sync_put(\(appID), \(change.key.feature), \(change.key.id), \(change.json)::json,
                                    \(change.baseVersion), \(replica.replicaID), \(replica.hostName))
            """, logger: logger)
        for try await (version, micros, lostValue, lostMicros, lostWriter) in rows.decode((Int64, Int64, String?, Int64?, String?).self) {
            replica.confirm(change, version: version)
            counters.sent.add(1, ordering: .relaxed)
            logger.debug("sync: sent \(change.key) as version \(version)")
            if let lostMicros {
                let conflict = SyncConflict(key: change.key, side: .theirsLost, lostJSON: lostValue, lostAt: Self.date(lostMicros),
                                            lostWriterName: lostWriter ?? "another machine",
                                            wonJSON: change.json, wonAt: Self.date(micros), wonWriterName: replica.hostName)
                logger.notice("sync: conflict: \(conflict.message)")
                replica.report(conflict)
            }
        }
    }

    /// The app's rows, or one value's.
    private func fetch(_ connection: PostgresConnection, key: SyncKey?) async throws -> [SyncRecord] {
        let rows: PostgresRowSequence
        if let key {
            rows = try await connection.query("""
                SELECT feature, id, value::text, version, (extract(epoch FROM updated_at) * 1000000)::bigint, writer, writer_name
                FROM appletkit_sync WHERE app = \(appID) AND feature = \(key.feature) AND id = \(key.id) AND version > 0
                """, logger: logger)
        } else {
            rows = try await connection.query("""
                SELECT feature, id, value::text, version, (extract(epoch FROM updated_at) * 1000000)::bigint, writer, writer_name
                FROM appletkit_sync WHERE app = \(appID) AND version > 0
                """, logger: logger)
        }
        var records: [SyncRecord] = []
        for try await (feature, id, json, version, micros, writer, writerName) in rows.decode((String, String, String?, Int64, Int64, String, String).self) {
            records.append(SyncRecord(key: SyncKey(feature: feature, id: id), json: json, version: version,
                                      updatedAt: Self.date(micros), writer: writer, writerName: writerName))
        }
        return records
    }

    /// Conflicts this folder lost (while it was away, or just now): reported once, then deleted.
    private func takeConflicts(_ connection: PostgresConnection, _ replica: SyncReplica) async throws {
        let rows = try await connection.query("""
            DELETE FROM appletkit_sync_conflicts WHERE app = \(appID) AND lost_writer = \(replica.replicaID)
            RETURNING serial, feature, id, lost_value::text, (extract(epoch FROM lost_at) * 1000000)::bigint,
                      won_value::text, (extract(epoch FROM won_at) * 1000000)::bigint, won_writer_name
            """, logger: logger)
        var conflicts: [(Int64, SyncConflict)] = []
        for try await (serial, feature, id, lostValue, lostMicros, wonValue, wonMicros, wonWriter) in
            rows.decode((Int64, String, String, String?, Int64, String?, Int64, String).self) {
            conflicts.append((serial, SyncConflict(key: SyncKey(feature: feature, id: id), side: .oursLost,
                                                   lostJSON: lostValue, lostAt: Self.date(lostMicros), lostWriterName: replica.hostName,
                                                   wonJSON: wonValue, wonAt: Self.date(wonMicros), wonWriterName: wonWriter)))
        }
        for (_, conflict) in conflicts.sorted(by: { $0.0 < $1.0 }) {
            logger.notice("sync: conflict: \(conflict.message)")
            replica.report(conflict)
        }
    }

    // MARK: Helpers

    /// A notification: `{"a": app, "f": feature, "i": id, "v": version, "t": micros, "w": writer,
    /// "n": writer name, "c": the writer whose value lost or null, "x": the value (absent with
    /// "big": true when it did not fit)}`.
    struct Notice: Decodable {
        let a: String
        let f: String
        let i: String
        let v: Int64
        let t: Int64
        let w: String
        let n: String
        let c: String?
        let big: Bool?
        let json: String??

        enum CodingKeys: String, CodingKey { case a, f, i, v, t, w, n, c, x, big }

        init?(_ payload: String) {
            guard let notice = try? JSONDecoder().decode(Notice.self, from: Data(payload.utf8)) else { return nil }
            self = notice
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            a = try container.decode(String.self, forKey: .a)
            f = try container.decode(String.self, forKey: .f)
            i = try container.decode(String.self, forKey: .i)
            v = try container.decode(Int64.self, forKey: .v)
            t = try container.decode(Int64.self, forKey: .t)
            w = try container.decode(String.self, forKey: .w)
            n = try container.decode(String.self, forKey: .n)
            c = try container.decodeIfPresent(String.self, forKey: .c)
            big = try container.decodeIfPresent(Bool.self, forKey: .big)
            if container.contains(.x) {
                if try container.decodeNil(forKey: .x) {
                    json = .some(nil)
                } else {
                    let value = try container.decode(JSONValue.self, forKey: .x)
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    json = .some(String(decoding: try encoder.encode(value), as: UTF8.self))
                }
            } else {
                json = nil
            }
        }

        var app: String { a }
        var writer: String { w }
        var conflictLoser: String? { c }
        var key: SyncKey { SyncKey(feature: f, id: i) }

        /// The record, when the notification carries the value.
        var record: SyncRecord? {
            guard big != true, let json else { return nil }
            return SyncRecord(key: key, json: json, version: v, updatedAt: PostgresSyncRemote.date(t), writer: w, writerName: n)
        }
    }

    static func date(_ micros: Int64) -> Date { Date(timeIntervalSince1970: Double(micros) / 1_000_000) }

    /// Why the connection failed, in a few words (never the URL's password: errors do not carry it).
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return describe(underlying) }
            switch error.code {
            case .serverClosedConnection, .uncleanShutdown: return "the server closed the connection"
            case .clientClosedConnection: return "the connection was closed"
            case .sslUnsupported: return "the server does not take TLS connections (sslmode=disable to connect without)"
            case .authMechanismRequiresPassword: return "the server asks for a password (add it to the URL, or set PGPASSWORD)"
            default: return "\(error.code)"
            }
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        if let error = error as? ChannelError, case .connectTimeout = error { return "timed out connecting" }
        if let error = error as? SocketAddressError { return "\(error)" }
        return "\(error)"
    }

    private static func tls(for url: PostgresSyncURL) throws -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch url.tls {
        case .disable:
            return .disable
        case .allow, .prefer, .require:
            // As libpq: encrypted, but the certificate is not checked (use verify-full for that).
            configuration.certificateVerification = .none
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
        }
        if let file = url.rootCertificate { configuration.trustRoots = .file(file) }
        let context = try NIOSSLContext(configuration: configuration)
        return url.tls == .require || url.tls == .verifyCA || url.tls == .verifyFull ? .require(context) : .prefer(context)
    }
}

extension SyncProvider {
    /// PostgreSQL, through AppletSync: `--sync-url postgres://user@host/database` (see
    /// `PostgresSyncURL` for the rest of the URL, and Docs/PersistentState.md for the table).
    ///
    /// ```swift
    /// @main struct NotesApp: AppletApp {
    ///     static let syncProvider: SyncProvider? = .postgres
    ///     var tabs: [Tab] { [Tab(NotesApplet())] }
    /// }
    /// ```
    public static let postgres = SyncProvider(
        name: "PostgreSQL",
        schemes: ["postgres", "postgresql"],
        validate: { _ = try PostgresSyncURL($0) },
        make: { try PostgresSyncRemote(url: $0, appID: $1) }
    )
}
