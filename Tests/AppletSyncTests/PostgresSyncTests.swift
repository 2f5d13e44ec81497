import AppletState
@testable import AppletSync
import AppletSyncTesting
import Foundation
import Testing

/// Two instances of an app (two stores, each with a state folder of its own, as on two machines)
/// and one real PostgreSQL server: values go both ways, through the table and NOTIFY.
@Suite("Sync through PostgreSQL", .postgresServer)
struct PostgresSyncTests {
    @Test("A change in one instance reaches the other while both run, and the table holds it")
    func changeReachesTheOther() async throws {
        let cluster = try PostgresServer.cluster()
        let app = uniqueApp()
        let a = try Instance(app: app, url: cluster.url), b = try Instance(app: app, url: cluster.url)
        defer { a.remove(); b.remove() }
        // Declared before the change, as a view on screen would have it.
        #expect(b.application.syncedGoal.value == 20)
        await eventually("both online", state: { "\(a.status) / \(b.status)" }) { isOnline(a.status) && isOnline(b.status) }

        a.application.syncedGoal.value = 25
        await eventually("B to take 25", state: { "B has \(b.application.syncedGoal.value)" }) { b.application.syncedGoal.value == 25 }
        b.application.syncedGoal.value = 30
        await eventually("A to take 30", state: { "A has \(a.application.syncedGoal.value)" }) { a.application.syncedGoal.value == 30 }

        let row = try await cluster.sql("SELECT value::text, version FROM appletkit_sync WHERE app = '\(app)' AND feature = 'Test' AND id = 'goal'")
        #expect(row == "30|2", "the row: \(row)")
        // Nobody's value was lost: no conflict.
        #expect(a.issues.isEmpty && b.issues.isEmpty, "\(a.issues) \(b.issues)")
        // The local copy on B's side is the file every instance on B's machine reads.
        let file = try String(contentsOfFile: b.folder + "/sync/Test.goal.json", encoding: .utf8)
        #expect(file == "30", "B's local copy: \(file)")
    }

    @Test("A value too large for a notification is fetched; a reset reaches the other as the initial value")
    func largeValuesAndResets() async throws {
        let cluster = try PostgresServer.cluster()
        let app = uniqueApp()
        let a = try Instance(app: app, url: cluster.url), b = try Instance(app: app, url: cluster.url)
        defer { a.remove(); b.remove() }
        _ = b.application.syncedList.value
        await eventually("both online") { isOnline(a.status) && isOnline(b.status) }

        let large = (0..<400).map { "line \($0) of a value larger than the 8000 bytes a notification carries" }
        a.application.syncedList.value = large
        await eventually("B to take the large value", state: { "B has \(b.application.syncedList.value.count) lines" }) {
            b.application.syncedList.value == large
        }
        a.application.syncedList.reset()
        await eventually("B to go back to the initial value", state: { "B has \(b.application.syncedList.value.count) lines" }) {
            b.application.syncedList.value.isEmpty
        }
        #expect(!FileManager.default.fileExists(atPath: b.folder + "/sync/Test.list.json"), "B's file should be gone after the reset")
    }

    @Test("A value saved before the folder synced is sent; one declared later is taken from the server")
    func valuesSavedBeforeSyncing() async throws {
        let cluster = try PostgresServer.cluster()
        let app = uniqueApp()
        // A's folder has a value from before it synced.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appletsync-\(UUID().uuidString.prefix(8))").path
        let before = Application()
        before.storage = StorageConfiguration(appID: app, directory: folder)
        before.syncedText.value = "written before syncing"
        let a = try Instance(app: app, url: cluster.url, folder: folder)
        defer { a.remove() }
        _ = a.application.syncedText.value
        await eventually("the old value on the server", state: { "status \(a.status)" }) {
            (try? String(contentsOfFile: folder + "/sync/remote/Test.text.json", encoding: .utf8))?.contains("\"pending\":false") == true
        }
        let row = try await cluster.sql("SELECT value::text FROM appletkit_sync WHERE app = '\(app)' AND id = 'text'")
        #expect(row == "\"written before syncing\"")

        // B starts later and has never declared it: the value arrives in its folder all the same,
        // and a declaration reads it.
        let b = try Instance(app: app, url: cluster.url)
        defer { b.remove() }
        await eventually("B's folder to have the value") {
            (try? String(contentsOfFile: b.folder + "/sync/Test.text.json", encoding: .utf8)) == "\"written before syncing\""
        }
        #expect(b.application.syncedText.value == "written before syncing")
    }

