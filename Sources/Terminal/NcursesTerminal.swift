internal import CNcursesShim
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TerminalCore

/// The real terminal: ncurses draws, a Swift `InputDecoder` reads the raw input bytes.
///
/// It always gives the terminal back: on `stop()`, on SIGINT/SIGTERM/SIGHUP (delivered as
/// `.terminate`), and on a crash, from an async-signal-safe C handler. Ctrl-Z suspends (the
/// shell's modes are back while stopped) and `fg` repaints. All of it runs on the main actor.
///
/// On a terminal with the kitty keyboard protocol, keys such as Ctrl-Enter, Shift-Enter, Ctrl-I
/// (not Tab) and a lone Esc (at once, without the escape delay) arrive distinct. At start it asks
/// (`CSI ? u`, then DA1 `CSI c`) and pushes "disambiguate escape codes" (`CSI > 1 u`) only if the
/// terminal answers the first before the second; every exit path pops it (`CSI < u`), suspend
/// included, and resume pushes it again. A terminal that does not answer keeps its legacy keys.
/// A `stop()` that comes before the answers (a quick exit) waits up to `replyGrace` for them, so
/// that they are not typed into the shell.
///
/// ```swift
/// let terminal = try NcursesTerminal()
/// try terminal.start { event in
///     if case .key(KeyEvent(.char("q"), modifiers: [])) = event { exit(0) }
/// }
/// ```
@MainActor
public final class NcursesTerminal: Terminal {

    public private(set) var size = Size.zero
    public private(set) var colorSupport = ColorSupport.none
    /// How long a lone ESC waits for the rest of a sequence before it counts as the Esc key.
    public let escapeDelay: Duration

    private var handler: (@MainActor (Event) -> Void)?
    private var previous: Canvas?
    private var decoder = InputDecoder()
    private var kittyKeyboard = KittyKeyboard.Detection()
    /// The DA1 query was written and its answer, which ends the terminal's answers, has not come.
    private var awaitingDeviceAttributes = false
    private var inputSource: DispatchSourceRead?
    private var signalSource: DispatchSourceRead?
    /// The signal pipe, when `MainRunLoop` watches it (and `stdin`) instead of dispatch sources.
    private var watchedSignalFD: Int32?
    private var watchesInput = false
    private var escapeTimer: DispatchWorkItem?
    private var running = false
    /// Set after another program had the terminal (see `readInput`).
    private var inputMayBeStale = false
    /// Where input is read to: one allocation for the terminal's life, not one per read.
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    @exclusivity(unchecked) private var styleCache: [Style: (attrs: UInt32, fg: Int32, bg: Int32)] = [:]
    @exclusivity(unchecked) private var lastResolved: (style: Style, value: (attrs: UInt32, fg: Int32, bg: Int32))?

    /// Checks that this process can take over a terminal and explains why not if it cannot:
    /// stdin and stdout must be terminals and `TERM` must name a known terminal type.
    ///
    /// - Parameters:
    ///   - environment: the process environment (for `TERM` and `NO_COLOR`).
    ///   - features: the modes beyond drawing and keys the app uses (all by default).
    public init(environment: [String: String], escapeDelay: Duration = .milliseconds(25), features: TerminalFeatures = .all) throws {
        let notTerminals = [(STDIN_FILENO, "stdin"), (STDOUT_FILENO, "stdout")].filter { isatty($0.0) != 1 }.map(\.1)
        guard notTerminals.isEmpty else {
            let which = notTerminals.joined(separator: " and ")
            throw TerminalError("needs an interactive terminal, but \(which) \(notTerminals.count == 1 ? "is" : "are") not a terminal (a pipe or a file); run it directly in a terminal window")
        }
        guard let term = environment["TERM"], !term.isEmpty else {
            throw TerminalError("TERM is not set; set it to your terminal's type, e.g. TERM=xterm-256color")
        }
        guard term != "dumb" else {
            throw TerminalError("TERM=dumb cannot show a full-screen program; use a terminal such as xterm-256color")
        }
        var why = [CChar](repeating: 0, count: 256)
        guard ak_check_terminal(term, &why, why.count) == 1 else {
            let reason = why.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw TerminalError("\(reason); set TERM to a known type, e.g. TERM=xterm-256color")
        }
        self.escapeDelay = escapeDelay
        self.wantsColor = (environment["NO_COLOR"] ?? "").isEmpty
        self.features = features
        self.environment = environment.filter { ["TERM", "COLORTERM", "COLORFGBG", "NO_COLOR"].contains($0.key) }
        capabilities = TerminalCapabilities(environment: environment, terminfoColors: 0)
    }

