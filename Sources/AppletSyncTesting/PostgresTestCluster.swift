import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL server for tests and benchmarks of apps that sync: a cluster made with
/// `initdb` in a temporary folder, started with `pg_ctl` on a Unix socket in that folder (no TCP
/// port), trusting the user `appletkit`, and removed by `remove()`.
///
/// The server programs are looked for under `/usr/lib/postgresql/*/bin` (the newest version), or
/// in `APPLETKIT_PG_BIN`. As root (CI), they run as the `postgres` user, since PostgreSQL refuses
/// to run as root. If the test process dies without removing it, a watchdog stops the server and
/// removes the folder within a few seconds.
///
/// ```swift
/// let cluster = try await PostgresTestCluster.start()
/// defer { cluster.remove() }
/// let remote = try SyncProvider.postgres.remote(url: cluster.url, appID: "test")
/// try await cluster.stop()      // the server goes away mid-test...
/// try await cluster.restart()   // ...and comes back, with its data
/// ```
public final class PostgresTestCluster: Sendable {
    /// The temporary folder: `data/`, `socket/`, `server.log`.
    public let directory: String
    /// Where the server's socket is (`.s.PGSQL.5432`).
    public let socketDirectory: String
    public let dataDirectory: String
    public let logFile: String
    public let user = "appletkit"
    public let database = "postgres"
    public let port = 5432
    /// `initdb`, `pg_ctl`, `psql`'s folder.
    public let binDirectory: String
    /// The user the server runs as (nil: this process's).
    private let runAs: String?
    /// Whether commits wait for the disk, as on a server people use (off by default: tests want
    /// speed, not durability across a power cut).
    public let fsync: Bool

    /// The URL an app is given (`--sync-url`): the Unix socket, no password.
    public var url: String { "postgres://\(user)@/\(database)?host=\(socketDirectory)&port=\(port)&sslmode=disable" }

