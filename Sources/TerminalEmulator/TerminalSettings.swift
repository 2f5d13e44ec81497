#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A terminal's line settings (its termios: input, output, control and local flags and the control
/// characters), as a value to compare: a program must leave them as it found them, however it exits.
///
/// The description is what `stty -g` prints for the same settings on Linux, so it can be compared
/// with that too.
///
/// ```swift
/// let terminal = try PseudoTerminal.start("/usr/bin/my-app")
/// // ... quit the app ...
/// #expect(try terminal.termios() == terminal.initialTermios)
/// #expect(terminal.initialTermios.isCanonical && terminal.initialTermios.echoes)
/// ```
public struct TerminalSettings: Hashable, Sendable, CustomStringConvertible {
    /// `c_iflag`.
    public var inputFlags: UInt64
    /// `c_oflag`.
    public var outputFlags: UInt64
    /// `c_cflag`.
    public var controlFlags: UInt64
    /// `c_lflag`.
    public var localFlags: UInt64
    /// `c_cc`, all `NCCS` of them.
    public var controlCharacters: [UInt8]

    public init(inputFlags: UInt64, outputFlags: UInt64, controlFlags: UInt64, localFlags: UInt64,
                controlCharacters: [UInt8]) {
        self.inputFlags = inputFlags
        self.outputFlags = outputFlags
        self.controlFlags = controlFlags
        self.localFlags = localFlags
        self.controlCharacters = controlCharacters
    }

    init(_ settings: termios) {
        inputFlags = UInt64(settings.c_iflag)
        outputFlags = UInt64(settings.c_oflag)
        controlFlags = UInt64(settings.c_cflag)
        localFlags = UInt64(settings.c_lflag)
        var characters = settings.c_cc
        controlCharacters = withUnsafeBytes(of: &characters) { Array($0) }
    }

    /// Line editing (ICANON): on unless a program put the terminal in raw or cbreak mode.
    public var isCanonical: Bool { localFlags & UInt64(ICANON) != 0 }
    /// Whether typed characters are echoed (ECHO).
    public var echoes: Bool { localFlags & UInt64(ECHO) != 0 }
    /// Whether Ctrl-C, Ctrl-\ and Ctrl-Z send signals (ISIG).
    public var sendsSignals: Bool { localFlags & UInt64(ISIG) != 0 }

    /// `stty -g`'s format: the four flags, then every control character, in hex, colon-separated.
    public var description: String {
        ([inputFlags, outputFlags, controlFlags, localFlags].map { String($0, radix: 16) }
            + controlCharacters.map { String($0, radix: 16) }).joined(separator: ":")
    }
}
