import AppletState
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A short message shown bottom right over the panes: `.info` and `.success` go after
/// `Toast.duration` on the host's clock; `.warning` and `.error` stay until dismissed (`Esc`
/// dismisses the newest). Several stack, newest at the bottom.
///
/// ```swift
/// toast("Saved", style: .success)
/// toast("Could not reach the server", style: .error)
/// ```
public struct Toast: Identifiable, Hashable, Sendable {
    public enum Style: String, Hashable, Sendable, CaseIterable {
        case info, success, warning, error

        /// Whether a toast of this style goes by itself.
        public var expires: Bool { self == .info || self == .success }
        /// The mark before the message.
        public var symbol: String {
            switch self {
            case .info: "ℹ"
            case .success: "✓"
            case .warning: "⚠"
            case .error: "✗"
            }
        }
    }

    /// How long a toast that expires stays up.
    public static let duration = Duration.seconds(4)
    /// At most this many are kept; older ones go first.
    public static let limit = 5

    public let id: UUID
    public var message: String
    public var style: Style

    public init(_ message: String, style: Style = .info, id: UUID = UUID()) {
        self.id = id
        self.message = message
        self.style = style
    }
}

extension Application {
    /// The toasts on screen, oldest first (the host draws and expires them).
    public var toasts: State<[Toast]> { state(initial: [], feature: "AppletKit", id: "toasts") }

    /// Shows a toast (see `Toast`) from anywhere that has this store. Its id comes from the
    /// store's `uuid` dependency: a random UUID in an app, `UUID(0)`, `UUID(1)`… in a test's store
    /// (`TestLogic`, `AppletTestHost`), so a test can assert the whole toast.
    public func toast(_ message: String, style: Toast.Style = .info) {
        let toast = Toast(message, style: style, id: uuid.value())
        toasts.modify { list in
            list.append(toast)
            if list.count > Toast.limit { list.removeFirst(list.count - Toast.limit) }
        }
    }

    /// Takes a toast away (the host's timer and `Esc` call this).
    public func dismissToast(_ id: UUID) {
        toasts.modify { $0.removeAll { $0.id == id } }
    }
}

/// Shows a toast in the current store: `toast("Saved", style: .success)`.
public func toast(_ message: String, style: Toast.Style = .info) {
    Application.current.toast(message, style: style)
}
