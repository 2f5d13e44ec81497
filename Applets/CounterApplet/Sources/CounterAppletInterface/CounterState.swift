import AppletKit

/// The counter shared by every applet that imports this Interface target.
public struct CounterState: Codable, Equatable, Sendable {
    public var count = 0
    public init(count: Int = 0) { self.count = count }
}

extension Application {
    /// The shared counter, kept across restarts. Other applets read and change it through this
    /// declaration only.
    ///
    /// ```swift
    /// import CounterAppletInterface
    /// Application.state(\.counter).value.count += 1
    /// ```
    public var counter: StoredState<CounterState> { storedState(initial: CounterState(), feature: "Counter", id: "counter") }
}
