import AppletState
import AppletSync
import AppletSyncTesting
import Foundation
import Logging
import Testing
import TestSupport

/// A throwaway PostgreSQL server for a whole suite: started before its first test, removed after
/// its last (also when one fails). If it cannot start, every test of the suite fails with the
/// reason (PostgreSQL missing, initdb's output), never passes.
struct PostgresServer: SuiteTrait, TestScoping {
    @TaskLocal static var current: PostgresTestCluster?

    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let cluster: PostgresTestCluster
        do {
            cluster = try await PostgresTestCluster.start()
        } catch {
            Issue.record("PostgreSQL could not be started for \(test.name), so its tests cannot run: \(error)")
            throw error
        }
        defer { cluster.remove() }
        try await Self.$current.withValue(cluster) { try await function() }
    }

    /// The suite's server.
    static func cluster(sourceLocation: SourceLocation = #_sourceLocation) throws -> PostgresTestCluster {
        try #require(current, "no PostgreSQL server: the suite needs the .postgresServer trait", sourceLocation: sourceLocation)
    }
}

extension Trait where Self == PostgresServer {
    /// A throwaway PostgreSQL server for the suite (`PostgresServer.cluster()` in its tests).
    static var postgresServer: Self { PostgresServer() }
}

/// A cluster of a test's own (a test that stops and starts its server), removed at the end.
func withOwnCluster(_ body: (PostgresTestCluster) async throws -> Void) async throws {
    let cluster: PostgresTestCluster
    do {
        cluster = try await PostgresTestCluster.start()
    } catch {
        Issue.record("PostgreSQL could not be started, so this test cannot run: \(error)")
        throw error
    }
    defer { cluster.remove() }
    try await body(cluster)
}

extension Application {
    var syncedGoal: SyncState<Int> { syncState(initial: 20, feature: "Test", id: "goal") }
    var syncedText: SyncState<String> { syncState(initial: "", feature: "Test", id: "text") }
    var syncedList: SyncState<[String]> { syncState(initial: [], feature: "Test", id: "list") }
}

/// One instance of an app: a store on a folder of its own (or a given one), syncing with `url`.
final class Instance: Sendable {
    let application: Application
    let folder: String
    let remote: PostgresSyncRemote

    init(app: String, url: String, folder: String? = nil) throws {
        self.folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("appletsync-\(UUID().uuidString.prefix(8))").path
        application = Application()
        application.storage = StorageConfiguration(appID: app, directory: self.folder)
        var logger = Logger(label: "AppletSync")
        logger.logLevel = .warning   // connections and catching up are not news in a test's output
        remote = try PostgresSyncRemote(url: url, appID: app, logger: logger)
        application.syncRemote = remote
    }

    var status: SyncStatus { application.syncStatus.value }
    var issues: [String] { application.storeIssues.value.map(\.message) }

    /// Stops syncing (the connection closes); the folder stays.
    func stop() { application.syncRemote = nil }

    /// Stops and removes the folder.
    func remove() {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// A unique app id per test: rows of one test never meet another's.
func uniqueApp(_ name: String = #function) -> String {
    "test-\(name.prefix { $0 != "(" })-\(UUID().uuidString.prefix(6))"
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes; records a failure saying what
/// was awaited (and `state()`, what things looked like) if it never does. Generous: CI is loaded.
@discardableResult
func eventually(_ what: String, timeout: Duration = .seconds(30), state: () -> String = { "" },
                sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool) async -> Bool {
    if await TestSupport.eventually(timeout: timeout, every: .milliseconds(10), condition) { return true }
    Issue.record("timed out after \(timeout) waiting for \(what). \(state())", sourceLocation: sourceLocation)
    return false
}

func isOnline(_ status: SyncStatus) -> Bool { if case .online = status { true } else { false } }
