/// A screen the host draws on and reads events from.
///
/// Two implementations ship: `NcursesTerminal` (the real terminal) and `HeadlessTerminal` (an
/// in-memory screen for tests). Everything above this layer talks only to this protocol, the way
/// Ratatui's widgets talk to its `Backend`.
///
/// ```swift
/// let terminal: any Terminal = HeadlessTerminal(width: 80, height: 24)
/// try terminal.start { event in print(event) }
/// var frame = Canvas(size: terminal.size)
/// frame.write("hello", at: .zero)
/// terminal.present(frame)
/// terminal.stop()
/// ```
@MainActor
public protocol Terminal: AnyObject {
    /// The screen size in cells.
    var size: Size { get }
    /// How many colours the screen can show (known once started); themes pick their palette by it.
    var colorSupport: ColorSupport { get }
    /// Takes over the screen and starts delivering events, on the main actor, to `handler`.
    func start(_ handler: @escaping @MainActor (Event) -> Void) throws
    /// Shows a frame, writing only the cells that differ from the previously presented one.
    func present(_ canvas: Canvas)
    /// Gives the screen back exactly as it was before `start`. Safe to call more than once.
    func stop()
    /// Hands the terminal back to the shell and stops the process (Ctrl-Z); on `fg` it takes the
    /// screen again and repaints the last frame.
    func suspend()
    /// Whether the terminal's own background is dark (known once started; nil when it did not
    /// say): a host whose theme follows the background picks its dark or light theme by it.
    var backgroundIsDark: Bool? { get }
    /// Puts `text` on the system clipboard (OSC 52, between frames), or as much of it as a
    /// terminal takes (`OSC52.maximumPayload`), and says what was copied.
    func copyToClipboard(_ text: String) -> ClipboardCopy
    /// Whether the terminal reports the mouse to the app now (`.unavailable` when the app does
    /// not use the mouse): off, the terminal's own text selection works.
    var mouseReporting: MouseReporting { get }
    /// Turns mouse reporting off (the terminal selects text) or on again (clicks reach the app).
    /// Nothing happens when it is `.unavailable`.
    func setMouseReporting(_ on: Bool)
    /// Gives the terminal to another program until it ends, as a shell runs a job in the
    /// foreground, takes it back, repaints and says how the program ended (see
    /// `NcursesTerminal.runProgram`).
    func runProgram(_ program: ExternalProgram) -> ProgramOutcome
}

extension Terminal {
    public var backgroundIsDark: Bool? { nil }
    public func copyToClipboard(_ text: String) -> ClipboardCopy {
        ClipboardCopy(copied: "", isComplete: text.isEmpty, requestedLines: ClipboardCopy.lineCount(text))
    }
    public var mouseReporting: MouseReporting { .unavailable }
    public func setMouseReporting(_ on: Bool) {}
    public func runProgram(_ program: ExternalProgram) -> ProgramOutcome {
        .couldNotStart("this terminal cannot hand itself to another program")
    }
}

/// Whether the mouse reaches the app (see `Terminal.mouseReporting`).
public enum MouseReporting: Sendable, Hashable {
    /// The app does not use the mouse (`TerminalFeatures` without `.mouse`): the terminal selects
    /// text as it always does.
    case unavailable
    /// Clicks, drags and the wheel reach the app.
    case on
    /// Turned off for a while: the terminal's own text selection works.
    case off
}

/// How colours can be shown on a terminal, from none (monochrome, or `NO_COLOR`) to 24-bit.
///
/// ```swift
/// let theme = Theme.dark.resolved(for: terminal.colorSupport)
/// ```
public enum ColorSupport: Sendable, Equatable, Comparable, CaseIterable {
    /// No colour: styles keep their attributes (bold, reverse…) only.
    case none
    case basic8
    case basic16
    case palette256
    /// 24-bit colour (a direct-colour terminal type such as `xterm-direct`).
    case truecolor
}

/// Why a terminal could not be started. The message says what to do.
public struct TerminalError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
