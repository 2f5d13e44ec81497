import AppletUI
import Terminal

/// One line of the host's chrome (the tab bar, the footer) as it was last drawn for each of the
/// few views it showed lately: a frame whose view is one of them puts the saved cells back
/// instead of evaluating, laying out and drawing the view again. On most keys neither line
/// changes, and switching tabs goes back and forth between a handful of tab bars and footers.
///
/// ```swift
/// footerLine.draw(FooterView(items: items, width: 80), in: bottomRow, on: &canvas, tree: chromeTree)
/// ```
///
/// Invariants: after `draw`, the cells of `rect` are exactly what rendering `view` there with the
/// tree's theme gives; saved cells are reused only for an equal view, rectangle and theme; at most
/// `capacity` lines are kept, the least recently drawn dropped first. The views are plain values
/// that hold no state of their own, so skipping a render loses nothing.
@MainActor
struct ChromeLine<Content: View & Equatable> {
    private struct Drawn {
        let view: Content
        let rect: Rect
        let theme: ResolvedTheme
        let cells: Canvas.SavedCells
    }

    /// Most recently drawn first.
    private var drawn: [Drawn] = []
    /// How many lines are kept (a few tabs' worth).
    static var capacity: Int { 8 }

    /// Draws `view` over `rect` (cleared first), or its saved cells when it was drawn lately.
    mutating func draw(_ view: Content, in rect: Rect, on canvas: inout Canvas, tree: ViewTree) {
        if let index = drawn.firstIndex(where: { $0.view == view && $0.rect == rect && $0.theme == tree.theme }) {
            canvas.restore(drawn[index].cells)
            if index > 0 { drawn.insert(drawn.remove(at: index), at: 0) }
            return
        }
        canvas.fill(rect)
        tree.render(view, in: rect, on: &canvas)
        drawn.insert(Drawn(view: view, rect: rect, theme: tree.theme, cells: canvas.saved(rect)), at: 0)
        if drawn.count > Self.capacity { drawn.removeLast() }
    }

    /// How many lines are kept (tests).
    var keptCount: Int { drawn.count }
}
