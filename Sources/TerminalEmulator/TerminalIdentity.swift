import Terminal

/// What the emulated terminal says about itself when a program asks, as a real terminal would:
/// its default colours (OSC 10 and 11), whether it has synchronized output (DECRQM 2026), its
/// name (XTVERSION), its terminfo capabilities (XTGETTCAP), whether it speaks the kitty keyboard
/// protocol (`CSI ? u`) and whether it answers DA1 at all. `TerminalScreen` answers with it
/// through `takeResponses()`; give it to `PseudoTerminal.start` so that a program's start-up
/// probe, which runs in its first milliseconds, sees it.
///
/// The default is what the screen always answered: 2026 supported, the kitty flags and DA1
/// answered, no colours, no name and no capabilities (those queries go unanswered, as on a
/// terminal that does not know them).
///
/// ```swift
/// var xterm = TerminalIdentity()
/// xterm.background = TerminalColor(red: 255, green: 255, blue: 255)   // OSC 11: rgb:ffff/ffff/ffff
/// xterm.version = "XTerm(390)"                                       // DCS > | XTerm(390) ST
/// xterm.capabilities = TerminalIdentity.truecolor                    // DCS 1 + r 524742=… ST
/// xterm.synchronizedOutput = false                                   // DECRQM 2026 → 0
/// let terminal = try PseudoTerminal.start(app, identity: xterm)
/// ```
public struct TerminalIdentity: Hashable, Sendable {
    /// The default background colour (OSC 11 `?`); nil leaves the query unanswered.
    public var background: TerminalColor?
    /// The default foreground colour (OSC 10 `?`); nil leaves the query unanswered.
    public var foreground: TerminalColor?
    /// Whether mode 2026 (synchronized output) is known: DECRQM answers 1 or 2 by its state when
    /// it is, 0 (not recognised) when it is not.
    public var synchronizedOutput: Bool
    /// The name and version XTVERSION (`CSI > 0 q`) answers with (`DCS > | text ST`); nil leaves
    /// the query unanswered.
    public var version: String?
    /// The terminfo capabilities XTGETTCAP (`DCS + q name;name… ST`, names in hex) answers for, by
    /// name: each name asked is answered on its own, `DCS 1 + r name=value ST` (hex) for one here
    /// (`DCS 1 + r name ST` for an empty value: a boolean capability, as kitty answers `Tc`) and
    /// `DCS 0 + r name ST` for any other. Nil leaves XTGETTCAP unanswered.
    public var capabilities: [String: String]?
    /// Whether the kitty keyboard protocol's flags query (`CSI ? u`) is answered.
    public var kittyKeyboard: Bool
    /// Whether DA1 (`CSI c`) is answered. A terminal that never answers it makes a program that
    /// waits for it wait its whole timeout.
    public var answersPrimaryDeviceAttributes: Bool

    /// 24-bit colour as terminals advertise it: `RGB` (ncurses' name, `8/8/8` bits a channel) and
    /// `Tc` (tmux's, a boolean).
    public static let truecolor: [String: String] = ["RGB": "8/8/8", "Tc": ""]

    public init(background: TerminalColor? = nil, foreground: TerminalColor? = nil, synchronizedOutput: Bool = true,
                version: String? = nil, capabilities: [String: String]? = nil, kittyKeyboard: Bool = true,
                answersPrimaryDeviceAttributes: Bool = true) {
        self.background = background
        self.foreground = foreground
        self.synchronizedOutput = synchronizedOutput
        self.version = version
        self.capabilities = capabilities
        self.kittyKeyboard = kittyKeyboard
        self.answersPrimaryDeviceAttributes = answersPrimaryDeviceAttributes
    }

    /// Whether XTGETTCAP answers say the terminal draws 24-bit colour (`RGB` or `Tc`).
    public var advertisesTruecolor: Bool { capabilities?["RGB"] != nil || capabilities?["Tc"] != nil }
}

/// Synchronized updates (mode 2026) as a program wrote them: each `CSI ? 2026 h` begins one, each
/// `CSI ? 2026 l` ends it. A frame written inside one shows all at once on a terminal that has
/// the mode.
///
/// ```swift
/// screen.feed(Array("\u{1B}[?2026hframe\u{1B}[?2026l".utf8))
/// screen.synchronizedUpdates.begun     // 1
/// screen.synchronizedUpdates.isOpen    // false
/// screen.synchronizedUpdates.isBalanced   // true
/// ```
public struct SynchronizedUpdates: Hashable, Sendable, CustomStringConvertible {
    /// Updates begun: `CSI ? 2026 h` while none was open.
    public internal(set) var begun = 0
    /// Updates ended: `CSI ? 2026 l` while one was open.
    public internal(set) var ended = 0
    /// `CSI ? 2026 h` while one was open already, or `CSI ? 2026 l` while none was.
    public internal(set) var unmatched = 0
    /// Whether an update is open now (begun and not yet ended).
    public internal(set) var isOpen = false
    /// Characters printed while no update was open.
    public internal(set) var charactersOutside = 0

    public init() {}

    /// Every update begun was ended, once, and none is open.
    public var isBalanced: Bool { !isOpen && unmatched == 0 && begun == ended }

    mutating func record(on: Bool) {
        if on == isOpen {
            unmatched += 1
        } else if on {
            begun += 1
        } else {
            ended += 1
        }
        isOpen = on
    }

    public var description: String {
        "\(begun) begun, \(ended) ended, \(unmatched) unmatched, \(isOpen ? "one open" : "none open"), \(charactersOutside) characters printed outside"
    }
}
