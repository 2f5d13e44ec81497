/// The app's services, installed in one place before any applet runs: the live values an app
/// chooses (a real HTTP client, the system clock) or, in a test or a preview, fakes. Views and
/// services read them with `@AppDependency` / `Application.dependency(_:)`; what only one feature
/// uses goes through that feature's initializers instead (see Docs/Dependencies.md for why).
///
/// Each assignment is an override of a `Dependency` declared in an `extension Application`; it
/// stays in effect as long as the `Dependencies` value that made it (the host keeps it for its run).
///
/// ```swift
/// extension Application {
///     var http: Dependency<any HTTPClient> { dependency(URLSessionClient()) }
///     var clock: Dependency<any AppClock> { dependency(SystemAppClock()) }
/// }
///
/// host.dependencies {
///     $0.http = RecordedHTTPClient("fixtures/")
///     $0.clock = FakeClock(now: .distantPast)
/// }
/// ```
@dynamicMemberLookup
public struct Dependencies {
    let application: Application
    /// The overrides made so far; they end when the last copy of this value is gone.
    public private(set) var tokens: [OverrideToken] = []

    /// Dependencies of `application`, none overridden yet.
    ///
    /// ```swift
    /// var dependencies = Dependencies(application)
    /// dependencies.clock = FakeClock()
    /// ```
    public init(_ application: Application) {
        self.application = application
    }

    /// The value in effect (reading), or a new value for the whole app (writing).
    public subscript<Value: Sendable>(dynamicMember keyPath: KeyPath<Application, Dependency<Value>>) -> Value {
        get { Application.withCurrent(application) { Application.dependency(keyPath) } }
        set { tokens.append(Application.withCurrent(application) { Application.override(keyPath, with: newValue) }) }
    }

    /// Ends every override made through this value: the declared values are back.
    ///
    /// ```swift
    /// dependencies.removeAll()
    /// ```
    public mutating func removeAll() {
        for token in tokens.reversed() { token.cancel() }
        tokens.removeAll()
    }
}
