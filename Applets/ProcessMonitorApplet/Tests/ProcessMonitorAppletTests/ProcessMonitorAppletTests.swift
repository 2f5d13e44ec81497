import AppletTesting
import Foundation
import ProcessMonitorApplet
import ProcessMonitorAppletInterface
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

// MARK: - A monitor on a headless screen, over a world the test decides

/// The processes the fake `/proc` holds, busiest (most CPU time) first:
/// swift-frontend, postgres, systemd, tmux: server, bash, sshd, kthreadd, sleep.
let sampleProcesses = [
    ProcessSnapshot(pid: 1, name: "systemd", state: "S", residentKiB: 12_288, cpuTicks: 500, command: "/sbin/init splash"),
    ProcessSnapshot(pid: 2, name: "kthreadd", state: "S", residentKiB: 0, cpuTicks: 3),
    ProcessSnapshot(pid: 412, name: "sshd", state: "S", residentKiB: 8_200, cpuTicks: 40, command: "sshd: /usr/sbin/sshd -D [listener]"),
    ProcessSnapshot(pid: 977, name: "postgres", state: "S", residentKiB: 184_320, cpuTicks: 9_000,
                    command: "/usr/lib/postgresql/16/bin/postgres -D /var/lib/postgresql/16/main"),
    ProcessSnapshot(pid: 1234, name: "sleep", state: "S", residentKiB: 900, cpuTicks: 1, command: "sleep 600"),
    ProcessSnapshot(pid: 2048, name: "swift-frontend", state: "R", residentKiB: 1_468_006, cpuTicks: 25_000,
                    command: "/usr/bin/swift-frontend -frontend -c -primary-file Sources/ProcessMonitorApplet/MonitorLogic.swift"),
    ProcessSnapshot(pid: 3001, name: "bash", state: "S", residentKiB: 5_120, cpuTicks: 120, command: "-bash"),
    ProcessSnapshot(pid: 3050, name: "tmux: server", state: "S", residentKiB: 4_096, cpuTicks: 300, command: "tmux new -s work"),
]

/// What a fake `SignalProcess` performer was asked to do, from any thread.
final class SignalCalls: Sendable {
    private let calls = Mutex<[SignalProcess]>([])
    func add(_ call: SignalProcess) { calls.withLock { $0.append(call) } }
    var all: [SignalProcess] { calls.withLock { $0 } }
}

/// The monitor in a test host whose logic module reads fixed coeffects (the host's `TestClock`,
/// so `advance(by:)` moves the timer too) and signals through a fake that records its calls.
@MainActor
final class MonitorHarness {
    let host: AppletTestHost
    let logic: LogicModule
    let signals: SignalCalls
    private let override: OverrideToken

    /// - Parameters:
    ///   - failure: the `errno` the fake `kill` fails with (nil: it succeeds).
    ///   - live: real coeffects (`/proc`, the wall clock) and the real `kill` instead of fakes.
    convenience init(processes: [ProcessSnapshot] = sampleProcesses, tabs: [Tab]? = nil, width: Int = 100, height: Int = 30,
                     failure: Int32? = nil, live: Bool = false) throws {
        self.init(host: try AppletTestHost(tabs: tabs ?? [Tab(ProcessMonitorApplet())], width: width, height: height),
                  processes: processes, failure: failure, live: live)
    }

    /// The same over a host already made (before the test lets its tasks run).
    init(host: AppletTestHost, processes: [ProcessSnapshot] = sampleProcesses, failure: Int32? = nil, live: Bool = false) {
        self.host = host
        logic = LogicModule(store: host.application,
                            coeffects: live ? .live : .fixed(clock: host.clock, processes: processes))
        let signals = SignalCalls()
        self.signals = signals
        if !live {
            logic.perform(SignalProcess.self) { effect, _ throws(SignalError) in
                signals.add(effect)
                if let failure { throw SignalError(pid: effect.pid, signal: effect.signal, code: failure) }
            }
        }
        // The applet reaches its logic module through the store: the test's takes the place of
        // the one the store would make. Its `.task` has not run yet (the test holds the main actor).
        let (store, module) = (host.application, logic)
        override = Application.withCurrent(store) { Application.override(\.logic, with: module) }
    }

    /// Lets the monitor's task start the timer and read the processes, and draws.
    func started() async -> Self {
        await host.settle()
        return self
    }

    /// Replaces the fake `/proc` (and the time, which CPU shares are measured against).
    func world(_ processes: [ProcessSnapshot], now: Date) {
        logic.setCoeffects(.fixed(now: now, clock: host.clock, processes: processes))
    }

