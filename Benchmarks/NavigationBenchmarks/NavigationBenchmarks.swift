import AppletNavigation
import BenchSupport
import Benchmark
import Foundation   // the reference filter's `String.contains` (see plainFilter)
import Synchronization
import Terminal

// Navigation costs, each printed beside a reference timed in the same process (see Comparison),
// with the budget on the ratio so that it holds on any machine. Budgets are about twice the
// highest ratio measured when they were set, so that noise does not fail them but a real
// regression does; when the code gets faster, lower them. The figures behind them are in
// README.md beside this file.
//
// - The command palette (Ctrl-P) filtering and ranking 10,000 commands for a query of 1, 3 and 6
//   keys, against the cheapest filter there is: a plain case-insensitive substring scan
//   (`lowercased().contains`) of the same text the palette searches (each title and id). The
//   palette can beat it on long queries: its fuzzy subsequence check rejects most texts before
//   any work.
// - Routing one key through six levels to the host (priority commands, the focused widget, the
//   applet's, navigation's and the tab's commands, then the host's), against an uncontended
//   `Mutex<Int>` increment and a direct `[KeyEvent: Command]` lookup that runs the command.

// MARK: - The palette over 10,000 commands

/// 10,000 commands as ten applets of 1,000 would register them: titles such as "Delete selected
/// note 1234" and ids such as "notes.delete-note-1234", varied words, deterministic.
func paletteCommands() -> CommandRegistry {
    let owners = ["notes", "tasks", "files", "mail", "calendar", "git", "editor", "terminal", "music", "settings"]
    let verbs = ["Delete", "Duplicate", "Open", "Rename", "Move", "Archive", "Share", "Export", "Pin", "Close",
                 "Toggle", "Show", "Find", "Copy", "Sort", "Filter", "Refresh", "Select", "New", "Edit"]
    let qualifiers = ["", "", "selected ", "next ", "previous ", "current "]
    let nouns = ["note", "notebook", "task", "file", "folder", "message", "event", "branch", "buffer", "tab",
                 "window", "tag", "project", "label", "contact", "bookmark", "playlist", "theme"]
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((seed >> 33) % UInt64(bound))
    }
    var registry = CommandRegistry()
    for (o, owner) in owners.enumerated() {
        let commands = (0..<1_000).map { k in
            let n = o * 1_000 + k
            let verb = verbs[next(verbs.count)], noun = nouns[next(nouns.count)]
            return Command(id: "\(owner).\(verb.lowercased())-\(noun)-\(n)",
                           "\(verb) \(qualifiers[next(qualifiers.count)])\(noun) \(n)") {}
        }
        registry.register(commands, scope: .applet, owner: owner)
    }
    return registry
}

/// Built once per process (each benchmark runs in its own), outside every measurement.
let paletteEntries = paletteCommands().entries

/// The reference: the cheapest filter over the same text the palette searches (title and id; ids
/// are lower case already), no ranking. It finds substrings only, so "delnot" matches nothing
/// here: it is a floor on the cost of looking at 10,000 commands, not an equivalent.
///
/// `contains` is Foundation's (CFStringFind), what an app that imports Foundation gets: on Linux
/// it measured faster than the standard library's (`_StringProcessing`, which compares Character
/// by Character: 37 ms against 13 ms for "delnot" here), so the reference is the cheaper of the two.
@inline(never)
func plainFilter(_ entries: [CommandRegistry.Entry], _ query: String) -> [CommandRegistry.Entry] {
    let needle = query.lowercased()
    return entries.filter { $0.title.lowercased().contains(needle) || $0.id.contains(needle) }
}

// MARK: - Routing through six levels

@MainActor var helpOpened = 0

