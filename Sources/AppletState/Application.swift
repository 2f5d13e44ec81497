import Observation
import Synchronization

/// The central store: every piece of shared state lives here, keyed by an id.
///
/// State is declared once, as a computed property in an `extension Application`, and read or
/// written from anywhere: applets, other applets through an `Interface` target, background tasks.
/// It is thread-safe, and observable: a view that read a value is redrawn when it changes.
///
/// ```swift
/// extension Application {
///     public var counter: State<Int> { state(initial: 0, id: "counter") }
/// }
///
/// Application.state(\.counter).value += 1
/// ```
///
/// Code normally uses `Application.current`: the shared instance, or the one a host (or a test)
/// installed for the work it runs with `Application.withCurrent(_:)`.
public final class Application: Sendable {
    /// The process-wide store.
    public static let shared = Application()

    @TaskLocal static var installed: Application?

    /// The store in effect: the one installed by the running host or test, else `shared`.
    public static var current: Application { installed ?? shared }

    /// Runs `body` with `application` as `Application.current` (hosts do this around every
    /// evaluation and event; tests use it to get a fresh store).
    public static func withCurrent<R>(_ application: Application, _ body: () throws -> R) rethrows -> R {
        try $installed.withValue(application, operation: body)
    }

    private let boxes = Mutex<[String: AnyObject]>([:])

    public init() {}

    /// Declares (or finds) in-memory state with an id; the first access stores `initial`.
    ///
    /// ```swift
    /// extension Application {
    ///     public var username: State<String> { state(initial: "", id: "username") }
    /// }
    /// ```
    public func state<Value: Sendable>(initial: @autoclosure () -> Value, feature: String = "App", id: String) -> State<Value> {
        State(box: box(key: "\(feature).\(id)", initial: initial))
    }

    /// The state at `keyPath` in the current store.
    ///
    /// ```swift
    /// let count = Application.state(\.counter).value
    /// ```
    public static func state<Value>(_ keyPath: KeyPath<Application, State<Value>>) -> State<Value> {
        current[keyPath: keyPath]
    }

    func box<Value: Sendable>(key: String, initial: () -> Value) -> StateBox<Value> {
        boxes.withLock { boxes in
            if let existing = boxes[key] {
                guard let typed = existing as? StateBox<Value> else {
                    preconditionFailure("state '\(key)' was declared twice with different types: \(type(of: existing)) and StateBox<\(Value.self)>")
                }
                return typed
            }
            let created = StateBox(initial())
            boxes[key] = created
            return created
        }
    }
}
