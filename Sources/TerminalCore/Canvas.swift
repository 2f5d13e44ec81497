#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A grid of cells that views draw into, one per frame.
///
/// Drawing never goes outside the canvas and never splits a wide character: a wide character
/// that does not fit in the space left is drawn as a blank, and overwriting half of a wide
/// character blanks its other half. `changes(since:)` is the diff that lets a terminal write
/// only what changed since the previous frame.
///
/// ```swift
/// var canvas = Canvas(size: Size(width: 20, height: 2))
/// canvas.write("Count: 3", at: Point(x: 0, y: 0), style: Style(attributes: .bold))
/// canvas.lines // ["Count: 3", ""]
/// ```
public struct Canvas: Hashable, Sendable {
    public let size: Size
    public private(set) var cells: [Cell]

    public init(size: Size, fill: Cell = .blank()) {
        let s = Size(width: max(0, size.width), height: max(0, size.height))
        self.size = s
        self.cells = Array(repeating: fill, count: s.width * s.height)
    }

    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// The cell at a position; a blank cell outside the canvas.
    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return .blank() }
        return cells[y * size.width + x]
    }

    /// Puts one grapheme at `(x, y)` and returns the columns it took (0 when clipped away).
    ///
    /// `clip` limits where drawing may happen (defaults to the whole canvas). Zero-width and
    /// control characters are not drawn.
    @discardableResult
    public mutating func put(_ grapheme: Character, at p: Point, style: Style = .plain, clip: Rect? = nil) -> Int {
        let width = grapheme.terminalWidth
        guard width > 0 else { return 0 }
        let area = clip.map { $0.intersection(bounds) } ?? bounds
        guard p.y >= area.minY, p.y < area.maxY, p.x >= area.minX, p.x < area.maxX else { return 0 }
        if width == 2 && p.x + 1 >= area.maxX {
            // Half a wide character would break the layout: draw a blank in the one column left.
            setCell(Cell.blank(style), x: p.x, y: p.y)
            return 1
        }
        setCell(Cell(glyph: Glyph(grapheme), style: style, width: UInt8(width)), x: p.x, y: p.y)
        if width == 2 { setCell(.continuation(style), x: p.x + 1, y: p.y) }
        return width
    }

    /// Writes a string starting at `p`, left to right, clipped to `clip`; returns the columns used.
    ///
    /// ```swift
    /// canvas.write("Count: 3", at: Point(x: 1, y: 1), style: .plain)   // 8
    /// ```
    @discardableResult
    public mutating func write(_ text: String, at p: Point, style: Style = .plain, clip: Rect? = nil) -> Int {
        // Not generic, so callers in other modules (every text a view draws) run code specialized
        // for String here instead of the generic body through witness tables.
        writeText(text, at: p, style: style, clip: clip)
    }

    /// `write` for a `Substring` (a wrapped line), specialized the same way.
    @discardableResult
    public mutating func write(_ text: Substring, at p: Point, style: Style = .plain, clip: Rect? = nil) -> Int {
        writeText(text, at: p, style: style, clip: clip)
    }

    /// Writes any other `StringProtocol` text (see `write(_:at:style:clip:)`).
    @discardableResult
    public mutating func write<S: StringProtocol>(_ text: S, at p: Point, style: Style = .plain, clip: Rect? = nil) -> Int {
        writeText(text, at: p, style: style, clip: clip)
    }

    private mutating func writeText<S: StringProtocol>(_ text: S, at p: Point, style: Style, clip: Rect?) -> Int {
        let area = clip.map { $0.intersection(bounds) } ?? bounds
        guard p.y >= area.minY, p.y < area.maxY else { return 0 }
        // Fast path for ASCII, most text on a terminal: one byte, one column, no grapheme breaking.
        if let used = text.utf8.withContiguousStorageIfAvailable({ writeASCII($0, at: p, style: style, area: area) }), let used {
            return used
        }
        if text.singleColumnScalarCount != nil {
            // One scalar, one cluster, one column each (`·`, `é`, `→`, `─`): no grapheme breaking.
            var x = p.x
            let rowWidth = size.width, row = p.y * rowWidth
            cells.withUnsafeMutableBufferPointer { cells in
                for scalar in text.unicodeScalars {
                    if x >= area.maxX { break }
                    if x >= area.minX {
                        Self.store(Cell(glyph: Glyph(scalar), style: style, width: 1), at: row + x, x: x, rowWidth: rowWidth, in: cells)
                    }
                    x += 1
                }
            }
            return x - p.x
        }
        var x = p.x
        for ch in text {
            if x >= area.maxX { break }
            if x < area.minX {
                // Text that starts left of the clip area: skip what is hidden.
                x += ch.terminalWidth
                continue
            }
            x += put(ch, at: Point(x: x, y: p.y), style: style, clip: area)
        }
        return x - p.x
    }

    /// Writes printable ASCII directly; nil (having written nothing) if the text is not all ASCII.
    private mutating func writeASCII(_ bytes: UnsafeBufferPointer<UInt8>, at p: Point, style: Style, area: Rect) -> Int? {
        var printable = true
        for byte in bytes {
            if byte >= 0x80 { return nil }
            if byte < 0x20 || byte == 0x7F { printable = false }
        }
        // The usual text: printable, wholly inside the clip. Only the cells at either end can cut
        // a wide character (one in the middle is overwritten whole); the rest is stored as is.
        if printable, !bytes.isEmpty, p.x >= area.minX, p.x + bytes.count <= area.maxX {
            let start = p.y * size.width + p.x, end = start + bytes.count
            let rowEnd = p.y * size.width + size.width
            cells.withUnsafeMutableBufferPointer { cells in
                if cells[start].isContinuation, p.x > 0 { cells[start - 1] = .blank(cells[start - 1].style) }
                if cells[end - 1].width == 2, end < rowEnd { cells[end] = .blank(cells[end].style) }
                var cell = Cell(glyph: Glyph(rawValue: 0), style: style, width: 1)
                var i = start
                for byte in bytes {
                    cell.glyph = Glyph(rawValue: UInt32(byte))
                    cells[i] = cell
                    i += 1
                }
            }
            return bytes.count
        }
        var x = p.x
        let rowWidth = size.width, row = p.y * rowWidth
        cells.withUnsafeMutableBufferPointer { cells in
            for byte in bytes {
                if x >= area.maxX { break }
                guard byte >= 0x20, byte != 0x7F else { continue }   // controls take no column
                if x >= area.minX {
                    Self.store(Cell(glyph: Glyph(rawValue: UInt32(byte)), style: style, width: 1), at: row + x, x: x, rowWidth: rowWidth, in: cells)
                }
                x += 1
            }
        }
        return x - p.x
    }

    /// Fills a rectangle (clipped to the canvas) with a cell.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank()) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        for y in r.minY..<r.maxY {
            // Filling over half of a wide character blanks the other half too.
            if r.minX > 0, cells[y * size.width + r.minX].isContinuation {
                cells[y * size.width + r.minX - 1] = .blank(cells[y * size.width + r.minX - 1].style)
            }
            if r.maxX < size.width, cells[y * size.width + r.maxX].isContinuation {
                cells[y * size.width + r.maxX] = .blank(cells[y * size.width + r.maxX].style)
            }
        }
        let w = size.width
        let stride = MemoryLayout<Cell>.stride
        cells.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            // The first row of the rectangle: one cell, then doubled by copying what is there
            // (a Cell is 16 plain bytes), a handful of memcpys a row instead of a store per cell.
            let first = base + (r.minY * w + r.minX) * stride
            let rowBytes = r.width * stride
            first.storeBytes(of: cell, as: Cell.self)
            var done = stride
            while done < rowBytes {
                let chunk = min(done, rowBytes - done)
                (first + done).copyMemory(from: first, byteCount: chunk)
                done += chunk
            }
            // The other rows: copies of the first.
            for y in (r.minY + 1)..<max(r.minY + 1, r.maxY) {
                (base + (y * w + r.minX) * stride).copyMemory(from: first, byteCount: rowBytes)
            }
        }
    }

    /// Applies `change` to the style of every cell in `rect` (e.g. to reverse a selected row).
    public mutating func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        for y in r.minY..<r.maxY {
            for x in r.minX..<r.maxX { change(&cells[y * size.width + x].style) }
        }
    }

    /// Makes the cells of `rect` (clipped to the canvas) link to `hyperlink` (nil: to nothing),
    /// keeping what they show. A view draws its text, then links the cells it drew.
    ///
    /// ```swift
    /// let used = canvas.write("docs", at: p)
    /// canvas.setHyperlink(Hyperlink("https://example.com"), in: Rect(x: p.x, y: p.y, width: used, height: 1))
    /// ```
    public mutating func setHyperlink(_ hyperlink: Hyperlink?, in rect: Rect) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        let width = size.width
        cells.withUnsafeMutableBufferPointer { cells in
            for y in r.minY..<r.maxY {
                for x in r.minX..<r.maxX { cells[y * width + x].hyperlink = hyperlink }
            }
        }
    }

    /// A run of cells on one row that link to one address.
    public struct LinkedRun: Hashable, Sendable {
        public var y: Int
        public var columns: Range<Int>
        public var hyperlink: Hyperlink
        /// The text of the run (wide characters once).
        public var text: String

        public init(y: Int, columns: Range<Int>, hyperlink: Hyperlink, text: String) {
            self.y = y
            self.columns = columns
            self.hyperlink = hyperlink
            self.text = text
        }
    }

    /// Every run of linked cells, row by row, left to right (tests, and what a terminal wraps in
    /// OSC 8).
    ///
    /// ```swift
    /// canvas.linkedRuns.map(\.text)   // ["docs"]
    /// ```
    public var linkedRuns: [LinkedRun] {
        guard Hyperlink.anyMade else { return [] }
        var runs: [LinkedRun] = []
        for y in 0..<size.height {
            var x = 0
            while x < size.width {
                guard let link = cells[y * size.width + x].hyperlink else { x += 1; continue }
                let start = x
                var text = ""
                while x < size.width, cells[y * size.width + x].hyperlink == link {
                    let cell = cells[y * size.width + x]
                    if !cell.isContinuation { text.append(cell.grapheme) }
                    x += 1
                }
                runs.append(LinkedRun(y: y, columns: start..<x, hyperlink: link, text: text))
            }
        }
        return runs
    }

    private mutating func setCell(_ cell: Cell, x: Int, y: Int) {
        let width = size.width
        cells.withUnsafeMutableBufferPointer { Self.store(cell, at: y * width + x, x: x, rowWidth: width, in: $0) }
    }

    /// Puts `cell` at index `i` (column `x` of rows `rowWidth` wide) of the canvas's cells.
    /// Writers of many cells take the buffer once and call this for each: through the array,
    /// every cell cost a uniqueness check.
    @inline(__always)
    private static func store(_ cell: Cell, at i: Int, x: Int, rowWidth: Int, in cells: UnsafeMutableBufferPointer<Cell>) {
        let old = cells[i]
        // Keep wide characters whole: overwriting either half blanks the other half.
        if old.isContinuation, x > 0, cell.width != 0 {
            cells[i - 1] = .blank(cells[i - 1].style)
        } else if old.width == 2, cell.width != 2, x + 1 < rowWidth {
            cells[i + 1] = .blank(cells[i + 1].style)
        }
        cells[i] = cell
    }

    // MARK: Diff

    /// One cell that differs from the previous frame.
    public struct Change: Hashable, Sendable {
        public var position: Point
        public var cell: Cell

        /// A cell to put at a position (`apply(_:)`), e.g. one read back with `canvas[x, y]` to
        /// draw a saved region again.
        public init(position: Point, cell: Cell) {
            self.position = position
            self.cell = cell
        }
    }

    /// The cells that differ from `previous`: every cell when there is no previous frame or its size
    /// differs. Continuation cells are never listed: their wide character is, which covers both halves.
    ///
    /// ```swift
    /// var next = frame
    /// next.put("x", at: Point(x: 4, y: 2))
    /// next.changes(since: frame).count // 1
    /// ```
    public func changes(since previous: Canvas?) -> [Change] {
        var out: [Change] = []
        let w = size.width
        guard let previous, previous.size == size else {
            out.reserveCapacity(cells.count)
            for i in cells.indices where !cells[i].isContinuation {
                out.append(Change(position: Point(x: i % max(w, 1), y: i / max(w, 1)), cell: cells[i]))
            }
            return out
        }
        out.reserveCapacity(w)   // a changed row's worth before the first growth
        cells.withUnsafeBufferPointer { new in
            previous.cells.withUnsafeBufferPointer { old in
                let rowBytes = w * MemoryLayout<Cell>.stride
                let newBytes = UnsafeRawPointer(new.baseAddress!), oldBytes = UnsafeRawPointer(old.baseAddress!)
                // Equal bytes are always equal cells (every field is a plain integer), so equal rows
                // are skipped with memcmp. The other way round holds only without padding:
                // `Cell.isPacked` says so, and otherwise cells compare field by field.
                @inline(__always) func differs(_ i: Int) -> Bool {
                    guard Cell.isPacked else { return new[i] != old[i] }
                    let offset = i &* MemoryLayout<Cell>.stride
                    return newBytes.load(fromByteOffset: offset, as: UInt64.self) != oldBytes.load(fromByteOffset: offset, as: UInt64.self)
                        || newBytes.load(fromByteOffset: offset &+ 8, as: UInt64.self) != oldBytes.load(fromByteOffset: offset &+ 8, as: UInt64.self)
                }
                for y in 0..<size.height {
                    let start = y * w
                    // Fast path: an unchanged row is equal bytes.
                    if memcmp(newBytes + start * MemoryLayout<Cell>.stride, oldBytes + start * MemoryLayout<Cell>.stride, rowBytes) == 0 { continue }
                    var i = start
                    while i < start + w {
                        // A wide character whose right half changed underneath must be redrawn too.
                        if differs(i) || (new[i].width == 2 && i + 1 < start + w && differs(i + 1)) {
                            let cell = new[i]
                            if !cell.isContinuation { out.append(Change(position: Point(x: i - start, y: y), cell: cell)) }
                        }
                        i += 1
                    }
                }
            }
        }
        return out
    }

    /// The columns of one row from its first to its last changed cell (`changedSpans(since:)`).
    public struct Span: Hashable, Sendable {
        public var y: Int
        public var columns: Range<Int>

        public init(y: Int, columns: Range<Int>) {
            self.y = y
            self.columns = columns
        }
    }

    /// Per row that differs from `previous`, the columns from its first changed cell to its last:
    /// what a terminal hands to a screen library that diffs again itself (ncurses), one run per
    /// row, without a `Change` per cell. Every row when there is no previous frame or its size
    /// differs.
    ///
    /// Invariants: every cell `changes(since:)` reports lies in a span; a span starts on a
    /// cell that is not a continuation, unless its row starts with one, and ends after the
    /// continuation of a wide character it ends on; copying each span's cells from this canvas
    /// over `previous` (`copy(_:from:)`) makes the two equal.
    ///
    /// ```swift
    /// for span in frame.changedSpans(since: shown) { shown.copy(span, from: frame) }
    /// ```
    public func changedSpans(since previous: Canvas?) -> [Span] {
        let w = size.width
        guard let previous, previous.size == size else {
            return w == 0 ? [] : (0..<size.height).map { Span(y: $0, columns: 0..<w) }
        }
        var spans: [Span] = []
        guard !cells.isEmpty else { return spans }
        cells.withUnsafeBufferPointer { new in
            previous.cells.withUnsafeBufferPointer { old in
                let stride = MemoryLayout<Cell>.stride
                let newBytes = UnsafeRawPointer(new.baseAddress!), oldBytes = UnsafeRawPointer(old.baseAddress!)
                // Cells compare as bytes where that is exact (see `changes(since:)`).
                @inline(__always) func differs(_ i: Int) -> Bool {
                    guard Cell.isPacked else { return new[i] != old[i] }
                    let offset = i &* stride
                    return newBytes.load(fromByteOffset: offset, as: UInt64.self) != oldBytes.load(fromByteOffset: offset, as: UInt64.self)
                        || newBytes.load(fromByteOffset: offset &+ 8, as: UInt64.self) != oldBytes.load(fromByteOffset: offset &+ 8, as: UInt64.self)
                }
                for y in 0..<size.height {
                    let start = y * w, end = start + w
                    if memcmp(newBytes + start * stride, oldBytes + start * stride, w * stride) == 0 { continue }
                    // Equal runs of 8 cells are skipped with memcmp (vectorised), then cell by cell:
                    // a changed label leaves most of a row's padding equal.
                    let chunk = 8
                    var first = start
                    while first + chunk <= end, memcmp(newBytes + first * stride, oldBytes + first * stride, chunk * stride) == 0 { first += chunk }
                    // Unequal bytes with no unequal cell is padding: the row has not changed.
                    while first < end, !differs(first) { first += 1 }
                    if first == end { continue }
                    var last = end - 1
                    while last - chunk >= first, memcmp(newBytes + (last - chunk + 1) * stride, oldBytes + (last - chunk + 1) * stride, chunk * stride) == 0 { last -= chunk }
                    while !differs(last) { last -= 1 }
                    // A changed right half is redrawn with its wide character; a wide character
                    // at the end takes its right half along.
                    if new[first].isContinuation, first > start { first -= 1 }
                    if new[last].width == 2, last + 1 < end { last += 1 }
                    spans.append(Span(y: y, columns: (first - start)..<(last + 1 - start)))
                }
            }
        }
        return spans
    }

    /// Copies the cells of `span` from `other` (a canvas of the same size) into this canvas.
    public mutating func copy(_ span: Span, from other: Canvas) {
        precondition(other.size == size, "Canvas.copy: the canvases differ in size")
        let offset = span.y * size.width + span.columns.lowerBound
        let count = span.columns.count
        cells.withUnsafeMutableBufferPointer { mine in
            other.cells.withUnsafeBufferPointer { theirs in
                (mine.baseAddress! + offset).update(from: theirs.baseAddress! + offset, count: count)
            }
        }
    }

    /// The cells of `rect` (clipped to the canvas), row after row: to put back with `restore`.
    public func saved(_ rect: Rect) -> SavedCells {
        let area = rect.intersection(bounds)
        var cells: [Cell] = []
        cells.reserveCapacity(area.width * area.height)
        if !area.isEmpty {
            for y in area.minY..<area.maxY {
                cells.append(contentsOf: self.cells[(y * size.width + area.minX)..<(y * size.width + area.maxX)])
            }
        }
        return SavedCells(area: area, cells: cells)
    }

    /// Puts back cells saved from a canvas of this size, a row at a time.
    public mutating func restore(_ saved: SavedCells) {
        guard !saved.area.isEmpty, saved.area.maxX <= size.width, saved.area.maxY <= size.height else { return }
        let width = saved.area.width
        cells.withUnsafeMutableBufferPointer { mine in
            saved.cells.withUnsafeBufferPointer { theirs in
                for (row, y) in (saved.area.minY..<saved.area.maxY).enumerated() {
                    (mine.baseAddress! + y * size.width + saved.area.minX).update(from: theirs.baseAddress! + row * width, count: width)
                }
            }
        }
    }

    /// Cells of a rectangle kept to be put back (`saved(_:)`, `restore(_:)`).
    public struct SavedCells: Hashable, Sendable {
        public let area: Rect
        let cells: [Cell]
    }

    /// Calls `body` with the cells of `span`, in place.
    public func withCells<R>(in span: Span, _ body: (UnsafeBufferPointer<Cell>) throws -> R) rethrows -> R {
        let offset = span.y * size.width + span.columns.lowerBound
        return try cells.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[offset..<(offset + span.columns.count)]))
        }
    }

    /// Makes this canvas equal to the one `changes` were computed from (`new.changes(since: self)`),
    /// touching only the changed cells. A terminal keeps its copy of the screen this way, so
    /// the frame it was given is never shared and never copied.
    public mutating func apply(_ changes: [Change]) {
        let w = size.width
        cells.withUnsafeMutableBufferPointer { cells in
            for change in changes {
                let i = change.position.y * w + change.position.x
                cells[i] = change.cell
                if change.cell.width == 2, change.position.x + 1 < w {
                    var right = Cell.continuation(change.cell.style)
                    right.hyperlink = change.cell.hyperlink
                    cells[i + 1] = right
                }
            }
        }
    }

    // MARK: Reading back (tests, snapshots)

    /// The text of one row, wide characters once, trailing spaces trimmed.
    public func line(_ y: Int) -> String {
        guard y >= 0, y < size.height else { return "" }
        var s = ""
        for x in 0..<size.width {
            let c = cells[y * size.width + x]
            if !c.isContinuation { s.append(c.grapheme) }
        }
        while s.last == " " { s.removeLast() }
        return s
    }

    /// Every row's text (see `line(_:)`).
    public var lines: [String] { (0..<size.height).map(line) }

    /// The text of each row of `rect` (clipped to the canvas), wide characters once, trailing spaces
    /// trimmed. A wide character cut by the rect's left edge leaves a space; one cut by its right edge
    /// is kept whole.
    ///
    /// ```swift
    /// canvas.lines(in: Rect(x: 0, y: 1, width: 20, height: 2))   // ["Count: 1", ""]
    /// ```
    public func lines(in rect: Rect) -> [String] {
        let clipped = rect.intersection(bounds)
        guard !clipped.isEmpty else { return Array(repeating: "", count: max(0, rect.height)) }
        var rows: [String] = []
        for y in rect.minY..<rect.maxY {
            guard y >= clipped.minY, y < clipped.maxY else { rows.append(""); continue }
            var s = ""
            for x in clipped.minX..<clipped.maxX {
                let c = cells[y * size.width + x]
                if c.isContinuation {
                    if x == clipped.minX { s.append(" ") }
                } else {
                    s.append(c.grapheme)
                }
            }
            while s.last == " " { s.removeLast() }
            rows.append(s)
        }
        return rows
    }

    /// All rows joined with newlines; handy in test failure messages.
    public var text: String { lines.joined(separator: "\n") }
}