    var state: MonitorState { host.application.processMonitor.value }

    /// Returns once `condition` holds, or after about two seconds: side effects run off the main
    /// actor, so what they lead to may take a few turns to show.
    func until(_ condition: () -> Bool) async {
        var turns = 0
        while !condition(), turns < 1000 {
            turns += 1
            try? await Task.sleep(for: .milliseconds(2))
            await host.settle()
        }
    }

    /// Returns once the timer's `Sleep` waits on the clock, so advancing the clock wakes it.
    func timerIsWaiting() async {
        for _ in 0..<500 {
            do { try await host.clock.checkSuspension() } catch { return }   // throws: something sleeps
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// The names in the order the table shows them (top to bottom).
    func order(_ names: [String]) -> [String] {
        names.compactMap { name in host.lines.firstIndex { $0.contains(" \(name) ") }.map { ($0, name) } }
            .sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The row of the screen that shows `text`.
    func line(containing text: String) -> Int? { host.lines.firstIndex { $0.contains(text) } }

    deinit { override.cancel() }
}

/// An applet to switch to, so the monitor goes off screen.
struct OtherApplet: Applet {
    let id = "other"
    let title = "Other"
    var body: some View { Text("Something else") }
}

let fixedNow = Date(timeIntervalSince1970: 1_767_225_600)

// MARK: - Tests

@Suite("Process monitor")
@MainActor
struct ProcessMonitorAppletTests {
    @Test func showsTheProcessesBusiestFirst() async throws {
        let m = try await MonitorHarness().started()
        #expect(m.host.contains("8 processes · sorted by CPU% ▼"))
        #expect(m.host.contains("refreshed "))
        #expect(m.host.contains("PID NAME            STATE     RSS CPU% ▼ COMMAND"))
        #expect(m.order(["swift-frontend", "postgres", "systemd", "tmux: server", "bash", "sshd", "kthreadd", "sleep"])
                == ["swift-frontend", "postgres", "systemd", "tmux: server", "bash", "sshd", "kthreadd", "sleep"])
        #expect(m.host.contains("    2048 swift-frontend  R        1.4G      - /usr/bin/swift-frontend"))
        #expect(m.host.contains("       2 kthreadd        S          0K      - [kthreadd]"), "a kernel thread has no command line")
        #expect(m.state.lastRefresh == fixedNow)
        #expect(m.logic.actionLog.entries.contains { $0.title.hasPrefix("setProcesses(8 processes") })
    }

    @Test func fitsAt80x24And120x40() async throws {
        let small = try await MonitorHarness(width: 80, height: 24).started()
        small.host.expectRows(1..<5, toShow: """
             8 processes · sorted by CPU% ▼                              refreshed \(timeText(fixedNow))
             Filter / filters by name, command or pid
                 PID NAME            STATE     RSS CPU% ▼ COMMAND
                2048 swift-frontend  R        1.4G      - /usr/bin/swift-frontend -fronten…
            """)
        #expect(small.host.row(23) == "/ Filter  K SIGTERM  p by PID  n by name  m by memory  c by CPU  ? Help  q Quit")

        let large = try await MonitorHarness(width: 120, height: 40).started()
        #expect(large.host.row(5).hasSuffix(" /usr/lib/postgresql/16/bin/postgres -D /var/lib/postgresql/16/main"), "room for it all")
        #expect(large.host.row(39).hasPrefix("/ Filter  K SIGTERM  p by PID  n by name  m by memory  c by CPU  Alt-C Copy  Tab Focus"))
        #expect(large.host.lines.filter { $0.contains(" S ") || $0.contains(" R ") }.count == 8)
    }

    @Test func theHeaderStaysOnOneLineAtEveryWidth() async throws {
        // At 50 columns the header wrapped: its `▼` dropped onto a line of its own and pushed
        // the table down. It now says less as the pane narrows, and keeps the sort and its mark.
        let m = try await MonitorHarness(width: 120, height: 24).started()
        let time = timeText(fixedNow)
        func header(at width: Int) -> String {
            m.host.resize(width: width, height: 24)
            return m.host.row(1)
        }
        for width in 20...120 {
            let line = header(at: width)
            #expect(line.contains("CPU% ▼"), "at \(width) columns the sort mark is gone: \(line)")
            #expect(m.host.row(2).hasPrefix(" Filter"), "at \(width) columns the header took more than one row:\n\(m.host.text)")
        }
        #expect(header(at: 80) == " 8 processes · sorted by CPU% ▼                              refreshed \(time)")
        #expect(header(at: 50) == " 8 processes · sorted by CPU% ▼" + String(repeating: " ", count: 10) + time)
        #expect(header(at: 40) == " 8 processes · sorted by CPU% ▼")
        #expect(header(at: 30) == " 8 processes · by CPU% ▼")
        #expect(header(at: 20) == " 8 · by CPU% ▼")
        #expect(m.host.cell(x: 1, y: 1).style.attributes.contains(.bold))
        // Filtered, at the narrowest: the count is cut, not the sort.
        m.host.press("/")
        m.host.type("s")
        m.host.press("enter")
        m.host.press("m")
        let narrow = header(at: 20)
        #expect(narrow.hasSuffix(" · by RSS ▼"), "\(narrow)")
        #expect(m.host.row(2).hasPrefix(" Filter"))
        #expect(header(at: 60).contains(" of 8 processes · sorted by RSS ▼"))
    }

    @Test func sortKeysReorderTheRowsAndPressingAgainFlips() async throws {
        let m = try await MonitorHarness().started()
        let names = ["systemd", "kthreadd", "sshd", "postgres", "sleep", "swift-frontend", "bash", "tmux: server"]
        m.host.press("p")
        #expect(m.host.contains("sorted by PID ▲"))
        #expect(m.order(names) == names, "pid order")
        m.host.press("p")
        #expect(m.host.contains("sorted by PID ▼"))
        #expect(m.order(names) == names.reversed())
        m.host.press("m")
        #expect(m.host.contains("sorted by RSS ▼"), "memory starts with the biggest")
        #expect(m.order(names).first == "swift-frontend" && m.order(names).last == "kthreadd")
        m.host.press("n")
        #expect(m.order(names) == ["bash", "kthreadd", "postgres", "sleep", "sshd", "swift-frontend", "systemd", "tmux: server"])
        m.host.press("c")
        #expect(m.order(names).first == "swift-frontend")
        #expect(m.host.application.processMonitorSort.value == MonitorSort(column: .cpu, ascending: false))
        // The table's own keys go through the logic too: `r` reverses, `<` sorts by the column left.
        m.host.press("r")
        #expect(m.host.contains("sorted by CPU% ▲"))
        m.host.press("<")
        #expect(m.host.contains("sorted by RSS ▲"))
        #expect(m.logic.actionLog.entries.filter { $0.title.hasPrefix("sort(") }.count == 7)
    }

    @Test func theFilterNarrowsTheRows() async throws {
        let m = try await MonitorHarness().started()
        m.host.press("/")
        m.host.type("sh")                              // sshd, -bash, and /sbin/init splash
        #expect(m.host.contains("3 of 8 processes"))
        #expect(m.order(["sshd", "bash", "postgres", "systemd"]) == ["systemd", "bash", "sshd"])
        #expect(m.state.filter == "sh")
        m.host.press("enter")                          // back to the table (on the next frame)
        m.host.press("j")
        #expect(m.state.selectedPID == 3001, "j moves in the table again")
        m.host.press("f")                              // and `f` goes back to the field
        m.host.press("ctrl-u")
        m.host.type("12")                              // a pid's first digits
        #expect(m.host.contains("1 of 8 processes"))
        #expect(m.host.contains("    1234 sleep           S        900K      - sleep 600"))
        m.host.press("ctrl-u")
        m.host.type("nothing like it")
        #expect(m.host.contains("0 of 8 processes"))
        #expect(m.logic.actionLog.entries.contains { $0.title == "setFilter(\"sh\")" })
    }

    @Test func keysMoveTheHighlightedSelection() async throws {
        let m = try await MonitorHarness().started()
        let first = try #require(m.line(containing: "swift-frontend"))
        #expect(m.host.cell(x: 10, y: first).style != m.host.cell(x: 10, y: first + 1).style, "the selected row is highlighted")
        m.host.press("j", "down", "j")
        #expect(m.state.selectedPID == 3050)
        let selected = try #require(m.line(containing: "tmux: server"))
        #expect(m.host.cell(x: 10, y: selected).style != m.host.cell(x: 10, y: selected + 1).style)
        m.host.press("k")
        #expect(m.state.selectedPID == 1)
        // While the filter field has the keys, the arrows still move the selection (a command).
        m.host.press("/", "down")
        #expect(m.state.selectedPID == 3050)
        #expect(m.state.filter.isEmpty)
    }

    @Test func aConfirmedSignalGoesToTheSelectedProcess() async throws {
        let m = try await MonitorHarness().started()
        m.host.press("j", "x")
        #expect(m.host.contains("Send SIGTERM to 977 (postgres)?"))
        m.host.press("right", "enter")                // from Cancel to Send
        await m.until { m.host.contains("✓ Sent SIGTERM") }
        #expect(m.signals.all == [SignalProcess(pid: 977, signal: SIGTERM)])
        #expect(m.host.contains("✓ Sent SIGTERM to 977 (postgres)"))
        let titles = m.logic.actionLog.entries.map(\.title)
        let sent = try #require(titles.firstIndex(of: "MonitorLogic ← signal(pid: 977, signal: 15)"))
        #expect(titles[sent...].contains("MonitorLogic ← refresh"), "a signal that went refreshes the list")
        m.host.press("K")                               // shift-k does the same
        #expect(m.host.contains("Send SIGTERM to 977 (postgres)?"))
    }

    @Test func cancellingSendsNothing() async throws {
        let m = try await MonitorHarness().started()
        m.host.press("x")
        #expect(m.host.contains("Send SIGTERM to 2048 (swift-frontend)?"))
        m.host.press("enter")                           // Cancel has the focus: Enter at once is safe
        #expect(!m.host.contains("Send SIGTERM"))
        m.host.press("K", "esc")
        await m.host.settle()
        #expect(m.signals.all.isEmpty)
        #expect(!m.logic.actionLog.entries.contains { $0.title.contains("SignalProcess") })
    }

    @Test func aFailedSignalSaysWhy() async throws {
        let m = try await MonitorHarness(failure: EPERM).started()
        m.host.press("x", "right", "enter")
        await m.until { m.state.problem != nil }
        #expect(m.signals.all == [SignalProcess(pid: 2048, signal: SIGTERM)])
        #expect(m.host.contains("✗ Cannot send SIGTERM to 2048: Operation not permitted"))
        #expect(m.state.problem == "Cannot send SIGTERM to 2048: Operation not permitted")
    }

    @Test func theTimerRefreshesEveryTwoSecondsWhileShown() async throws {
        let m = try await MonitorHarness(tabs: [Tab(ProcessMonitorApplet()), Tab(OtherApplet())]).started()
        #expect(m.host.contains("8 processes"))
        var next = sampleProcesses
        next[3].cpuTicks += 100                         // postgres: one second of CPU in two
        next.append(ProcessSnapshot(pid: 4242, name: "newcomer", cpuTicks: 7, command: "newcomer --now"))
        m.world(next, now: fixedNow + 2)
        await m.timerIsWaiting()
        await m.host.advance(by: .seconds(1))
        #expect(!m.host.contains("newcomer"), "not yet")
        await m.host.advance(by: .seconds(1))
        await m.until { m.host.contains("9 processes") }      // the woken sleep comes back to the main actor
        #expect(m.host.contains("9 processes"))
        #expect(m.host.contains("newcomer --now"))
        #expect(m.host.contains("     977 postgres        S      180.0M \(percent(100, in: 2).leftPadded(6)) "))
        #expect(m.state.lastRefresh == fixedNow + 2)
        #expect(m.state.selectedPID == 2048, "the highlight stays on its process as the rows re-sort")
        print("The process monitor after a tick, 100x30:\n" + m.host.lines.joined(separator: "\n"))

        // Another tab: the monitor's task ends and the timer with it.
        m.host.press("2")
        await m.until { m.logic.runningEffectCount == 0 }
        #expect(m.logic.runningEffectCount == 0, "the timer stopped with the view")
        m.world(sampleProcesses, now: fixedNow + 10)
        await m.host.advance(by: .seconds(6))
        #expect(m.state.processes.count == 9, "no refresh while the monitor is off screen")
        // Back: it reads /proc at once and the timer runs again.
        m.host.press("1")
        await m.until { m.host.contains("8 processes") }
        #expect(m.host.contains("8 processes"))
        #expect(m.logic.runningEffectCount == 1)
        #expect(m.logic.actionLog.entries.filter { $0.title == "MonitorLogic ← start" }.count == 2)
        #expect(m.logic.actionLog.entries.filter { $0.title == "MonitorLogic ← stop" }.count == 1)
    }

    @Test func theSortIsKeptAcrossRestarts() async throws {
        let m = try await MonitorHarness().started()
        m.host.press("m")
        let again = await MonitorHarness(host: try m.host.restart()).started()
        #expect(again.host.application.processMonitorSort.value == MonitorSort(column: .memory, ascending: false))
        #expect(again.host.contains("8 processes · sorted by RSS ▼"))
        #expect(again.order(["swift-frontend", "postgres", "systemd"]) == ["swift-frontend", "postgres", "systemd"])
    }

    @Test func aFailedReadShowsWhyAndTheNextOneClearsIt() async throws {
        let m = try await MonitorHarness().started()
        var broken = Coeffects.fixed(clock: m.host.clock)
        broken.processes = { throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: "/proc"]) }
        m.logic.setCoeffects(broken)
        m.host.press("ctrl-r")
        #expect(m.host.contains("✗ Cannot read the processes:"), "\(m.host.text)")
        #expect(m.host.contains("8 processes"), "the last reading stays")
        m.world(sampleProcesses, now: fixedNow + 1)
        m.host.press("f5")
        #expect(!m.host.contains("✗"))
        #expect(m.state.problem == nil)
    }

