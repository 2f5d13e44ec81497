import AppletState
import Synchronization
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

/// What applets may read from the system, and nothing else: the time, random numbers, the
/// environment, files, the terminal's size and the running processes. `EventLogic` reads them
/// from its context, performers from their second argument, so a test (or a replay) decides what
/// the world looks like.
///
/// ```swift
/// let logic = LogicModule(coeffects: .live)                      // the real system
/// let test = Coeffects.fixed(now: Date(timeIntervalSince1970: 0),
///                            files: ["/etc/hostname": Data("box\n".utf8)],
///                            processes: [ProcessSnapshot(pid: 1, name: "init")])
/// test.fileContents("/etc/hostname")                             // "box\n"
/// ```
///
/// Each reader is a closure, so a test may replace one: `coeffects.now = { fixedDate }`.
public struct Coeffects: Sendable {
    /// The wall-clock time.
    public var now: @Sendable () -> Date
    /// The clock `Sleep` and performers wait on.
    public var clock: any Clock<Duration>
    /// A random integer in the range.
    public var random: @Sendable (ClosedRange<Int>) -> Int
    /// An environment variable.
    public var environment: @Sendable (String) -> String?
    /// A file's contents; throws when it cannot be read.
    public var fileContents: @Sendable (String) throws -> Data
    /// Whether a file or folder exists.
    public var fileExists: @Sendable (String) -> Bool
    /// The terminal's size in cells (the host keeps it current; zero without a host).
    public var terminalSize: @Sendable () -> TerminalSize
    /// The running processes.
    public var processes: @Sendable () throws -> [ProcessSnapshot]

    public init(now: @escaping @Sendable () -> Date, clock: any Clock<Duration>,
                random: @escaping @Sendable (ClosedRange<Int>) -> Int,
                environment: @escaping @Sendable (String) -> String?,
                fileContents: @escaping @Sendable (String) throws -> Data,
                fileExists: @escaping @Sendable (String) -> Bool,
                terminalSize: @escaping @Sendable () -> TerminalSize,
                processes: @escaping @Sendable () throws -> [ProcessSnapshot]) {
        self.now = now
        self.clock = clock
        self.random = random
        self.environment = environment
        self.fileContents = fileContents
        self.fileExists = fileExists
        self.terminalSize = terminalSize
        self.processes = processes
    }

    /// The real system. `terminalSize` reads what `TerminalSize.current` was last set to.
    public static var live: Coeffects {
        Coeffects(now: { Date() }, clock: MainQueueClock(),
                  random: { Int.random(in: $0) },
                  environment: { name in getenv(name).map { String(cString: $0) } },
                  fileContents: { path in try Data(contentsOf: URL(fileURLWithPath: path)) },
                  fileExists: { FileManager.default.fileExists(atPath: $0) },
                  terminalSize: { TerminalSize.current },
                  processes: { try ProcessSnapshot.readAll() })
    }

    /// A world that never changes, for tests: a fixed time, random numbers from a seeded
    /// generator (the same sequence every run), the given environment, files and processes, and
    /// a clock that moves only when the test advances it (a `TestClock` the test passes), or never.
    public static func fixed(now: Date = Date(timeIntervalSince1970: 1_767_225_600),
                             clock: (any Clock<Duration>)? = nil,
                             seed: UInt64 = 42,
                             environment: [String: String] = [:],
                             files: [String: Data] = [:],
                             terminalSize: TerminalSize = TerminalSize(columns: 80, rows: 24),
                             processes: [ProcessSnapshot] = []) -> Coeffects {
        let generator = SeededGenerator(seed: seed)
        return Coeffects(now: { now }, clock: clock ?? StillClock(),
                         random: { generator.next(in: $0) },
                         environment: { environment[$0] },
                         fileContents: { path in
                             guard let data = files[path] else { throw CocoaError(.fileReadNoSuchFile, userInfo: ["NSFilePath": path]) }
                             return data
                         },
                         fileExists: { path in files[path] != nil || files.keys.contains { $0.hasPrefix(path.hasSuffix("/") ? path : path + "/") } },
                         terminalSize: { terminalSize },
                         processes: { processes })
    }
}

/// A terminal's size in columns and rows, as the host last saw it (AppletLogic knows nothing of
/// terminals; the host fills it in). A view's or a canvas's size is `Size`, in cells.
///
/// ```swift
/// let size = coeffects.terminalSize()   // TerminalSize(columns: 120, rows: 40)
/// ```
public struct TerminalSize: Hashable, Codable, Sendable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) { self.columns = columns; self.rows = rows }
    public var description: String { "\(columns)x\(rows)" }

    private static let latest = Mutex(TerminalSize(columns: 0, rows: 0))
    /// What the host last saw (the live `Coeffects.terminalSize` reads it).
    public static var current: TerminalSize {
        get { latest.withLock { $0 } }
        set { latest.withLock { $0 = newValue } }
    }
}

/// One running process, as `/proc` describes it.
public struct ProcessSnapshot: Hashable, Codable, Sendable {
    public var pid: Int32
    public var name: String
    /// `R` running, `S` sleeping, `Z` zombie… (the third field of `/proc/<pid>/stat`).
    public var state: String
    /// Resident memory in KiB.
    public var residentKiB: Int
    /// User plus system CPU time in clock ticks since the process started.
    public var cpuTicks: Int
    /// The command line, arguments separated by spaces (empty for kernel threads).
    public var command: String

    public init(pid: Int32, name: String, state: String = "S", residentKiB: Int = 0, cpuTicks: Int = 0, command: String = "") {
        self.pid = pid
        self.name = name
        self.state = state
        self.residentKiB = residentKiB
        self.cpuTicks = cpuTicks
        self.command = command
    }

    /// Every process in `/proc` (processes that end while being read are left out).
    public static func readAll(proc: String = "/proc") throws -> [ProcessSnapshot] {
        let entries = try FileManager.default.contentsOfDirectory(atPath: proc)
        return entries.compactMap { Int32($0) }.sorted().compactMap { read(pid: $0, proc: proc) }
    }

    /// One process, or nil if it is gone.
    public static func read(pid: Int32, proc: String = "/proc") -> ProcessSnapshot? {
        guard let stat = try? String(contentsOfFile: "\(proc)/\(pid)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
        let name = String(stat[stat.index(after: open)..<close])
        // After the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 21 else { return nil }
        let ticks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        let pages = Int(fields[21]) ?? 0
        let command = (try? Data(contentsOf: URL(fileURLWithPath: "\(proc)/\(pid)/cmdline")))
            .map { String(decoding: $0, as: UTF8.self).split(separator: "\0").joined(separator: " ") } ?? ""
        return ProcessSnapshot(pid: pid, name: name, state: String(fields[0]), residentKiB: pages * Self.pageKiB,
                               cpuTicks: ticks, command: command)
    }

    private static let pageKiB = max(1, Int(sysconf(Int32(_SC_PAGESIZE))) / 1024)
}

/// SplitMix64: a small generator whose sequence depends only on its seed.
final class SeededGenerator: Sendable {
    private let state: Mutex<UInt64>
    init(seed: UInt64) { state = Mutex(seed) }

    func next(in range: ClosedRange<Int>) -> Int {
        let value = state.withLock { state -> UInt64 in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let width = UInt64(range.upperBound - range.lowerBound) &+ 1
        return width == 0 ? Int(truncatingIfNeeded: value) : range.lowerBound + Int(value % width)
    }
}
