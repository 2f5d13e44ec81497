import AppletState
import Foundation

/// Where the sync server is, read from a `postgres://` URL as libpq reads it (a subset):
///
/// ```text
/// postgres://[user[:password]@][host][:port][/database][?name=value&...]
/// ```
///
/// - `host` is a name or an address; empty, or a path (`%2Fvar%2Frun%2Fpostgresql`, or the
///   parameter `host=/var/run/postgresql`), means the Unix socket in that folder
///   (`/var/run/postgresql` by default).
/// - `port` 5432 by default; `database` the user's name by default; `user` the login name
///   (`PGUSER`, else `USER`).
/// - Parameters: `host`, `port`, `user`, `password`, `dbname`, `sslmode` (`disable`, `prefer`
///   (the default over TCP), `require`, `verify-ca`, `verify-full`), `sslrootcert` (a CA file for
///   the `verify-` modes), `connect_timeout` (seconds, 10 by default), `application_name`.
/// - Without a password in the URL, `PGPASSWORD` is used if set. A command line is visible to
///   every user of the machine (`ps`): prefer `PGPASSWORD`, or the app's `<APP>_SYNC_URL`.
///
/// ```swift
/// let url = try PostgresSyncURL("postgres://ada:s3cret@db.example:5433/notes?sslmode=require")
/// url.displayName   // "postgres://ada@db.example:5433/notes" (never the password)
/// ```
public struct PostgresSyncURL: Sendable, Equatable {
    public enum TLSMode: String, Sendable, Equatable {
        case disable, allow, prefer, require, verifyCA = "verify-ca", verifyFull = "verify-full"
    }

    public enum Address: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// The socket file: `<folder>/.s.PGSQL.<port>`.
        case unixSocket(folder: String, port: Int)
    }

    public var address: Address
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    public var rootCertificate: String?
    public var connectTimeout: Duration
    public var applicationName: String?

    /// Why a URL cannot be used.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads `url`; `environment` gives `PGPASSWORD`, `PGUSER` and `USER`.
    public init(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let shown = SyncProvider.redacted(url)
        guard let schemeEnd = url.range(of: "://") else {
            throw Invalid(description: "'\(shown)' is not a postgres:// URL (for example postgres://user@host/database)")
        }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw Invalid(description: "'\(shown)' is not a postgres:// URL: the scheme is '\(scheme)'")
        }
        var rest = String(url[schemeEnd.upperBound...])
        if let hash = rest.firstIndex(of: "#") { rest = String(rest[..<hash]) }
        var query = ""
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = String(rest[..<mark])
        }
        var path = ""
        if let slash = rest.firstIndex(of: "/") {
            path = String(rest[rest.index(after: slash)...])
            rest = String(rest[..<slash])
        }
        var userInfo: String?
        if let at = rest.lastIndex(of: "@") {
            userInfo = String(rest[..<at])
            rest = String(rest[rest.index(after: at)...])
        }
        func decoded(_ text: some StringProtocol, _ what: String) throws -> String {
            guard let value = String(text).removingPercentEncoding else {
                throw Invalid(description: "'\(shown)': the \(what) is not valid percent-encoding")
            }
            return value
        }
        var user: String?, password: String?
        if let userInfo {
            if let colon = userInfo.firstIndex(of: ":") {
                user = try decoded(userInfo[..<colon], "user")
                password = try decoded(userInfo[userInfo.index(after: colon)...], "password")
            } else {
                user = try decoded(userInfo, "user")
            }
        }
        // host[:port], with [v6] literals.
        var host = rest, portText: String?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw Invalid(description: "'\(shown)': an IPv6 address is missing its ']'") }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") { portText = String(after.dropFirst()) }
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            portText = String(host[host.index(after: colon)...])
            host = String(host[..<colon])
        }
        host = try decoded(host, "host")
        var database = path.isEmpty ? nil : try decoded(path, "database")
        var tls: TLSMode?
        var rootCertificate: String?
        var timeout = Duration.seconds(10)
        var applicationName: String?
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try decoded(parts[0], "parameter name")
            let value = parts.count > 1 ? try decoded(parts[1].replacingOccurrences(of: "+", with: " "), "value of \(name)") : ""
            switch name {
            case "host": host = value
            case "port": portText = value
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    throw Invalid(description: "'\(shown)': sslmode '\(value)' is not one of disable, prefer, require, verify-ca, verify-full")
                }
                tls = mode
            case "sslrootcert": rootCertificate = value
            case "connect_timeout":
                guard let seconds = Int(value), seconds > 0 else { throw Invalid(description: "'\(shown)': connect_timeout must be a number of seconds") }
                timeout = .seconds(seconds)
            case "application_name": applicationName = value
            default:
                throw Invalid(description: "'\(shown)': the parameter '\(name)' is not known here (known: host, port, user, password, dbname, sslmode, sslrootcert, connect_timeout, application_name)")
            }
        }
        var port = 5432
        if let portText, !portText.isEmpty {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw Invalid(description: "'\(shown)': the port '\(portText)' is not a number from 1 to 65535")
            }
            port = number
        }
        if host.isEmpty || host.hasPrefix("/") {
            address = .unixSocket(folder: host.isEmpty ? "/var/run/postgresql" : host, port: port)
        } else {
            address = .tcp(host: host, port: port)
        }
        let login = user ?? environment["PGUSER"] ?? environment["USER"] ?? Self.loginName()
        guard !login.isEmpty else { throw Invalid(description: "'\(shown)' names no user, and none was found in PGUSER or USER") }
        self.user = login
        self.password = password ?? environment["PGPASSWORD"]
        self.database = database.flatMap { $0.isEmpty ? nil : $0 } ?? login
        if case .unixSocket = address {
            self.tls = .disable   // libpq does not use TLS on a Unix socket either
        } else {
            self.tls = tls ?? .prefer
        }
        self.rootCertificate = rootCertificate
        connectTimeout = timeout
        self.applicationName = applicationName
    }

    /// The server, as messages show it: never the password.
    public var displayName: String {
        switch address {
        case .tcp(let host, let port):
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "postgres://\(user)@\(shownHost)\(port == 5432 ? "" : ":\(port)")/\(database)"
        case .unixSocket(let folder, let port):
            return "postgres://\(user)@/\(database)?host=\(folder)\(port == 5432 ? "" : "&port=\(port)")"
        }
    }

    /// Names the server and the database for the local copy's records (versions are per server).
    public var serverID: String {
        switch address {
        case .tcp(let host, let port): "\(user)@\(host.lowercased()):\(port)/\(database)"
        case .unixSocket(let folder, let port): "\(user)@unix:\(folder):\(port)/\(database)"
        }
    }

    private static func loginName() -> String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "" }
        return String(cString: name)
    }
}
