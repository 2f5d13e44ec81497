import Foundation
import Synchronization
import Testing
import TestSupport
@testable import AppletState

/// A remote that only records what the store tells it: the seam between `SyncState` and a
/// server, without one.
private final class RecordingRemote: SyncRemote {
    let serverID: String
    var displayName: String { "test://\(serverID)" }
    private let state = Mutex<(replica: SyncReplica?, changes: [SyncKey], stopped: Bool)>((nil, [], false))

    init(serverID: String = "server-1") { self.serverID = serverID }

    var replica: SyncReplica? { state.withLock { $0.replica } }
    var changes: [SyncKey] { state.withLock { $0.changes } }
    var stopped: Bool { state.withLock { $0.stopped } }

    func start(_ replica: SyncReplica) { state.withLock { $0.replica = replica } }
    func localChange(_ key: SyncKey) { state.withLock { $0.changes.append(key) } }
    func finishPending(within timeout: Duration) -> Bool { true }
    func stop() { state.withLock { $0.stopped = true } }
}

extension Application {
    fileprivate var replicaGoal: SyncState<Int> { syncState(initial: 20, feature: "Replica", id: "goal") }
}

@Suite("SyncState's seam to a server")
struct SyncReplicaTests {
    private static func store(_ folder: String) -> Application {
        let app = Application()
        app.storage = StorageConfiguration(appID: "replica-tests", directory: folder)
        return app
    }

    private static func withFolder(_ body: (String) throws -> Void) rethrows {
        let folder = temporaryPath("replica")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    private static let key = SyncKey(feature: "Replica", id: "goal")

    private static func record(_ version: Int64, _ json: String?, writer: String = "elsewhere") -> SyncRecord {
        SyncRecord(key: key, json: json, version: version, updatedAt: Date(), writer: writer, writerName: "host-b")
    }

    @Test("Without a remote nothing is recorded for a server, as before")
    func noRemoteNoRecords() {
        Self.withFolder { folder in
            let app = Self.store(folder)
            app.replicaGoal.value = 25
            #expect(FileManager.default.fileExists(atPath: folder + "/sync/Replica.goal.json"))
            #expect(!FileManager.default.fileExists(atPath: folder + "/sync/remote"))
            #expect(app.syncStatus.value == .local)
        }
    }

    @Test("A change made here is recorded as pending before it is written, the remote is told, and a confirmation clears it")
    func pendingUntilConfirmed() throws {
        try Self.withFolder { folder in
            let app = Self.store(folder)
            let remote = RecordingRemote()
            app.syncRemote = remote
            let replica = try #require(remote.replica)
            #expect(app.syncStatus.value == .connecting("test://server-1"))
            #expect(replica.pendingChanges().isEmpty)

            app.replicaGoal.value = 25
            #expect(remote.changes == [Self.key])
            let pending = try #require(replica.pendingChange(for: Self.key))
            #expect(pending.json == "25" && pending.baseVersion == 0)
            #expect(replica.pendingChanges() == [pending])

            replica.confirm(pending, version: 1)
            #expect(replica.pendingChange(for: Self.key) == nil)
            app.replicaGoal.value = 30
            #expect(replica.pendingChange(for: Self.key)?.baseVersion == 1)

            // Changed again while the first was on its way: still pending, now on the new version.
            let second = try #require(replica.pendingChange(for: Self.key))
            app.replicaGoal.value = 35
            replica.confirm(second, version: 2)
            let third = try #require(replica.pendingChange(for: Self.key))
            #expect(third.json == "35" && third.baseVersion == 2)

            app.replicaGoal.reset()
            #expect(replica.pendingChange(for: Self.key)?.json == nil)
            #expect(replica.pendingChange(for: Self.key) != nil)
        }
    }

    @Test("A newer value from the server is taken in; an older one, or one while a change here is pending, is not")
    func applyingRecords() throws {
        try Self.withFolder { folder in
            let app = Self.store(folder)
            let remote = RecordingRemote()
            app.syncRemote = remote
            let replica = try #require(remote.replica)
            let goal = app.replicaGoal
            #expect(goal.value == 20)

            #expect(replica.apply(Self.record(3, "40")))
            #expect(goal.value == 40)
            #expect(remote.changes.isEmpty, "a value from the server is not a change made here")
            #expect(!replica.apply(Self.record(3, "41")), "the same version again")
            #expect(!replica.apply(Self.record(2, "42")), "an older version")
            #expect(goal.value == 40)

            goal.value = 50
            #expect(!replica.apply(Self.record(4, "60")), "a change made here is pending: the server settles it")
            #expect(goal.value == 50)
            let pending = try #require(replica.pendingChange(for: Self.key))
            #expect(pending.baseVersion == 3)
            replica.confirm(pending, version: 5)
            #expect(replica.apply(Self.record(6, nil)))
            #expect(goal.value == 20, "a reset elsewhere is the initial value here")
            #expect(!FileManager.default.fileExists(atPath: folder + "/sync/Replica.goal.json"))

            // Not JSON: refused and reported.
            #expect(!replica.apply(Self.record(7, "{not json")))
            #expect(app.storeIssues.value.contains { $0.message.contains("not JSON") })
        }
    }

    @Test("Another instance on the folder that does not sync still marks its changes for the one that does")
    func instanceWithoutRemoteMarksChanges() throws {
        try Self.withFolder { folder in
            let syncing = Self.store(folder)
            let remote = RecordingRemote()
            syncing.syncRemote = remote
            let replica = try #require(remote.replica)
            _ = syncing.replicaGoal.value

            let other = Self.store(folder)
            other.replicaGoal.value = 77
            let pending = try #require(replica.pendingChange(for: Self.key))
            #expect(pending.json == "77")
        }
    }

    @Test("A value saved before the folder synced is sent as a change made on nothing")
    func adoption() throws {
        try Self.withFolder { folder in
            let before = Self.store(folder)
            before.replicaGoal.value = 33
            let app = Self.store(folder)
            let remote = RecordingRemote()
            app.syncRemote = remote
            let replica = try #require(remote.replica)
            #expect(replica.pendingChanges().isEmpty, "not declared yet in this store")
            #expect(app.replicaGoal.value == 33)
            let pending = try #require(replica.pendingChange(for: Self.key))
            #expect(pending.json == "33" && pending.baseVersion == 0)
            #expect(remote.changes == [Self.key])

            // Another server: what the first confirmed means nothing there.
            replica.confirm(pending, version: 9)
            let other = RecordingRemote(serverID: "server-2")
            app.syncRemote = other
            #expect(remote.stopped)
            let second = try #require(other.replica)
            #expect(second.replicaID == replica.replicaID, "one id per folder")
            #expect(second.pendingChange(for: Self.key)?.baseVersion == 0)
        }
    }

    @Test("Conflicts read as a person would say them")
    func conflictMessages() {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let lost = SyncConflict(key: Self.key, side: .oursLost, lostJSON: "25", lostAt: at, lostWriterName: "host-a",
                                wonJSON: "15", wonAt: at.addingTimeInterval(1), wonWriterName: "host-b")
        #expect(lost.message.hasPrefix("Replica.goal: your change to '25' ("))
        #expect(lost.message.contains("was replaced by '15' from host-b ("))
        let won = SyncConflict(key: Self.key, side: .theirsLost, lostJSON: nil, lostAt: at, lostWriterName: "host-b",
                               wonJSON: String(repeating: "x", count: 100), wonAt: at, wonWriterName: "host-a")
        #expect(won.message.contains("replaced the initial value, set on host-b at"))
        #expect(won.message.contains("'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'"))
    }
}
