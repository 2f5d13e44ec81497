import AppletTesting
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program under test: how to start it.
struct Program: Sendable {
    /// The column heading: `C ncurses`, `AppletKit (release)`.
    var name: String
    var path: String
    /// Arguments; `{state}` is replaced by a fresh temporary folder for each run.
    var arguments: [String]
}

/// What one run of one program measured.
struct RunResult: Sendable {
    /// From just before the program was started to the arrival of the output that completed the
    /// first frame (tab bar, content and status line).
    var firstFrame: Duration
    /// User and system CPU over the whole run (wait4's rusage).
    var userCPU: Duration
    var systemCPU: Duration
    var cpu: Duration { userCPU + systemCPU }
    /// CPU time used by the first frame (the sum of the threads' run time in
    /// /proc/<pid>/task/*/schedstat when it showed).
    var firstFrameCPU: Duration?
    /// Everything the program wrote to the terminal, from start to exit.
    var bytes: Int
    /// Bytes written by the time the first frame showed.
    var firstFrameBytes: Int
    /// Peak resident set size of the program's own address space: VmHWM in /proc/<pid>/status,
    /// read after the last key, just before `q`. (wait4's ru_maxrss is not used for the table: on
    /// Linux it also counts the pages the child had between fork and exec, which are the
    /// driver's, so a small program reports the driver's size.)
    var peakRSS: Int
    /// wait4's ru_maxrss, for comparison.
    var maxRSS: Int
    /// RssAnon and RssFile just before `q`: the program's own memory and the pages of its files
    /// (executable, shared libraries, locale data) it had in memory.
    var anonymousRSS: Int?
    var fileRSS: Int?
    /// VmRSS when the first frame showed.
    var firstFrameRSS: Int?
    /// Per key, in script order: from just before the key was written to the arrival of the
    /// output that made the screen show its effect.
    var latencies: [Duration]
    /// Per key: the bytes written from the previous key's match to this key's match.
    var keyBytes: [Int]
    /// The threads the program had just before `q`.
    var threads: Int?
    /// Context switches of all its threads so far, just before `q` (voluntary: a thread waited,
    /// for input or for another thread).
    var contextSwitches: Int?
    /// The shared objects mapped just before `q` (file names only).
    var libraries: [String]
}

/// What one run of the floor program (`tabs-floor`) measured.
struct FloorResult: Sendable {
    /// From just before it was started to the arrival of its line.
    var firstOutput: Duration
    /// VmHWM once its line showed (it does nothing more before `q`).
    var peakRSS: Int
}

enum RunError: Error, CustomStringConvertible {
    case keyTimedOut(program: String, index: Int, key: Workload.Key, expected: String, screen: String)
    case firstFrameTimedOut(program: String, screen: String)
    case badExit(program: String, termination: String)
    case noUsage(program: String)

    var description: String {
        switch self {
        case let .keyTimedOut(program, index, key, expected, screen):
            return "\(program): key #\(index + 1) (\(key)) did not show its effect (\(expected)) within the timeout; the screen:\n\(screen)"
        case let .firstFrameTimedOut(program, screen):
            return "\(program): no complete first frame within the timeout; the screen:\n\(screen)"
        case let .badExit(program, termination):
            return "\(program): did not exit with status 0 after q (\(termination))"
        case let .noUsage(program):
            return "\(program): no resource usage (it was not reaped by the driver)"
        }
    }
}

enum Runner {
    static let keyTimeout = Duration.seconds(5)

    /// Both programs get the same environment: an xterm-256color terminal in a UTF-8 locale, with
    /// colours allowed.
    static var environment: [String: String] {
        var environment = PseudoTerminal.defaultEnvironment
        environment["LC_ALL"] = "C.UTF-8"
        environment["NO_COLOR"] = nil
        environment["ESCDELAY"] = nil
        return environment
    }