    /// What the terminal said about itself at start (`TerminalProbe`), and the environment's
    /// hints; before `start`, the environment's alone.
    public private(set) var capabilities: TerminalCapabilities

    public var backgroundIsDark: Bool? { capabilities.backgroundIsDark }

    /// The variables the capabilities are read from.
    private let environment: [String: String]
    /// Whether frames go out in synchronized updates (the terminal said it has mode 2026).
    private var synchronizedOutput = false
    /// Keys typed while the start-up probe waited for answers: delivered once the app runs.
    private var typedDuringProbe: [Event] = []

    /// The modes beyond drawing and keys this terminal turns on (and off again).
    public let features: TerminalFeatures

    private let wantsColor: Bool

    /// A file for what would otherwise print over the screen: while the UI is up stderr goes
    /// there, and a crash appends its backtrace. Set before `start`; nil leaves stderr alone.
    public var logPath: String?
    /// The one line a crash prints on the restored terminal (the process then ends with the
    /// crash's signal). Set before `start`.
    public var crashLine: String?

    /// How long `stop()` waits for the answers to the start-up query when they have not all come
    /// yet: answers arriving after the terminal is given back would reach the shell as typed text
    /// (`^[[?62;22c` at the prompt). Only a quick exit waits, and only for a terminal that answers
    /// late or not at all.
    ///
    /// ```swift
    /// let terminal = try NcursesTerminal(environment: ProcessInfo.processInfo.environment)
    /// try terminal.start { _ in }
    /// terminal.stop()   // reads the terminal's answers first, for at most `replyGrace`
    /// ```
    public static let replyGrace = Duration.milliseconds(200)

    public func start(_ handler: @escaping @MainActor (Event) -> Void) throws {
        guard !running else { return }
        self.handler = handler
        Self.ensureUTF8Locale()
        guard ak_save_terminal() == 0 else { throw TerminalError("could not read the terminal's settings") }
        ak_set_crash_report(crashLine, logPath)
        // Our handlers go in before ncurses starts, so ncurses leaves these signals to us.
        let fd = ak_signal_pipe()
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT] { _ = ak_watch_signal(sig) }
        let delayMs = Int32(escapeDelay.components.attoseconds / 1_000_000_000_000_000 + escapeDelay.components.seconds * 1000)
        ak_set_groups_off(features.groupsOff)
        let colors = ak_start(wantsColor ? 1 : 0, delayMs)
        guard colors >= 0 else {
            ak_stop()
            throw TerminalError("ncurses could not start on this terminal")
        }
        if let logPath { ak_redirect_stderr(logPath) }
        colorSupport = colors >= 0x1000000 ? .truecolor : colors >= 256 ? .palette256 : colors >= 16 ? .basic16 : colors >= 8 ? .basic8 : .none
        ak_enable_modes()
        running = true
        // The answers come back as input (the probe reads them; late ones `readInput`); a
        // terminal without the kitty protocol answers only the DA1 query of its part.
        decoder = InputDecoder()
        kittyKeyboard = KittyKeyboard.Detection()
        var probe = TerminalProbe(capabilities: TerminalCapabilities(environment: environment, terminfoColors: Int(colors)))
        if features.contains(.probe) {
            runProbe(&probe)
        } else if features.contains(.kittyKeyboard) {
            ak_kitty_keyboard_query()
            kittyKeyboard.queried()
            awaitingDeviceAttributes = true
        }
        capabilities = probe.capabilities
        synchronizedOutput = capabilities.synchronizedOutput == true
        size = Size(width: Int(ak_cols()), height: Int(ak_lines()))
        if !typedDuringProbe.isEmpty {
            // Once the app runs (start returns before the host takes events).
            let typed = typedDuringProbe
            typedDuringProbe = []
            DispatchQueue.main.async { [weak self] in
                MainActor.assumeIsolated { for event in typed { self?.deliver(event) } }
            }
        }

