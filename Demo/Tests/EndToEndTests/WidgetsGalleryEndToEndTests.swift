import Foundation
import Testing

/// The Widgets gallery in the real binary, in tmux: typing into a field, pasting, hiding and
/// disabling widgets with the function keys, and mouse-free page turns.
@Suite("Widgets gallery end to end", .timeLimit(.minutes(1)))
struct WidgetsGalleryEndToEndTests {
    @Test("Typing, pasting, and F2/F3 hide and disable widgets; --no-animation shows the change at once")
    func galleryDrivenByKeys() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        let tmux = shell.tmux
        _ = try await shell.launchAndWait(["--tab", "widgets", "--no-animation"])
        try await tmux.waitFor(text: "Settings (built by FormFactory from JSON)")
        // Tab to the name field, type, and paste (a newline in a one-line field becomes a space).
        try await tmux.press("Tab")
        try await tmux.type("Ada")
        try await tmux.waitFor(text: "Last event: TextField changed(\"Ada\")")
        try await tmux.paste(" Love\nlace")
        try await tmux.waitFor(text: "Ada Love lace")
        // q is text in a field, not Quit.
        try await tmux.type("q")
        try await tmux.waitFor(text: "Ada Love laceq")
        // F2 hides the name row; F2 shows it again with what was typed.
        try await tmux.press("F2")
        try await tmux.waitUntil("the name row gone and the password row moved up") {
            !$0.contains("Name  F2") && $0.row(3).contains("Password")
        }
        try await tmux.press("F2")
        try await tmux.waitFor(text: "Ada Love laceq")
        // F3 disables the form: drawn dim (SGR 2) in the captured escape sequences.
        try await tmux.press("F3")
        try await tmux.waitForEscapes("the disabled form drawn dim") { rows in
            rows.contains { $0.contains("Wrap lines") && $0.contains("\u{1B}[2m") }
        }
        // Pages turn from the page strip.
        try await tmux.press("S-Tab")
        try await tmux.press("Right")
        try await tmux.waitFor(text: "Blueberry")
    }
}

extension WidgetsGalleryEndToEndTests {
    @Test("--theme light draws the light theme's colours")
    func lightThemeAndNoColor() async throws {
        let shell = try await ShellSession.start()
        defer { shell.shutdown() }
        _ = try await shell.launchAndWait(["--tab", "widgets", "--theme", "light", "--no-animation"])
        try await shell.tmux.waitFor(text: "Settings (built by FormFactory from JSON)")
        // The focused page title sits on the light theme's focus colour (0, 95, 175): palette entry
        // 25 on this 256-colour pane (the dark theme's is 81).
        let rows = try await shell.tmux.waitForEscapes("the light theme's focus colour") { rows in
            rows.contains { $0.contains("48;5;25m") }
        }
        #expect(!rows.contains { $0.contains("48;5;81m") })
    }
}
