import AppletState

/// A change to the application's state, as a value: what should change, not the code that
/// changes it. The logic module applies it to the store synchronously on the main actor, logs it
/// (the devtools' action log, `--record`) and then tells the observers whose state it changed.
///
/// A request is usually a case of the applet's own enum, so that a test can compare what came out
/// of an event with what it expects, and a recording can name it:
///
/// ```swift
/// enum MonitorRequest: Request, Codable, Equatable {
///     case setFilter(String)
///     case sort(by: ProcessColumn)
///
///     func apply(to store: Application) {
///         switch self {
///         case .setFilter(let text): store.monitorFilter.value = text
///         case .sort(let column): store.monitorSort.value = column
///         }
///     }
/// }
/// ```
///
/// Invariants: `apply` only changes the store (no files, no processes, no clock: those are side
/// effects and coeffects); applying the same request to the same state gives the same state. A
/// thrown error leaves the request failed: the executable it belongs to stops there and its
/// `onError` handler, if any, runs.
public protocol Request: Sendable {
    @MainActor func apply(to store: Application) throws
}

/// A request made of a closure, for a one-off change that does not deserve a case of its own.
/// It cannot be recorded by value (its name is recorded) or compared in a test by value.
///
/// ```swift
/// logic.send(.request(UpdateRequest("reset zoom") { $0.zoom.value = 1 }))
/// ```
public struct UpdateRequest: Request, CustomStringConvertible {
    public let description: String
    private let body: @MainActor @Sendable (Application) throws -> Void

    public init(_ name: String, _ body: @escaping @MainActor @Sendable (Application) throws -> Void) {
        self.description = name
        self.body = body
    }

    @MainActor public func apply(to store: Application) throws { try body(store) }
}
