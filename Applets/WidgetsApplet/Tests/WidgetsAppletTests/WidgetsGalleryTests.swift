import AppletTesting
import Testing
import WidgetsApplet
import WidgetsAppletInterface

/// The Widgets gallery in a headless host, driven by keys as a person would.
@MainActor
func gallery() throws -> AppletTestHost {
    try AppletTestHost(WidgetsApplet(), width: 120, height: 40)
}

@Suite("Widgets gallery")
@MainActor
struct WidgetsGalleryTests {
    @Test func pagesTurnWithTheArrowKeys() throws {
        let g = try gallery()
        #expect(g.contains("Profile") && g.contains("Wrap lines") && g.contains("Settings (built by FormFactory from JSON)"))
        g.press("right")
        #expect(g.contains("Blueberry") && g.contains("LogView"))
        g.press("right")
        #expect(g.contains("swift-frontend-0") && g.contains("▾ Sources"))
        g.press("right")
        #expect(g.contains("ProgressBar") && g.contains("Sparkline") && g.contains("Theme roles"))
        g.press("right")
        #expect(g.contains("ZStack") && g.contains("ScrollView") && g.contains("[ Item 0 ]"))
    }

    @Test func anIdleGalleryDrawsNothing() async throws {
        // The Inputs page builds its form with a factory that adds widget ids while the page is
        // evaluated; that once redrew the page on every turn of the main queue (a core busy).
        let g = try gallery()
        for page in 0..<5 {
            await g.settle()
            let frames = g.terminal.frameCount
            await g.settle()
            await g.settle()
            #expect(g.terminal.frameCount == frames, "page \(page) kept drawing while idle")
            g.press("right")
        }
    }

    @Test func functionKeysHideShowAndDisableThroughTheManager() async throws {
        let g = try gallery()
        #expect(g.contains("your name"))
        g.press("f2")
        #expect(!g.contains("your name"))
        #expect(try await g.perform { try WidgetManager.gallery.state(of: "name") } == .hidden)
        g.press("f2")
        #expect(g.contains("your name"))
        // Disabled: drawn dim, and Tab skips the form's widgets.
        g.press("f3")
        #expect(try await g.perform { try WidgetManager.gallery.state(of: "form") } == .disabled)
        let y = try #require(g.lines.firstIndex { $0.contains("Wrap lines") })
        #expect(g.cell(x: 1, y: y).style.attributes.contains(.dim))
        // Focus: page strip → name → password → (form skipped) → settings host field.
        g.press("tab", "tab", "tab", "space")
        #expect(g.application.gallery.value.wrap == true)   // Space did not reach the disabled toggle
        #expect(g.application.galleryFormValue("host") == " ")
        g.press("f3")
        #expect(try await g.perform { try WidgetManager.gallery.state(of: "form") } == .visible)
    }

    @Test func anotherAppletHidesAWidgetThroughTheInterface() async throws {
        let g = try gallery()
        #expect(g.contains("your name"))
        // What any applet importing WidgetsAppletInterface can do, outside a key press.
        try await g.perform { try WidgetManager.gallery.hide("name") }
        #expect(!g.contains("your name"))
    }

    @Test func typedEventsShowInTheStatusLine() throws {
        let g = try gallery()
        g.press("tab")
        g.type("Ada")
        #expect(g.contains("Ada"))
        #expect(g.contains("Last event: TextField changed(\"Ada\")"))
        g.press("enter")
        #expect(g.contains("Last event: TextField submitted(\"Ada\")"))
        // The log page lists them, newest last.
        g.press("shift-tab", "right")
        #expect(g.contains("TextField submitted(\"Ada\")"))
    }
}

extension Application {
    func galleryFormValue(_ id: String) -> String? {
        if case .text(let s)? = state(initial: [String: FormValue](), feature: "Gallery", id: "form-values").value[id] { return s }
        return nil
    }
}
