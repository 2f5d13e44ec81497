import AppletTesting
import Foundation
import Testing

// A widget manager's call (or any other use of `Application.current`) made in a test outside
// `host.perform` reaches the shared store, not the host's: the test host says so.

extension WidgetManager {
    static let outsidePerform = WidgetManager("outside-perform", widgets: ["preview": .visible])
}

private struct PreviewApplet: Applet {
    let id = "preview"
    let title = "Preview"
    var body: some View {
        VStack {
            Text("Always here")
            Text("Details").widget("preview", in: .outsidePerform)
        }
    }
}

@Suite("AppletTestHost: the store outside perform")
@MainActor
struct OutsidePerformTests {
    @Test func aWidgetManagerCallOutsidePerformIsReported() async throws {
        let host = try AppletTestHost(PreviewApplet(), width: 30, height: 6)
        withKnownIssue {
            try? WidgetManager.outsidePerform.hide("preview")    // the mistake: no host.perform
        } matching: { issue in
            mentions(issue, "outside host.perform", "await host.perform { … }")
        }
        // It changed another store: the host's screen still shows the preview.
        await host.settle()
        #expect(host.contains("Details"))
        // Inside perform it reaches the host's store, and nothing is reported.
        try await host.perform { try WidgetManager.outsidePerform.hide("preview") }
        #expect(!host.contains("Details"))
        #expect(host.contains("Always here"))
    }

    @Test func aToastOutsidePerformIsReportedToo() async throws {
        let host = try AppletTestHost(PreviewApplet(), width: 30, height: 6)
        withKnownIssue {
            toast("Saved")
        } matching: { issue in
            mentions(issue, "outside host.perform")
        }
        #expect(host.application.toasts.value.isEmpty)
    }

    @Test func theHostsOwnStoreAndExplicitStoresAreFine() async throws {
        let host = try AppletTestHost(PreviewApplet(), width: 30, height: 6)
        // Reading the host's store directly, or installing a store on purpose, uses no fallback.
        #expect(host.application.toasts.value.isEmpty)
        let other = Application()
        Application.withCurrent(other) { toast("elsewhere") }
        #expect(other.toasts.value.map(\.message) == ["elsewhere"])
        await host.perform { toast("Saved", style: .success) }
        #expect(host.contains("✓ Saved"))
    }
}
