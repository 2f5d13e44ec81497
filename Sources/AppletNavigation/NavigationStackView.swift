import AppletUI

/// A navigation stack in a pane: the root view, or the screen of the route on top with a
/// `Breadcrumb` line above it. Each screen keeps its own widget state (a detail's scroll position
/// is not the list's), and a route pushed again starts fresh.
///
/// ```swift
/// NavigationStackView(titles: ["Notes", "Note 3"], path: path.path, root: NoteList()) { route in
///     NoteDetail(route)
/// }
/// ```
public struct NavigationStackView<Route: Hashable, Root: View, Destination: View>: View {
    let titles: [String]
    let path: [Route]
    let root: Root
    let destination: (Route) -> Destination

    /// - Parameters:
    ///   - titles: the breadcrumb: the root's title, then one per route.
    public init(titles: [String], path: [Route], root: Root, @ViewBuilder destination: @escaping (Route) -> Destination) {
        self.titles = titles
        self.path = path
        self.root = root
        self.destination = destination
    }

    /// The identity of a screen: its level and its route.
    struct Screen: Hashable {
        let depth: Int
        let route: Route
    }

    public var body: some View {
        if let top = path.last {
            VStack {
                BreadcrumbView(Breadcrumb(titles)).padding(.horizontal, 1)
                ForEach([Screen(depth: path.count, route: top)], id: \.self) { screen in
                    destination(screen.route)
                }
            }
        } else {
            root
        }
    }
}

/// A sheet's frame: a titled, bordered box with room around its content, and the way out named
/// at the bottom. The host centres it over the pane and dims what is behind.
///
/// ```swift
/// SheetFrame(title: "Tags") { TagPicker(note: id) }
/// ```
public struct SheetFrame<Content: View>: View {
    let title: String
    let content: Content

    public init(title: String, @ViewBuilder content: () -> Content) {
        self.title = title
        self.content = content()
    }

    public var body: some View {
        Box(title: title, style: .rounded) {
            VStack {
                content
                Spacer()
                Text("Esc closes").themed(.muted)
            }
            .padding(.horizontal, 1)
        }
    }
}

/// The confirmation sheet: the message, then Cancel and the confirm button (see `Confirmation`).
///
/// In the host's six-row box (four rows inside the border): a blank row, the message, a blank
/// row, the buttons on the last row, so nothing is wasted under the buttons and the message does
/// not sit against the top border. A message of two lines gives up the row between it and the
/// buttons; in a taller box the message stays at the top and the buttons at the bottom.
public struct ConfirmationView: View {
    let confirmation: Confirmation
    let answer: @MainActor (Bool) -> Void

    public init(_ confirmation: Confirmation, answer: @escaping @MainActor (Bool) -> Void) {
        self.confirmation = confirmation
        self.answer = answer
    }

    public var body: some View {
        let answer = self.answer
        return Box(title: confirmation.destructive ? "Confirm (cannot be undone)" : "Confirm", style: .rounded) {
            VStack {
                Text(confirmation.message).padding(.top, 1)
                Spacer()
                HStack(spacing: 2) {
                    Spacer()
                    Button(confirmation.cancelTitle) { answer(false) }
                    if confirmation.destructive {
                        Button(confirmation.confirmTitle) { answer(true) }.themed(.error)
                    } else {
                        Button(confirmation.confirmTitle) { answer(true) }
                    }
                }
            }
            .padding(.horizontal, 1)
        }
    }
}

/// The toasts, stacked bottom up in the corner the host gives them (it draws only the toasts'
/// text, so the rect may reach over the panes); a long one wraps to at most four lines.
public struct ToastStackView: View {
    let toasts: [Toast]

    public init(_ toasts: [Toast]) {
        self.toasts = toasts
    }

    /// The columns one toast takes.
    public static func width(of toast: Toast) -> Int { ToastView(toast: toast).text.terminalWidth }

    public var body: some View {
        VStack(alignment: .end) {
            Spacer()
            ForEach(toasts, id: \.id) { toast in
                ToastView(toast: toast)
            }
        }
    }
}

struct ToastView: View {
    let toast: Toast

    var role: Theme.Role {
        switch toast.style {
        case .info: .accent
        case .success: .success
        case .warning: .warning
        case .error: .error
        }
    }

    var text: String { " \(toast.style.symbol) \(toast.message)\(toast.style.expires ? "" : "  (Esc)") " }

    var body: some View {
        Text(text).lineLimit(4).themed(role).reverse()
    }
}
