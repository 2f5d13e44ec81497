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

/// A key binding an applet offers: a key, a short title for the footer, and what it does.
///
/// ```swift
/// Command("+", "Increment") { counter.value += 1 }
/// Command("ctrl-r", "Reset") { counter.value = 0 }
/// ```
public struct Command: Sendable {
    public let key: KeyEvent
    /// How the key is written in the footer (`+`, `Ctrl-R`).
    public let keyLabel: String
    public let title: String
    public let action: @MainActor @Sendable () -> Void

    /// - Parameter key: a key spec such as `"+"`, `"x"`, `"ctrl-r"`, `"alt-x"`, `"enter"`, `"f5"`
    ///   (see `KeySpec`). An invalid spec is a programming error and stops with a message naming it.
    public init(_ key: String, _ title: String, action: @escaping @MainActor @Sendable () -> Void) {
        guard let parsed = KeySpec.parse(key) else {
            preconditionFailure("Command '\(title)': '\(key)' is not a key; use e.g. \"+\", \"ctrl-r\", \"enter\", \"f5\"")
        }
        self.key = parsed
        self.keyLabel = KeySpec.label(for: parsed)
        self.title = title
        self.action = action
    }
}
