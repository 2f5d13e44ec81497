import AppletState
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A question the user must answer before something happens: a modal sheet with the message,
/// a cancel button and a confirm button. For a destructive action the focus starts on Cancel, so
/// Enter right away is safe; `Esc` always cancels.
///
/// ```swift
/// Command("d", "Delete") {
///     confirm("Delete 3 notes?", confirmTitle: "Delete", destructive: true) { notes.removeSelected() }
/// }
/// ```
public struct Confirmation: Identifiable, Sendable {
    public let id: UUID
    public var message: String
    public var confirmTitle: String
    public var cancelTitle: String
    public var destructive: Bool
    public var action: @MainActor @Sendable () -> Void

    public init(_ message: String, confirmTitle: String = "OK", cancelTitle: String = "Cancel", destructive: Bool = false,
                id: UUID = UUID(), action: @escaping @MainActor @Sendable () -> Void) {
        self.id = id
        self.message = message
        self.confirmTitle = confirmTitle
        self.cancelTitle = cancelTitle
        self.destructive = destructive
        self.action = action
    }
}

extension Application {
    /// Questions waiting for an answer, the one on screen last.
    public var confirmations: State<[Confirmation]> { state(initial: [], feature: "AppletKit", id: "confirmations") }

    /// Asks before running `action` (see `Confirmation`).
    public func confirm(_ message: String, confirmTitle: String = "OK", destructive: Bool = false,
                        action: @escaping @MainActor @Sendable () -> Void) {
        let confirmation = Confirmation(message, confirmTitle: confirmTitle, destructive: destructive, action: action)
        confirmations.modify { $0.append(confirmation) }
    }

    /// Answers the confirmation with this id: runs its action when `confirmed`, then takes it away.
    @MainActor
    public func answer(_ id: UUID, confirmed: Bool) {
        var answered: Confirmation?
        confirmations.modify { list in
            if let index = list.firstIndex(where: { $0.id == id }) { answered = list.remove(at: index) }
        }
        if confirmed, let answered { Application.withCurrent(self) { answered.action() } }
    }
}

/// Asks the user in the current store before running `action` (see `Confirmation`).
public func confirm(_ message: String, confirmTitle: String = "OK", destructive: Bool = false,
                    action: @escaping @MainActor @Sendable () -> Void) {
    Application.current.confirm(message, confirmTitle: confirmTitle, destructive: destructive, action: action)
}
