// tabs-driver: runs the tabs workload (Benchmarks/Tabs/README.md) in C on ncursesw and on AppletKit,
// side by side in one run, and prints the medians and the ratios beside the issue's budgets.
// `make bench-tabs` builds everything and runs it; by hand:
//
//     tabs-driver --c .build/tabs/tabs-c --appletkit .build/release/tabs-appletkit \
//                 [--appletkit-static <path>] [--floor <tabs-floor>] [--runs 5] [--check-keys 300] [--print-script]
//     tabs-driver --idle --c .build/tabs/tabs-c --appletkit .build/release/tabs-appletkit [--demo <appletkit>] [--seconds 5]
import AppletTesting
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// MARK: The command line

var options: [String: String] = [:]
var flags = Set<String>()
do {
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        switch argument {
        case "--print-script", "--help", "--idle": flags.insert(argument)
        default:
            guard argument.hasPrefix("--"), let value = arguments.popFirst() else {
                FileHandle.standardError.write(Data("tabs-driver: unexpected argument \(argument) (see --help)\n".utf8))
                exit(64)
            }
            options[argument] = value
        }
    }
}

let script = Workload.script()

if flags.contains("--help") {
    print("""
        usage: tabs-driver --c <tabs-c> --appletkit <tabs-appletkit> [--appletkit-static <tabs-appletkit>] [--floor <tabs-floor>]
                           [--runs 5] [--check-keys 300] [--c-build <text>] [--swift-build <text>]
                           [--static-build <text>] [--print-script] [--dump <keys>]
        Runs each program --runs times (alternating), sends the same \(script.count) keys, and prints the
        medians beside the budgets; OVER BUDGET marks a ratio over its budget (and the exit status is 0:
        the Makefile decides). --check-keys compares both programs' screens after each of that many keys.
        --print-script prints the keys; --dump N prints each program's screen (with styles) after N keys.
        --idle leaves each program alone for --seconds per tab (and the demo, --demo, on each of its
        tabs) and prints its wake-ups, CPU and bytes beside the C program's at rest.
        """)
    exit(0)
}
if flags.contains("--print-script") {
    print(String(decoding: script.map(\.byte), as: UTF8.self))
    exit(0)
}
guard let cPath = options["--c"], let appletKitPath = options["--appletkit"] else {
    FileHandle.standardError.write(Data("tabs-driver: --c and --appletkit are required (see --help)\n".utf8))
    exit(64)
}
let runs = Int(options["--runs"] ?? "5") ?? 5
let checkKeys = Int(options["--check-keys"] ?? "300") ?? 300

let c = Program(name: "C ncurses", path: cPath, arguments: [])
let appletKitArguments = ["--state-dir", "{state}", "--no-animation"]
var programs = [c, Program(name: "AppletKit (release)", path: appletKitPath, arguments: appletKitArguments)]
if let path = options["--appletkit-static"] {
    programs.append(Program(name: "AppletKit (release, static)", path: path, arguments: appletKitArguments))
}

