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
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        let minimum = AppletHost.minimumSize
        guard session.size.columns >= minimum.width, session.size.rows >= minimum.height else {
            throw SessionError("\(session.file):1: the recorded terminal is \(session.size.columns)x\(session.size.rows), smaller than the \(minimum.width)x\(minimum.height) this app needs; the file is damaged or was not written by --record")
        }
        // Where the recording started: its files, in a private folder of its own (the names were
        // checked to stay inside it when the file was read).
        let folder = try makePrivateFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (relative, text) in session.files.sorted(by: { $0.key < $1.key }) {
            try restore(text, as: relative, in: folder, session: session)
        }
        let application = Application()
        // Secrets were never recorded; whatever the replay sets stays in its folder and goes with
        // it, never in the user's keyring.
        var storage = StorageConfiguration(appID: session.app, directory: folder)
        storage.secrets = .files
        application.storage = storage
        let installed = install(application)
        defer { withExtendedLifetime(installed) {} }
        return try await Application.withCurrent(application) {
            let tabs = tabs()
            var keymap = Keymap()
            if let text = session.keymap {
                keymap = Keymap.parse(text, file: "\(session.file) (its keymap)").keymap
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
                case .resize(let size):
                    guard Session.Limits.dimension.contains(size.width), Session.Limits.dimension.contains(size.height) else {
                        throw SessionError("\(session.file): a resize to \(size.width)x\(size.height) is not a size a terminal has (each side \(Session.Limits.dimension.lowerBound)–\(Session.Limits.dimension.upperBound)); the file is damaged or was not written by --record")
                    }
                    terminal.resize(width: size.width, height: size.height)
                default: terminal.send(event)
                }
            }, settle: settle)
            host.renderIfNeeded()
            return terminal.lines
        }
    }

    /// A new folder only this user can enter, in the temporary folder.
    private static func makePrivateFolder() throws -> String {
        var template = Array("\(ProcessEnvironment.temporaryDirectory)/appletkit-replay-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw SessionError("cannot make a folder for the replay in \(ProcessEnvironment.temporaryDirectory): \(String(cString: strerror(errno)))")
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Writes a state file of the session at `relative` under `folder`: each folder on the way
    /// made here (0700), the file new (0600), nothing followed through a link.
    private static func restore(_ text: String, as relative: String, in folder: String, session: Session) throws {
        guard Session.isContainedPath(relative) else {
            throw SessionError("\(session.file):1: the header names a state file outside its folder")
        }
        let components = relative.split(separator: "/").map(String.init)
        var path = folder
        for component in components.dropLast() {
            path += "/" + component
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw SessionError("\(session.file):1: cannot restore the state file \("\"\(LogText.escaped(relative))\""): \(String(cString: strerror(errno)))")
            }
        }
        path += "/" + components.last!
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0, AtomicFile.writeAll(fd, Data(text.utf8)) else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw SessionError("\(session.file):1: cannot restore the state file \("\"\(LogText.escaped(relative))\""): \(reason)")
        }
        close(fd)
    }
}
