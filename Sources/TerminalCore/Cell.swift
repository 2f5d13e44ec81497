/// One cell of the screen: a grapheme cluster and its style.
///
/// A wide character (CJK, most emoji) takes two cells: the first holds the character with
/// `width == 2`, the second is a *continuation* cell (`width == 0`) that is never drawn on its own.
/// Cells are plain values (no references inside), so frames copy and diff quickly.
///
/// ```swift
/// let a = Cell("a")
/// let wide = Cell("中", style: Style(attributes: .bold))   // width 2
/// ```
public struct Cell: Hashable, Sendable {
    public var glyph: Glyph
    public var style: Style
    /// Columns the grapheme takes: 1, 2 for a wide character, 0 for the continuation half.
    public var width: UInt8
    // The link's number (`Hyperlink.rawValue`), 0 for none. It fills the cell to exactly 16 bytes
    // with no padding, so equal cells are equal bytes and the frame diff can compare whole rows
    // with memcmp (see `Canvas.changes(since:)`).
    private var link: UInt16 = 0

    public init(_ grapheme: Character, style: Style = .plain) {
        self.glyph = Glyph(grapheme)
        self.style = style
        self.width = UInt8(clamping: max(1, grapheme.terminalWidth))
    }

    init(glyph: Glyph, style: Style, width: UInt8) {
        self.glyph = glyph
        self.style = style
        self.width = width
    }

    /// The grapheme cluster shown in this cell.
    public var grapheme: Character { glyph.character }

    /// The link the cell's text opens, if any (see `Hyperlink`): text drawn over the cell takes
    /// it away, a change of style keeps it.
    public var hyperlink: Hyperlink? {
        get { link == 0 ? nil : Hyperlink(rawValue: link) }
        set { link = newValue?.rawValue ?? 0 }
    }

    /// An empty cell: a space with the given style.
    public static func blank(_ style: Style = .plain) -> Cell { Cell(glyph: .space, style: style, width: 1) }

    /// The right half of a wide character.
    static func continuation(_ style: Style) -> Cell { Cell(glyph: .space, style: style, width: 0) }

    public var isContinuation: Bool { width == 0 }

    /// A cell is two machine words of plain integers with no padding (CanvasTests checks the
    /// fields fill them), so two cells are equal exactly when their bytes are: the frame diff
    /// then compares two words a cell. When a change to `Style` or `Glyph` breaks that, the diff
    /// compares cells field by field instead of reading padding as a change.
    static var isPacked: Bool { MemoryLayout<Cell>.size == 16 && MemoryLayout<Cell>.stride == 16 }
}
