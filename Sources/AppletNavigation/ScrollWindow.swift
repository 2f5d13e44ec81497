/// Which rows of a list taller than its space are shown, keeping a row for a mark of what is
/// hidden above ("↑ 3 more") and one for what is hidden below ("↓ 12 more"), so a person always
/// sees that there is more and how much.
///
/// Invariants: `shown` lies in `0..<total`; `above + shown.count + below == total`; the rows shown
/// plus a row for each mark present fit in `capacity`; `offset` is clamped so that the last page
/// is full; with everything fitting there are no marks and `offset` is 0. With `capacity` under 3
/// there is no room for marks: the rows from `offset` fill it.
///
/// ```swift
/// let window = ScrollWindow(total: 40, capacity: 10, offset: 5)
/// window.above   // 5: "↑ 5 more" on the first row
/// window.shown   // 5..<13: eight rows
/// window.below   // 27: "↓ 27 more" on the last row
/// ```
public struct ScrollWindow: Equatable, Sendable {
    public let total: Int
    public let capacity: Int
    /// The first row shown.
    public let offset: Int
    public let shown: Range<Int>

    public init(total: Int, capacity: Int, offset: Int) {
        let total = max(0, total)
        let capacity = max(0, capacity)
        self.total = total
        self.capacity = capacity
        if total <= capacity {
            self.offset = 0
            shown = 0..<total
        } else if capacity < 3 {
            let first = min(max(0, offset), total - capacity)
            self.offset = first
            shown = first..<(first + capacity)
        } else {
            // The last page: the mark above and the rest of the rows below it.
            let first = min(max(0, offset), total - (capacity - 1))
            self.offset = first
            let room = capacity - (first > 0 ? 1 : 0)
            shown = first + room >= total ? first..<total : first..<(first + room - 1)
        }
    }

    /// Rows hidden above and below.
    public var above: Int { shown.lowerBound }
    public var below: Int { total - shown.upperBound }
    /// Whether there is more than fits.
    public var scrolls: Bool { total > capacity }
    /// The offset of the last page.
    public var lastOffset: Int { ScrollWindow(total: total, capacity: capacity, offset: .max).offset }
    /// How far a page moves: the rows shown, less one kept for context.
    public var page: Int { max(1, shown.count - 1) }

    /// The window moved by `rows` (negative: up), clamped.
    public func scrolled(by rows: Int) -> ScrollWindow {
        let (moved, overflow) = offset.addingReportingOverflow(rows)
        return ScrollWindow(total: total, capacity: capacity, offset: overflow ? (rows > 0 ? .max : 0) : moved)
    }
}