    /// Why a cluster could not be made or driven, with the program's own output.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private init(directory: String, binDirectory: String, runAs: String?, fsync: Bool) {
        self.fsync = fsync
        self.directory = directory
        socketDirectory = directory + "/socket"
        dataDirectory = directory + "/data"
        logFile = directory + "/server.log"
        self.binDirectory = binDirectory
        self.runAs = runAs
    }

    /// Makes and starts a cluster. Throws `Failure` with a message saying what is missing or what
    /// the server said, never a silent skip. `fsync: true` for a benchmark of what users see.
    public static func start(fsync: Bool = false) async throws -> PostgresTestCluster {
        let bin = try findBinaries()
        let runAs: String? = geteuid() == 0 ? try serviceUser() : nil
        var template = Array("/tmp/appletkit-pg-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw Failure(description: "cannot make a temporary folder for PostgreSQL: \(String(cString: strerror(errno)))")
        }
        let directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let cluster = PostgresTestCluster(directory: directory, binDirectory: bin, runAs: runAs, fsync: fsync)
        do {
            try FileManager.default.createDirectory(atPath: cluster.socketDirectory, withIntermediateDirectories: true)
            if let runAs, let entry = getpwnam(runAs) {
                for path in [directory, cluster.socketDirectory] { chown(path, entry.pointee.pw_uid, entry.pointee.pw_gid) }
            }
            let initdb = try await cluster.run(bin + "/initdb", ["-D", cluster.dataDirectory, "-A", "trust", "-U", cluster.user,
                                                                 "-E", "UTF8", "--locale=C", "--no-sync"])
            guard initdb.status == 0 else {
                throw Failure(description: "initdb failed (status \(initdb.status)):\n\(initdb.output)")
            }
            try await cluster.restart()
            cluster.startWatchdog()
        } catch {
            cluster.remove()
            throw error
        }
        return cluster
    }

    /// Starts the server (again, after `stop()`), waiting until it takes connections.
    public func restart() async throws {
        let durability = fsync ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        let options = "-k \(socketDirectory) -c listen_addresses='' -p \(port)" + durability
        let result = try await run(binDirectory + "/pg_ctl", ["-D", dataDirectory, "-l", logFile, "-w", "-t", "120", "-o", options, "start"])
        guard result.status == 0 else {
            let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "(no server log)"
            throw Failure(description: "pg_ctl start failed (status \(result.status)):\n\(result.output)\nserver log:\n\(log.suffix(4000))")
        }
    }

    /// Stops the server (`pg_ctl stop -m fast`: clients are disconnected at once), keeping its data.
    public func stop() async throws {
        let result = try await run(binDirectory + "/pg_ctl", ["-D", dataDirectory, "-w", "-t", "60", "-m", "fast", "stop"])
        guard result.status == 0 else { throw Failure(description: "pg_ctl stop failed (status \(result.status)):\n\(result.output)") }
    }

    /// Runs SQL with `psql` and returns its output (unaligned, tuples only: `a|b` per row).
    @discardableResult
    public func sql(_ statement: String) async throws -> String {
        let result = try await run(binDirectory + "/psql", ["-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-p", String(port),
                                                              "-U", user, "-d", database, "-c", statement], asServiceUser: false)
        guard result.status == 0 else { throw Failure(description: "psql failed (status \(result.status)) on \(statement):\n\(result.output)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server at once (`-m immediate`) and removes the folder. Synchronous, so it can run
    /// from a `defer`; safe to call twice.
    public func remove() {
        if FileManager.default.fileExists(atPath: dataDirectory + "/postmaster.pid") {
            _ = Self.spawnAndWait(command(binDirectory + "/pg_ctl", ["-D", dataDirectory, "-w", "-t", "30", "-m", "immediate", "stop"], asServiceUser: true), output: nil)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: Helpers

    /// The server programs' folder: APPLETKIT_PG_BIN, else the newest /usr/lib/postgresql/*/bin
    /// with initdb and pg_ctl.
    public static func findBinaries() throws -> String {
        if let given = ProcessInfo.processInfo.environment["APPLETKIT_PG_BIN"], !given.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: given + "/initdb") else {
                throw Failure(description: "APPLETKIT_PG_BIN=\(given) has no initdb")
            }
            return given
        }
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap { name -> (Int, String)? in Int(name).map { ($0, "\(root)/\(name)/bin") } }
            .sorted { $0.0 > $1.0 }
        for (_, bin) in versions where ["initdb", "pg_ctl", "postgres", "psql"].allSatisfy({ FileManager.default.isExecutableFile(atPath: "\(bin)/\($0)") }) {
            return bin
        }
        throw Failure(description: "PostgreSQL's server programs (initdb, pg_ctl, postgres, psql) were not found under \(root)/*/bin. Install them with `apt-get install postgresql` (`make test` does), or set APPLETKIT_PG_BIN to their folder.")
    }

    /// As root, the user the server runs as: `postgres` (Debian's package makes it), else `nobody`.
    private static func serviceUser() throws -> String {
        for name in ["postgres", "nobody"] where getpwnam(name) != nil { return name }
        throw Failure(description: "running as root, and neither a 'postgres' nor a 'nobody' user exists to run PostgreSQL as (it refuses to run as root)")
    }

    private func command(_ executable: String, _ arguments: [String], asServiceUser: Bool) -> [String] {
        guard asServiceUser, let runAs else { return [executable] + arguments }
        let runuser = ["/usr/sbin/runuser", "/sbin/runuser"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "runuser"
        return [runuser, "-u", runAs, "--", executable] + arguments
    }

    private struct Result {
        var status: Int32
        var output: String
    }

    private func run(_ executable: String, _ arguments: [String], asServiceUser: Bool = true) async throws -> Result {
        let argv = command(executable, arguments, asServiceUser: asServiceUser)
        let outputPath = directory + "/.out-\(UUID().uuidString.prefix(8))"
        defer { unlink(outputPath) }
        let status: Int32 = await withCheckedContinuation { continuation in
            // A thread of its own waits: never a thread of the cooperative pool.
            Thread.detachNewThread {
                continuation.resume(returning: Self.spawnAndWait(argv, output: outputPath))
            }
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status != -1 else { throw Failure(description: "could not start \(argv.joined(separator: " ")): \(output)") }
        return Result(status: status, output: output)
    }

    /// posix_spawn with no signal blocked (Swift's threads block most, and a server started with
    /// SIGTERM blocked would never stop), stdout and stderr to `output`; returns the exit status.
    private static func spawnAndWait(_ argv: [String], output: String?) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        cArguments.append(nil)
        defer { for argument in cArguments { free(argument) } }
        var pid = pid_t()
        let spawned = argv[0].hasPrefix("/")
            ? posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, environ)
            : posix_spawnp(&pid, argv[0], &actions, &attributes, cArguments, environ)
        guard spawned == 0 else {
            if let output { try? "\(argv[0]): \(String(cString: strerror(spawned)))".write(toFile: output, atomically: false, encoding: .utf8) }
            return -1
        }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }

    /// A shell that stops the server and removes the folder once this process is gone (a crash,
    /// a killed test run), checking every two seconds; it ends by itself after `remove()`.
    private func startWatchdog() {
        let stop = command(binDirectory + "/pg_ctl", ["-D", dataDirectory, "-m", "immediate", "stop"], asServiceUser: true)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let script = """
            while kill -0 \(getpid()) 2>/dev/null && [ -d '\(directory)' ]; do sleep 2; done
            if [ -d '\(directory)' ]; then \(stop) >/dev/null 2>&1; rm -rf '\(directory)'; fi
            """
        var pid = pid_t()
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        // A process group of its own: a Ctrl-C to the test run does not end it before its work.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let shell: [String] = ["/bin/sh", "-c", script]
        var arguments: [UnsafeMutablePointer<CChar>?] = shell.map { strdup($0) }
        arguments.append(nil)
        defer { for argument in arguments { free(argument) } }
        if posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environ) == 0 {
            // Reaped by a thread of its own, so it never lingers as a zombie.
            let child = pid
            Thread.detachNewThread {
                var raw: Int32 = 0
                while waitpid(child, &raw, 0) < 0 && errno == EINTR {}
            }
        }
    }
}
