import AppletState
import AppletUI
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import Terminal
internal import SystemPackage

/// The entry point of a terminal app: adopt it in your `@main` type and list the tabs. It gives the
/// app the standard command line, sets up storage and logging before any state is touched, runs
/// the host, and turns every way of ending into a one-line message and the right exit status.
///
/// ```swift
/// import AppletKit
///
/// @main
/// struct NotesApp: AppletApp {
///     static let id = "notes"                  // ~/.local/state/notes/, notes.log, `notes --help`
///     static let version = "1.0.0"
///     var tabs: [Tab] { [Tab(NotesApplet()), Tab("Overview", split: .horizontal, [A(), B()])] }
/// }
/// ```
///
/// The command line: `--tab <id|number>`, `--state-dir <path>`, `--theme dark|light`,
/// `--log-level <level>`, `--no-animation`, `--sync-url <url>`, `--help`, `--version`, plus the
/// app's own `Options` (any `ParsableArguments`; `import ArgumentParser` for `@Option`) and
/// `subcommands`.
///
/// Exit statuses: 0 after `q`; 130 after `Ctrl-C`; 128+n after SIGTERM, SIGHUP or SIGINT; 1 when
/// there is no usable terminal (stdin or stdout not a tty, `TERM` unset, `dumb` or unknown, a
/// terminal smaller than `AppletHost.minimumSize`), the app throws, or a change could not be saved
/// (a line names it and where a copy was written); 2 for an unknown `--tab`, or a sync URL
/// (`--sync-url`, `<ID>_SYNC_URL`) in an app built without sync or one it cannot use from the
/// environment; 64 for a bad option (with its usage). Each failure is one line on stderr, prefixed by `id`;
/// the terminal is always given back as it was and pending state is saved. Nothing else prints:
/// the log goes to `<state dir>/<id>.log`, and a crash while the UI is up restores the terminal,
/// prints one line and writes its backtrace to that log.
public protocol AppletApp {
    /// The app's own command-line options (none by default).
    associatedtype Options: ParsableArguments & Sendable = NoOptions
    /// The app's status bar (none by default).
    associatedtype StatusBar: View = EmptyView

    init()

    /// Names the command, the state folder (`$XDG_STATE_HOME/<id>/`) and the log file.
    /// Defaults to the executable's name.
    static var id: String { get }
    /// Shown by `--version` (as `<id> <version>`).
    static var version: String { get }
    /// One line for `--help`.
    static var abstract: String { get }
    /// More text for `--help`: what the keys do, where files go.
    static var discussion: String { get }
    /// Commands of the app's own (`<id> <name> …`); without one the app runs its tabs.
    static var subcommands: [any ParsableCommand.Type] { get }
    /// The themes `--theme` can name; `dark` (the default) and `light` unless the app says otherwise.
    static var themes: [String: Theme] { get }
    /// What `--sync-url` connects to, to sync `SyncState` values across machines; nil (the
    /// default) in an app that does not sync, which then builds and links no database client.
    /// An app that syncs links the AppletSync product and names its provider:
    ///
    /// ```swift
    /// import AppletSync
    ///
    /// @main struct NotesApp: AppletApp {
    ///     static let syncProvider: SyncProvider? = .postgres   // --sync-url postgres://…
    ///     var tabs: [Tab] { [Tab(NotesApplet())] }
    /// }
    /// ```
    ///
    /// The URL may also come from the environment, `<ID>_SYNC_URL` (the app's id in capitals,
    /// `NOTES_SYNC_URL`), which keeps a password out of the command line that `ps` shows.
    static var syncProvider: SyncProvider? { get }

    /// The parsed `Options`, set before `prepare()` and `tabs` are used.
    var options: Options { get set }

    /// Installs the app's services, once, before `prepare()` and `tabs`: the one place that says
    /// which HTTP client, clock or model every applet gets (through `@AppDependency`).
    ///
    /// ```swift
    /// func dependencies(_ dependencies: inout Dependencies) {
    ///     dependencies.http = URLSessionClient(baseURL: options.server)
    /// }
    /// ```
    @MainActor func dependencies(_ dependencies: inout Dependencies)

    /// Called once storage and logging are set up, before the terminal is taken over (start
    /// timers, open files). A thrown error ends the app with its description and status 1.
    @MainActor func prepare() throws

    /// A line between the panes and the footer, drawn from the store like any view.
    ///
    /// ```swift
    /// var statusBar: some View { SyncStatusView() }   // "● synced 12:04   3 unread"
    /// ```
    @MainActor @ViewBuilder var statusBar: StatusBar { get }

