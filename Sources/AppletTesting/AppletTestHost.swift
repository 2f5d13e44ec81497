import AppletKit
import AppletState
import Clocks
import AppletUI
import Dispatch
import Foundation
import Terminal
import Testing

/// A host on a headless screen, driven as a person at a terminal would drive it: keys, typing,
/// pastes, clicks and resizes, then checks of what is on screen.
///
/// Each test host has a store of its own whose files go to a temporary folder (removed when the
/// host goes away), so tests never see each other's state or a previous run's. Events are handled
/// and the frame drawn before `press`, `type`, `paste`, `click` and `resize` return; a change made
/// from test code goes through `perform(_:)`, and `settle()` waits for work the main queue still has.
///
/// Test code that uses the store without `perform` (a widget manager's call,
/// `Application.state(\.x)`, `toast(…)`) would reach the process's shared store instead of the
/// host's: while a host lives, the first such read in its test records an issue saying so. Read
/// the host's store directly with `host.application`. Its new ids (a toast's) count up from
/// `UUID(0)` (`UUIDGenerator.incrementing()`), so a test can compare whole toasts.
///
/// ```swift
/// @MainActor @Test func plusCounts() async throws {
///     let host = try AppletTestHost(CounterApplet(), width: 40, height: 10)
///     host.press("+", "+")
///     host.expectRows(1..<2, toShow: " Count: 2")
///     await host.perform { Application.state(\.counter).value.count = 10 }
///     #expect(host.contains("Count: 10"))
/// }
/// ```
@MainActor
public final class AppletTestHost {
    /// The in-memory screen.
    public let terminal: HeadlessTerminal
    /// The host under test.
    public let host: AppletHost
    /// The host's store: its own unless one was given.
    public let application: Application
    /// Where the store keeps files (a fresh temporary folder unless a store was given).
    public let stateDirectory: String
    /// Whether this host removes `stateDirectory` when it goes (passed on by `restart()`).
    private var ownsStateDirectory: Bool
    /// What `restart()` needs to make the same host again.
    private let tabs: [Tab]
    private let initialTab: Int?
    private let theme: Theme
    private let keymap: Keymap
    /// The host's clock: time stands still (chord timeouts, messages) until a test advances it.
    ///
    /// ```swift
    /// host.press("g")                               // a chord waits for its next key
    /// await host.advance(by: .seconds(1))           // ... and gives up
    /// ```
    public let clock: TestClock<Duration>

    /// Keeps `UUIDGenerator.incrementing()` as the store's id generator while the host lives.
    private let uuidOverride: OverrideToken

    /// A host showing one applet, full screen under the tab bar.
    public convenience init(_ applet: some Applet, width: Int = 80, height: Int = 24,
                            colorSupport: ColorSupport = .palette256, theme: Theme = .dark,
                            application: Application? = nil, keymap: Keymap = Keymap(),
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        try self.init(tabs: [Tab(applet)], width: width, height: height, colorSupport: colorSupport,
                      theme: theme, application: application, keymap: keymap, sourceLocation: sourceLocation)
    }

    /// A host with several tabs.
    ///
    /// - Parameter application: the store to use; by default a new one keeping its files in a new
    ///   temporary folder.
    public init(tabs: [Tab], initialTab: Int? = nil, width: Int = 80, height: Int = 24,
                colorSupport: ColorSupport = .palette256, theme: Theme = .dark,
                application: Application? = nil, keymap: Keymap = Keymap(),
                sourceLocation: SourceLocation = #_sourceLocation) throws {
        if let application {
            self.application = application
            stateDirectory = application.storage.directory
            ownsStateDirectory = false
        } else {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("appletkit-test-\(UUID().uuidString)").path
            let store = Application()
            // Throwaway, secrets included: never the desktop keyring, even outside a test process
            // (the screens of `make screens`).
            var storage = StorageConfiguration(appID: "applet-test", directory: folder)
            storage.secrets = .files
            store.storage = storage
            self.application = store
            stateDirectory = folder
            ownsStateDirectory = true
        }
        self.tabs = tabs
        self.initialTab = initialTab
        self.theme = theme
        terminal = HeadlessTerminal(width: width, height: height, colorSupport: colorSupport)
        self.keymap = keymap
        let clock = TestClock<Duration>()
        self.clock = clock
        uuidOverride = Application.withCurrent(self.application) { Application.override(\.uuid, with: .incrementing()) }
        host = try AppletHost(tabs: tabs, initialTab: initialTab, application: self.application,
                              terminal: terminal, theme: theme, keymap: keymap, clock: clock)
        try host.start()
        OutsidePerformCheck.watch(self, createdAt: sourceLocation)
    }

    /// Quits this host (which saves pending state, as quitting does) and starts the same tabs again
    /// with a new store reading the same state folder: what a user sees after a restart.
    ///
    /// ```swift
    /// host.press("+", "+")
    /// let again = try host.restart()
    /// #expect(again.contains("Count: 2"))
    /// ```
    public func restart(sourceLocation: SourceLocation = #_sourceLocation) throws -> AppletTestHost {
        host.quit()
        application.flush()
        let store = Application()
        store.storage = application.storage
        let next = try AppletTestHost(tabs: tabs, initialTab: initialTab, width: terminal.size.width,
                                      height: terminal.size.height, colorSupport: terminal.colorSupport,
                                      theme: theme, application: store, keymap: keymap, sourceLocation: sourceLocation)
        // The folder now belongs to the new host: it goes when the last of them does.
        next.ownsStateDirectory = ownsStateDirectory
        ownsStateDirectory = false
        return next
    }

