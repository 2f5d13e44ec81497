import AppletTesting
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The idle benchmark (`tabs-driver --idle`): a program left alone on a pseudo-terminal, tab
/// after tab, each for a spell with no input, and what it did meanwhile, from /proc: how often
/// its threads woke, the CPU it used, what it wrote to the terminal and to files. At rest a
/// terminal program should do nothing at all: the C ncurses program, blocked in `getch`, is the
/// reference measured in the same run, and a still tab of the demo is held to it.
enum Idle {
    /// One spell: the keys that lead to it (once it has settled), and whether something on
    /// screen moves there (an animation, the process monitor's refresh), so it is not held to 0.
    struct Spell: Sendable {
        var name: String
        var keys: [String]
        var moves: Bool
    }

    /// What a program did over one spell.
    struct Measure: Sendable {
        var spell: Spell
        /// Context switches (voluntary and involuntary) of the threads alive at both ends, plus all
        /// those of threads started in the spell, plus one for each thread that ended in it.
        var wakeUps: Int
        var threadsStarted: Int
        var threadsEnded: Int
        /// User and system time of the whole process (`/proc/<pid>/stat`, clock ticks).
        var cpu: Duration
        /// Bytes written to the terminal (what arrived on the pseudo-terminal).
        var terminalBytes: Int
        /// Bytes written by any write call (`wchar` of `/proc/<pid>/io`): files and logs too.
        var writtenBytes: Int
        /// The threads that woke, by name (`comm`), with how often: where to look.
        var wokenThreads: [String: Int]
    }

    /// The state of a process at one instant.
    private struct Snapshot {
        var switchesByThread: [Int: Int]
        var names: [Int: String]
        var cpuTicks: Int
        var terminalBytes: Int
        var writtenBytes: Int
    }

    /// The demo's spells: each tab, the Counter once more after the process monitor (whose
    /// refresh must stop with its tab hidden), and the gallery's Display page (its spinner turns).
    static let demoSpells: [Spell] = [
        Spell(name: "1 Counter", keys: ["1"], moves: false),
        Spell(name: "2 Dashboard", keys: ["2"], moves: false),
        Spell(name: "3 List", keys: ["3"], moves: false),
        Spell(name: "4 Widgets (Inputs)", keys: ["4"], moves: false),
        Spell(name: "4 Widgets (Display: spinner)", keys: ["right", "right", "right"], moves: true),
        Spell(name: "5 Notes", keys: ["5"], moves: false),
        Spell(name: "6 Processes (refreshes)", keys: ["6"], moves: true),
        Spell(name: "1 Counter, after Processes", keys: ["1"], moves: false),
        Spell(name: "4 Widgets, after Display", keys: ["4", "left", "left", "left"], moves: false),
    ]

    /// Starts `program` on a 100x30 pseudo-terminal, waits for its first frame, then for each
    /// spell sends its keys, lets the screen settle and measures `seconds` of doing nothing.
    static func run(_ program: Program, spells: [Spell], seconds: Int) async throws -> [Measure] {
        let stateDirectory = NSTemporaryDirectory() + "idle-bench-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: stateDirectory) }
        let arguments = program.arguments.map { $0 == "{state}" ? stateDirectory : $0 }
        let terminal = try PseudoTerminal.start(program.path, arguments: arguments, environment: Runner.environment,
                                                width: Workload.width, height: Workload.height)
        defer { terminal.close() }
        await settle(terminal)
        var measures: [Measure] = []
        for spell in spells {
            for key in spell.keys { try terminal.press(key) }
            await settle(terminal)
            let before = snapshot(terminal)
            try await Task.sleep(for: .seconds(seconds))
            let after = snapshot(terminal)
            measures.append(measure(spell, from: before, to: after))
        }
        try terminal.send("q")
        _ = await terminal.waitForExit()
        return measures
    }