    /// The tabs, left to right. An app that is one screen gives one: `[Tab("Editor", view: EditorView())]`.
    @MainActor var tabs: [Tab] { get }

    /// The top line: the tab bar (the default), `.none` for a single view full screen, or the
    /// app's own view (see `HostShell`).
    @MainActor var shell: HostShell { get }

    /// The terminal modes the app uses beyond drawing and keys: mouse, bracketed paste, the kitty
    /// keyboard protocol (all by default). An app with no use for one leaves it out, and the
    /// terminal is neither put in that mode nor taken out of it:
    ///
    /// ```swift
    /// static var terminalFeatures: TerminalFeatures { [.bracketedPaste] }   // keyboard only, no mouse
    /// ```
    static var terminalFeatures: TerminalFeatures { get }
}

/// `Options` for an app without options of its own.
public struct NoOptions: ParsableArguments, Sendable {
    public init() {}
}

extension AppletApp {
    public static var id: String { ProcessInfo.processInfo.processName }
    public static var version: String { "(no version set)" }
    public static var abstract: String { "" }
    public static var discussion: String { "" }
    public static var subcommands: [any ParsableCommand.Type] { [] }
    public static var themes: [String: Theme] { Theme.builtIn }
    public static var syncProvider: SyncProvider? { nil }
    @MainActor public func prepare() throws {}
    @MainActor public func dependencies(_ dependencies: inout Dependencies) {}
    @MainActor public var shell: HostShell { .tabBar }
    public static var terminalFeatures: TerminalFeatures { .all }

    /// Parses the command line, runs the app and exits with its status (see `AppletApp`). The main
    /// thread becomes the app's `MainRunLoop`: it waits for keys, signals and main-queue work in
    /// one place and draws before it waits again.
    @MainActor
    public static func main() {
        // Before any task starts: work off the main actor runs on threads that never wake
        // unasked (see `GlobalExecutorPool`).
        GlobalExecutorPool.install()
        let command: any ParsableCommand
        do {
            // The usual line, read without ArgumentParser's reflection (see StandardOptionsFastPath);
            // anything else, and a line that fails validation, is parsed (and reported) by it.
            if Options.self == NoOptions.self,
               let standard = StandardOptionsFastPath.parse(Array(CommandLine.arguments.dropFirst())),
               let fast = AppletAppCommand<Self>(validated: standard) {
                command = fast
            } else {
                command = try AppletAppCommand<Self>.parseCommandLine(Array(CommandLine.arguments.dropFirst()))
            }
        } catch {
            // Help, version and usage errors exit as ArgumentParser defines.
            AppletAppCommand<Self>.exit(withError: error)
        }
        // A password in --sync-url is masked in what `ps` shows from now on.
        SyncURLArgument.maskPasswordsInArguments()
        nonisolated(unsafe) let parsed = command
        Task { @MainActor in
            do {
                if let asyncCommand = parsed as? any AsyncParsableCommand {
                    nonisolated(unsafe) var command = asyncCommand
                    try await command.run()
                } else {
                    var command = parsed
                    try command.run()
                }
                AppletAppCommand<Self>.finish(0)
            } catch {
                // ExitCode(n) and errors thrown by a subcommand exit as ArgumentParser defines.
                Application.shared.flush()
                AppletAppCommand<Self>.exit(withError: error)
            }
        }
        // The main thread waits for keys and main-queue work in one place (see `MainRunLoop`).
        MainRunLoop.run()
    }
}

extension AppletApp where StatusBar == EmptyView {
    @MainActor public var statusBar: EmptyView { EmptyView() }
}

extension AppletApp where Options == NoOptions {
    public var options: NoOptions {
        get { NoOptions() }
        set {}
    }
}

