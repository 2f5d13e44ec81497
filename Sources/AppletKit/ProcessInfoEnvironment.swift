import AppletState

/// The process environment as a dictionary (kept in one place so tests can pass their own).
enum ProcessInfoEnvironment {
    static var current: [String: String] { ProcessEnvironment.current }
}