    @Test("Two writes made on the same version elsewhere: the later wins in every instance, and the server records the conflict")
    func serverOrderDecides() async throws {
        let cluster = try PostgresServer.cluster()
        let app = uniqueApp()
        let a = try Instance(app: app, url: cluster.url), b = try Instance(app: app, url: cluster.url)
        defer { a.remove(); b.remove() }
        _ = a.application.syncedGoal.value
        _ = b.application.syncedGoal.value
        await eventually("both online") { isOnline(a.status) && isOnline(b.status) }
        a.application.syncedGoal.value = 21   // version 1
        await eventually("B to take 21") { b.application.syncedGoal.value == 21 }

        // Two other writers, each on version 1 without seeing the other: the server takes 50
        // first, then 60, which wins; 50 is recorded as lost (its writer is told when it connects).
        try await cluster.sql("""
            SELECT * FROM appletkit_sync_put('\(app)', 'Test', 'goal', '50', 1, 'elsewhere', 'host-c');
            SELECT * FROM appletkit_sync_put('\(app)', 'Test', 'goal', '60', 1, 'other', 'host-d')
            """)
        await eventually("both to take 60, the later write", state: { "A \(a.application.syncedGoal.value) B \(b.application.syncedGoal.value)" }) {
            a.application.syncedGoal.value == 60 && b.application.syncedGoal.value == 60
        }
        let conflicts = try await cluster.sql("SELECT lost_value::text, lost_writer_name, won_value::text, won_writer_name FROM appletkit_sync_conflicts WHERE app = '\(app)'")
        #expect(conflicts == "50|host-c|60|host-d", "the conflict the server recorded: \(conflicts)")
        // Neither instance lost anything of its own.
        #expect(a.issues.isEmpty && b.issues.isEmpty, "\(a.issues) \(b.issues)")
    }
}

/// Conflicts between the two real instances, and the server going away: each test has a server
/// of its own, which it stops and starts.
@Suite("Sync through PostgreSQL, offline")
struct PostgresSyncOfflineTests {
    @Test("Changes made while the server is down are kept, survive a restart of the app, and reach the other instance")
    func offlineChangesSurviveAndCatchUp() async throws {
        try await withOwnCluster { cluster in
            let app = uniqueApp()
            var a = try Instance(app: app, url: cluster.url)
            let b = try Instance(app: app, url: cluster.url)
            defer { a.remove(); b.remove() }
            _ = a.application.syncedGoal.value
            _ = b.application.syncedGoal.value
            await eventually("both online") { isOnline(a.status) && isOnline(b.status) }

            try await cluster.stop()
            await eventually("both to say they are offline", state: { "\(a.status) / \(b.status)" }) {
                a.status.isOffline && b.status.isOffline
            }
            // A change made offline: kept in A's folder, marked as not sent.
            a.application.syncedGoal.value = 45
            #expect(a.application.syncedGoal.value == 45)
            let record = try String(contentsOfFile: a.folder + "/sync/remote/Test.goal.json", encoding: .utf8)
            #expect(record.contains("\"pending\":true"), "A's record of the change: \(record)")

            // A quits while offline and starts again on the same folder.
            let folder = a.folder
            a.stop()
            a = try Instance(app: app, url: cluster.url, folder: folder)
            #expect(a.application.syncedGoal.value == 45)

            try await cluster.restart()
            await eventually("B to take A's offline change", state: { "B has \(b.application.syncedGoal.value), \(b.status); A \(a.status)" }) {
                b.application.syncedGoal.value == 45
            }
            await eventually("both online again") { isOnline(a.status) && isOnline(b.status) }
            let record2 = try String(contentsOfFile: folder + "/sync/remote/Test.goal.json", encoding: .utf8)
            #expect(record2.contains("\"pending\":false"), "A's record after sending: \(record2)")
            #expect(a.issues.isEmpty && b.issues.isEmpty, "\(a.issues) \(b.issues)")
        }
    }

