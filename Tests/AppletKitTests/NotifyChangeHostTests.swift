import AppletTesting
import Synchronization
import Testing

/// A plain class kept as a dependency: a property set on the object directly tells no one.
final class HostNotifySettings: @unchecked Sendable {
    var title = "untitled"
}

extension Application {
    var hostNotifySettings: Dependency<HostNotifySettings> { dependency(HostNotifySettings(), feature: "HostNotify") }
    var hostNotifyCount: State<Int> { state(initial: 0, feature: "HostNotify", id: "count") }
}

/// Shows the settings' title (read through the store) and counts its evaluations.
struct NotifySettingsPane: Applet {
    let id = "settings"
    var title: String { "Settings" }
    let evaluations: EvaluationCount
    var body: some View {
        evaluations.value.withLock { $0 += 1 }
        return Text("Title: \(Application.dependency(\.hostNotifySettings).title)")
    }
}

/// Shows a state value and counts its evaluations.
struct NotifyCountPane: Applet {
    let id: String
    var title: String { id }
    let evaluations: EvaluationCount
    var body: some View {
        evaluations.value.withLock { $0 += 1 }
        return Text("\(id): \(Application.state(\.hostNotifyCount).value)")
    }
}

/// `Application.notifyChange()` on a headless host: every pane that read the store is evaluated
/// again, though no value changed.
@Suite("Host: notifyChange")
@MainActor
struct NotifyChangeHostTests {
    /// What it is for: a plain class's property set on the object is on screen once announced.
    @Test func aPaneShowsAChangeTheStoreCouldNotSeeOnceAnnounced() async throws {
        let evaluations = EvaluationCount()
        let host = try AppletTestHost(NotifySettingsPane(evaluations: evaluations), width: 40, height: 8)
        #expect(host.contains("Title: untitled"))
        let drawn = evaluations.count

        host.application.hostNotifySettings.value.title = "Inbox"
        await host.settle()
        #expect(host.contains("Title: untitled"), "set on the object: nothing redraws")
        #expect(evaluations.count == drawn)

        host.application.notifyChange()
        await host.settle()
        #expect(host.contains("Title: Inbox"))
        #expect(evaluations.count == drawn + 1)
    }

    /// No value changed: the pane is evaluated again all the same (once), and shows the same.
    @Test func aPaneIsEvaluatedAgainWithNoValueChanged() async throws {
        let evaluations = EvaluationCount()
        let host = try AppletTestHost(NotifyCountPane(id: "count", evaluations: evaluations), width: 40, height: 8)
        let screen = host.text
        let drawn = evaluations.count
        host.application.notifyChange()
        await host.settle()
        #expect(evaluations.count == drawn + 1)
        #expect(host.text == screen)
        await host.settle()
        #expect(evaluations.count == drawn + 1, "one announcement, one evaluation")
    }

    /// From another thread, as a background task would: the host draws it on the main queue.
    @Test func fromAnotherThread() async throws {
        let evaluations = EvaluationCount()
        let host = try AppletTestHost(NotifySettingsPane(evaluations: evaluations), width: 40, height: 8)
        let drawn = evaluations.count
        let app = host.application
        await Task.detached {
            app.hostNotifySettings.value.title = "From a task"
            app.notifyChange()
        }.value
        await host.settle()
        #expect(host.contains("Title: From a task"))
        #expect(evaluations.count == drawn + 1)
    }

    /// Every pane that read the store, in every pane of the tab; a pane of a tab not shown is
    /// evaluated when it is shown again, not before.
    @Test func everyPaneThatReadTheStore() async throws {
        let left = EvaluationCount(), right = EvaluationCount(), hidden = EvaluationCount()
        let host = try AppletTestHost(tabs: [
            Tab("Split", split: .horizontal, [
                NotifyCountPane(id: "left", evaluations: left),
                NotifyCountPane(id: "right", evaluations: right),
            ]),
            Tab("Other", [NotifyCountPane(id: "other", evaluations: hidden)]),
        ], width: 80, height: 10)
        host.press("2")
        host.press("1")
        let (l, r, h) = (left.count, right.count, hidden.count)
        host.application.notifyChange()
        await host.settle()
        #expect(left.count == l + 1 && right.count == r + 1)
        #expect(hidden.count == h, "not shown: not evaluated")
        host.press("2")
        #expect(hidden.count == h + 1, "shown again: evaluated, not put back as it was")
    }
}
