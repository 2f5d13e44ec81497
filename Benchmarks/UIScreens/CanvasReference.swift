import AppletKit

/// What a frame would cost with no framework at all: text written straight into a `Canvas` and
/// diffed against the previous one. UIProfile and UIBenchmarks print each frame figure beside
/// these, measured in the same process, so a reader can tell a regression (the ratio moves) from
/// a slower machine (both move).
@MainActor
public final class CanvasReference {
    public let size: Size
    private var previous: Canvas
    private var tick = 0
    private let lines: [String]

    public init(size: Size) {
        self.size = size
        previous = Canvas(size: size)
        lines = (0..<size.height).map { row in
            let text = "row \(row) " + String(repeating: "text 東京 ", count: size.width / 8)
            return String(text.prefix(size.width))
        }
    }

    /// Every row written (a full frame's worth of cells), then the diff against the last frame.
    public func fullFrame() -> Int {
        var canvas = Canvas(size: size)
        for (y, line) in lines.enumerated() { _ = canvas.write(line, at: Point(x: 0, y: y)) }
        let changes = canvas.changes(since: tick.isMultiple(of: 2) ? nil : previous)
        tick += 1
        previous = canvas
        return changes.count
    }

    /// One cell changed in an unchanged screen, then the diff: what a one-cell frame must write.
    public func oneCell() -> Int {
        var canvas = previous
        tick += 1
        _ = canvas.put(Character(String(tick % 10)), at: Point(x: 10, y: 3))
        let changes = canvas.changes(since: previous)
        previous = canvas
        return changes.count
    }

    /// Every row moved up by one (a list scrolled by a row, redrawn), then the diff.
    public func scrolled() -> Int {
        var canvas = Canvas(size: size)
        tick += 1
        for y in 0..<size.height { _ = canvas.write(lines[(y + tick) % lines.count], at: Point(x: 0, y: y)) }
        let changes = canvas.changes(since: previous)
        previous = canvas
        return changes.count
    }
}
