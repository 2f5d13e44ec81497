import Testing
@testable import AppletKit
@testable import AppletState

/// `--sync-url` and `<ID>_SYNC_URL`: which remote an app gets, the messages when it cannot have
/// one, and the password masked in the process's own arguments.
@Suite("--sync-url")
struct SyncURLArgumentTests {
    @Test func theVariableIsNamedAfterTheApp() {
        #expect(SyncURLArgument.environmentName(appID: "appletkit") == "APPLETKIT_SYNC_URL")
        #expect(SyncURLArgument.environmentName(appID: "my-notes.app") == "MY_NOTES_APP_SYNC_URL")
    }

    @Test("An app built without sync refuses a URL, saying how to enable it, and never shows the password")
    func withoutProvider() {
        #expect(Self.isNone(SyncURLArgument.remote(NoSyncApp.self, option: nil, environment: [:])))

        guard case .failure(let option) = SyncURLArgument.remote(NoSyncApp.self, option: "postgres://ada:hunter2@db/x", environment: [:]) else {
            Issue.record("accepted --sync-url without a provider")
            return
        }
        #expect(option.message.contains("--sync-url: this app was built without sync") && option.message.contains("AppletSync"))
        #expect(!option.message.contains("hunter2"))

        guard case .failure(let variable) = SyncURLArgument.remote(NoSyncApp.self, option: nil, environment: ["NO_SYNC_SYNC_URL": "postgres://db/x"]) else {
            Issue.record("accepted NO_SYNC_SYNC_URL without a provider")
            return
        }
        #expect(variable.message.hasPrefix("NO_SYNC_SYNC_URL is set"))
        // An empty variable is as good as none.
        #expect(Self.isNone(SyncURLArgument.remote(NoSyncApp.self, option: nil, environment: ["NO_SYNC_SYNC_URL": ""])))
    }

    /// No URL, no remote, no problem.
    private static func isNone(_ result: Result<(any SyncRemote)?, SyncURLArgument.Problem>) -> Bool {
        if case .success(.none) = result { return true }
        return false
    }

    @Test("Passwords are found where SyncProvider.redacted finds them", arguments: [
        ("postgres://ada:hunter2@db/x", "postgres://ada:*******@db/x"),
        ("postgres://ada@db/x?sslmode=require&password=hunter2", "postgres://ada@db/x?sslmode=require&password=*******"),
        ("postgres://ada@db/x", "postgres://ada@db/x"),
        ("postgres://db/x?notpassword=1", "postgres://db/x?notpassword=1"),
    ])
    func masking(_ url: String, _ masked: String) {
        var bytes = Array(url.utf8)
        for range in SyncURLArgument.passwordRanges(in: bytes) {
            for i in range { bytes[i] = UInt8(ascii: "*") }
        }
        #expect(String(decoding: bytes, as: UTF8.self) == masked)
        #expect(!SyncProvider.redacted(url).contains("hunter2"))
    }
}

private struct NoSyncApp: AppletApp {
    static let id = "no-sync"
    var tabs: [Tab] { [] }
}
