import AppletKit
import Foundation
import ProcessMonitorApplet
import ProcessMonitorAppletInterface

/// What the scenes show in place of the machine: a process list of a made-up server at a fixed
/// time, and an action log of what the monitor does in the first seconds of a session.
enum SceneFixtures {
    /// 2026-01-02 13:25:04 UTC.
    static let now = Date(timeIntervalSince1970: 1_767_360_304)

    static let processes: [ProcessSnapshot] = [
        ProcessSnapshot(pid: 1, name: "systemd", residentKiB: 12_288, cpuTicks: 500, command: "/sbin/init"),
        ProcessSnapshot(pid: 2, name: "kthreadd", cpuTicks: 3),
        ProcessSnapshot(pid: 412, name: "sshd", residentKiB: 8_200, cpuTicks: 40, command: "sshd: /usr/sbin/sshd -D [listener]"),
        ProcessSnapshot(pid: 530, name: "cron", residentKiB: 2_816, cpuTicks: 12, command: "/usr/sbin/cron -f"),
        ProcessSnapshot(pid: 977, name: "postgres", residentKiB: 184_320, cpuTicks: 9_000,
                        command: "/usr/lib/postgresql/16/bin/postgres -D /var/lib/postgresql/16/main"),
        ProcessSnapshot(pid: 981, name: "postgres", residentKiB: 21_504, cpuTicks: 640, command: "postgres: checkpointer"),
        ProcessSnapshot(pid: 982, name: "postgres", residentKiB: 9_728, cpuTicks: 310, command: "postgres: walwriter"),
        ProcessSnapshot(pid: 1105, name: "nginx", residentKiB: 6_144, cpuTicks: 220, command: "nginx: master process /usr/sbin/nginx"),
        ProcessSnapshot(pid: 1106, name: "nginx", residentKiB: 14_336, cpuTicks: 1_900, command: "nginx: worker process"),
        ProcessSnapshot(pid: 1234, name: "sleep", residentKiB: 900, cpuTicks: 1, command: "sleep 600"),
        ProcessSnapshot(pid: 2048, name: "api-server", state: "R", residentKiB: 412_672, cpuTicks: 25_000,
                        command: "/srv/api/bin/api-server --port 8080 --workers 4"),
        ProcessSnapshot(pid: 2051, name: "worker", residentKiB: 96_256, cpuTicks: 7_300, command: "/srv/api/bin/worker --queue mail"),
        ProcessSnapshot(pid: 3001, name: "bash", residentKiB: 5_120, cpuTicks: 120, command: "-bash"),
        ProcessSnapshot(pid: 3050, name: "tmux: server", residentKiB: 4_096, cpuTicks: 300, command: "tmux new -s ops"),
        ProcessSnapshot(pid: 3077, name: "appletkit", residentKiB: 35_840, cpuTicks: 410, command: "appletkit --tab processes"),
        ProcessSnapshot(pid: 3120, name: "vim", residentKiB: 11_264, cpuTicks: 95, command: "vim /etc/nginx/nginx.conf"),
    ]

    struct LogEntry {
        let kind: ActionLog.Entry.Kind
        let at: Duration
        let duration: Duration?
    }

    /// The monitor starting, refreshing, sorting by memory and asking before a SIGTERM.
    static var actionLog: [LogEntry] {
        let sleep = Sleep(.seconds(2))
        let listed = processes.map {
            MonitorProcess(pid: $0.pid, name: $0.name, state: $0.state, residentKiB: $0.residentKiB, cpuTicks: $0.cpuTicks, command: $0.command)
        }
        return [
            LogEntry(kind: .event(MonitorLogic.Event.start, logic: "MonitorLogic"), at: .zero, duration: nil),
            LogEntry(kind: .request(MonitorRequest.setProcesses(listed, at: now, select: 2048)), at: .milliseconds(9), duration: .microseconds(86)),
            LogEntry(kind: .effectStarted(sleep, number: 1, id: "monitor.refresh"), at: .milliseconds(10), duration: nil),
            LogEntry(kind: .effectEnded(sleep, number: 1, outcome: .done), at: .milliseconds(2010), duration: .milliseconds(2000)),
            LogEntry(kind: .effectStarted(sleep, number: 2, id: "monitor.refresh"), at: .milliseconds(2011), duration: nil),
            LogEntry(kind: .event(MonitorLogic.Event.tick, logic: "MonitorLogic"), at: .milliseconds(2012), duration: nil),
            LogEntry(kind: .request(MonitorRequest.setProcesses(listed, at: now.addingTimeInterval(2), select: 2048)),
                     at: .milliseconds(2019), duration: .microseconds(79)),
            LogEntry(kind: .event(MonitorLogic.Event.sort(.memory), logic: "MonitorLogic"), at: .milliseconds(2950), duration: nil),
            LogEntry(kind: .request(MonitorRequest.sort(MonitorSort(column: .memory, ascending: false))),
                     at: .milliseconds(2951), duration: .microseconds(151)),
            LogEntry(kind: .event(MonitorLogic.Event.askToSignal(signal: 15), logic: "MonitorLogic"), at: .milliseconds(3460), duration: nil),
            LogEntry(kind: .request(MonitorRequest.askToSignal(pid: 2048, name: "api-server", signal: 15)),
                     at: .milliseconds(3461), duration: .microseconds(99)),
            LogEntry(kind: .effectEnded(sleep, number: 2, outcome: .done), at: .milliseconds(4020), duration: .milliseconds(2009)),
            LogEntry(kind: .effectStarted(sleep, number: 3, id: "monitor.refresh"), at: .milliseconds(4021), duration: nil),
        ]
    }
}
