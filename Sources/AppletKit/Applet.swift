import AppletState
import AppletUI
import Terminal

/// A feature module shown in a pane of the host: an id, a title, a view, and its key commands.
///
/// ```swift
/// public struct CounterApplet: Applet {
///     public let id = "counter"
///     public let title = "Counter"
///     @AppState(\.counter) private var count
///     public init() {}
///     public var body: some View {
///         VStack(spacing: 1) {
///             Text("Count: \(count)").bold()
///             Button("Increment") { count += 1 }
///         }
///         .padding(1)
///     }
///     public var commands: [Command] {
///         [Command("+", "Increment") { count += 1 }]
///     }
/// }
/// ```
@MainActor
public protocol Applet: View {
    /// A short, stable identifier (`--tab counter` opens it).
    var id: String { get }
    /// The name shown in the tab bar.
    var title: String { get }
    /// Keys this applet handles while its pane has focus; shown in the footer and help.
    var commands: [Command] { get }
}

extension Applet {
    public var commands: [Command] { [] }
}
