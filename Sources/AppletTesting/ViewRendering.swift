import AppletState
import AppletUI
import Terminal

/// Draws a view on a blank canvas of the given size, as a pane would, without a host: for tests
/// of a single view or widget. The view reads `application` (a new, empty store by default).
///
/// ```swift
/// let canvas = renderView(HStack { Button("Save") {}; Button("Cancel") {} }, width: 24, height: 1)
/// expectScreen(canvas, toShow: "[ Save ][ Cancel ]")
/// ```
@MainActor
public func renderView<V: View>(_ view: V, width: Int, height: Int, theme: Theme = .dark,
                                colorSupport: ColorSupport = .palette256, application: Application? = nil) -> Canvas {
    let tree = ViewTree()
    tree.theme = theme.resolved(for: colorSupport)
    var canvas = Canvas(size: Size(width: width, height: height))
    Application.withCurrent(application ?? Application()) {
        tree.render(view, in: canvas.bounds, on: &canvas)
    }
    return canvas
}
