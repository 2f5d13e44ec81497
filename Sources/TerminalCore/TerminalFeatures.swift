
/// What an app asks of the terminal beyond drawing and keys. Each one is a mode the terminal is
/// put in at start and taken out of on every exit path; an app with no use for one leaves it off,
/// and the terminal sees none of its bytes (as Textual's `mouse=False` or Bubble Tea's opt-in
/// mouse).
///
/// ```swift
/// let terminal = try NcursesTerminal(environment: env, features: [.bracketedPaste])   // no mouse
/// ```
public struct TerminalFeatures: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Clicks and drags (`CSI ? 1000 h`, `1002`, `1006`): clicking a tab, a list row, a button.
    public static let mouse = TerminalFeatures(rawValue: 1)
    /// Pasted text arrives as one paste (`CSI ? 2004 h`), not as typed keys.
    public static let bracketedPaste = TerminalFeatures(rawValue: 2)
    /// The kitty keyboard protocol, where the terminal has it (asked with `CSI ? u` at start):
    /// `Ctrl-Enter`, `Ctrl-I` apart from `Tab`, `Alt-Shift` combinations.
    public static let kittyKeyboard = TerminalFeatures(rawValue: 4)

    /// Asking the terminal what it is at start (`TerminalProbe`): its background, synchronized
    /// output, 24-bit colour, its name; queries only, no mode. Frames are then written in
    /// synchronized updates where the terminal has them.
    public static let probe = TerminalFeatures(rawValue: 8)

    /// Everything (the default).
    public static let all: TerminalFeatures = [.mouse, .bracketedPaste, .kittyKeyboard, .probe]
}