/// The options every `AppletApp` has.
public struct StandardOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: ArgumentHelp("The tab to open on, by number or id (e.g. 2 or dashboard).", valueName: "id|number"))
    public var tab: String?

    @Option(name: .long, help: ArgumentHelp("Where state and the log are kept (default: $XDG_STATE_HOME/<app>, or ~/.local/state/<app>).", valueName: "path"))
    public var stateDir: String?

    @Option(name: .long, help: ArgumentHelp("Log detail: trace, debug (state changes), info, notice, warning, error or critical.", valueName: "level"))
    public var logLevel: String = "info"

    @Option(name: .long, help: ArgumentHelp("Colour theme: auto (the default: dark or light by the terminal's background), or dark, light, or one the app adds.", valueName: "name"))
    public var theme: String = "auto"

    @Flag(name: .long, help: "Show and hide widgets at once, without transitions.")
    public var noAnimation = false

    @Option(name: .long, help: ArgumentHelp("The keymap file that rebinds commands by id (default: $XDG_CONFIG_HOME/<app>/keys.toml, or ~/.config/<app>/keys.toml).", valueName: "path"))
    public var keymap: String?

    @Flag(name: .long, help: "Show how each key was routed (which level took it) above the footer.")
    public var debugKeys = false

    @Option(name: .long, help: ArgumentHelp("Record this session (the keys, and the requests and side effects they caused) to a file --replay runs.", valueName: "file"))
    public var record: String?

    @Option(name: .long, help: ArgumentHelp("Replay a recorded session without a terminal and print the screen it ends on.", valueName: "file"))
    public var replay: String?

    @Flag(name: .long, help: "Ask the terminal what it is, print what was found, what will be used and why, and exit.")
    public var diagnose = false

    @Option(name: .long, help: ArgumentHelp("Sync shared values with other machines through this server (e.g. postgres://user@host/db; also <APP>_SYNC_URL). Apps built with sync only.", valueName: "url"))
    public var syncUrl: String?

    public init() {}
}