    @Test("Both instances change the value while the server is down: the later write wins, and the conflict is reported on both sides")
    func offlineConflictIsReported() async throws {
        try await withOwnCluster { cluster in
            let app = uniqueApp()
            let a = try Instance(app: app, url: cluster.url), b = try Instance(app: app, url: cluster.url)
            defer { a.remove(); b.remove() }
            _ = a.application.syncedGoal.value
            _ = b.application.syncedGoal.value
            await eventually("both online") { isOnline(a.status) && isOnline(b.status) }
            a.application.syncedGoal.value = 22
            await eventually("B to take 22") { b.application.syncedGoal.value == 22 }

            try await cluster.stop()
            await eventually("both offline") { a.status.isOffline && b.status.isOffline }
            a.application.syncedGoal.value = 70
            b.application.syncedGoal.value = 80
            try await cluster.restart()

            await eventually("both to agree", state: { "A \(a.application.syncedGoal.value) B \(b.application.syncedGoal.value)" }) {
                let (x, y) = (a.application.syncedGoal.value, b.application.syncedGoal.value)
                return x == y && (x == 70 || x == 80)
            }
            let winner = a.application.syncedGoal.value
            await eventually("each side to be told", state: { "A: \(a.issues) B: \(b.issues)" }) {
                a.issues.contains { $0.contains("Test.goal") } && b.issues.contains { $0.contains("Test.goal") }
            }
            let (won, lost) = winner == 70 ? (a, b) : (b, a)
            let loser = winner == 70 ? "80" : "70"
            #expect(lost.issues.contains { $0.contains("your change to '\(loser)'") && $0.contains("was replaced by '\(winner)'") }, "\(lost.issues)")
            #expect(won.issues.contains { $0.contains("your change to '\(winner)'") && $0.contains("replaced '\(loser)'") }, "\(won.issues)")
            let row = try await cluster.sql("SELECT value::text FROM appletkit_sync WHERE app = '\(app)' AND id = 'goal'")
            #expect(row == "\(winner)")
        }
    }
}

/// What needs no server: the URL.
@Suite("Sync URLs")
struct PostgresSyncURLTests {
    @Test func tcpWithEverything() throws {
        let url = try PostgresSyncURL("postgres://ada:s%40cret@db.example:5433/notes?sslmode=require&connect_timeout=3", environment: [:])
        #expect(url.address == .tcp(host: "db.example", port: 5433))
        #expect(url.user == "ada" && url.password == "s@cret" && url.database == "notes")
        #expect(url.tls == .require && url.connectTimeout == .seconds(3))
        #expect(url.displayName == "postgres://ada@db.example:5433/notes")
        #expect(!url.serverID.contains("s@cret"))
    }

    @Test func unixSocketsAndDefaults() throws {
        let socket = try PostgresSyncURL("postgresql://bo@/appdb?host=/tmp/pg", environment: [:])
        #expect(socket.address == .unixSocket(folder: "/tmp/pg", port: 5432) && socket.tls == .disable)
        let encoded = try PostgresSyncURL("postgres://%2Fvar%2Frun%2Fpostgresql/db", environment: ["USER": "carol", "PGPASSWORD": "pw"])
        #expect(encoded.address == .unixSocket(folder: "/var/run/postgresql", port: 5432))
        #expect(encoded.user == "carol" && encoded.password == "pw")
        let bare = try PostgresSyncURL("postgres://localhost", environment: ["PGUSER": "dan"])
        #expect(bare.user == "dan" && bare.database == "dan" && bare.tls == .prefer)
        let v6 = try PostgresSyncURL("postgres://eve@[::1]:6000/x", environment: [:])
        #expect(v6.address == .tcp(host: "::1", port: 6000) && v6.displayName == "postgres://eve@[::1]:6000/x")
    }

    @Test("Bad URLs are refused with a message that never shows the password", arguments: [
        "mysql://ada:hunter2@db/x", "postgres://ada:hunter2@db:99999/x", "postgres://ada:hunter2@db/x?sslmode=sometimes",
        "postgres://ada:hunter2@db/x?colour=blue", "db.example/notes?password=hunter2",
    ])
    func refused(_ text: String) {
        do {
            _ = try PostgresSyncURL(text, environment: [:])
            Issue.record("accepted \(text)")
        } catch {
            #expect(!"\(error)".contains("hunter2"), "\(error)")
        }
    }

    @Test func redaction() {
        #expect(SyncProvider.redacted("postgres://ada:s3cret@db/notes") == "postgres://ada:***@db/notes")
        #expect(SyncProvider.redacted("postgres://ada@db/notes?password=s3cret&sslmode=require") == "postgres://ada@db/notes?password=***&sslmode=require")
        #expect(SyncProvider.redacted("postgres://db/notes") == "postgres://db/notes")
    }

    @Test("The provider makes a remote for the app, or says why not")
    func provider() throws {
        let remote = try SyncProvider.postgres.remote(url: "postgres://ada@db.example/notes", appID: "notes")
        #expect(remote.displayName == "postgres://ada@db.example/notes")
        #expect(throws: PostgresSyncURL.Invalid.self) { try SyncProvider.postgres.validate("http://db") }
    }
}