// `--idle`: the idle benchmark (Idle.swift).
if flags.contains("--idle") {
    let seconds = Int(options["--seconds"] ?? "5") ?? 5
    do {
        let reference = try await Idle.run(c, spells: [Idle.Spell(name: "at rest", keys: [], moves: false)], seconds: seconds)[0]
        var measured: [(name: String, measures: [Idle.Measure])] = []
        let tabs = (1...3).map { Idle.Spell(name: "tab \($0)", keys: ["\($0)"], moves: false) }
        measured.append(("AppletKit tabs app", try await Idle.run(programs[1], spells: tabs, seconds: seconds)))
        if let demo = options["--demo"] {
            let program = Program(name: "demo", path: demo, arguments: ["--state-dir", "{state}"])
            measured.append(("demo", try await Idle.run(program, spells: Idle.demoSpells, seconds: seconds)))
        }
        print(Idle.report(seconds: seconds, reference: reference, programs: measured).joined(separator: "\n"))
    } catch {
        FileHandle.standardError.write(Data("tabs-driver: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

// `--dump N`: each program's screen after the first N keys, row by row with its styles.
if let dump = options["--dump"].flatMap(Int.init) {
    for program in programs {
        do {
            guard let screen = try await Runner.screens(program, script: script, count: dump).last else { continue }
            print("\(program.name) after \(dump) keys:")
            for y in 0..<Workload.height { print(String(format: "%2d ", y) + ScreenCheck.styled(screen, row: y)) }
        } catch {
            print("\(program.name): \(error)")
        }
    }
    exit(0)
}

// MARK: Measuring

let loadBefore = Machine.loadAverage()
let date = Machine.date()
let counts = Dictionary(grouping: script, by: \.kind).mapValues(\.count)
let downs = script.filter { $0 == .down }.count
let ups = script.filter { $0 == .up }.count
FileHandle.standardError.write(Data("tabs-driver: \(script.count) keys, \(runs) runs of \(programs.count) programs...\n".utf8))

var results: [[RunResult]] = programs.map { _ in [] }
var floorResults: [FloorResult] = []
do {
    for run in 0..<runs {
        // Alternate, and start each round with the next program, so that drift (another job on
        // the machine, the CPU's clock) falls on all of them alike.
        for step in 0..<programs.count {
            let index = (run + step) % programs.count
            results[index].append(try await Runner.run(programs[index], script: script))
        }
        if let floor = options["--floor"] { floorResults.append(try await Runner.runFloor(floor)) }
    }
} catch {
    FileHandle.standardError.write(Data("tabs-driver: \(error)\n".utf8))
    exit(1)
}
let loadAfter = Machine.loadAverage()

// MARK: The screens compared

var screenLines: [String] = []
if checkKeys > 0 {
    do {
        let cScreens = try await Runner.screens(c, script: script, count: checkKeys)
        let otherScreens = try await Runner.screens(programs[1], script: script, count: checkKeys)
        let rows = ScreenCheck.compare(cScreens, otherScreens)
        screenLines = ScreenCheck.describe(rows, screens: cScreens.count, otherName: "AppletKit")
    } catch {
        screenLines = ["the screen check failed: \(error)"]
    }
}

// MARK: The table

let figures: [Figure] = [
    Figure(name: "launch to first frame", budget: 1.5, value: { $0.firstFrame.milliseconds }, format: Format.ms),
    Figure(name: "CPU, whole run (user+sys)", budget: 1.5, value: { $0.cpu.seconds }, format: Format.s),
    Figure(name: "bytes written to the terminal", budget: 1.0, value: { Double($0.bytes) }, format: Format.count),
    Figure(name: "peak RSS (VmHWM)", budget: 3.0, value: { Double($0.peakRSS) }, format: Format.mb),
    Figure(name: "key → screen latency p50", budget: 1.2,
           value: { Stats.percentile($0.latencies.map(\.milliseconds), 0.50) }, format: Format.ms),
    Figure(name: "key → screen latency p99", budget: 1.2,
           value: { Stats.percentile($0.latencies.map(\.milliseconds), 0.99) }, format: Format.ms),
]

var header = ["figure (median of \(runs))", "budget", programs[0].name]
for program in programs.dropFirst() { header += [program.name, "ratio"] }
var rows: [[String]] = []
var overBudget = 0
for figure in figures {
    let medians = results.map { Stats.median($0.map(figure.value)) }
    var row = [figure.name, "≤ " + Format.ratio(figure.budget), figure.format(medians[0])]
    for index in programs.indices.dropFirst() {
        let ratio = medians[index] / medians[0]
        let over = ratio > figure.budget
        if over { overBudget += 1 }
        // A ratio just over its budget is printed with enough digits not to look within it.
        let shown = over && Format.ratio(ratio) == Format.ratio(figure.budget) ? String(format: "%.4fx", ratio) : Format.ratio(ratio)
        row += [figure.format(medians[index]), shown + (over ? " OVER BUDGET" : " ok")]
    }
    rows.append(row)
}

func staticness(_ result: RunResult?) -> String {
    guard let libraries = result?.libraries else { return "?" }
    return libraries.contains(where: { $0.hasPrefix("libswiftCore") })
        ? "Swift runtime linked dynamically (libswiftCore.so mapped)"
        : "Swift runtime linked statically (no libswiftCore.so mapped)"
}

print("""
    ## Tabs: the same three-tab app in C on ncursesw and on AppletKit, side by side (make bench-tabs)

    workload   Benchmarks/Tabs/README.md: \(Workload.width)x\(Workload.height) pseudo-terminal, TERM=xterm-256color, \
    LC_ALL=C.UTF-8; \(Format.grouped(script.count)) keys (\(counts[.counter] ?? 0) +/-, \(downs) j, \(ups) k, \
    \(counts[.tabSwitch] ?? 0) tab switches), then q
    method     \(runs) runs per program, alternating; each key sent once its previous key's effect showed on the \
    parsed screen; latency = key written → arrival of the output that completed its effect (percentiles over \
    one run's keys); CPU = wait4 user+sys; peak RSS = VmHWM just before q; bytes = all output, setup and \
    teardown included; every figure the median of the runs
    machine    \(Machine.cpuModel()), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(Machine.memory()), \
    \(Machine.kernel()); load average \(loadBefore) before, \(loadAfter) after
    date       \(date)
    C          \(options["--c-build"] ?? cPath)
    AppletKit  \(options["--swift-build"] ?? appletKitPath); \(staticness(results[1].first)); \
    run with --state-dir <fresh temp dir> --no-animation
    """)
if programs.count > 2 {
    print("static     \(options["--static-build"] ?? programs[2].path); \(staticness(results[2].first))")
}
print("")
print(Format.table(header, rows, rightAligned: Set(2..<header.count)))
print("")
if !floorResults.isEmpty {
    // Not judged: what no Swift program of this kind goes below, beside the same C figures.
    let launch = Stats.median(floorResults.map(\.firstOutput.milliseconds))
    let rss = Stats.median(floorResults.map { Double($0.peakRSS) })
    let cLaunch = Stats.median(results[0].map(\.firstFrame.milliseconds))
    let cRSS = Stats.median(results[0].map { Double($0.peakRSS) })
    print("""
        floor      tabs-floor (Benchmarks/Tabs/Floor, built like the static column): the Swift runtime, one value \
        through FoundationEssentials' JSON, raw mode, one line, q; no framework, no ncurses. Launch to its line \
        \(Format.ms(launch)) (\(Format.ratio(launch / cLaunch)) C's first frame), peak RSS \(Format.mb(rss)) \
        (\(Format.ratio(rss / cRSS)) C's): no Swift program of this kind goes below these ratios
        """)
    print("")
}

// MARK: Where it goes

print("### Where it goes (medians of the runs)")
print("")
var detailHeader = ["", programs[0].name]
for program in programs.dropFirst() { detailHeader.append(program.name) }
var details: [[String]] = []
/// One row: for each program, the median of each of `values` over its runs, joined with " / ".
@MainActor func detail(_ name: String, _ values: [(RunResult) -> Double?], _ format: (Double) -> String) {
    var row = [name]
    for runs in results {
        row.append(values.map { value in
            let measured = runs.compactMap(value)
            return measured.isEmpty ? "?" : format(Stats.median(measured))
        }.joined(separator: " / "))
    }
    details.append(row)
}
detail("first frame: bytes", [{ Double($0.firstFrameBytes) }], Format.count)
detail("first frame: CPU (schedstat)", [{ $0.firstFrameCPU?.milliseconds }], Format.ms)
detail("first frame: RSS", [{ $0.firstFrameRSS.map(Double.init) }], Format.mb)
detail("RSS before q: anonymous / files", [{ $0.anonymousRSS.map(Double.init) }, { $0.fileRSS.map(Double.init) }], Format.mb)
detail("wait4 ru_maxrss (counts the driver's pages before exec)", [{ Double($0.maxRSS) }], Format.mb)
detail("CPU user / system", [{ $0.userCPU.seconds }, { $0.systemCPU.seconds }], Format.s)
detail("CPU after the first frame, per key", [{ run in
    run.firstFrameCPU.map { (run.cpu - $0).milliseconds * 1000 / Double(script.count) }
}], { String(format: "%.0f µs", $0) })
for kind in Workload.Kind.allCases {
    let indexes = script.indices.filter { script[$0].kind == kind }
    detail("\(kind.rawValue): bytes per key (\(indexes.count) keys)", [{ run in
        Double(indexes.map { run.keyBytes[$0] }.reduce(0, +)) / Double(indexes.count)
    }], { String(format: "%.0f B", $0) })
    detail("\(kind.rawValue): latency p50 / p99", [0.5, 0.99].map { p in
        { run in Stats.percentile(indexes.map { run.latencies[$0].milliseconds }, p) }
    }, Format.ms)
}
detail("threads before q", [{ $0.threads.map(Double.init) }], Format.count)
detail("context switches before q (all threads)", [{ $0.contextSwitches.map(Double.init) }], Format.count)
print(Format.table(detailHeader, details, rightAligned: Set(1..<detailHeader.count)))
print("")
for (program, runs) in zip(programs, results) {
    let libraries = runs.first?.libraries ?? []
    print("\(program.name) maps \(libraries.count) shared objects: \(libraries.joined(separator: " "))")
}
print("")
print("Spread over the runs (min … max):")
for figure in figures {
    let spreads = results.map { runs -> String in
        let values = runs.map(figure.value)
        return "\(figure.format(values.min() ?? .nan)) … \(figure.format(values.max() ?? .nan))"
    }
    print("  \(figure.name): " + zip(programs, spreads).map { "\($0.name) \($1)" }.joined(separator: "; "))
}
if !screenLines.isEmpty {
    print("")
    print("### Screens compared (C and AppletKit (release), after each of the first \(min(checkKeys, script.count)) keys, once the output settled)")
    print("")
    for line in screenLines { print("- " + line) }
}
print("")
print(overBudget == 0 ? "Every ratio is within its budget."
      : "\(overBudget) ratio\(overBudget == 1 ? " is" : "s are") over budget (OVER BUDGET above).")
