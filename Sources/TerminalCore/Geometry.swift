/// A position on the screen, in cells. `(0, 0)` is the top-left corner.
///
/// ```swift
/// let p = Point(x: 3, y: 1)
/// ```
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
    public var description: String { "(\(x), \(y))" }
}

/// A size in cells.
///
/// ```swift
/// let s = Size(width: 120, height: 40)
/// ```
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle of cells: an origin and a size. Empty when either side is zero or negative.
///
/// ```swift
/// let pane = Rect(x: 0, y: 1, width: 120, height: 38)
/// pane.contains(Point(x: 5, y: 5)) // true
/// ```
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var x: Int { origin.x }
    public var y: Int { origin.y }
    public var width: Int { size.width }
    public var height: Int { size.height }
    public var minX: Int { origin.x }
    public var minY: Int { origin.y }
    /// One past the last column.
    public var maxX: Int { origin.x + size.width }
    /// One past the last row.
    public var maxY: Int { origin.y + size.height }
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// The overlap of two rectangles; `.zero`-sized (at the max origin) when they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The rectangle shrunk by `n` cells on every side (never negative).
    public func inset(by n: Int) -> Rect { inset(top: n, leading: n, bottom: n, trailing: n) }

    public func inset(top: Int, leading: Int, bottom: Int, trailing: Int) -> Rect {
        Rect(x: x + leading, y: y + top,
             width: max(0, width - leading - trailing), height: max(0, height - top - bottom))
    }

    public var description: String { "\(origin) \(size)" }
}
