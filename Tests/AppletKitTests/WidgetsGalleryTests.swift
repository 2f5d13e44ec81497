import Testing
import WidgetsApplet
import WidgetsAppletInterface
@testable import AppletKit
@testable import AppletState

/// The Widgets gallery in a headless host, driven by keys as a person would.
@MainActor
final class GalleryHarness {
    let terminal = HeadlessTerminal(width: 120, height: 40)
    let app = Application()
    let host: AppletHost

    init() throws {
        host = try AppletHost(tabs: [Tab(WidgetsApplet())], application: app, terminal: terminal)
        try host.start()
    }

    func press(_ keys: KeyEvent...) {
        for key in keys { terminal.send(.key(key)) }
        host.renderIfNeeded()
    }

    func type(_ text: String) {
        for ch in text { terminal.send(.key(KeyEvent(.char(ch)))) }
        host.renderIfNeeded()
    }

    func shows(_ text: String) -> Bool { terminal.lines.contains { $0.contains(text) } }
    func row(_ text: String) -> Int? { terminal.lines.firstIndex { $0.contains(text) } }
}

@Suite("Widgets gallery")
@MainActor
struct WidgetsGalleryTests {
    @Test func pagesTurnWithTheArrowKeys() throws {
        let g = try GalleryHarness()
        #expect(g.shows("Profile") && g.shows("Wrap lines") && g.shows("Settings (built by FormFactory from JSON)"))
        g.press(KeyEvent(.right))
        #expect(g.shows("Blueberry") && g.shows("LogView"))
        g.press(KeyEvent(.right))
        #expect(g.shows("swift-frontend-0") && g.shows("▾ Sources"))
        g.press(KeyEvent(.right))
        #expect(g.shows("ProgressBar") && g.shows("Sparkline") && g.shows("Theme roles"))
        g.press(KeyEvent(.right))
        #expect(g.shows("ZStack") && g.shows("ScrollView") && g.shows("[ Item 0 ]"))
    }

    @Test func anIdleGalleryDrawsNothing() async throws {
        // The Inputs page builds its form with a factory that adds widget ids while the page is
        // evaluated; that once redrew the page on every turn of the main queue (a core busy).
        let g = try GalleryHarness()
        for page in 0..<5 {
            await drainMainQueue()
            let frames = g.terminal.frameCount
            for _ in 0..<5 { await drainMainQueue() }
            #expect(g.terminal.frameCount == frames, "page \(page) kept drawing while idle")
            g.press(KeyEvent(.right))
        }
    }

    @Test func functionKeysHideShowAndDisableThroughTheManager() throws {
        let g = try GalleryHarness()
        try Application.withCurrent(g.app) {
            #expect(g.shows("your name"))
            g.press(KeyEvent(.function(2)))
            #expect(!g.shows("your name"))
            #expect(try WidgetManager.gallery.state(of: "name") == .hidden)
            g.press(KeyEvent(.function(2)))
            #expect(g.shows("your name"))
            // Disabled: drawn dim, and Tab skips the form's widgets.
            g.press(KeyEvent(.function(3)))
            #expect(try WidgetManager.gallery.state(of: "form") == .disabled)
            let y = try #require(g.row("Wrap lines"))
            #expect(g.terminal.cell(x: 1, y: y).style.attributes.contains(.dim))
            // Focus: page strip → name → password → (form skipped) → settings host field.
            g.press(KeyEvent(.tab), KeyEvent(.tab), KeyEvent(.tab), KeyEvent(.char(" ")))
            #expect(g.app.gallery.value.wrap == true)   // Space did not reach the disabled toggle
            #expect(g.app.galleryFormValue("host") == " ")
            g.press(KeyEvent(.function(3)))
            #expect(try WidgetManager.gallery.state(of: "form") == .visible)
        }
    }

    @Test func typedEventsShowInTheStatusLine() throws {
        let g = try GalleryHarness()
        g.press(KeyEvent(.tab))
        g.type("Ada")
        #expect(g.shows("Ada"))
        #expect(g.shows("Last event: TextField changed(\"Ada\")"))
        g.press(KeyEvent(.enter))
        #expect(g.shows("Last event: TextField submitted(\"Ada\")"))
        // The log page lists them, newest last.
        g.press(KeyEvent(.tab, modifiers: .shift), KeyEvent(.right))
        #expect(g.shows("TextField submitted(\"Ada\")"))
    }
}

extension Application {
    func galleryFormValue(_ id: String) -> String? {
        if case .text(let s)? = state(initial: [String: FormValue](), feature: "Gallery", id: "form-values").value[id] { return s }
        return nil
    }
}
