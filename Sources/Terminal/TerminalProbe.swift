import TerminalCore
/// What the terminal said about itself at start, and what the app decided from it: its default
/// background (so the theme can follow it), the colour depth, synchronized output, the kitty
/// keyboard protocol, its name. Filled in by `TerminalProbe`, which writes every query at once
/// behind a DA1 query (the sentinel every terminal answers) and reads the answers with the one
/// input reader, waiting at most `TerminalProbe.timeout`, so a terminal that answers nothing (a
/// dumb pipe, a slow SSH link) costs that much once and start-up never hangs.
///
/// ```swift
/// let caps = terminal.capabilities
/// caps.background?.isDark        // false on a white xterm
/// caps.synchronizedOutput        // true on kitty, foot, WezTerm, tmux ≥ 3.4…
/// caps.report()                  // the lines `--diagnose` prints
/// ```
public struct TerminalCapabilities: Sendable, Equatable {
    /// `TERM` and how many colours its terminfo entry gives (what ncurses can draw with).
    public var term: String
    public var terminfoColors: Int
    /// `COLORTERM` (`truecolor`, `24bit`…), `COLORFGBG` (rxvt's `fg;bg`), `NO_COLOR` set.
    public var colorTerm: String?
    public var colorFGBG: String?
    public var noColor: Bool

    /// Whether the terminal answered the sentinel (DA1) in time, and how long the probe took.
    public var answered = false
    public var probeDuration: Duration = .zero
    /// The default colours (OSC 10 and 11).
    public var foreground: TerminalColor?
    public var background: TerminalColor?
    /// DECRQM 2026: nil when not answered, else whether the mode is known (status 1–4 but 0).
    public var synchronizedOutput: Bool?
    /// The kitty keyboard protocol's flags query was answered.
    public var kittyKeyboard = false
    /// XTGETTCAP `RGB` or `Tc`: the terminal draws 24-bit colour (nil: not answered; true when
    /// either is there, whatever the other's answer).
    public var reportsTruecolor: Bool?
    /// XTVERSION.
    public var version: String?

    public init(term: String, terminfoColors: Int, colorTerm: String? = nil, colorFGBG: String? = nil, noColor: Bool = false) {
        self.term = term
        self.terminfoColors = terminfoColors
        self.colorTerm = colorTerm
        self.colorFGBG = colorFGBG
        self.noColor = noColor
    }

    /// What a reading of the environment alone gives (no answers yet).
    public init(environment: [String: String], terminfoColors: Int) {
        self.init(term: environment["TERM"] ?? "", terminfoColors: terminfoColors, colorTerm: environment["COLORTERM"],
                  colorFGBG: environment["COLORFGBG"], noColor: !(environment["NO_COLOR"] ?? "").isEmpty)
    }

    /// The colours drawn with: none under `NO_COLOR` or on a monochrome terminal, else what
    /// ncurses can draw through the terminfo entry (a terminal that does more says so in
    /// `report()`, with the `TERM` that would use it).
    public var colorSupport: ColorSupport {
        if noColor { return .none }
        return ColorSupport(colors: terminfoColors)
    }

    /// Whether the terminal says it draws 24-bit colour (`COLORTERM` or its own answer).
    public var terminalSaysTruecolor: Bool {
        if reportsTruecolor == true { return true }
        guard let colorTerm = colorTerm?.lowercased() else { return false }
        return colorTerm == "truecolor" || colorTerm == "24bit"
    }

    /// Whether the background is dark: from the terminal's answer, else `COLORFGBG`'s background
    /// number (0–6 and 8 are dark), else nil (unknown).
    public var backgroundIsDark: Bool? {
        if let background { return background.isDark }
        if let value = colorFGBG?.split(separator: ";").last.flatMap({ Int($0) }) {
            return (0...6).contains(value) || value == 8
        }
        return nil
    }

    /// Where the background's darkness was learnt, for `report()`.
    private var backgroundSource: String {
        if let background { return "\(background) from the terminal (OSC 11)" }
        if let colorFGBG, backgroundIsDark != nil { return "COLORFGBG=\(colorFGBG)" }
        return "unknown (no answer to OSC 11, no COLORFGBG)"
    }

