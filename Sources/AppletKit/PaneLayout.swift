import AppletUI
import Terminal

/// Where a tab's panes go: the area between the tab bar and the bottom lines, split evenly along
/// the tab's axis with a one-cell divider between neighbours.
///
/// Invariants: the rects and dividers tile `area` exactly (no overlap, no gap); the first panes
/// get the spare cells when the length does not divide evenly; a pane never has a negative size.
///
/// ```swift
/// let layout = PaneLayout(panes: 2, split: .horizontal, in: Rect(x: 0, y: 1, width: 81, height: 20))
/// layout.rects      // [x 0 w 40, x 41 w 40]
/// layout.dividers   // [x 40 w 1]
/// layout.pane(at: Point(x: 50, y: 3))   // 1
/// ```
struct PaneLayout: Equatable {
    let split: Axis
    /// The whole area the panes and dividers share.
    let area: Rect
    let rects: [Rect]
    let dividers: [Rect]

    init(panes count: Int, split: Axis, in area: Rect) {
        self.split = split
        self.area = area
        guard count > 1 else {
            rects = [area]
            dividers = []
            return
        }
        let total = (split == .horizontal ? area.width : area.height) - (count - 1)
        var rects: [Rect] = []
        var dividers: [Rect] = []
        var offset = 0
        for i in 0..<count {
            let length = max(0, total / count + (i < total % count ? 1 : 0))
            if split == .horizontal {
                rects.append(Rect(x: area.x + offset, y: area.y, width: length, height: area.height))
                if i < count - 1 { dividers.append(Rect(x: area.x + offset + length, y: area.y, width: 1, height: area.height)) }
            } else {
                rects.append(Rect(x: area.x, y: area.y + offset, width: area.width, height: length))
                if i < count - 1 { dividers.append(Rect(x: area.x, y: area.y + offset + length, width: area.width, height: 1)) }
            }
            offset += length + 1
        }
        self.rects = rects
        self.dividers = dividers
    }

    /// The pane under `point`, nil on a divider or outside.
    func pane(at point: Point) -> Int? {
        rects.firstIndex { $0.contains(point) }
    }

    /// The dividers, as the `Divider` view applets use.
    @MainActor
    func drawDividers(with tree: ViewTree, on canvas: inout Canvas) {
        for rect in dividers {
            if split == .horizontal {
                tree.render(HStack { Divider() }, in: rect, on: &canvas)
            } else {
                tree.render(VStack { Divider() }, in: rect, on: &canvas)
            }
        }
    }
}