    @Test func whenTheSelectedProcessEndsTheOneTakingItsRowIsSelected() {
        let rows = sampleProcesses.map { MonitorProcess(pid: $0.pid, name: $0.name, cpuTicks: $0.cpuTicks) }
        var state = MonitorState(processes: rows, selectedPID: 1)        // systemd, the third busiest
        #expect(state.selection(after: rows, sortedBy: .standard) == 1)
        let withoutSystemd = rows.filter { $0.pid != 1 }
        #expect(state.selection(after: withoutSystemd, sortedBy: .standard) == 3050, "tmux moves up into its row")
        state.selectedPID = nil
        #expect(state.selection(after: rows, sortedBy: .standard) == 2048, "nothing chosen: the first row's process")
        #expect(MonitorState().selection(after: [], sortedBy: .standard) == nil)
    }

    @Test func eventsRequestsAndEffectsAreValuesARecordingCanHold() throws {
        let events: [MonitorLogic.Event] = [.start, .stop, .tick, .refresh, .sort(.memory), .setSort(MonitorSort(column: .name, ascending: true)),
                                            .filter("ssh"), .select(pid: 42), .move(by: -1), .askToSignal(signal: SIGTERM),
                                            .signal(pid: 42, signal: SIGTERM)]
        let requests: [MonitorRequest] = [.setProcesses([MonitorProcess(pid: 1, name: "init", cpuPercent: 2.5)], at: fixedNow, select: 1),
                                          .setProblem("x"), .sort(.standard), .setFilter("a"), .select(nil),
                                          .askToSignal(pid: 1, name: "init", signal: SIGTERM), .signalSent(pid: 1, name: "init", signal: SIGTERM),
                                          .signalFailed(SignalError(pid: 1, signal: SIGTERM, code: EPERM))]
        let (encoder, decoder) = (JSONEncoder(), JSONDecoder())
        #expect(try decoder.decode([MonitorLogic.Event].self, from: encoder.encode(events)) == events)
        #expect(try decoder.decode([MonitorRequest].self, from: encoder.encode(requests)) == requests)
        let effect = SignalProcess(pid: 42, signal: SIGKILL)
        #expect(try decoder.decode(SignalProcess.self, from: encoder.encode(effect)) == effect)
        #expect("\(MonitorLogic.Event.sort(.memory))" == "sort(memory)")
        #expect(requests[0].description == "setProcesses(1 processes at \(timeText(fixedNow)), select: 1)")
        #expect(effect.description == "SignalProcess(SIGKILL → 42)")
    }
}

