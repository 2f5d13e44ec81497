import AppletTesting
import Foundation
import Testing

/// SecureState in the desktop keyring, through the real binaries: `appletkit --diagnose` says where
/// secrets go, and `appletkit-state-probe` (a program with a SecureState, as an app has) keeps its
/// secret in the keyring when one runs (`TestKeyring`: gnome-keyring on a private session bus) and
/// in a file when none does.
@Suite("Keyring end to end", .serialized)
struct KeyringEndToEndTests {
    /// The running keyring, or an error that says why it could not start: these tests fail
    /// without one, never pass.
    func keyring() throws -> TestKeyring {
        try TestKeyring.shared.get()
    }

    /// This process's environment without any session bus.
    var noBus: [String: String] {
        var environment = childEnvironment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["XDG_RUNTIME_DIR"] = nil
        return environment
    }

    func attributes(_ folder: URL) -> [String: String] {
        ["application": "probe", "folder": folder.path, "feature": "Probe", "id": "token"]
    }

    /// Every file under `folder` that holds `text`.
    func files(under folder: URL, containing text: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [String] = []
        while let name = walker.nextObject() as? String {
            let path = folder.path + "/" + name
            if let data = FileManager.default.contents(atPath: path), data.range(of: Data(text.utf8)) != nil { found.append(path) }
        }
        return found
    }

    /// `appletkit --diagnose` on a pseudo-terminal (it needs one); what it printed.
    func diagnose(environment: [String: String], stateDirectory: URL) async throws -> String {
        let binary = try AppBinary.path()
        var env = PseudoTerminal.defaultEnvironment
        env["TMUX"] = nil
        env["DBUS_SESSION_BUS_ADDRESS"] = environment["DBUS_SESSION_BUS_ADDRESS"]
        env["XDG_RUNTIME_DIR"] = environment["XDG_RUNTIME_DIR"]
        let terminal = try PseudoTerminal.start(binary, arguments: ["--state-dir", stateDirectory.path, "--diagnose"],
                                                environment: env, width: 200, height: 40)
        let ended = await terminal.waitForExit(timeout: .seconds(20))
        #expect(ended?.shellStatus == 0, "appletkit --diagnose ended with \(String(describing: ended)): \(terminal.outputText)")
        return terminal.outputText
    }

    @Test func diagnoseSaysSecretsGoToTheKeyringWhereOneRuns() async throws {
        let keyring = try keyring()
        let folder = try ReliabilityTests.stateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try await diagnose(environment: keyring.environment(), stateDirectory: folder)
        #expect(output.contains("secrets      the desktop keyring (Secret Service: gnome-keyring)"), "\(output)")
    }

    @Test func diagnoseSaysSecretsGoToFilesWithoutASessionBus() async throws {
        let folder = try ReliabilityTests.stateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try await diagnose(environment: noBus, stateDirectory: folder)
        #expect(output.contains("secrets      files in \(folder.path)/secure, mode 0600 (no session bus: DBUS_SESSION_BUS_ADDRESS is not set)"), "\(output)")
    }

    /// Issue 30's "done when", from a real program: the secret is in the keyring and in no file.
    @Test func aSecretSetWhileAKeyringRunsIsInTheKeyringAndInNoFile() async throws {
        let keyring = try keyring()
        let probe = try AppBinary.path(named: "appletkit-state-probe")
        let folder = try ReliabilityTests.stateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = "e2e-\(UUID().uuidString)"
        let set = try await runProcess(probe, ["secret-set", folder.path, secret], environment: keyring.environment())
        #expect(set.status == 0, "\(set.stderrText)")
        #expect(set.stderrText.contains("secrets go to the desktop keyring (Secret Service: gnome-keyring)"), "the log line: \(set.stderrText)")
        #expect(try await keyring.lookup(attributes(folder)) == secret)
        #expect(files(under: folder, containing: secret) == [])
        let get = try await runProcess(probe, ["secret-get", folder.path], environment: keyring.environment())
        #expect(get.stdoutText == secret + "\n", "\(get.stderrText)")
        let removed = try await runProcess(probe, ["secret-set", folder.path, "-"], environment: keyring.environment())
        #expect(removed.status == 0, "\(removed.stderrText)")
        #expect(try await keyring.lookup(attributes(folder)) == nil)
    }

    /// A secret saved in a run with no keyring is a file; the first run with one moves it in.
    @Test func aSecretFromARunWithoutAKeyringMovesIntoIt() async throws {
        let keyring = try keyring()
        let probe = try AppBinary.path(named: "appletkit-state-probe")
        let folder = try ReliabilityTests.stateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let set = try await runProcess(probe, ["secret-set", folder.path, "from-a-file"], environment: noBus)
        #expect(set.status == 0, "\(set.stderrText)")
        let file = folder.path + "/secure/Probe.token"
        #expect((try? String(contentsOfFile: file, encoding: .utf8)) == "from-a-file")
        let get = try await runProcess(probe, ["secret-get", folder.path], environment: keyring.environment())
        #expect(get.stdoutText == "from-a-file\n", "\(get.stderrText)")
        #expect(get.stderrText.contains("moved the secret 'Probe.token' from its file into the desktop keyring"), "\(get.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try await keyring.lookup(attributes(folder)) == "from-a-file")
        #expect(files(under: folder, containing: "from-a-file") == [])
    }
}
