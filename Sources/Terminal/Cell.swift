/// One cell of the screen: a grapheme cluster and its style.
///
/// A wide character (CJK, most emoji) takes two cells: the first holds the character with
/// `width == 2`, the second is a *continuation* cell (`width == 0`) that is never drawn on its own.
///
/// ```swift
/// let a = Cell("a")
/// let wide = Cell("中", style: Style(attributes: .bold))   // width 2
/// ```
public struct Cell: Hashable, Sendable {
    public var grapheme: Character
    public var style: Style
    /// Columns the grapheme takes: 1, 2 for a wide character, 0 for the continuation half.
    public var width: UInt8

    public init(_ grapheme: Character, style: Style = .plain) {
        self.grapheme = grapheme
        self.style = style
        self.width = UInt8(clamping: max(1, grapheme.terminalWidth))
    }

    init(grapheme: Character, style: Style, width: UInt8) {
        self.grapheme = grapheme
        self.style = style
        self.width = width
    }

    /// An empty cell: a space with the given style.
    public static func blank(_ style: Style = .plain) -> Cell { Cell(grapheme: " ", style: style, width: 1) }

    /// The right half of a wide character.
    static func continuation(_ style: Style) -> Cell { Cell(grapheme: " ", style: style, width: 0) }

    public var isContinuation: Bool { width == 0 }

    // Equality is on the hot path of the frame diff: compare the cheap fields first, and the
    // grapheme by its UTF-8 bytes (Character's == would apply Unicode canonical equivalence,
    // which is both slower and wrong here: different bytes draw differently).
    public static func == (lhs: Cell, rhs: Cell) -> Bool {
        lhs.width == rhs.width && lhs.style == rhs.style && lhs.grapheme.utf8.elementsEqual(rhs.grapheme.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(style)
        for byte in grapheme.utf8 { hasher.combine(byte) }
    }
}
