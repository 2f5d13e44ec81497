import AppletState
import AppletSync
import AppletSyncTesting
import Foundation
import Testing

// The examples of Docs/PersistentState.md, "SyncState across machines", compiled and run. Keep the
// two in step. (The AppletApp one is AppletApp's own documentation, compiled by the demo.)

extension Application {
    fileprivate var docsNote: SyncState<String> { syncState(initial: "", feature: "Notes", id: "shared") }
}

@Suite("Docs/PersistentState.md: SyncState across machines")
struct SyncDocsTests {
    @Test func settingARemoteInCodeAndReadingTheStatus() async throws {
        // "Testing an app that syncs"
        let cluster = try await PostgresTestCluster.start()
        defer { cluster.remove() }                       // also stops the server
        let app = Application()
        app.storage = StorageConfiguration(appID: "notes", directory: cluster.directory + "/state")
        app.syncRemote = try SyncProvider.postgres.remote(url: cluster.url, appID: "notes")

        // "Turning it on": the remote set in code (here on a store of the test's own).
        let url = ProcessInfo.processInfo.environment["NOTES_SYNC_URL_UNSET_IN_TESTS"] ?? cluster.url
        let other = Application()
        other.storage = StorageConfiguration(appID: "notes", directory: cluster.directory + "/other")
        other.syncRemote = try SyncProvider.postgres.remote(url: url, appID: "notes")
        _ = other.docsNote.value

        await eventually("online") {
            if case .online = app.syncStatus.value, case .online = other.syncStatus.value { return true }
            return false
        }
        app.docsNote.value = "hello from the docs"
        await eventually("the other store to have it") { other.docsNote.value == "hello from the docs" }

        try await cluster.stop()                         // the server goes away mid-test...
        let said = await Application.withCurrent(app) { () async -> String in
            await eventually("offline") { app.syncStatus.value.isOffline }
            // "Offline"
            switch Application.state(\.syncStatus).value {
            case .local: return "this machine only"
            case .connecting(let server), .online(let server): return "syncing with \(server)"
            case .offline(let since, let reason): return "offline since \(since): \(reason)"
            }
        }
        #expect(said.hasPrefix("offline since"), "\(said)")
        try await cluster.restart()                      // ...and comes back with its data
        await eventually("online again") { if case .online = app.syncStatus.value { true } else { false } }
        app.syncRemote = nil
        other.syncRemote = nil
    }
}
