/// Modifier keys held with a key or mouse event.
///
/// ```swift
/// let ctrlShift: KeyModifiers = [.ctrl, .shift]
/// ```
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1 << 0)
    public static let alt = KeyModifiers(rawValue: 1 << 1)
    public static let ctrl = KeyModifiers(rawValue: 1 << 2)
}

/// Which key was pressed, independent of modifiers.
///
/// Printable text arrives as `.char`; control bytes are decoded to their letter with `.ctrl`
/// (byte 0x03 is `.char("c")` with `[.ctrl]`). `Tab`, `Enter`, `Backspace` and `Esc` have their own
/// cases because terminals send them as control bytes that are not really "Ctrl-letter".
public enum KeyCode: Hashable, Sendable {
    case char(Character)
    case enter, tab, backspace, escape
    case up, down, left, right
    case home, end, pageUp, pageDown, insert, delete
    /// F1…F24.
    case function(Int)
}

/// A key press: a code plus modifiers.
///
/// ```swift
/// let quit = KeyEvent(.char("q"))
/// let palette = KeyEvent(.char("p"), modifiers: .ctrl)
/// let backTab = KeyEvent(.tab, modifiers: .shift)
/// ```
public struct KeyEvent: Hashable, Sendable, Codable {
    public var code: KeyCode
    public var modifiers: KeyModifiers
    public init(_ code: KeyCode, modifiers: KeyModifiers = []) {
        self.code = code
        self.modifiers = modifiers
    }
}

/// A mouse button.
public enum MouseButton: Hashable, Sendable, Codable {
    case left, middle, right
}

/// A mouse event in screen cells, 0-based.
///
/// ```swift
/// MouseEvent(kind: .press(.left), position: Point(x: 10, y: 2))
/// ```
public struct MouseEvent: Hashable, Sendable, Codable {
    public enum Kind: Hashable, Sendable, Codable {
        case press(MouseButton)
        /// Button release; `nil` when the terminal does not say which button (X10 encoding).
        case release(MouseButton?)
        case drag(MouseButton)
        case move
        case scrollUp, scrollDown
    }
    public var kind: Kind
    public var position: Point
    public var modifiers: KeyModifiers
    public init(kind: Kind, position: Point, modifiers: KeyModifiers = []) {
        self.kind = kind
        self.position = position
        self.modifiers = modifiers
    }
}

/// Everything a terminal can tell the application.
///
/// Keys inside a bracketed paste never arrive as `.key`: the whole paste is one `.paste` event,
/// so pasted text can never trigger a key binding.
public enum Event: Hashable, Sendable, Codable {
    case key(KeyEvent)
    case mouse(MouseEvent)
    /// Text pasted with the terminal's bracketed-paste mode.
    case paste(String)
    /// The terminal changed size; the new size in cells.
    case resize(Size)
    /// The process was asked to end (SIGTERM, SIGINT or SIGHUP). The host saves and quits.
    case terminate(signal: Int32)
}