        if MainRunLoop.isRunning {
            MainRunLoop.watch(STDIN_FILENO) { [weak self] in self?.readInput() }
            MainRunLoop.watch(fd) { [weak self] in self?.readSignals(fd) }
            watchedSignalFD = fd
            watchesInput = true
        } else {
            let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
            input.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readInput() } }
            input.resume()
            inputSource = input

            let signals = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
            signals.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readSignals(fd) } }
            signals.resume()
            signalSource = signals
        }
    }

    public func present(_ canvas: Canvas) {
        guard running else { return }
        // One run per changed row, from its first changed cell to its last: ncurses compares
        // with the screen itself, so the cells in between cost it little and us nothing.
        let spans = canvas.changedSpans(since: previous)
        // Links (OSC 8) are written after ncurses' own output; a resize may leave links where the
        // terminal kept old cells, so a frame with no previous one to compare starts from a clear
        // screen when links are in use.
        let relinks = Hyperlink.anyMade ? linkRuns(in: spans, of: canvas, shown: previous) : nil
        if relinks != nil, previous?.size != canvas.size { ak_force_repaint() }
        // Our copy is updated span by span, so the caller's frame is never shared (its next
        // edit would otherwise copy the whole screen).
        if var kept = previous, kept.size == canvas.size {
            previous = nil
            for span in spans { kept.copy(span, from: canvas) }
            previous = kept
        } else {
            previous = canvas
        }
        guard !spans.isEmpty else { return }
        for span in spans { put(span, of: canvas) }
        if synchronizedOutput { ak_begin_synchronized_update() }
        ak_refresh()
        if let relinks { write(relinks) }
        if synchronizedOutput { ak_end_synchronized_update() }
    }

    public func stop() {
        guard running else { return }
        running = false
        escapeTimer?.cancel()
        stopWatchingInput()
        signalSource?.cancel()
        signalSource = nil
        if let fd = watchedSignalFD { MainRunLoop.unwatch(fd) }
        watchedSignalFD = nil
        readOutstandingReplies()
        awaitingDeviceAttributes = false
        ak_stop()
        decoder.isKittyKeyboardActive = false
        ak_restore_stderr()
        handler = nil
    }

    public func suspend() {
        guard running else { return }
        ak_leave()
        ak_stop_process()
        // Back after `fg`: the shell may have changed modes and the screen; take both back.
        ak_reenter()
        repaint()
    }

    // MARK: The clipboard, the mouse, other programs

    /// Writes OSC 52 at once: keys and commands are handled between frames, when ncurses has
    /// sent all it had (it writes only in its refresh, and flushes at its end).
    public func copyToClipboard(_ text: String) -> ClipboardCopy {
        let (bytes, copy) = OSC52.sequence(for: text)
        guard running else { return ClipboardCopy(copied: "", isComplete: text.isEmpty, requestedLines: copy.requestedLines) }
        let written = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { ak_write_between_frames($0.baseAddress, $0.count) }
        }
        return written == 0 ? copy : ClipboardCopy(copied: "", isComplete: false, requestedLines: copy.requestedLines)
    }

    public var mouseReporting: MouseReporting {
        guard features.contains(.mouse) else { return .unavailable }
        return ak_mouse_paused() == 1 ? .off : .on
    }

    /// Writes the mouse modes' resets (`CSI ? 1006 l`, `1002 l`, `1000 l`) or sets them again
    /// (`CSI ? 1000 h`, `1002 h`, `1006 h`). While they are off, no exit path resets them again,
    /// and Ctrl-Z and `fg` leave them off; a new start turns them on.
    public func setMouseReporting(_ on: Bool) {
        guard features.contains(.mouse) else { return }
        _ = ak_set_mouse_paused(on ? 0 : 1)
    }

    /// Gives the terminal to `program` as Ctrl-Z gives it to the shell (the modes reset, the
    /// main screen and the shell's termios back), runs it as the terminal's foreground job
    /// (`ProgramLauncher.run`: Ctrl-C and Ctrl-Z reach it, not the app), waits for it, then takes
    /// the terminal again and repaints the last frame (a resize meanwhile is delivered). A program
    /// that is not found or not executable is refused before the screen changes.
    public func runProgram(_ program: ExternalProgram) -> ProgramOutcome {
        let path: String
        switch program.resolvedPath() {
        case .success(let found): path = found
        case .failure(let error): return .couldNotStart(error.description)
        }
        guard running else { return ProgramLauncher.run(program, path: path) }
        // The answers to the start-up query must not be read by the program.
        readOutstandingReplies()
        ak_leave()
        let outcome = ProgramLauncher.run(program, path: path, terminal: STDIN_FILENO)
        inputMayBeStale = true
        ak_reenter()
        repaint()
        return outcome
    }

    // MARK: Drawing

    /// Sends the cells of `span` to ncurses in one `ak_put_cells` call. The right half of a wide
    /// character is not a cell of its own there: ncurses moves past both columns.
    private func put(_ span: Canvas.Span, of canvas: Canvas) {
        if span.columns.count > runCapacity { growRun(to: span.columns.count) }
        canvas.withCells(in: span) { cells in
            var count = 0
            var start = span.columns.lowerBound
            for (offset, cell) in cells.enumerated() {
                if cell.isContinuation {
                    if count == 0 { start = span.columns.lowerBound + offset + 1 }
                    continue
                }
                runCells[count] = akCell(cell)
                count += 1
            }
            if count > 0 { ak_put_cells(Int32(span.y), Int32(start), runCells, Int32(count)) }
        }
    }

    /// The run being sent, kept for the terminal's life so a frame allocates nothing (a run is
    /// at most a row; it grows for a wider terminal).
    @exclusivity(unchecked) private nonisolated(unsafe) var runCells = UnsafeMutablePointer<ak_cell>.allocate(capacity: 256)
    @exclusivity(unchecked) private var runCapacity = 256

    private func growRun(to capacity: Int) {
        runCells.deallocate()
        runCapacity = max(capacity, runCapacity * 2)
        runCells = .allocate(capacity: runCapacity)
    }

    deinit {
        runCells.deallocate()
    }

    private func akCell(_ cell: Cell) -> ak_cell {
        let style = resolved(cell.style)
        var result = ak_cell(scalars: (0, 0, 0, 0, 0), count: 0, attrs: style.attrs, fg: style.fg, bg: style.bg)
        if !cell.glyph.isInterned {
            // One scalar, the common case: no closure per cell.
            result.scalars.0 = cell.glyph.rawValue
            result.count = 1
            return result
        }
        withUnsafeMutableBytes(of: &result.scalars) { raw in
            let slots = raw.bindMemory(to: UInt32.self)
            var count = 0
            cell.glyph.forEachScalar { scalar in
                if count < slots.count { slots[count] = scalar.value; count += 1 }
            }
            result.count = Int32(count)
        }
        return result
    }

    // MARK: Links (OSC 8)

    /// Cells to write again after ncurses' refresh: runs of one link (or of none, where a link
    /// went away), and the cells of all of them.
    struct LinkRuns {
        var runs: [(y: Int, x: Int, first: Int, count: Int, link: Hyperlink?)] = []
        var cells: [ak_cell] = []
    }

    /// The cells of `spans` that carry a link now, or carried one on the screen `shown` (ncurses
    /// writes them without it, or leaves an old one), grouped in runs of one link; nil when there
    /// are none.
    private func linkRuns(in spans: [Canvas.Span], of canvas: Canvas, shown: Canvas?) -> LinkRuns? {
        let old = shown?.size == canvas.size ? shown : nil
        var result = LinkRuns()
        for span in spans {
            var x = span.columns.lowerBound
            while x < span.columns.upperBound {
                let link = canvas[x, span.y].hyperlink
                guard link != nil || old?[x, span.y].hyperlink != nil else { x += 1; continue }
                let start = x, first = result.cells.count
                while x < span.columns.upperBound, canvas[x, span.y].hyperlink == link,
                      link != nil || old?[x, span.y].hyperlink != nil {
                    let cell = canvas[x, span.y]
                    // The right half of a wide character is written with its left half.
                    if !cell.isContinuation { result.cells.append(akCell(cell)) }
                    x += 1
                }
                var column = start
                if canvas[start, span.y].isContinuation { column += 1 }   // its left half is not ours to write
                if result.cells.count > first {
                    result.runs.append((span.y, column, first, result.cells.count - first, link))
                }
            }
        }
        return result.runs.isEmpty ? nil : result
    }

    /// Writes the runs again, linked, over what ncurses drew (see `ak_write_runs`).
    private func write(_ links: LinkRuns) {
        // Every address once, NUL-terminated, in one buffer that lives through the call.
        var text: [CChar] = []
        var offsets: [Int?] = []
        var known: [UInt16: Int] = [:]
        for run in links.runs {
            guard let link = run.link else { offsets.append(nil); continue }
            if let offset = known[link.rawValue] { offsets.append(offset); continue }
            let offset = text.count
            text.append(contentsOf: link.url.utf8CString)
            known[link.rawValue] = offset
            offsets.append(offset)
        }
        text.withUnsafeBufferPointer { urls in
            let runs = links.runs.enumerated().map { index, run in
                ak_run(y: Int32(run.y), x: Int32(run.x), first: Int32(run.first), count: Int32(run.count),
                       url: offsets[index].map { urls.baseAddress! + $0 })
            }
            _ = ak_write_runs(runs, Int32(runs.count), links.cells)
        }
    }

    /// Repaints the last frame in full (after a resume or when the screen may be garbled).
    private func repaint() {
        guard let frame = previous else { return }
        size = Size(width: Int(ak_cols()), height: Int(ak_lines()))
        ak_force_repaint()
        if frame.size == size {
            let spans = frame.changedSpans(since: nil)
            for span in spans { put(span, of: frame) }
            if synchronizedOutput { ak_begin_synchronized_update() }
            ak_refresh()
            if Hyperlink.anyMade, let relinks = linkRuns(in: spans, of: frame, shown: nil) { write(relinks) }
            if synchronizedOutput { ak_end_synchronized_update() }
        } else {
            previous = nil
            deliver(.resize(size))
        }
    }

    private func resolved(_ style: Style) -> (attrs: UInt32, fg: Int32, bg: Int32) {
        // Neighbouring cells mostly share a style: check the last one before hashing.
        if let last = lastResolved, last.style == style { return last.value }
        let value: (attrs: UInt32, fg: Int32, bg: Int32)
        if let hit = styleCache[style] {
            value = hit
        } else {
            value = (UInt32(style.attributes.rawValue), colorNumber(style.foreground), colorNumber(style.background))
            styleCache[style] = value
        }
        lastResolved = (style, value)
        return value
    }

    /// Maps a colour to what this terminal can show; -1 is the terminal's default colour.
    func colorNumber(_ color: Color) -> Int32 {
        ColorMapping.number(for: color, support: colorSupport)
    }

    // MARK: Input

    private func readInput() {
        if inputMayBeStale {
            // Input that arrived while another program had the terminal was that program's: the
            // readiness reported for it may be stale, and a read would then wait for a key.
            inputMayBeStale = false
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { return }
        }
        let n = readBuffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) {
            // The terminal went away (window closed: end of file, or EIO from a hung-up tty):
            // treat it as a hang-up, once, rather than reading the dead descriptor for ever.
            stopWatchingInput()
            deliver(.terminate(signal: SIGHUP))
            return
        }
        guard n > 0 else { return }
        let events = decoder.feed(readBuffer[0..<n])
        for reply in decoder.takeReplies() { received(reply) }
        for event in events { deliver(event) }
        scheduleEscapeFlush()
    }

    private func stopWatchingInput() {
        inputSource?.cancel()
        inputSource = nil
        if watchesInput { MainRunLoop.unwatch(STDIN_FILENO) }
        watchesInput = false
    }

    /// Writes the start-up queries and reads their answers until DA1's (the last) or
    /// `TerminalProbe.timeout`, whichever comes first; keys typed meanwhile are kept for later.
    /// Answers that come after the timeout are read as input later (`readInput`).
    private func runProbe(_ probe: inout TerminalProbe) {
        let started = ContinuousClock.now
        let queries = TerminalProbe.queries(kittyKeyboard: features.contains(.kittyKeyboard))
        queries.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { ak_write_bytes($0.baseAddress, Int32($0.count)) }
        }
        if features.contains(.kittyKeyboard) { kittyKeyboard.queried() }
        awaitingDeviceAttributes = true
        let deadline = started + TerminalProbe.timeout
        var lastLook = false
        while !probe.isComplete {
            let left = deadline - ContinuousClock.now
            // Past the deadline, one look without waiting: answers that came in time are read
            // even when this process ran too late to see them come (a loaded machine).
            if left <= .zero {
                guard !lastLook else { break }
                lastLook = true
            }
            let milliseconds = left <= .zero ? 0 : left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: milliseconds))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, descriptor.revents & Int16(POLLIN) != 0 else { break }
            let n = readBuffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            typedDuringProbe += decoder.feed(readBuffer[0..<n])
            for reply in decoder.takeReplies() {
                probe.receive(reply)
                received(reply)
            }
        }
        probe.finish(after: ContinuousClock.now - started)
    }

    /// An answer to a start-up query, whenever it comes.
    private func received(_ reply: TerminalReply) {
        if case .primaryDeviceAttributes = reply { awaitingDeviceAttributes = false }
        if kittyKeyboard.receive(reply) {
            ak_kitty_keyboard_enable()
            decoder.isKittyKeyboardActive = true
        }
    }

    /// Before the terminal is given back: reads input until the DA1 answer (the last one) came,
    /// for at most `replyGrace`, dropping whatever else arrives (the program is quitting).
    private func readOutstandingReplies() {
        guard awaitingDeviceAttributes else { return }
        let deadline = ContinuousClock.now + Self.replyGrace
        var buffer = [UInt8](repeating: 0, count: 1024)
        while awaitingDeviceAttributes {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return }
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: milliseconds))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, descriptor.revents & Int16(POLLIN) != 0 else { return }
            let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            _ = decoder.feed(buffer[0..<n])
            for reply in decoder.takeReplies() {
                if case .primaryDeviceAttributes = reply { awaitingDeviceAttributes = false }
            }
        }
    }

    private func scheduleEscapeFlush() {
        escapeTimer?.cancel()
        escapeTimer = nil
        guard decoder.hasPending else { return }
        let work = DispatchWorkItem { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                for event in self.decoder.flush() { self.deliver(event) }
            }
        }
        escapeTimer = work
        let ns = escapeDelay.components.seconds * 1_000_000_000 + escapeDelay.components.attoseconds / 1_000_000_000
        DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(Int(ns)), execute: work)
    }

    private func readSignals(_ fd: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, 64) }
        guard n > 0 else { return }
        for sig in bytes[0..<n].map(Int32.init) {
            switch sig {
            case SIGWINCH:
                if running, ak_update_size() == 1 {
                    size = Size(width: Int(ak_cols()), height: Int(ak_lines()))
                    previous = nil
                    deliver(.resize(size))
                }
            case SIGTSTP:
                suspend()
            case SIGCONT:
                // Stopped by something other than our own Ctrl-Z (e.g. SIGSTOP): take the screen
                // back. After our own stop, its resume took it back already: setting the modes a
                // second time would leave two `h` for one `l`.
                if ak_take_own_continue() == 1 { continue }
                if running { ak_reenter(); repaint() }
            default:
                ak_signal_handled()
                deliver(.terminate(signal: sig))
            }
        }
    }

    private func deliver(_ event: Event) {
        handler?(event)
    }

    /// ncurses draws wide characters only under a UTF-8 locale; use the user's, or C.UTF-8.
    private static func ensureUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if codeset.uppercased().filter({ $0 != "-" }) != "UTF8" {
            if setlocale(LC_CTYPE, "C.UTF-8") == nil { _ = setlocale(LC_CTYPE, "en_US.UTF-8") }
        }
    }
}

extension TerminalFeatures {
    /// The shim's mode groups that are off.
    var groupsOff: Int32 {
        var groups: Int32 = 0
        if !contains(.mouse) { groups |= Int32(AK_GROUP_MOUSE) }
        if !contains(.bracketedPaste) { groups |= Int32(AK_GROUP_PASTE) }
        if !contains(.kittyKeyboard) { groups |= Int32(AK_GROUP_KITTY_KEYBOARD) }
        return groups
    }
}
