import AppletTesting
import DemoTabs
import Foundation
import ProcessMonitorApplet
import Testing

/// A screen of the demo as README, the docs and the golden screens show it: the tab it starts on,
/// the keys a person presses, and fixtures standing in for the machine (a fixed process list and
/// clock for the process monitor, a scripted action log), so it is the same on every machine and
/// shows nothing of the one it was made on.
///
/// ```swift
/// let screen = try await DemoScene.named("dashboard")!.render(width: 100, height: 20)
/// print(screen.lines.joined(separator: "\n"))
/// ```
public struct DemoScene: Sendable {
    public let name: String
    /// What it shows, for a failure message.
    public let summary: String
    /// A `keys.toml` the app starts with, and the name it is shown under.
    let keymap: (text: String, file: String)?
    let steps: @MainActor @Sendable (SceneHost) async throws -> Void

    init(_ name: String, _ summary: String, keymap: (text: String, file: String)? = nil,
         steps: @escaping @MainActor @Sendable (SceneHost) async throws -> Void) {
        self.name = name
        self.summary = summary
        self.keymap = keymap
        self.steps = steps
    }

    /// The demo on a headless terminal of that size, after the scene's steps: its screen.
    @MainActor
    public func render(width: Int, height: Int, theme: Theme = .dark, colorSupport: ColorSupport = .palette256) async throws -> Canvas {
        let parsed = keymap.map { Keymap.parse($0.text, file: $0.file) }
        let host = try AppletTestHost(tabs: DemoTabs.all, width: width, height: height, colorSupport: colorSupport, theme: theme,
                                      keymap: parsed?.keymap ?? Keymap())
        if let parsed {
            // What an AppletApp says about its keymap once the first frame is out.
            let problems = parsed.issues.map(\.description) + host.host.keyProblems()
            if let first = problems.first {
                host.host.notify(problems.count == 1 ? first : "\(first) (and \(problems.count - 1) more in the log)")
            }
        }
        let scene = SceneHost(host: host)
        try await steps(scene)
        await host.settle()
        let screen = host.screen
        host.host.quit()
        return screen
    }

    public static func named(_ name: String) -> DemoScene? { all.first { $0.name == name } }

    /// The scenes every size, theme and colour depth is checked on: each tab, and each overlay
    /// and dialog (the others are pages and moments the documents show).
    public static let matrix = ["counter", "dashboard", "list", "widgets", "notes", "processes",
                                "help", "palette", "action-log", "sheet", "confirmation", "signal"]

    /// Every scene: each tab, and each overlay and dialog.
    public static let all: [DemoScene] = [
        DemoScene("counter", "the Counter tab after three +") { scene in
            scene.press("+", "+", "+")
        },
        DemoScene("dashboard", "the Dashboard after three + in the Counter tab") { scene in
            scene.press("+", "+", "+", "2")
        },
        DemoScene("list", "the million-row list") { scene in
            scene.press("3")
        },
        DemoScene("widgets", "the Widgets gallery's Lists page with two rows marked") { scene in
            scene.press("4", "right", "tab", "down", "down", "space", "down", "space", "down")
        },
        DemoScene("widgets-gallery", "the Widgets gallery as it opens: placeholders, the page strip focused") { scene in
            scene.press("4")
        },
        DemoScene("widgets-disabled", "the Widgets gallery's form disabled with F3") { scene in
            scene.press("4", "f3")
        },
        DemoScene("widgets-inputs", "the Widgets gallery's Inputs page, a name typed") { scene in
            scene.press("4", "tab")
            scene.type("Ada")
        },
        DemoScene("widgets-data", "the Widgets gallery's Data page: a table and a tree") { scene in
            scene.press("4", "right", "right")
        },
        DemoScene("notes", "a note saved, with its toast") { scene in
            scene.press("5", "down", "enter", "e", "end")
            scene.type(" notes")
            scene.press("ctrl-s")
        },
        DemoScene("notes-list", "the Notes tab's list") { scene in
            scene.press("5")
        },
        DemoScene("note", "a note opened from the list") { scene in
            scene.press("5", "down", "enter")
        },
        DemoScene("palette-notes", "Ctrl-P over a note, filtered for tags") { scene in
            scene.press("5", "down", "enter", "ctrl-p")
            scene.type("tags")
        },
        DemoScene("keymap-warning", "a keymap naming a command that does not exist",
                  keymap: ("# my keys\n[keys]\n\"notes.sav\" = \"ctrl-s\"\n", "~/.config/appletkit/keys.toml")) { scene in
            scene.press("5")
        },
        DemoScene("processes", "the process monitor on a fixed process list, sorted by memory") { scene in
            try await scene.processes()
            scene.press("m")
        },
        DemoScene("help", "? over the Counter tab") { scene in
            scene.press("?")
        },
        DemoScene("palette", "Ctrl-P over the Counter tab, filtered") { scene in
            scene.press("ctrl-p")
            scene.type("re")
        },
        DemoScene("action-log", "F12 over the process monitor, on a scripted log") { scene in
            try await scene.processes()
            scene.press("m")
            await scene.settle()
            scene.scriptActionLog()
            scene.press("f12")
        },
        DemoScene("sheet", "the tags sheet of a note") { scene in
            scene.press("5", "enter", "t")
        },
        DemoScene("confirmation", "asking before a note is deleted") { scene in
            scene.press("5", "enter", "d")
        },
        DemoScene("signal", "asking before a process is sent SIGTERM") { scene in
            try await scene.processes()
            scene.press("m", "K")
        },
    ]
}

/// What a scene's steps drive: the test host, and the fixtures.
@MainActor
public final class SceneHost {
    let host: AppletTestHost
    private var logic: LogicModule?
    private var override: OverrideToken?

    init(host: AppletTestHost) { self.host = host }

    func press(_ keys: String...) {
        for key in keys { host.press(key) }
    }

    func type(_ text: String) { host.type(text) }

    func settle() async { await host.settle() }

    /// Opens the process monitor on `SceneFixtures.processes` at `SceneFixtures.now`; its signals
    /// go nowhere.
    func processes() async throws {
        let module = LogicModule(store: host.application,
                                 coeffects: .fixed(now: SceneFixtures.now, clock: host.clock, processes: SceneFixtures.processes))
        module.perform(SignalProcess.self) { _, _ throws(SignalError) in }
        logic = module
        override = Application.withCurrent(host.application) { Application.override(\.logic, with: module) }
        host.press("6")
        await host.settle()
    }

    /// Replaces what the action log holds with a script of what a session of the monitor does.
    func scriptActionLog() {
        let log = host.host.logic.actionLog
        log.clear()
        for entry in SceneFixtures.actionLog { log.record(entry.kind, at: entry.at, duration: entry.duration) }
    }
}

