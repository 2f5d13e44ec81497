import AppletLogic
import AppletNavigation
import AppletState
import AppletUI
import Terminal

/// What the host does with the terminal's own abilities: the clipboard (`Alt-C`), the mouse
/// (`Alt-M`), and handing the terminal to another program.
extension AppletHost {
    // MARK: Copy

    /// Copies what the focused widget would copy (`FocusableNode.copyableText`: a list's selected
    /// or marked rows, a table's selected row, a log's visible lines, a field's text) to the
    /// system clipboard, and says so in a toast. `Alt-C` runs it; it is enabled (and in the
    /// footer) only while there is something to copy.
    public func copySelection() {
        guard topModal == nil, let text = inPane({ panes.activeTree.focusedWidgetCopyableText }) else {
            application.toast("Nothing to copy here", style: .info)
            return
        }
        let copy = terminal.copyToClipboard(text)
        application.toast(Self.copyMessage(copy), style: copy.isComplete ? .success : copy.copied.isEmpty ? .error : .warning)
    }

    /// What the toast says about a copy.
    static func copyMessage(_ copy: ClipboardCopy) -> String {
        if copy.isComplete { return "Copied \(copy.copiedLines) line\(copy.copiedLines == 1 ? "" : "s")" }
        if copy.copied.isEmpty { return "Could not copy: the terminal could not be written to" }
        let limit = "a terminal takes \(OSC52.maximumPayload / 1000) KB at most"
        if copy.copiedLines < copy.requestedLines {
            return "Copied the first \(copy.copiedLines) of \(copy.requestedLines) lines (\(limit))"
        }
        return "Copied the start of the text (\(limit))"
    }

    // MARK: The mouse

    /// Turns the terminal's mouse reporting off, so that dragging selects text as the terminal
    /// does without an app, or on again (`Alt-M`). While it is off the footer starts with
    /// `Alt-M Mouse back on`. Every exit path leaves the mouse modes reset either way.
    public func toggleMouseReporting() {
        switch terminal.mouseReporting {
        case .unavailable:
            return
        case .on:
            terminal.setMouseReporting(false)
            application.toast("Mouse off: drag to select text; Alt-M turns it back on", style: .info)
        case .off:
            terminal.setMouseReporting(true)
            application.toast("Mouse on", style: .info)
        }
        setNeedsDisplay()
    }

    // MARK: Other programs

    /// Hands the terminal to another program until it ends, as a shell runs a job in the
    /// foreground: the screen and the terminal's modes go back to what the shell had (as for
    /// Ctrl-Z), the program runs with the terminal to itself (Ctrl-C and Ctrl-Z reach it, not the
    /// app), and when it ends the app takes the terminal back and draws everything again. Returns
    /// how it ended. A program that cannot start (not found, not executable) leaves the screen as
    /// it was and shows an error toast.
    ///
    /// ```swift
    /// Command("v", "Open in vi") {
    ///     Task { @MainActor in
    ///         let outcome = await host.runProgram("vi", arguments: [path])
    ///         if outcome.succeeded { reload(path) }
    ///     }
    /// }
    /// ```
    ///
    /// From an applet, which has no host, send `RunProgram` as a side effect: the host performs it.
    @discardableResult
    public func runProgram(_ executable: String, arguments: [String] = [], environment: [String: String]? = nil) async -> ProgramOutcome {
        runInForeground(ExternalProgram(executable, arguments: arguments, environment: environment))
    }

    /// Runs `program` in the foreground (see `runProgram(_:arguments:environment:)`).
    @discardableResult
    func runInForeground(_ program: ExternalProgram) -> ProgramOutcome {
        // A frame still wanted goes out first, so the screen the program leaves is the app's.
        renderIfNeeded()
        let outcome = terminal.runProgram(program)
        if case .couldNotStart(let why) = outcome {
            application.toast("Could not run \(why)", style: .error)
        }
        // The program may have changed what the app shows (a file it edited), and the screen
        // was the program's: every pane is drawn again.
        redrawAll()
        return outcome
    }

    /// Performs `RunProgram` side effects for the applets (registered when the host is made).
    func performRunProgram() {
        logic.perform(RunProgram.self) { [weak self] effect, _ in
            guard let self else { return .couldNotStart("\(effect.program.executable): the app has quit") }
            return await self.runInForeground(effect.program)
        }
    }
}

/// Gives the terminal to another program until it ends, as a side effect: the host performs it
/// (`AppletHost.runProgram`), so an applet runs an editor or a pager as it does any other work,
/// and a test hands back the outcome it wants.
///
/// ```swift
/// logic.send(.effect(RunProgram("less", arguments: [path])) { outcome in
///     outcome.succeeded ? .none : .request(ShowProblem("less \(outcome)"))
/// })
/// ```
public struct RunProgram: SideEffect, Codable, Hashable, CustomStringConvertible {
    public typealias Output = ProgramOutcome
    public typealias Failure = Never
    public var program: ExternalProgram

    public init(_ executable: String, arguments: [String] = [], environment: [String: String]? = nil) {
        program = ExternalProgram(executable, arguments: arguments, environment: environment)
    }

    public var description: String { "RunProgram(\(program))" }
}