/// The command an `AppletApp` runs as: the standard options, the app's own, and its subcommands.
public struct AppletAppCommand<App: AppletApp>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: App.id,
            abstract: App.abstract,
            // With subcommands ArgumentParser would print "<subcommand>" as if one were required.
            usage: App.subcommands.isEmpty ? nil : "\(App.id) [<options>]\n\(App.id) <subcommand> [<arguments>]",
            discussion: App.discussion,
            version: "\(App.id) \(App.version)",
            subcommands: App.subcommands + [AppletKeysCommand<App>.self]
        )
    }

    @OptionGroup public var standard: StandardOptions
    @OptionGroup public var options: App.Options

    public init() {}

    /// Parses a command line (without the program's name) into the command to run: this one (the
    /// tabs), an app's subcommand or a built-in one. The app's own `Options` are for running the
    /// tabs: when they do not parse (a required one is missing), a built-in subcommand (`keys`) still
    /// runs, without them; anything else fails as ArgumentParser says (`Missing expected argument
    /// '--file <file>'`, status 64), the app's subcommands included, which may read them.
    ///
    /// ```swift
    /// let command = try AppletAppCommand<NotesApp>.parseCommandLine(["keys", "--check"])
    /// ```
    public static func parseCommandLine(_ arguments: [String]) throws -> any ParsableCommand {
        do {
            return try parseAsRoot(arguments)
        } catch {
            guard App.Options.self != NoOptions.self,
                  let builtIn = try? AppletBuiltInCommands<App>.parseAsRoot(arguments),
                  !(builtIn is AppletBuiltInCommands<App>) else { throw error }
            return builtIn
        }
    }

    /// The command with these standard options and the app's default ones, if they pass `validate`.
    init?(validated standard: StandardOptions) {
        self.standard = standard
        self.options = App.Options()
        guard (try? validate()) != nil else { return nil }
    }

    public mutating func validate() throws {
        guard standard.theme == "auto" || App.themes[standard.theme] != nil else {
            throw ValidationError("unknown theme '\(standard.theme)'; use one of: \((["auto"] + App.themes.keys.sorted()).joined(separator: ", "))")
        }
        guard Logger.Level(rawValue: standard.logLevel) != nil else {
            throw ValidationError("unknown log level '\(standard.logLevel)'; use one of: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if standard.record != nil, standard.replay != nil {
            throw ValidationError("--record and --replay cannot be used together; replay a session, then record a new one")
        }
        if let url = standard.syncUrl, let provider = App.syncProvider {
            do {
                try provider.validate(url)
            } catch {
                throw ValidationError("--sync-url: \(error)")
            }
        }
    }

    // On the main actor, where `main()` calls it: a nonisolated `run` hopped to the global
    // executor and back at launch, which started Dispatch's worker, event and timer threads
    // before the first frame (about 0.2 ms, and three threads that sat idle for the app's life).
    @MainActor public mutating func run() async throws {
        let status = await Self.launch(standard: standard, options: options)
        Self.finish(status)
    }

    /// Saves what is pending and ends the process with `status` (atexit handlers run too). What
    /// cannot be saved is named on stderr, with where a copy went, and a quit that would have
    /// been 0 is 1: a shell (or a person) never takes a lost change for success.
    static func finish(_ status: Int32) -> Never {
        let unsaved = Application.shared.saveBeforeExit()
        for change in unsaved { report("\(change)") }
        endProcess(unsaved.isEmpty || status != 0 ? status : 1)
    }

    /// Everything from storage to the last frame; returns the exit status.
    @MainActor
    static func launch(standard: StandardOptions, options: App.Options) async -> Int32 {
        // Before anything touches state: where files go, and logging that never reaches the terminal.
        let storage = standard.stateDir.map { StorageConfiguration(appID: App.id, directory: absolute($0)) }
            ?? .standard(appID: App.id)
        Application.shared.storage = storage
        let logging = AppletLogging.bootstrap(directory: storage.directory, appID: App.id,
                                              level: Logger.Level(rawValue: standard.logLevel) ?? .info)
        let log = Logger(label: App.id)
        // Sync across machines, when asked for: checked before anything else runs.
        let syncRemote: (any SyncRemote)?
        switch SyncURLArgument.remote(App.self, option: standard.syncUrl, environment: ProcessEnvironment.current) {
        case .success(let remote): syncRemote = remote
        case .failure(let problem):
            log.error("\(problem.message)")
            report(problem.message)
            return 2
        }

        var app = App()
        app.options = options
        var dependencies = Dependencies(Application.current)
        app.dependencies(&dependencies)
        defer { withExtendedLifetime(dependencies) {} }
        do {
            try app.prepare()
        } catch {
            return fail("\(error)", log: log)
        }
        if let path = standard.replay {
            return await replay(absolute(path), app: app, standard: standard, log: log)
        }
        if standard.diagnose {
            return diagnose(standard: standard, log: log)
        }
        if let syncRemote {
            log.info("syncing shared values with \(syncRemote.displayName)")
            Application.shared.syncRemote = syncRemote
        }
        let tabs = app.tabs
        guard !tabs.isEmpty else { return fail("the app has no tabs to show", log: log) }
        var initial: Int?   // nil: the tab that was up when the app last ended
        if let name = standard.tab {
            guard let index = tabs.index(named: name) else {
                report("unknown tab '\(name)'. Valid tabs: \(tabs.namesForHelp)")
                return 2
            }
            initial = index
        }
        do {
            // Read once: the terminal and the keymap's default folder both look at it.
            let environment = ProcessEnvironment.current
            let terminal = try NcursesTerminal(environment: environment, features: App.terminalFeatures)
            terminal.logPath = logging.filePath
            terminal.crashLine = logging.filePath.map { "\(App.id): crashed; the terminal was restored and the backtrace is in \($0)" }
                ?? "\(App.id): crashed; the terminal was restored (no log file could be opened for the backtrace)"
            let keymapFile = keymapPath(standard, environment: environment)
            let (keymap, keymapIssues) = Keymap.load(path: keymapFile)
            let host = try AppletHost(tabs: tabs, initialTab: initial, terminal: terminal,
                                      theme: standard.theme == "auto" ? nil : App.themes[standard.theme] ?? .dark,
                                      themes: (App.themes["dark"] ?? .dark, App.themes["light"] ?? .light),
                                      animations: !standard.noAnimation,
                                      keymap: keymap)
            host.showsRoutingTrace = standard.debugKeys
            host.shell = app.shell
            if let path = standard.record {
                let keymapText = try? String(contentsOfFile: keymapFile, encoding: .utf8)
                host.recorder = try SessionRecorder(path: absolute(path), app: App.id,
                                                    files: SessionReplayRunner.stateFiles(in: storage.directory),
                                                    keymap: keymapText, tab: standard.tab)
                log.info("recording the session to \(absolute(path))")
            }
            if App.StatusBar.self != EmptyView.self { host.statusBar = AnyView(app.statusBar) }
            log.info("started", metadata: ["version": "\(App.version)", "state": "\(storage.directory)"])
            // A broken keymap or clashing keys: the defaults stay; the user hears once, and the log
            // keeps it all. Checked once the first frame is out (this task runs when `run` first
            // waits): the check evaluates every pane once, which is not worth a later first frame.
            Task { @MainActor in
                guard host.isRunning else { return }
                // What the terminal said at start and what follows, as --diagnose prints it.
                let capabilities = terminal.capabilities
                let report = capabilities.report(theme: themeChoice(standard.theme, backgroundIsDark: capabilities.backgroundIsDark))
                log.info("terminal", metadata: ["probe": "\(report.map(compactReportLine).joined(separator: "; "))"])
                let problems = keymapIssues.map(\.description) + host.keyProblems()
                for problem in problems { log.warning("\(problem)") }
                if let first = problems.first {
                    host.notify(problems.count == 1 ? first : "\(first) (and \(problems.count - 1) more in the log)")
                }
            }
            try await host.run()
            if let signal = host.terminationSignal {
                log.info("ended by signal \(signal)")
                return 128 + signal
            }
            log.info("quit")
            return 0
        } catch let error as TerminalError {
            return fail(error.description, log: log)
        } catch {
            return fail("\(error)", log: log)
        }
    }

    /// `--replay FILE`: the session run headless; the final screen on stdout. Status 0, or 1 with
    /// one line on stderr when the file cannot be used or the app no longer does what it did.
    @MainActor
    static func replay(_ path: String, app: App, standard: StandardOptions, log: Logger) async -> Int32 {
        do {
            let session = try Session(contentsOf: path)
            guard session.app == App.id else {
                return fail("\(path) was recorded by '\(session.app)', not '\(App.id)'; replay it with that app", log: log)
            }
            let lines = try await SessionReplayRunner.replay(
                session,
                install: { store in
                    var dependencies = Dependencies(store)
                    app.dependencies(&dependencies)
                    return dependencies
                },
                tabs: { app.tabs }, theme: App.themes[standard.theme] ?? App.themes["dark"] ?? .dark, shell: app.shell,
                statusBar: App.StatusBar.self == EmptyView.self ? nil : AnyView(app.statusBar))
            print(lines.joined(separator: "\n"))
            return 0
        } catch {
            return fail("\(error)", log: log)
        }
    }

    /// `--diagnose`: starts the terminal as a run would (the probe included), gives it back at
    /// once, and prints what it said, what will be used and why, and where secrets go. Status 0,
    /// or 1 without a usable terminal.
    @MainActor
    static func diagnose(standard: StandardOptions, log: Logger) -> Int32 {
        let terminal: NcursesTerminal
        do {
            terminal = try NcursesTerminal(environment: ProcessEnvironment.current, features: App.terminalFeatures)
            try terminal.start { _ in }
        } catch let error as TerminalError {
            return fail(error.description, log: log)
        } catch {
            return fail("\(error)", log: log)
        }
        terminal.stop()
        let capabilities = terminal.capabilities
        let theme = themeChoice(standard.theme, backgroundIsDark: capabilities.backgroundIsDark)
        // Where SecureState values go: the desktop keyring or files, and why (chosen now if no
        // secret was used yet, as the first one would).
        let secrets = "secrets".rightPadded(to: 13) + Application.shared.secretStorage
        let report = (capabilities.report(theme: theme) + [secrets]).joined(separator: "\n") + "\n"
        _ = AtomicFile.writeAll(STDOUT_FILENO, Data("\(App.id) \(App.version) on this terminal:\n\(report)".utf8))
        log.info("diagnose", metadata: ["report": "\(report)"])
        return 0
    }

    /// The keymap file: `--keymap`, else the app's file in the user's config folder.
    static func keymapPath(_ standard: StandardOptions, environment: [String: String] = ProcessEnvironment.current) -> String {
        if let path = standard.keymap { return absolute(path) }
        return Keymap.defaultPath(appID: App.id, environment: environment)
    }

    static func fail(_ message: String, log: Logger) -> Int32 {
        log.error("\(message)")
        report(message)
        return 1
    }

    /// One line on stderr, prefixed by the app's id. Messages can carry text from files (names,
    /// ids, values): control characters are escaped, so none reaches the terminal as a command.
    static func report(_ message: String) {
        _ = AtomicFile.writeAll(STDERR_FILENO, Data("\(App.id): \(LogText.escaped(message))\n".utf8))
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FilePath(FileManager.default.currentDirectoryPath).appending(path).string
    }
}