@Suite("Process monitor on the real system", .serialized)
@MainActor
struct ProcessMonitorLiveTests {
    @Test func itListsItsOwnProcessFromProc() async throws {
        let m = try MonitorHarness(live: true)
        defer { m.logic.cancelAll() }
        await m.host.settle()
        let pid = getpid()
        await m.until { !m.state.processes.isEmpty }
        let me = try #require(m.state.processes.first { $0.pid == pid })
        #expect(me.residentKiB > 0)
        m.host.press("/")
        m.host.type("\(pid)")
        #expect(m.host.lines.contains { $0.hasPrefix(String(repeating: " ", count: 8 - "\(pid)".count) + "\(pid) \(me.name)") },
                "\(m.host.text)")
    }

    @Test func aRealSignalEndsAChildProcess() async throws {
        let child = try Child.sleep()
        defer { child.kill() }
        #expect(ProcessSnapshot.read(pid: child.pid)?.name == "sleep")

        try await SignalProcess(pid: child.pid, signal: SIGTERM).perform(with: .live)
        #expect(await child.endingSignal() == SIGTERM)

        // Gone now: kill's errno comes back typed, with the system's words for it.
        let gone = SignalError(pid: child.pid, signal: SIGTERM, code: ESRCH)
        #expect(gone.description == "Cannot send SIGTERM to \(child.pid): No such process")
        await #expect(throws: gone) {
            try await SignalProcess(pid: child.pid, signal: SIGTERM).perform(with: .live)
        }
        // A process group, or every process, is never signalled.
        await #expect(throws: SignalError(pid: 0, signal: SIGTERM, code: EINVAL)) {
            try await SignalProcess(pid: 0, signal: SIGTERM).perform(with: .live)
        }
        await #expect(throws: SignalError(pid: -1, signal: SIGTERM, code: EINVAL)) {
            try await SignalProcess(pid: -1, signal: SIGTERM).perform(with: .live)
        }
    }

    @Test func theMonitorEndsARealProcessAfterAsking() async throws {
        let child = try Child.sleep()
        defer { child.kill() }
        let m = try MonitorHarness(live: true)
        defer { m.logic.cancelAll() }
        await m.host.settle()
        m.host.press("/")
        m.host.type("\(child.pid)")
        m.host.press("enter")                           // back to the table
        #expect(m.host.contains("1 of "))
        m.host.press("x")
        #expect(m.host.contains("Send SIGTERM to \(child.pid) (sleep)?"))
        m.host.press("right", "enter")
        #expect(await child.endingSignal() == SIGTERM)
        await m.until { m.host.contains("✓ Sent SIGTERM") }
        #expect(m.host.contains("✓ Sent SIGTERM to \(child.pid) (sleep)"))
    }
}

