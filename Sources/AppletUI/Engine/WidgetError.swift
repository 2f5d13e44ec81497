/// What went wrong asking a `WidgetManager` about a widget, or asking it to change one.
///
/// ```swift
/// do {
///     try WidgetManager.editor.hide("info", transition: .fade(duration: 0.3))
/// } catch WidgetError.widgetNotFound(let id) {
///     log("no widget \(id)")
/// } catch WidgetError.invalidState(let id, let problem) {
///     log("\(id): \(problem)")
/// }
/// ```
public enum WidgetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The manager has no widget with this id: it was never declared (`WidgetManager(_:widgets:)`),
    /// added (`add(_:_:)`, a `WidgetFactory`), or it was removed. Rendering a view tagged
    /// `.widget(id, in:)` does not add the id: an undeclared id is drawn as visible but is unknown.
    case widgetNotFound(String)
    /// The widget is known (or was), but what was asked does not fit its state.
    case invalidState(String, InvalidState)

    /// Why a request does not fit a widget's state.
    public enum InvalidState: Equatable, Sendable, CustomStringConvertible {
        /// The widget was removed with `remove(_:)`: changing its state is refused until it is
        /// added again (asking its state or subscribing to it finds nothing: `widgetNotFound`).
        case removed
        /// A transition was asked for a change that neither shows nor hides the widget (it is
        /// already in that state, or the change is between visible and disabled): there is
        /// nothing to animate.
        case noVisibilityChange(from: WidgetState, to: WidgetState)

        public var description: String {
            switch self {
            case .removed:
                return "it was removed; add it again first"
            case .noVisibilityChange(let from, let to) where from == to:
                return "it is already \(to), so there is no transition to run"
            case .noVisibilityChange(let from, let to):
                return "a change from \(from) to \(to) neither shows nor hides it, so there is no transition to run"
            }
        }
    }

    public var description: String {
        switch self {
        case .widgetNotFound(let id): return "no widget with id \"\(id)\"; add it to the manager first"
        case .invalidState(let id, let problem): return "widget \"\(id)\": \(problem)"
        }
    }
}
