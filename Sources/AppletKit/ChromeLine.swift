import AppletUI
import Terminal

/// One line of the host's chrome (the tab bar, the footer) as it was last drawn, with the view it
/// was drawn from: a frame whose view is equal to the last one puts the saved cells back instead
/// of evaluating, laying out and drawing the view again (on most keys neither line changes).
///
/// ```swift
/// footerLine.draw(FooterView(items: items, width: 80), in: bottomRow, on: &canvas, tree: chromeTree)
/// ```
///
/// Invariants: after `draw`, the cells of `rect` are exactly what rendering `view` there gives;
/// the saved cells are replaced whenever the view or the rectangle differ from the last ones.
/// The views are plain values that hold no state of their own, so skipping a render loses nothing.
@MainActor
struct ChromeLine<Content: View & Equatable> {
    private var drawn: (view: Content, rect: Rect, cells: [Canvas.Change])?

    /// Draws `view` over `rect` (cleared first), or its saved cells when it is the last one drawn.
    mutating func draw(_ view: Content, in rect: Rect, on canvas: inout Canvas, tree: ViewTree) {
        if let drawn, drawn.view == view, drawn.rect == rect {
            canvas.apply(drawn.cells)
            return
        }
        canvas.fill(rect)
        tree.render(view, in: rect, on: &canvas)
        let area = rect.intersection(canvas.bounds)
        guard !area.isEmpty else {
            drawn = (view, rect, [])
            return
        }
        var cells: [Canvas.Change] = []
        cells.reserveCapacity(area.width * area.height)
        for y in area.minY..<area.maxY {
            for x in area.minX..<area.maxX {
                cells.append(Canvas.Change(position: Point(x: x, y: y), cell: canvas[x, y]))
            }
        }
        drawn = (view, rect, cells)
    }
}
