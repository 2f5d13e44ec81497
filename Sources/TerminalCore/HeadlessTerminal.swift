/// An in-memory terminal for tests and snapshots: nothing is written to a real screen.
///
/// The screen's text and attributes can be read back, and events injected as if typed.
///
/// ```swift
/// let terminal = HeadlessTerminal(width: 40, height: 10)
/// let host = AppletHost(tabs: [Tab(CounterApplet())], terminal: terminal)
/// try host.start()
/// terminal.send(.key(KeyEvent(.char("+"))))
/// host.renderIfNeeded()
/// #expect(terminal.lines.contains { $0.contains("Count: 1") })
/// ```
@MainActor
public final class HeadlessTerminal: Terminal {
    public private(set) var size: Size
    /// What is on the screen now.
    public private(set) var screen: Canvas
    /// How many cells the last `present` sent on (the changed spans' cells: from each changed
    /// row's first changed cell to its last, what a real terminal is handed).
    public private(set) var lastWriteCount = 0
    /// How many frames have been presented.
    public private(set) var frameCount = 0
    /// Whether `start` was called and `stop` not yet.
    public private(set) var isRunning = false
    /// How many times `suspend` was called.
    public private(set) var suspendCount = 0

    private var handler: (@MainActor (Event) -> Void)?
    /// Whether a frame was presented (the screen is then what the next one is diffed against).
    private var hasFrame = false

    /// The colours a theme may use; tests set it to check the fallbacks.
    public var colorSupport: ColorSupport
    /// The background a real terminal would have said it has (nil: it said nothing).
    public var backgroundIsDark: Bool?

    public init(width: Int, height: Int, colorSupport: ColorSupport = .palette256) {
        self.colorSupport = colorSupport
        size = Size(width: width, height: height)
        screen = Canvas(size: size)
    }

    public func start(_ handler: @escaping @MainActor (Event) -> Void) throws {
        self.handler = handler
        isRunning = true
    }

    /// Takes the frame as `NcursesTerminal` does: the same diff (`Canvas.changedSpans`), each
    /// changed row's span copied onto the screen, so a host test exercises the diff that reaches
    /// a real terminal.
    public func present(_ canvas: Canvas) {
        let spans = canvas.changedSpans(since: hasFrame ? screen : nil)
        lastWriteCount = spans.reduce(0) { $0 + $1.columns.count }
        frameCount += 1
        // Keep a copy of our own, updated span by span: holding on to the caller's frame would
        // make its next edit copy the whole screen.
        if hasFrame, screen.size == canvas.size {
            for span in spans { screen.copy(span, from: canvas) }
        } else {
            screen = canvas
        }
        hasFrame = true
    }

    public func stop() {
        isRunning = false
        handler = nil
    }

    public func suspend() { suspendCount += 1 }

    // MARK: The clipboard, the mouse, other programs

    /// Every text copied to the clipboard (`copyToClipboard`), oldest first: what fit, as a
    /// terminal would have been sent it.
    public private(set) var clipboard: [String] = []

    public func copyToClipboard(_ text: String) -> ClipboardCopy {
        let copy = OSC52.sequence(for: text).copy
        clipboard.append(copy.copied)
        return copy
    }

    /// Whether the mouse reaches the app: `.on` unless set otherwise (`.unavailable` for a
    /// terminal of an app that uses no mouse).
    public var mouseReporting: MouseReporting = .on

    public func setMouseReporting(_ on: Bool) {
        guard mouseReporting != .unavailable else { return }
        mouseReporting = on ? .on : .off
    }

    /// Every program the app asked to run, oldest first.
    public private(set) var programsRun: [ExternalProgram] = []
    /// What running a program does here (nothing runs on a headless terminal): by default it
    /// could not start. A test stands in for the program (an editor that changes the file it was
    /// given, one that exits 3).
    ///
    /// ```swift
    /// terminal.programRunner = { program in
    ///     try? "edited".write(toFile: program.arguments[0], atomically: true, encoding: .utf8)
    ///     return .exited(0)
    /// }
    /// ```
    public var programRunner: @MainActor (ExternalProgram) -> ProgramOutcome = { program in
        .couldNotStart(ProgramError(program.executable, "not found (a headless terminal runs no programs)").description)
    }

    public func runProgram(_ program: ExternalProgram) -> ProgramOutcome {
        programsRun.append(program)
        return programRunner(program)
    }

    // MARK: Driving it

    /// Delivers an event as if it came from the keyboard, mouse or terminal.
    public func send(_ event: Event) { handler?(event) }

    /// Types each character of `text` as a key press.
    public func type(_ text: String) {
        for ch in text { send(.key(KeyEvent(.char(ch)))) }
    }

    /// Changes the screen size and delivers the resize event.
    public func resize(width: Int, height: Int) {
        size = Size(width: width, height: height)
        send(.resize(size))
    }

    // MARK: Reading the screen

    /// Every row's text, trailing spaces trimmed.
    public var lines: [String] { screen.lines }
    /// The whole screen as text.
    public var text: String { screen.text }
    /// The cell at a position.
    public func cell(x: Int, y: Int) -> Cell { screen[x, y] }
    /// Where `text` first appears on screen (column counted in cells), or nil.
    public func position(of text: String) -> Point? {
        let needle = Array(text)
        guard !needle.isEmpty else { return nil }
        for (y, line) in lines.enumerated() {
            let chars = Array(line)
            guard chars.count >= needle.count else { continue }
            for start in 0...(chars.count - needle.count) where Array(chars[start..<(start + needle.count)]) == needle {
                return Point(x: String(chars[..<start]).terminalWidth, y: y)
            }
        }
        return nil
    }
}
