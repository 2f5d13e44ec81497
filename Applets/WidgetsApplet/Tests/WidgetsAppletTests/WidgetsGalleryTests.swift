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

    // MARK: How the pages look

    /// The box on screen whose top border holds `title`: its left and right columns and its rows.
    private func box(_ g: AppletTestHost, titled title: String) throws -> (left: Int, right: Int, top: Int, bottom: Int) {
        let at = try #require(g.position(of: "─ \(title) "), "no box titled \(title)")
        let (left, top) = (at.x - 1, at.y)
        let corners: Set<Character> = ["┐", "╮"], bottoms: Set<Character> = ["┘", "╯"]
        let right = try #require((left + 1..<g.terminal.size.width).first { corners.contains(g.cell(x: $0, y: top).grapheme) })
        let bottom = try #require((top + 1..<g.terminal.size.height).first { bottoms.contains(g.cell(x: right, y: $0).grapheme) })
        return (left, right, top, bottom)
    }

    @Test func theProfileKeepsItsWidthWhileTyping() throws {
        let g = try gallery()
        let before = try box(g, titled: "Profile")
        g.press("tab")
        g.type("Ada Lovelace, Countess of Lovelace")
        #expect(g.application.gallery.value.name == "Ada Lovelace, Countess of Lovelace")
        let after = try box(g, titled: "Profile")
        #expect(after.right == before.right, "the box widened as the name was typed")
        #expect(g.contains("of Lovelace"), "the field scrolls to show where the typing is")
    }

    @Test func theNameAndPasswordLabelsLookAlike() throws {
        let g = try gallery()
        let name = try #require(g.position(of: "Name"))
        let password = try #require(g.position(of: "Password"))
        for i in 0..<4 {
            #expect(g.cell(x: name.x + i, y: name.y).style == g.cell(x: password.x + i, y: password.y).style)
        }
        #expect(g.cell(x: password.x, y: password.y).style == .plain)
    }

    @Test func theTextAreaIsFramed() throws {
        let g = try gallery()
        let frame = try box(g, titled: "Notes (TextArea)")
        #expect(frame.bottom - frame.top == 5, "four lines inside the frame")
        let text = try #require(g.position(of: "Notes go here."))
        #expect(text.y == frame.top + 1 && text.x == frame.left + 1)
        #expect(g.cell(x: frame.left, y: text.y).grapheme == "│" && g.cell(x: frame.right, y: text.y).grapheme == "│")
        // With the frame the page still fits an 80x24 terminal, down to its status line.
        g.resize(width: 80, height: 24)
        let notes = try box(g, titled: "Notes (TextArea)")
        #expect(notes.bottom - notes.top == 5)
        #expect(g.row(notes.bottom + 1).hasPrefix(" Last event: "), "\(g.text)")
        g.resize(width: 120, height: 40)
        // A click puts the cursor in it, and typing goes inside the frame.
        g.click(at: text)
        g.type("Hi ")
        #expect(g.application.gallery.value.notes.hasPrefix("Hi Notes go here."))
        #expect(g.position(of: "Hi Notes go here.") == text)
    }

    @Test func theListsTitleFitsAndItsKeysAreOnAMutedLine() throws {
        let g = try gallery()
        g.press("right")
        let list = try box(g, titled: "List")
        #expect(!g.row(list.top).contains("…"), "the title is cut: \(g.row(list.top))")
        let help = try #require(g.position(of: "Space marks, / searches, n next"))
        #expect(help.x > list.left && help.x < list.right && help.y < list.bottom)
        #expect(g.cell(x: help.x, y: help.y).style.foreground == Theme.dark.resolved(for: .palette256)[.muted].foreground)
        for width in [80, 100, 160] {
            g.resize(width: width, height: 30)
            let top = try box(g, titled: "List").top
            #expect(!g.row(top).contains("…"), "at \(width) columns: \(g.row(top))")
        }
    }

    @Test func theTreeHidesWithItsHeadingAndTheTableTakesTheSpace() throws {
        let g = try gallery()
        g.press("right", "right")
        #expect(g.contains("Tree: → opens, ← closes") && g.contains("▾ Sources"))
        let header = try #require(g.position(of: "Mem KB"))
        #expect(g.row(header.y).contains("│"), "the split's divider")
        g.press("f5")
        #expect(!g.contains("Tree: → opens, ← closes"), "the heading stayed over an empty pane")
        #expect(!g.contains("▾ Sources"))
        let alone = try #require(g.position(of: "Mem KB"))
        #expect(!g.row(alone.y).contains("│"), "no divider before an empty pane")
        #expect(alone.x + 6 >= g.terminal.size.width - 2, "the table takes the whole width: \(g.row(alone.y))")
        g.press("f5")
        #expect(g.contains("Tree: → opens, ← closes"))
    }

    @Test func hidingTheProgressBarMovesNoOtherRowSideways() throws {
        let g = try gallery()
        g.press("right", "right", "right")
        let rows = ["Gauge", "Sparkline", "Spinner", "Label"]
        func line(_ label: String) -> String? { g.lines.first { $0.hasPrefix(" \(label) ") } }
        let before = rows.map(line)
        #expect(g.contains("ProgressBar"))
        g.press("f4")
        #expect(!g.contains("ProgressBar"))
        #expect(rows.map(line) == before)
        g.press("f4")
        #expect(g.contains("ProgressBar") && rows.map(line) == before)
    }

    @Test func theScrollViewsBarLiesOnItsBoxsBorder() throws {
        let g = try gallery()
        g.press("right", "right", "right", "right")
        let frame = try box(g, titled: "ScrollView (wheel, ↑↓)")
        let bars: Set<Character> = ["│", "┃"]
        var thumbs = 0
        for y in (frame.top + 1)..<frame.bottom {
            #expect(bars.contains(g.cell(x: frame.right, y: y).grapheme))
            if g.cell(x: frame.right, y: y).grapheme == "┃" { thumbs += 1 }
            // Inside the border, no second line: content or blank.
            #expect(!bars.contains(g.cell(x: frame.right - 1, y: y).grapheme), "a double border on row \(y): \(g.row(y))")
        }
        #expect(thumbs > 0, "the thumb shows on the border")
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