/// The theme a run uses and why, for `--diagnose` and the log: `--theme`'s, or with `auto` the one
/// for the background the terminal reported.
private func themeChoice(_ option: String, backgroundIsDark: Bool?) -> String {
    guard option == "auto" else { return "\(option) (--theme \(option))" }
    switch backgroundIsDark {
    case true?: return "dark (--theme auto, the background is dark)"
    case false?: return "light (--theme auto, the background is light)"
    case nil: return "dark (--theme auto; the background is unknown)"
    }
}

/// A `--diagnose` line for the log: `answers      the terminal…` as `answers: the terminal…`.
private func compactReportLine(_ line: String) -> String {
    let characters = Array(line)
    guard let gap = characters.indices.dropLast().first(where: { characters[$0] == " " && characters[$0 + 1] == " " }) else { return line }
    return String(characters[..<gap]) + ": " + String(characters[gap...].drop { $0 == " " })
}

/// `exit(3)`, out of reach of ArgumentParser's `exit(withError:)` inside command types.
private func endProcess(_ status: Int32) -> Never {
    exit(status)
}

/// The command line `AppletAppCommand.parseCommandLine` falls back on when the app's own options
/// do not parse: the standard options and the built-in subcommands, without the app's options
/// (never run itself: only a subcommand it finds is).
struct AppletBuiltInCommands<App: AppletApp>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: App.id, subcommands: [AppletKeysCommand<App>.self])
    }

    @OptionGroup var standard: StandardOptions
}