    /// What was found, what will be used and why, one line each (`--diagnose`).
    ///
    /// - Parameter theme: the theme that will be used and why ("dark (--theme dark)").
    public func report(theme: String) -> [String] {
        var lines: [String] = []
        func line(_ label: String, _ text: String) { lines.append(label.padding(13) + text) }
        line("terminal", "TERM=\(term) (terminfo: \(terminfoColors == 0 ? "no" : String(terminfoColors)) colours)"
             + (colorTerm.map { ", COLORTERM=\($0)" } ?? "") + (version.map { ", \"\($0)\" (XTVERSION)" } ?? ""))
        line("answers", answered ? "the terminal answered in \(Self.milliseconds(probeDuration)) ms"
                                 : "no answer in \(Self.milliseconds(probeDuration)) ms: defaults from the environment")
        switch backgroundIsDark {
        case true?: line("background", "dark: \(backgroundSource)")
        case false?: line("background", "light: \(backgroundSource)")
        case nil: line("background", backgroundSource)
        }
        line("theme", theme)
        var colours: String
        switch colorSupport {
        case .none: colours = noColor ? "none (NO_COLOR is set): attributes only" : "none (monochrome terminfo): attributes only"
        case .basic8: colours = "8 basic colours"
        case .basic16: colours = "16 basic colours"
        case .palette256: colours = "256-colour palette"
        case .truecolor: colours = "24-bit colour"
        }
        colours += " (from the terminfo entry for \(term))"
        if terminalSaysTruecolor && colorSupport != .truecolor && colorSupport != .none {
            colours += "; the terminal draws 24-bit colour: TERM=\(Self.directVariant(of: term)) would use it"
        }
        line("colours", colours)
        switch synchronizedOutput {
        case true?: line("sync output", "yes (DECRQM 2026): every frame is wrapped in CSI ? 2026 h … l")
        case false?: line("sync output", "no (DECRQM 2026 not recognised): frames are written as they are")
        case nil: line("sync output", "unknown (no answer to DECRQM 2026): frames are written as they are")
        }
        line("kitty keys", kittyKeyboard ? "yes: Ctrl-Enter, Shift-Enter, Ctrl-I and a lone Esc arrive distinct" : "no (no answer to CSI ? u): legacy keys")
        return lines
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    /// `xterm-256color` → `xterm-direct`: the terminfo entry with 24-bit colour.
    static func directVariant(of term: String) -> String {
        let base = term.split(separator: "-").first.map(String.init) ?? term
        return "\(base)-direct"
    }
}

extension ColorSupport {
    /// The depth of a terminfo entry with `colors` colours.
    public init(colors: Int) {
        self = colors >= 0x1000000 ? .truecolor : colors >= 256 ? .palette256 : colors >= 16 ? .basic16 : colors >= 8 ? .basic8 : .none
    }
}

private extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: Swift.max(1, width - count)) }
}

/// The start-up queries and what their answers mean (see `TerminalCapabilities`).
///
/// Invariants: the queries end with DA1, which every terminal answers and answers last, so DA1's
/// answer means every other answer that will come has come; answers that arrive are recorded in
/// any order; the probe is complete at DA1's answer.
///
/// ```swift
/// var probe = TerminalProbe(capabilities: TerminalCapabilities(environment: env, terminfoColors: 256))
/// write(TerminalProbe.queries(kittyKeyboard: true))
/// for reply in decoder.takeReplies() { probe.receive(reply) }
/// probe.isComplete   // after DA1's answer
/// ```
public struct TerminalProbe: Sendable {
    /// The longest start-up waits for the answers (a terminal that answers does in a few ms,
    /// over SSH in a round trip).
    public static let timeout = Duration.milliseconds(150)

    public private(set) var capabilities: TerminalCapabilities
    public private(set) var isComplete = false

    public init(capabilities: TerminalCapabilities) {
        self.capabilities = capabilities
    }

    /// OSC 10 and 11 (the default colours), DECRQM 2026 (synchronized output), XTGETTCAP `RGB` and
    /// `Tc` (24-bit colour: ncurses' name and tmux's, which kitty answers and `RGB` not),
    /// XTVERSION, the kitty keyboard flags (when asked for), then DA1.
    public static func queries(kittyKeyboard: Bool) -> [UInt8] {
        var text = "\u{1B}]10;?\u{1B}\\\u{1B}]11;?\u{1B}\\\u{1B}[?2026$p\u{1B}P+q524742;5463\u{1B}\\\u{1B}[>0q"
        if kittyKeyboard { text += "\u{1B}[?u" }
        text += "\u{1B}[c"
        return Array(text.utf8)
    }

    /// Records an answer.
    public mutating func receive(_ reply: TerminalReply) {
        switch reply {
        case .primaryDeviceAttributes:
            capabilities.answered = true
            isComplete = true
        case .backgroundColor(let color): capabilities.background = color
        case .foregroundColor(let color): capabilities.foreground = color
        case .modeReport(let mode, let status) where mode == 2026:
            capabilities.synchronizedOutput = status != 0 && status != 4
        case .modeReport: break
        case .capability(let name, let value) where name == "RGB" || name == "Tc":
            // One is enough: kitty has Tc and not RGB, and answers both, in either order.
            capabilities.reportsTruecolor = capabilities.reportsTruecolor == true || value != nil
        case .capability: break
        case .terminalVersion(let text): capabilities.version = text
        case .kittyKeyboardFlags: capabilities.kittyKeyboard = true
        }
    }

    /// Notes how long the probe took.
    public mutating func finish(after duration: Duration) {
        capabilities.probeDuration = duration
    }
}
