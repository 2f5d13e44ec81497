import AppletNavigation
import AppletState
import AppletUI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Terminal

/// The toasts, bottom right above the footer: `.info` and `.success` go after `Toast.duration` on
/// the host's clock, the others stay until `Esc` (which, while no modal layer is up, dismisses the
/// newest that stays before it goes anywhere else). A problem with stored state shows here once.
@MainActor
final class ToastLayer: HostLayer {
    private let application: Application
    private let clock: any Clock<Duration>
    /// Called when a toast expired by itself and a frame is wanted.
    var onChange: () -> Void = {}
    private let tree = ViewTree()
    private var timers: [UUID: ScheduledAction] = [:]
    /// The store's toasts, resolved once (a handle keeps its box).
    private lazy var toasts = application.toasts
    /// How many store issues have been shown; each is shown once.
    private var issuesShown = 0

    init(application: Application, clock: any Clock<Duration>) {
        self.application = application
        self.clock = clock
    }

    var isPresented: Bool { !toasts.value.isEmpty }

    func handleKey(_ key: KeyEvent) -> String? {
        guard key == KeyEvent(.escape), let sticky = toasts.value.last(where: { !$0.style.expires }) else { return nil }
        application.dismissToast(sticky.id)
        return "dismissed a message"
    }

    /// Ids of the toasts up: a change clears what they covered.
    var fingerprint: [UUID] { toasts.value.map(\.id) }

    /// Shows new store issues (a corrupt file moved aside, an unwritable folder) as error toasts.
    func showStoreIssues() {
        let issues = application.storeIssues.value
        guard issues.count > issuesShown else { return }
        for issue in issues[issuesShown...] { application.toast(issue.message, style: .error) }
        issuesShown = issues.count
    }

    /// Says when syncing with a server stops (a warning that stays until the server is back, or
    /// `Esc`) and when it is back (a success that goes by itself). The first connection says nothing.
    func showSyncStatus() {
        let status = application.syncStatus.value
        defer { lastSyncStatus = status }
        switch status {
        case .offline(_, let reason):
            guard !lastSyncStatus.isOffline else { return }
            let toast = Toast("Sync offline (\(LogText.escaped(reason))): changes are kept on this machine and sent when the server is back.", style: .warning)
            offlineToast = toast.id
            toasts.modify { list in
                list.append(toast)
                if list.count > Toast.limit { list.removeFirst(list.count - Toast.limit) }
            }
        case .online:
            guard lastSyncStatus.isOffline else { return }
            if let id = offlineToast { application.dismissToast(id) }
            offlineToast = nil
            application.toast("Sync back online: changes made meanwhile were sent.", style: .success)
        case .local, .connecting:
            break
        }
    }

    private var lastSyncStatus: SyncStatus = .local
    private var offlineToast: UUID?

    /// Where the toasts go: as wide as the longest, up to two thirds of the screen, stacked up from
    /// the row above the footer (or the status bar).
    private func rect(in context: LayerContext) -> Rect? {
        let toasts = self.toasts.value
        guard !toasts.isEmpty else { return nil }
        let width = context.size.width
        let textWidth = toasts.map { ToastStackView.width(of: $0) }.max() ?? 0
        let w = min(width - 2, textWidth, max(40, width * 2 / 3))
        let bottom = context.content.maxY
        guard w > 4, bottom > 2 else { return nil }
        return Rect(x: width - w - 1, y: 1, width: w, height: bottom - 1)
    }

    /// The rows the toasts take, right-aligned in `rect`.
    func coverage(in context: LayerContext) -> [Rect] {
        guard let rect = rect(in: context) else { return [] }
        let width = context.size.width
        let w = rect.width
        // Each toast wraps to at most four lines; they stack up from the bottom of `rect`.
        let lines = toasts.value.reduce(0) { $0 + min(4, max(1, (ToastStackView.width(of: $1) + w - 1) / max(1, w))) }
        let height = min(rect.height, lines)
        return [Rect(x: width - w - 1, y: rect.maxY - height, width: w, height: height)]
    }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        let toasts = self.toasts.value
        for toast in toasts where toast.style.expires && timers[toast.id] == nil {
            let timer = ScheduledAction(clock: clock)
            let application = self.application
            timer.schedule(after: Toast.duration) { [weak self] in
                application.dismissToast(toast.id)
                self?.timers[toast.id] = nil
                self?.onChange()
            }
            timers[toast.id] = timer
        }
        let live = Set(toasts.map(\.id))
        for id in timers.keys where !live.contains(id) { timers[id]?.cancel(); timers[id] = nil }
        guard let rect = rect(in: context) else { return }
        tree.theme = context.theme
        tree.render(ToastStackView(toasts), in: rect, on: &canvas)
    }

    func cancelTimers() {
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
    }
}