    /// Starts `program` on a 100x30 pseudo-terminal, waits for the first frame, sends every key of
    /// `script` waiting for its effect, quits with `q` and reaps it.
    static func run(_ program: Program, script: [Workload.Key]) async throws -> RunResult {
        let stateDirectory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: stateDirectory) }
        let arguments = program.arguments.map { $0 == "{state}" ? stateDirectory : $0 }

        var model = Workload.Model()
        let start = ContinuousClock.now
        let terminal = try PseudoTerminal.start(program.path, arguments: arguments, environment: environment,
                                                width: Workload.width, height: Workload.height)
        defer { terminal.close() }
        let initial = model
        let first: PseudoTerminal.Match
        do {
            first = try await terminal.waitForMatch(timeout: .seconds(20)) { Workload.shows(initial, on: $0) }
        } catch {
            throw RunError.firstFrameTimedOut(program: program.name, screen: terminal.screen.text)
        }
        let firstFrameCPU = cpuTime(of: terminal.processID)
        let firstFrameRSS = memoryStatus(of: terminal.processID)["VmRSS"]

        var latencies: [Duration] = []
        var keyBytes: [Int] = []
        latencies.reserveCapacity(script.count)
        keyBytes.reserveCapacity(script.count)
        var lastCount = first.outputCount
        for (index, key) in script.enumerated() {
            model.apply(key)
            let expected = model
            let sent = ContinuousClock.now
            try terminal.send([key.byte])
            let match: PseudoTerminal.Match
            do {
                match = try await terminal.waitForMatch(timeout: keyTimeout) { Workload.shows(expected, on: $0) }
            } catch {
                throw RunError.keyTimedOut(program: program.name, index: index, key: key,
                                           expected: "\(expected)", screen: terminal.screen.text)
            }
            latencies.append(match.arrival - sent)
            keyBytes.append(match.outputCount - lastCount)
            lastCount = match.outputCount
        }
        let threads = threadCount(of: terminal.processID)
        let contextSwitches = self.contextSwitches(of: terminal.processID)
        let libraries = mappedLibraries(of: terminal.processID)
        let memory = memoryStatus(of: terminal.processID)
        guard let peak = memory["VmHWM"] else { throw RunError.noUsage(program: program.name) }

        try terminal.send("q")
        let termination = await terminal.waitForExit(timeout: .seconds(20))
        guard termination == .exited(0) else {
            throw RunError.badExit(program: program.name, termination: termination.map { "\($0)" } ?? "still running")
        }
        guard let usage = terminal.resourceUsage else { throw RunError.noUsage(program: program.name) }
        // The reader reads what is left on the terminal before it reaps the program; wait for the
        // end of the output all the same, so the count is complete.
        _ = try? await terminal.waitUntil(timeout: .seconds(2)) { !$0.isAlternateScreen }
        return RunResult(firstFrame: first.arrival - start, userCPU: usage.userTime, systemCPU: usage.systemTime,
                         firstFrameCPU: firstFrameCPU, bytes: terminal.outputCount, firstFrameBytes: first.outputCount,
                         peakRSS: peak, maxRSS: usage.maxResidentBytes, anonymousRSS: memory["RssAnon"],
                         fileRSS: memory["RssFile"], firstFrameRSS: firstFrameRSS, latencies: latencies,
                         keyBytes: keyBytes, threads: threads, contextSwitches: contextSwitches, libraries: libraries)
    }

    /// Starts the floor program on the same terminal as the others, waits for its line, reads its
    /// peak memory, quits it with `q` and reaps it.
    static func runFloor(_ path: String) async throws -> FloorResult {
        let start = ContinuousClock.now
        let terminal = try PseudoTerminal.start(path, arguments: [], environment: environment,
                                                width: Workload.width, height: Workload.height)
        defer { terminal.close() }
        let ready: PseudoTerminal.Match
        do {
            ready = try await terminal.waitForMatch(timeout: .seconds(20)) { $0.text.contains("floor ready") }
        } catch {
            throw RunError.firstFrameTimedOut(program: "tabs-floor", screen: terminal.screen.text)
        }
        let memory = memoryStatus(of: terminal.processID)
        try terminal.send("q")
        let termination = await terminal.waitForExit(timeout: .seconds(20))
        guard termination == .exited(0) else {
            throw RunError.badExit(program: "tabs-floor", termination: termination.map { "\($0)" } ?? "still running")
        }
        guard let peak = memory["VmHWM"] else { throw RunError.noUsage(program: "tabs-floor") }
        return FloorResult(firstOutput: ready.arrival - start, peakRSS: peak)
    }

    /// Runs the first `count` keys and returns the screen after each (and after the first frame),
    /// taken once the program has stopped writing for a while, to compare the two programs'
    /// screens cell by cell. Not timed.
    static func screens(_ program: Program, script: [Workload.Key], count: Int) async throws -> [TerminalScreen] {
        let stateDirectory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: stateDirectory) }
        let arguments = program.arguments.map { $0 == "{state}" ? stateDirectory : $0 }
        let terminal = try PseudoTerminal.start(program.path, arguments: arguments, environment: environment,
                                                width: Workload.width, height: Workload.height)
        defer { terminal.close() }
        var model = Workload.Model()
        var screens: [TerminalScreen] = []
        let initial = model
        try await terminal.waitUntil(timeout: .seconds(20)) { Workload.shows(initial, on: $0) }
        screens.append(await settledScreen(terminal))
        for key in script.prefix(count) {
            model.apply(key)
            let expected = model
            try terminal.send([key.byte])
            do {
                try await terminal.waitUntil(timeout: keyTimeout) { Workload.shows(expected, on: $0) }
            } catch {
                throw RunError.keyTimedOut(program: program.name, index: screens.count - 1, key: key,
                                           expected: "\(expected)", screen: terminal.screen.text)
            }
            screens.append(await settledScreen(terminal))
        }
        try terminal.send("q")
        _ = await terminal.waitForExit(timeout: .seconds(20))
        return screens
    }

    /// The screen once no output has come for 30 ms.
    private static func settledScreen(_ terminal: PseudoTerminal) async -> TerminalScreen {
        var count = terminal.outputCount
        var quiet = Duration.zero
        while quiet < .milliseconds(30) {
            try? await Task.sleep(for: .milliseconds(5))
            let now = terminal.outputCount
            quiet = now == count ? quiet + .milliseconds(5) : .zero
            count = now
        }
        return terminal.screen
    }

    // MARK: /proc

    private static func temporaryDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "tabs-bench-XXXXXX").utf8CString)
        guard let path = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        return String(cString: path)
    }

    /// A /proc file's whole text (its size shows as 0, so it is read until the end).
    static func readProc(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The sum of the run time of every thread of `pid` (schedstat's first field, in ns).
    static func cpuTime(of pid: Int32) -> Duration? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var total: Int64 = 0
        for task in tasks {
            guard let text = readProc("/proc/\(pid)/task/\(task)/schedstat"),
                  let field = text.split(separator: " ").first, let ns = Int64(field) else { return nil }
            total += ns
        }
        return .nanoseconds(total)
    }

    /// The `kB` lines of /proc/<pid>/status (VmRSS, VmHWM, RssAnon, RssFile...), in bytes.
    static func memoryStatus(of pid: Int32) -> [String: Int] {
        guard let text = readProc("/proc/\(pid)/status") else { return [:] }
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") where line.hasSuffix(" kB") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ":" })
            if fields.count >= 2, let kb = Int(fields[1]) { values[String(fields[0])] = kb * 1024 }
        }
        return values
    }

    /// The voluntary and involuntary context switches of every thread of `pid`, summed.
    static func contextSwitches(of pid: Int32) -> Int? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var total = 0
        for task in tasks {
            guard let text = readProc("/proc/\(pid)/task/\(task)/status") else { return nil }
            for line in text.split(separator: "\n") where line.contains("ctxt_switches:") {
                total += Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last ?? "") ?? 0
            }
        }
        return total
    }

    static func threadCount(of pid: Int32) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count
    }

    static func mappedLibraries(of pid: Int32) -> [String] {
        guard let text = readProc("/proc/\(pid)/maps") else { return [] }
        var names = Set<String>()
        for line in text.split(separator: "\n") {
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last, path.hasPrefix("/"),
                  path.contains(".so") else { continue }
            names.insert(String(path.split(separator: "/").last ?? path[...]))
        }
        return names.sorted()
    }
}