/// `<app> keys`: every command of every tab with its keys and ids (what `keys.toml` can rebind);
/// `--check` reports clashing keys and keymap problems and exits 1 if there are any. It runs
/// whether or not the app's own options are given, even required ones: the tabs it lists are
/// made with the options given, else with the app's defaults (so an app reads a required
/// option where `keys` does not look: in `dependencies(_:)` or `prepare()`, not in `tabs`).
public struct AppletKeysCommand<App: AppletApp>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "keys", abstract: "List every command and its keys; --check finds clashes and keymap errors.")
    }

    @Flag(name: .long, help: "Report keys bound twice, chords that shadow a key, and problems in the keymap file; exit 1 if any.")
    public var check = false

    /// The app's standard options, as the command line above `keys` parsed them: its `--keymap`
    /// (given before or after `keys`) is the file checked.
    @OptionGroup(visibility: .private) var standard: StandardOptions

    /// The app's own options as parsed above `keys`, or nil when they did not parse (a required
    /// one missing): `keys` runs either way.
    @OptionGroup(visibility: .private) var options: App.Options
    private(set) var appOptions: App.Options?

    public init() {}

    private enum CodingKeys: String, CodingKey { case check, standard, options }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        _check = try container.decode(Flag<Bool>.self, forKey: .check)
        _standard = try container.decode(OptionGroup<StandardOptions>.self, forKey: .standard)
        if let parsed = try? container.decode(OptionGroup<App.Options>.self, forKey: .options) {
            _options = parsed
            appOptions = parsed.wrappedValue
        }
    }

    public mutating func run() async throws {
        let status = await Self.report(check: check, keymapOption: standard.keymap, options: appOptions)
        if status != 0 { throw ExitCode(status) }
    }

    /// Lists (or checks) the commands of every applet with the keymap applied; returns the status.
    @MainActor
    static func report(check: Bool, keymapOption: String?, options: App.Options? = nil) -> Int32 {
        var path = Keymap.defaultPath(appID: App.id, environment: ProcessEnvironment.current)
        if let option = keymapOption { path = AppletAppCommand<App>.absolute(option) }
        let (keymap, issues) = Keymap.load(path: path)
        let application = Application()
        let tabs = Application.withCurrent(application) { () -> [Tab] in
            var app = App()
            if let options { app.options = options }
            return app.tabs
        }
        guard let host = try? AppletHost(tabs: tabs, application: application, terminal: HeadlessTerminal(width: 120, height: 40),
                                         keymap: keymap) else { return 1 }
        var output = ""
        for (tab, pane, registry) in host.allRegistries() {
            let applet = tabs[tab].panes[pane]
            output += "Tab \(tab + 1) \(tabs[tab].title) — \(applet.title) (\(applet.id))\n"
            for entry in registry.entries where entry.scope != .host || (tab == 0 && pane == 0) {
                let keys = entry.keys.isEmpty ? "(none)" : entry.keys.map(\.label).joined(separator: " ")
                output += "  \(keys.rightPadded(to: 14))  \(entry.title)  [\(entry.id)]\(entry.isRebound ? " (keys.toml)" : "")\n"
            }
        }
        let problems = issues.map(\.description) + host.keyProblems()
        if check {
            if problems.isEmpty {
                print("\(App.id): no key clashes\(FileManager.default.fileExists(atPath: path) ? "; \(path) is valid" : " (no keymap file at \(path))")")
                return 0
            }
            for problem in problems { print("\(App.id): \(problem)") }
            return 1
        }
        print(output, terminator: "")
        for problem in problems { print("\(App.id): \(problem)") }
        return 0
    }
}