/// What is on screen: a notes applet with a focused list, its navigation stack, a tab and a host
/// with five tabs, plus a sheet's and the list's commands (registered, as every scope is, though
/// with no sheet presented the router does not consult them). `?` is bound only by the host.
func routingRegistry() -> CommandRegistry {
    var registry = CommandRegistry()
    registry.register([
        Command(id: "sheet.confirm", "Confirm", keys: ["enter"]) {},
        Command(id: "sheet.cancel", "Cancel", keys: ["esc"]) {},
        Command(id: "sheet.next-field", "Next field", keys: ["down"]) {},
        Command(id: "sheet.previous-field", "Previous field", keys: ["up"]) {},
    ], scope: .sheet, owner: "sheet")
    registry.register([
        Command(id: "list.open", "Open", keys: ["enter"]) {},
        Command(id: "list.select", "Select", keys: ["space"]) {},
        Command(id: "list.top", "Top", keys: ["home"]) {},
        Command(id: "list.bottom", "Bottom", keys: ["end"]) {},
    ], scope: .widget, owner: "list")
    let applet: [(String, String, [String])] = [
        ("new", "New note", ["n"]), ("delete", "Delete note", ["d", "delete"]), ("edit", "Edit", ["e"]),
        ("rename", "Rename", ["r"]), ("search", "Search", ["/"]), ("pin", "Pin", ["p"]),
        ("archive", "Archive", ["a"]), ("sort", "Sort", ["s"]), ("filter", "Filter", ["f"]),
        ("tag", "Tag", ["t"]), ("move", "Move", ["m"]), ("copy", "Copy", ["c"]), ("undo", "Undo", ["u"]),
        ("redo", "Redo", ["ctrl-r"]), ("top", "Go to top", ["g g"]), ("center", "Center", ["z z"]),
        ("save", "Save", ["ctrl-x ctrl-s"]), ("export", "Export", ["ctrl-e"]), ("share", "Share", ["ctrl-o"]),
        ("duplicate", "Duplicate", ["y"]), ("next-match", "Next match", ["ctrl-n"]),
        ("previous-match", "Previous match", ["ctrl-b"]), ("refresh", "Refresh", ["f5"]),
        ("details", "Details", ["i"]),
    ]
    registry.register(applet.map { id, title, keys in Command(id: "notes.\(id)", title, keys: keys) {} },
                      scope: .applet, owner: "notes")
    registry.register([Command(id: "navigation.back", "Back", keys: ["esc", "backspace"]) {}],
                      scope: .navigation, owner: "notes")
    registry.register([
        Command(id: "tab.close", "Close tab", keys: ["ctrl-w"]) {},
        Command(id: "tab.split", "Split pane", keys: ["ctrl-s"]) {},
        Command(id: "tab.next-pane", "Next pane", keys: ["ctrl-l"]) {},
        Command(id: "tab.previous-pane", "Previous pane", keys: ["ctrl-h"]) {},
    ], scope: .tab, owner: "tab")
    // As the host registers its own (HostCommands) with five tabs.
    var host: [Command] = []
    for n in 1...5 {
        host.append(Command(id: "host.tab-\(n)", "Tab \(n)", keys: ["\(n)"], showsInFooter: false) {})
        host.append(Command(id: "host.tab-\(n)-always", "Tab \(n) (from anywhere)", keys: ["alt-\(n)"],
                            showsInFooter: false, isPriority: true) {})
    }
    host += [
        Command(id: "host.next-tab", "Next tab", keys: ["]"]) {},
        Command(id: "host.previous-tab", "Previous tab", keys: ["["]) {},
        Command(id: "host.next-tab-always", "Next tab (from anywhere)", keys: ["ctrl-pgdn"], isPriority: true) {},
        Command(id: "host.previous-tab-always", "Previous tab (from anywhere)", keys: ["ctrl-pgup"], isPriority: true) {},
        Command(id: "host.focus-next", "Focus next", keys: ["tab"]) {},
        Command(id: "host.focus-previous", "Focus previous", keys: ["shift-tab"]) {},
        Command(id: "host.palette", "Commands", keys: ["ctrl-p"]) {},
        Command(id: "host.help", "Help", keys: ["?"]) { helpOpened += 1 },
        Command(id: "host.suspend", "Suspend (fg resumes)", keys: ["ctrl-z"], isPriority: true) {},
        Command(id: "host.quit", "Quit", keys: ["q"]) {},
    ]
    registry.register(host, scope: .host, owner: "host")
    return registry
}

/// The reference dispatch table: each key's first command in routing order (inner scopes win).
func directTable(_ registry: CommandRegistry) -> [KeyEvent: Command] {
    var table: [KeyEvent: Command] = [:]
    for entry in registry.entries {
        for sequence in entry.keys where !sequence.isChord && table[sequence.keys[0]] == nil {
            table[sequence.keys[0]] = entry.command
        }
    }
    return table
}

