import AppletState
import Foundation

extension UUID {
    /// The id `UUIDGenerator.incrementing()` makes `number`th, counting from zero: what the store
    /// of a `TestLogic` or an `AppletTestHost` gives its first toast (`UUID(0)`), its second
    /// (`UUID(1)`), and so on. `UUID(10)` is `00000000-0000-0000-0000-00000000000A`.
    ///
    /// ```swift
    /// await test.send(.save) { $0[\.toasts] = [Toast("Saved", style: .success, id: UUID(0))] }
    /// ```
    public init(_ number: Int) {
        self = UUIDGenerator.sequential(number)
    }
}
