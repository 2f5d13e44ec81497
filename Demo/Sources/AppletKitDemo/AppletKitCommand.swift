import AppletKit
import ArgumentParser
import Foundation
import Logging
import WidgetsApplet

/// The demo host: the example applets in tabs. `appletkit new-applet` starts a package of your own.
@main
struct AppletKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appletkit",
        abstract: "The AppletKit demo host: example applets in tabs that share one store.",
        discussion: """
            Keys: 1-9 select a tab, ]/[ next/previous tab, Tab moves focus, q quits, Ctrl-C always quits.
            In the Counter tab + and - change the shared counter; the Dashboard tab shows the same counter.
            `appletkit new-applet Notes` creates a new applet package (see `appletkit new-applet --help`).
            """,
        version: "appletkit \(AppletKitVersion.current)",
        subcommands: [NewAppletCommand.self]
    )

    @Option(name: .long, help: ArgumentHelp("The tab to open on, by number or id (e.g. 2 or dashboard).", valueName: "id|number"))
    var tab: String?

    @Option(name: .long, help: ArgumentHelp("Where state and the log are kept (default: $XDG_STATE_HOME/appletkit, or ~/.local/state/appletkit).", valueName: "path"))
    var stateDir: String?

    @Option(name: .long, help: ArgumentHelp("Log detail: trace, debug (state changes), info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: String = "info"

    @Option(name: .long, help: ArgumentHelp("Colour theme: dark or light.", valueName: "name"))
    var theme: String = "dark"

    @Flag(name: .long, help: "Show and hide widgets at once, without transitions.")
    var noAnimation = false

    mutating func validate() throws {
        guard Theme.builtIn[theme] != nil else {
            throw ValidationError("unknown theme '\(theme)'; use one of: \(Theme.builtIn.keys.sorted().joined(separator: ", "))")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown log level '\(logLevel)'; use one of: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    mutating func run() async throws {
        // Before anything touches state: where files go, and logging that never reaches the terminal.
        let storage = stateDir.map { StorageConfiguration(appID: "appletkit", directory: Self.absolute($0)) } ?? .standard(appID: "appletkit")
        Application.shared.storage = storage
        AppletLogging.bootstrap(directory: storage.directory, appID: "appletkit", level: Logger.Level(rawValue: logLevel) ?? .info)
        try await Self.launch(tab: tab, theme: Theme.builtIn[theme] ?? .dark, animations: !noAnimation)
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    }

    @MainActor
    static func launch(tab: String?, theme: Theme, animations: Bool) async throws {
        let tabs = DemoTabs.all
        var initial = 0
        if let tab {
            guard let index = tabs.index(named: tab) else {
                FileHandle.standardError.write(Data("appletkit: unknown tab '\(tab)'. Valid tabs: \(tabs.namesForHelp)\n".utf8))
                throw ExitCode(2)
            }
            initial = index
        }
        do {
            WidgetsApplet.startClock()
            let host = try AppletHost(tabs: tabs, initialTab: initial, theme: theme, animations: animations)
            try await host.run()
            if let signal = host.terminationSignal { throw ExitCode(128 + signal) }
        } catch let error as TerminalError {
            FileHandle.standardError.write(Data("appletkit: \(error.description)\n".utf8))
            throw ExitCode(1)
        }
    }
}