let benchmarks: @Sendable () -> Void = {
    // Each sample times the reference(s), then the subject, with its own clock (Comparison) and
    // the harness's (the table). Malloc counting is off: its interposer would slow the subject,
    // which the harness measures, and not the references, which it does not.
    let warmup = 2
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock],
        timeUnits: .microseconds,
        warmupIterations: warmup,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 60
    )

    // Budgets: see the top of this file.
    for (query, typed, budget) in [("d", "1 key", 5.0), ("del", "3 keys", 4), ("delnot", "6 keys", 1)] {
        let comparison = Comparison(
            subject: "Palette: '\(query)' typed, 10,000 commands fuzzy-filtered and ranked",
            references: [.init(name: "lowercased().contains scan", budget: budget)],
            unit: .microseconds, warmup: warmup)
        Benchmark("Palette filter 10,000 commands, \(typed) typed ('\(query)')") { benchmark in
            let entries = paletteEntries
            var palette = CommandPalette(entries: entries)
            var plainCount = 0
            let reference = time {
                for _ in benchmark.scaledIterations { plainCount = plainFilter(entries, query).count }
            }
            benchmark.startMeasurement()
            let subject = time {
                for _ in benchmark.scaledIterations {
                    palette.setQuery(query)
                    blackHole(palette.results.count)
                }
            }
            benchmark.stopMeasurement()
            guard !palette.results.isEmpty else { return benchmark.error("the palette found nothing for '\(query)'") }
            let runs = benchmark.scaledIterations.count
            comparison.record(iteration: benchmark.currentIteration, subject: (subject, runs),
                              references: [(reference, runs)])
            let best = palette.results.prefix(3).map { "\"\($0.entry.title)\"" }.joined(separator: ", ")
            comparison.note(["palette: \(palette.results.count) matches, best \(best); plain scan: \(plainCount) matches"])
        } teardown: {
            try comparison.report()
        }
    }

    let routing = Comparison(
        subject: "Route '?' through 6 levels to the host (KeyRouter.route)",
        references: [
            .init(name: "Mutex<Int> lock, increment, unlock", budget: 3_200),
            .init(name: "[KeyEvent: Command] lookup + run", budget: 1_500),
        ],
        unit: .nanoseconds, warmup: warmup)
    Benchmark("Route a key through 6 levels to the host",
              configuration: .init(timeUnits: .nanoseconds, scalingFactor: .kilo)) { benchmark async in
        // The router and the commands' actions belong to the main actor; the loops hop there once
        // per sample, before the measurement starts.
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            let registry = routingRegistry()
            let table = directTable(registry)
            let help = KeyEvent(.char("?"))
            // The same key in an array the optimiser cannot see through, so no lookup is hoisted.
            let keys = [KeyEvent](repeating: help, count: 16)
            // A focused list: it takes its own keys and passes the rest on.
            let listKeys: Set<KeyEvent> = [KeyEvent(.up), KeyEvent(.down), KeyEvent(.enter), KeyEvent(.char(" ")),
                                           KeyEvent(.home), KeyEvent(.end), KeyEvent(.pageUp), KeyEvent(.pageDown)]
            let widget: KeyRouter.LevelHandler = { listKeys.contains($0) ? "the focused list" : nil }
            var router = KeyRouter()

            let check = router.route(help, registry: registry, sheet: nil, widget: widget)
            guard registry.conflicts().isEmpty, check.handler == .host, check.commandID == "host.help", check.steps.count == 6 else {
                return benchmark.error("expected '?' to pass 5 levels and run host.help: \(check); conflicts \(registry.conflicts())")
            }

            // The references run 1,000 times as many operations as the router, so that each side
            // of a sample takes about as long (see Comparison.record).
            let runs = benchmark.scaledIterations.count, referenceRuns = runs * 1_000
            let mutex = Mutex(0)
            let lockTime = time {
                for _ in 0..<referenceRuns { mutex.withLock { $0 &+= 1 } }
            }
            let before = helpOpened
            let tableTime = time {
                for i in 0..<referenceRuns { table[keys[i & 15]]?.action() }
            }
            benchmark.startMeasurement()
            let routeTime = time {
                for i in benchmark.scaledIterations {
                    blackHole(router.route(keys[i & 15], registry: registry, sheet: nil, widget: widget))
                }
            }
            benchmark.stopMeasurement()
            guard helpOpened - before == referenceRuns + runs, mutex.withLock({ $0 }) == referenceRuns else {
                return benchmark.error("host.help ran \(helpOpened - before) times for \(referenceRuns + runs) dispatches")
            }
            routing.record(iteration: benchmark.currentIteration, subject: (routeTime, runs),
                           references: [(lockTime, referenceRuns), (tableTime, referenceRuns)])
            routing.note(["\(registry.entries.count) commands registered; trace: \(check)"])
        }
    } teardown: {
        try routing.report()
    }
}