    /// Waits until nothing has arrived for a second (at most 10 s): the screen a key led to is out.
    private static func settle(_ terminal: PseudoTerminal) async {
        let deadline = ContinuousClock.now + .seconds(10)
        var last = terminal.outputCount
        var quietSince = ContinuousClock.now
        while ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
            let count = terminal.outputCount
            if count != last {
                last = count
                quietSince = ContinuousClock.now
            } else if ContinuousClock.now - quietSince >= .seconds(1) {
                return
            }
        }
    }

    private static func snapshot(_ terminal: PseudoTerminal) -> Snapshot {
        let pid = terminal.processID
        var switches: [Int: Int] = [:]
        var names: [Int: String] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            guard let id = Int(task), let text = Runner.readProc("/proc/\(pid)/task/\(task)/status") else { continue }
            names[id] = Runner.readProc("/proc/\(pid)/task/\(task)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? task
            switches[id] = text.split(separator: "\n").filter { $0.contains("ctxt_switches:") }
                .reduce(0) { $0 + (Int($1.split(whereSeparator: { $0 == " " || $0 == "\t" }).last ?? "") ?? 0) }
        }
        // utime and stime: fields 14 and 15, counted after the command's closing parenthesis.
        var ticks = 0
        if let stat = Runner.readProc("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 13 { ticks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) }
        }
        var written = 0
        if let io = Runner.readProc("/proc/\(pid)/io"),
           let line = io.split(separator: "\n").first(where: { $0.hasPrefix("wchar:") }) {
            written = Int(line.split(separator: " ").last ?? "") ?? 0
        }
        return Snapshot(switchesByThread: switches, names: names, cpuTicks: ticks, terminalBytes: terminal.outputCount, writtenBytes: written)
    }

    private static func measure(_ spell: Spell, from before: Snapshot, to after: Snapshot) -> Measure {
        var wakeUps = 0, started = 0
        var woken: [String: Int] = [:]
        for (thread, count) in after.switchesByThread {
            let delta = count - (before.switchesByThread[thread] ?? 0)
            if before.switchesByThread[thread] == nil { started += 1 }
            wakeUps += delta
            if delta > 0 { woken[after.names[thread] ?? "\(thread)", default: 0] += delta }
        }
        let endedThreads = before.switchesByThread.keys.filter { after.switchesByThread[$0] == nil }
        let ended = endedThreads.count
        wakeUps += ended
        for thread in endedThreads { woken["\(before.names[thread] ?? "\(thread)") (ended)", default: 0] += 1 }
        let ticksPerSecond = max(1, sysconf(Int32(_SC_CLK_TCK)))
        let cpu = Duration.milliseconds((after.cpuTicks - before.cpuTicks) * 1000 / ticksPerSecond)
        return Measure(spell: spell, wakeUps: wakeUps, threadsStarted: started, threadsEnded: ended, cpu: cpu,
                       terminalBytes: after.terminalBytes - before.terminalBytes,
                       writtenBytes: after.writtenBytes - before.writtenBytes, wokenThreads: woken)
    }

    /// The table: each spell of each program beside the C program's spell, and a verdict: a
    /// still spell of an AppletKit program that wakes more often than the C program, uses CPU or
    /// writes anything is OVER BUDGET.
    static func report(seconds: Int, reference: Measure, programs: [(name: String, measures: [Measure])]) -> [String] {
        var lines = [
            "Idle: \(seconds) s of no input per spell (C ncurses blocked in getch is the reference, measured in this run)",
            "",
            "program / spell".padded(48) + "wake-ups".leftPadded(9) + "threads ±".leftPadded(11) + "CPU ms".leftPadded(8)
                + "tty bytes".leftPadded(11) + "written".leftPadded(9) + "  budget",
        ]
        func row(_ name: String, _ m: Measure, verdict: String) -> String {
            name.padded(48) + "\(m.wakeUps)".leftPadded(9) + "+\(m.threadsStarted)/-\(m.threadsEnded)".leftPadded(11)
                + "\(m.cpu.components.seconds * 1000 + m.cpu.components.attoseconds / 1_000_000_000_000_000)".leftPadded(8)
                + "\(m.terminalBytes)".leftPadded(11) + "\(m.writtenBytes)".leftPadded(9) + "  " + verdict
        }
        lines.append(row("C ncurses: at rest", reference, verdict: "(reference)"))
        for (name, measures) in programs {
            for m in measures {
                let verdict: String
                if m.spell.moves {
                    verdict = "(moves: not held)"
                } else if m.wakeUps <= reference.wakeUps && m.cpu <= reference.cpu && m.terminalBytes == 0 && m.writtenBytes == 0 {
                    verdict = "ok: at rest like C"
                } else {
                    verdict = "OVER BUDGET: still, yet it woke, used CPU or wrote"
                }
                lines.append(row("\(name): \(m.spell.name)", m, verdict: verdict))
                if !m.spell.moves, !m.wokenThreads.isEmpty {
                    lines.append("    woken: " + m.wokenThreads.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
                }
            }
        }
        return lines
    }
}

private extension String {
    func padded(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? " " + self : String(repeating: " ", count: width - count) + self }
}
