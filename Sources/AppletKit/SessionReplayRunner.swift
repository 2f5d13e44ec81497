import AppletLogic
import AppletNavigation
import AppletState
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Terminal
internal import SystemPackage

/// `--record FILE` and `--replay FILE` for an `AppletApp`.
///
/// A recording starts with the state folder's files (not its secrets) and the keymap in effect,
/// then lists every input event and what the logic module did. A replay restores those files in
/// a temporary folder (the user's own state is never touched), runs the app on a headless
/// terminal of the recorded size, feeds the inputs in order, gives side effects the results they
/// had, and prints the screen it ends on:
///
/// ```sh
/// monitor --record bug.session      # use the app; q
/// monitor --replay bug.session      # prints the last screen, on any machine, without a terminal
/// ```
@MainActor
enum SessionReplayRunner {
    /// The files of a state folder a replay needs to start where the recording did: JSON state
    /// (the store file, FileState files, SyncState files) as text; secrets, logs and anything over
    /// 1 MiB are left out.
    static func stateFiles(in directory: String) -> [String: String] {
        var files: [String: String] = [:]
        for relative in jsonFiles(in: directory) {
            let path = FilePath(directory).appending(relative).string
            // The size is a UInt when only FoundationEssentials is loaded, an NSNumber (which
            // casts to Int but not to BinaryInteger) when Foundation is.
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let size = attributes[.size] as? Int ?? (attributes[.size] as? any BinaryInteger).map({ Int(clamping: $0) }),
                  size <= 1 << 20,
                  let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            files[relative] = text
        }
        return files
    }

    /// The `.json` files under `directory`, as paths relative to it, not looking into `secure`
    /// (which may not be readable) or `logs`.
    private static func jsonFiles(in directory: String, under prefix: String = "") -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: FilePath(directory).appending(prefix).string) else { return [] }
        return names.flatMap { name -> [String] in
            let relative = prefix.isEmpty ? name : prefix + "/" + name
            if relative == "secure" || relative.hasPrefix("logs") { return [] }
            if name.hasSuffix(".json") { return [relative] }
            return jsonFiles(in: directory, under: relative)
        }
    }

    /// Runs `session` headless with `tabs` and returns the final screen's lines.
    ///   - install: puts the app's dependencies into the replay's store (it returns what keeps
    ///     them installed).
    static func replay(_ session: Session, install: @MainActor (Application) -> Any, tabs: @MainActor () -> [Tab], theme: Theme,
                       shell: HostShell, statusBar: AnyView?) async throws -> [String] {
        // Where the recording started: its files, in a folder of its own.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appletkit-replay-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (relative, text) in session.files {
            let path = FilePath(folder).appending(relative).string
            try FileManager.default.createDirectory(atPath: FilePath(path).removingLastComponent().string, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        let application = Application()
        application.storage = StorageConfiguration(appID: session.app, directory: folder)
        let installed = install(application)
        defer { withExtendedLifetime(installed) {} }
        return try await Application.withCurrent(application) {
            let tabs = tabs()
            var keymap = Keymap()
            if let text = session.keymap {
                let path = FilePath(folder).appending("keys.toml").string
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
                keymap = Keymap.load(path: path).keymap
            }
            let initial = session.tab.flatMap { tabs.index(named: $0) }
            let terminal = HeadlessTerminal(width: session.size.columns, height: session.size.rows)
            let host = try AppletHost(tabs: tabs, initialTab: initial, application: application, terminal: terminal,
                                      theme: theme, animations: false, keymap: keymap)
            host.shell = shell
            host.statusBar = statusBar
            let replay = SessionReplay(session: session)
            host.logic.replaying(replay)
            try host.start()
            defer { host.quit() }
            // Lets what an input started run to where it waits (continuations, tasks, frames).
            let settle: @MainActor () async -> Void = {
                var quietTurns = 0
                for _ in 0..<200 where quietTurns < 3 {
                    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
                    if host.hasPendingFrame {
                        host.renderIfNeeded()
                        quietTurns = 0
                    } else {
                        quietTurns += 1
                    }
                }
                host.renderIfNeeded()
            }
            await settle()
            _ = try await replay.run(feed: { value in
                let event = try value.decode(Event.self)
                switch event {
                case .resize(let size): terminal.resize(width: size.width, height: size.height)
                default: terminal.send(event)
                }
            }, settle: settle)
            host.renderIfNeeded()
            return terminal.lines
        }
    }
}
