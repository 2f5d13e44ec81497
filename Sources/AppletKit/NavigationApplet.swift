import AppletNavigation
import AppletState
import AppletUI

/// An applet with screens of its own: a root (its `body`), routes pushed over it, and sheets
/// presented over those. Its `RouterPath` lives in the store (a `StoredState` when `Route` is
/// `Codable`, so the stack comes back after a restart); the applet pushes, pops, presents and
/// dismisses by changing it, never through the host. The host draws the route on top with a
/// breadcrumb, pops on `Esc` (and `Backspace` when no text widget has focus), draws sheets as
/// modal boxes over the pane and gives them the keyboard.
///
/// Adding a screen is one enum case and one switch branch:
///
/// ```swift
/// enum NoteRoute: Hashable, Codable, Sendable { case detail(Int), edit(Int) }
/// enum NoteSheet: Hashable, Sendable { case tags(Int) }
///
/// extension Application {
///     var notesPath: StoredState<RouterPath<NoteRoute, NoteSheet>> { storedState(initial: RouterPath(), feature: "Notes", id: "path") }
/// }
///
/// struct NotesApplet: NavigationApplet {
///     let id = "notes", title = "Notes"
///     @StoredState(\.notesPath) var path
///     var navigation: Binding<RouterPath<NoteRoute, NoteSheet>> { $path }
///     var body: some View { NoteList { path.push(.detail($0)) } }
///     func title(for route: NoteRoute) -> String {
///         switch route { case .detail(let id): "Note \(id)"; case .edit: "Edit" }
///     }
///     func destination(for route: NoteRoute) -> some View {
///         switch route { case .detail(let id): NoteDetail(id: id); case .edit(let id): NoteEditor(id: id) }
///     }
///     func sheet(for sheet: NoteSheet) -> some View {
///         switch sheet { case .tags(let id): TagPicker(id: id) }
///     }
/// }
/// ```
@MainActor
public protocol NavigationApplet: Applet {
    associatedtype Route: Hashable & Sendable
    associatedtype Sheet: Hashable & Sendable = NoSheet
    associatedtype Destination: View
    associatedtype SheetContent: View = EmptyView

    /// The applet's path in the store.
    var navigation: Binding<RouterPath<Route, Sheet>> { get }
    /// The breadcrumb's name for a route (its description by default).
    func title(for route: Route) -> String
    /// The screen a route shows.
    @ViewBuilder func destination(for route: Route) -> Destination
    /// A sheet's title (its description by default).
    func title(for sheet: Sheet) -> String
    /// What a sheet shows, inside the host's frame.
    @ViewBuilder func sheet(for sheet: Sheet) -> SheetContent
    /// Keys a sheet handles besides `Esc` (which dismisses it).
    func commands(for sheet: Sheet) -> [Command]
}

extension NavigationApplet {
    public func title(for route: Route) -> String { String(describing: route) }
    public func title(for sheet: Sheet) -> String { String(describing: sheet) }
    public func commands(for sheet: Sheet) -> [Command] { [] }
}

extension NavigationApplet where Sheet == NoSheet {
    public func sheet(for sheet: NoSheet) -> EmptyView {}
}

/// A sheet as the host handles it, whatever the applet's types.
@MainActor
struct PresentedSheet {
    /// Tells one sheet from another for its widget state (level and value).
    let key: String
    let title: String
    let view: AnyView
    let commands: [Command]
}

extension NavigationApplet {
    var navigationDepth: Int { navigation.wrappedValue.depth }

    /// Changes whenever the screen on top or the sheets change.
    var navigationKey: Int { navigation.wrappedValue.hashValue }

    /// The root's title, then one per pushed route.
    var breadcrumbTitles: [String] { [title] + navigation.wrappedValue.path.map { title(for: $0) } }

    func popNavigation(toDepth depth: Int) {
        navigation.wrappedValue.pop(toDepth: depth)
    }

    func dismissTopSheet() {
        navigation.wrappedValue.dismiss()
    }

    /// The pane's content: the root or the route on top, with the breadcrumb.
    var stackView: AnyView { AnyView(NavigationPane(applet: self)) }

    /// The presented sheets, bottom first.
    var presentedSheets: [PresentedSheet] {
        navigation.wrappedValue.sheets.enumerated().map { level, sheet in
            PresentedSheet(key: "\(id).sheet.\(level).\(sheet.hashValue)", title: title(for: sheet),
                           view: AnyView(SheetFrame(title: title(for: sheet)) { self.sheet(for: sheet) }),
                           commands: commands(for: sheet))
        }
    }
}

/// A navigating applet's pane. The path is read in `body`, while the pane's tree renders, so a
/// push or a pop redraws the pane as any other state it reads does.
struct NavigationPane<A: NavigationApplet>: View {
    let applet: A

    var body: some View {
        NavigationStackView(titles: applet.breadcrumbTitles, path: applet.navigation.wrappedValue.path, root: applet) { route in
            applet.destination(for: route)
        }
    }
}