/// `/bin/sleep 30`, started with SIGTERM neither blocked nor ignored. (Foundation's `Process`
/// passes the calling thread's blocked signals on to the child on Linux, and Dispatch's threads
/// block SIGTERM: swift-corelibs-foundation#4772.)
struct Child {
    let pid: pid_t

    static func sleep() throws -> Child {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = (["/bin/sleep", "30"] as [String]).map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sleep", nil, &attributes, arguments, environ)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return Child(pid: pid)
    }

    /// The signal that ended it, waiting up to two seconds; nil if it did not end by a signal.
    func endingSignal() async -> Int32? {
        for _ in 0..<400 {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return status & 0x7f == 0 ? nil : status & 0x7f }
            if result < 0 { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    /// Ends it if a test failed before it did.
    func kill() {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 {
            _ = Glibc.kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
        }
    }
}

// MARK: - Helpers

func timeText(_ date: Date) -> String {
    let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
    return [parts.hour, parts.minute, parts.second].map { String(format: "%02d", $0 ?? 0) }.joined(separator: ":")
}

/// `ticks` over `seconds` as the CPU column shows it.
func percent(_ ticks: Int, in seconds: Double) -> String {
    String(format: "%.1f", Double(ticks) / (seconds * Double(MonitorProcess.ticksPerSecond)) * 100)
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}


// MARK: - The logic alone, exhaustively (TestLogic)

@Suite("MonitorLogic with TestLogic")
@MainActor
struct MonitorLogicTests {
    @Test func sortingIsARequestAndStartingReadsProcsAndStartsTheTimer() async {
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        let test = TestLogic(MonitorLogic(), coeffects: .fixed(now: now, processes: sampleProcesses))

        let byMemory = MonitorSort(column: .memory, ascending: false)
        await test.send(.sort(.memory), requests: [MonitorRequest.sort(byMemory)]) { $0[\.processMonitorSort] = byMemory }
        await test.send(.sort(.memory)) { $0[\.processMonitorSort] = MonitorSort(column: .memory, ascending: true) }

        // Start: /proc is read through the coeffect, the list lands in the store, a timer waits.
        let rows = MonitorProcess.rows(from: sampleProcesses, previous: [], elapsed: nil)
        let sort = MonitorSort(column: .memory, ascending: true)
        await test.send(.start, effects: [Sleep(MonitorLogic.interval)]) { state in
            state[\.processMonitor] = MonitorState(processes: rows, selectedPID: MonitorState().selection(after: rows, sortedBy: sort),
                                                   lastRefresh: now)
        }
        // Stop cancels the timer: nothing is left waiting.
        await test.send(.stop)
        #expect(test.waitingEffects.isEmpty)
        test.finish()
    }
}