    isolated deinit {
        OutsidePerformCheck.unwatch(ObjectIdentifier(self))
        host.quit()
        application.flush()
        if ownsStateDirectory { try? FileManager.default.removeItem(atPath: stateDirectory) }
    }

    // MARK: Driving it

    /// Presses keys, each written as a key spec (`"+"`, `"j"`, `"enter"`, `"esc"`, `"ctrl-d"`,
    /// `"shift-tab"`, `"f5"`; see `KeySpec`), and draws the frame that results.
    public func press(_ keys: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        for spec in keys {
            guard let key = KeySpec.parse(spec) else {
                Issue.record("'\(spec)' is not a key spec; write e.g. \"+\", \"enter\", \"ctrl-d\", \"f5\" (type(_:) types text)",
                             sourceLocation: sourceLocation)
                return
            }
            terminal.send(.key(key))
        }
        host.renderIfNeeded()
    }

    /// Presses one key and draws the frame that results.
    public func press(_ key: KeyEvent) {
        terminal.send(.key(key))
        host.renderIfNeeded()
    }

    /// Types text, one key press per character, and draws the frame that results.
    public func type(_ text: String) {
        terminal.type(text)
        host.renderIfNeeded()
    }

    /// Pastes text as a terminal's bracketed paste delivers it (one event, never key bindings).
    public func paste(_ text: String) {
        terminal.send(.paste(text))
        host.renderIfNeeded()
    }

    /// Clicks (presses and releases a button) at a screen position.
    public func click(at point: Point, button: MouseButton = .left) {
        terminal.send(.mouse(MouseEvent(kind: .press(button), position: point)))
        terminal.send(.mouse(MouseEvent(kind: .release(button), position: point)))
        host.renderIfNeeded()
    }

    /// Clicks on the first place `text` is shown; records an issue when it is not on screen.
    public func click(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let point = terminal.position(of: text) else {
            Issue.record("'\(text)' is not on screen:\n\(terminal.text)", sourceLocation: sourceLocation)
            return
        }
        click(at: point)
    }

    /// Changes the screen size, as a terminal window being resized does.
    public func resize(width: Int, height: Int) {
        terminal.resize(width: width, height: height)
        host.renderIfNeeded()
    }

    /// Delivers any event and draws the frame that results.
    public func send(_ event: Event) {
        terminal.send(event)
        host.renderIfNeeded()
    }

    /// Lets the main queue run until no frame is pending, then draws: what changed outside a key
    /// press (a background task, a timer, a store write from another thread) is then on screen.
    public func settle() async {
        var quietTurns = 0
        // Bounded: a view that animates for ever must not hang the test.
        for _ in 0..<200 {
            await Self.nextMainQueueTurn()
            if host.hasPendingFrame {
                host.renderIfNeeded()
                quietTurns = 0
            } else {
                quietTurns += 1
                if quietTurns >= 3 { break }
            }
        }
        host.renderIfNeeded()
    }

    /// Moves the host's clock on (chord timeouts, messages that go after a while) and draws what
    /// changed.
    public func advance(by duration: Duration) async {
        await clock.advance(by: duration)
        await settle()
    }

    /// Runs `body` with this host's store as `Application.current` (so `Application.state(\.x)`
    /// and widget managers reach it, not the shared store), then settles. The same calls made
    /// outside `perform` reach the shared store, and record an issue saying so.
    ///
    /// ```swift
    /// await host.perform { try WidgetManager.notes.hide("preview") }
    /// ```
    @discardableResult
    public func perform<R>(_ body: () throws -> R) async rethrows -> R {
        let result = try Application.withCurrent(application, body)
        await settle()
        return result
    }

    private static func nextMainQueueTurn() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }

    // MARK: Reading the screen

    /// What is on screen now.
    public var screen: Canvas { terminal.screen }
    /// Every row's text, trailing spaces trimmed.
    public var lines: [String] { terminal.lines }
    /// The whole screen as text.
    public var text: String { terminal.text }
    /// Row `y`'s text ("" past the bottom).
    public func row(_ y: Int) -> String { terminal.screen.line(y) }
    /// Whether `text` is anywhere on screen.
    public func contains(_ text: String) -> Bool { terminal.lines.contains { $0.contains(text) } }
    /// Where `text` first appears, in cells.
    public func position(of text: String) -> Point? { terminal.position(of: text) }
    /// The cell at a position (its character and style).
    public func cell(x: Int, y: Int) -> Cell { terminal.cell(x: x, y: y) }

    // MARK: Checking the screen

    /// Expects the whole screen, or `region` of it, to show `expected` (see `expectScreen(_:in:toShow:)`).
    @discardableResult
    public func expectScreen(toShow expected: String, in region: Rect? = nil,
                             sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        AppletTesting.expectScreen(terminal.screen, in: region, toShow: expected, sourceLocation: sourceLocation)
    }

    /// Expects the rows `rows` (full width) to show `expected`.
    @discardableResult
    public func expectRows(_ rows: Range<Int>, toShow expected: String,
                           sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let region = Rect(x: 0, y: rows.lowerBound, width: terminal.size.width, height: rows.count)
        return AppletTesting.expectScreen(terminal.screen, in: region, toShow: expected, sourceLocation: sourceLocation)
    }

    /// Expects the screen, or `region` of it, to match the golden screen `name` (see `GoldenScreen`).
    @discardableResult
    public func expectScreen(matchesGolden name: String, in region: Rect? = nil,
                             sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        AppletTesting.expectScreen(terminal.screen, in: region, matchesGolden: name, sourceLocation: sourceLocation)
    }
}
