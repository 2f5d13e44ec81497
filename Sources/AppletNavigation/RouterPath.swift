/// Where a navigating applet is: a stack of the app's own `Route` values (empty at the applet's
/// root) and the sheets presented over it (innermost last). It is a value kept in the store, so
/// views redraw when it changes, tests read it, and a `StoredState` brings it back after a restart.
///
/// Invariants: `pop()` at the root and `dismiss()` with no sheet change nothing; a restart
/// restores the path but never a sheet (a dialog should not come back on its own).
///
/// ```swift
/// enum NoteRoute: Hashable, Codable, Sendable { case detail(Int), edit(Int) }
/// enum NoteSheet: Hashable, Sendable { case tags(Int) }
///
/// extension Application {
///     var notesPath: StoredState<RouterPath<NoteRoute, NoteSheet>> {
///         storedState(initial: RouterPath(), feature: "Notes", id: "path")
///     }
/// }
///
/// @StoredState(\.notesPath) var path
/// path.push(.detail(3))        // the pane shows the detail, with "Notes › Note 3" above it
/// path.present(.tags(3))       // a sheet over it
/// path.dismiss(); path.pop()   // back at the list
/// ```
public struct RouterPath<Route: Hashable & Sendable, Sheet: Hashable & Sendable>: Hashable, Sendable {
    /// The pushed routes, the root's first child first.
    public var path: [Route]
    /// The presented sheets; the last is on top and has the keyboard.
    public var sheets: [Sheet]

    public init(path: [Route] = [], sheets: [Sheet] = []) {
        self.path = path
        self.sheets = sheets
    }

    /// How many routes are pushed (0 at the root).
    public var depth: Int { path.count }
    /// The route on screen; nil at the root.
    public var top: Route? { path.last }
    /// The sheet on top, if any.
    public var presentedSheet: Sheet? { sheets.last }

    /// Shows `route` over the current screen.
    public mutating func push(_ route: Route) { path.append(route) }

    /// Goes back one screen; returns the route left, or nil at the root.
    @discardableResult
    public mutating func pop() -> Route? { path.popLast() }

    /// Goes back to the applet's root screen.
    public mutating func popToRoot() { path.removeAll() }

    /// Goes back until `depth` routes remain (0 is the root); a deeper `depth` changes nothing.
    public mutating func pop(toDepth depth: Int) {
        if depth < path.count { path.removeLast(path.count - max(0, depth)) }
    }

    /// Presents `sheet` over everything the applet shows (over another sheet too).
    public mutating func present(_ sheet: Sheet) { sheets.append(sheet) }

    /// Dismisses the sheet on top; returns it, or nil when none was presented.
    @discardableResult
    public mutating func dismiss() -> Sheet? { sheets.popLast() }
}

extension RouterPath: Codable where Route: Codable {
    private enum CodingKeys: String, CodingKey { case path }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(path: try container.decodeIfPresent([Route].self, forKey: .path) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
    }
}

/// The sheet type of an applet that presents none.
public enum NoSheet: Hashable, Sendable {}
