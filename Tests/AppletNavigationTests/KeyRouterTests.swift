import AppletNavigation
import Terminal
import Testing

/// Routing order and traces, with commands that record what ran.
@MainActor
@Suite("KeyRouter")
struct KeyRouterTests {
    final class Log {
        var ran: [String] = []
    }

    static func registry(_ log: Log, _ commands: [(CommandScope, String, [String], Bool, Bool)]) -> CommandRegistry {
        var registry = CommandRegistry()
        for (scope, id, keys, enabled, priority) in commands {
            registry.register([Command(id: id, id, keys: keys, isEnabled: enabled, isPriority: priority) { log.ran.append(id) }],
                              scope: scope, owner: "\(scope)")
        }
        return registry
    }

    static func key(_ spec: String) -> KeyEvent { KeySpec.parse(spec)! }

    @Test("The focused widget comes before the applet, the applet before the host")
    func order() {
        let log = Log()
        let registry = Self.registry(log, [(.applet, "a.x", ["x"], true, false), (.host, "h.x", ["x"], true, false),
                                           (.host, "h.q", ["q"], true, false)])
        var router = KeyRouter()
        var trace = router.route(Self.key("x"), registry: registry, sheet: nil) { _ in "text field" }
        #expect(trace.handler == .widget && log.ran.isEmpty)
        trace = router.route(Self.key("x"), registry: registry, sheet: nil) { _ in nil }
        #expect(trace.handler == .applet && trace.commandID == "a.x" && log.ran == ["a.x"])
        trace = router.route(Self.key("q"), registry: registry, sheet: nil) { _ in nil }
        #expect(trace.handler == .host && log.ran == ["a.x", "h.q"])
        #expect(trace.description == "q: priority passed (no priority command on this key) → widget passed (the focused widget does not use it, or none has focus) → applet passed (not bound) → navigation passed (not bound) → tab passed (not bound) → host took h.q")
    }

    @Test("A disabled command passes the key on, and the trace says why")
    func disabled() {
        let log = Log()
        let registry = Self.registry(log, [(.applet, "a.r", ["r"], false, false), (.host, "h.r", ["r"], true, false)])
        var router = KeyRouter()
        let trace = router.route(Self.key("r"), registry: registry, sheet: nil) { _ in nil }
        #expect(log.ran == ["h.r"])
        #expect(trace.steps.contains(RoutingTrace.Step(level: .applet, took: false, detail: "a.r disabled")))
    }

    @Test("Priority commands come before the widget")
    func priority() {
        let log = Log()
        let registry = Self.registry(log, [(.host, "h.tab1", ["alt-1"], true, true), (.host, "h.one", ["1"], true, false)])
        var router = KeyRouter()
        var widgetSaw: [KeyEvent] = []
        _ = router.route(Self.key("alt-1"), registry: registry, sheet: nil) { widgetSaw.append($0); return "field" }
        _ = router.route(Self.key("1"), registry: registry, sheet: nil) { widgetSaw.append($0); return "field" }
        #expect(log.ran == ["h.tab1"])
        #expect(widgetSaw == [Self.key("1")])
    }

    @Test("A sheet is modal: it gets keys first and keeps what it does not use")
    func sheet() {
        let log = Log()
        let registry = Self.registry(log, [(.sheet, "s.ok", ["enter"], true, false), (.host, "h.q", ["q"], true, false)])
        var router = KeyRouter()
        var trace = router.route(Self.key("q"), registry: registry, sheet: { _ in nil }) { _ in "widget behind" }
        #expect(trace.handler == .sheet && log.ran.isEmpty, "\(trace)")
        trace = router.route(Self.key("enter"), registry: registry, sheet: { _ in nil }) { _ in nil }
        #expect(log.ran == ["s.ok"])
        trace = router.route(Self.key("x"), registry: registry, sheet: { _ in "sheet text field" }) { _ in nil }
        #expect(trace.handler == .sheet && trace.steps.last?.detail == "sheet text field")
    }

    @Test("Chords: the first key waits, the second runs; a wrong second key cancels with no side effect")
    func chords() {
        let log = Log()
        let registry = Self.registry(log, [(.applet, "a.top", ["g g"], true, false), (.applet, "a.x", ["x"], true, false),
                                           (.host, "h.save", ["ctrl-x ctrl-s"], true, false)])
        var router = KeyRouter()
        var widget: [KeyEvent] = []
        func press(_ spec: String) -> RoutingTrace {
            router.route(Self.key(spec), registry: registry, sheet: nil) { widget.append($0); return nil }
        }
        #expect(press("g").handler == .chord)
        #expect(router.pendingChord == "g")
        #expect(press("g").commandID == "a.top")
        #expect(router.pendingChord == nil)
        #expect(press("g").handler == .chord)
        let wrong = press("x")
        #expect(wrong.handler == .chord && wrong.commandID == nil, "\(wrong)")
        #expect(log.ran == ["a.top"], "x after g must not run a.x")
        #expect(widget == [Self.key("g"), Self.key("g")], "keys of a pending chord never reach the widget")
        #expect(press("ctrl-x").handler == .chord)
        #expect(press("ctrl-s").commandID == "h.save")
        #expect(press("g").handler == .chord)
        #expect(router.expireChord() == KeySequence("g"))
        #expect(router.pendingChord == nil)
        #expect(press("x").commandID == "a.x")
    }

    @Test("An unbound key is dropped, and the trace says so")
    func unbound() {
        var router = KeyRouter()
        let trace = router.route(Self.key("z"), registry: CommandRegistry(), sheet: nil) { _ in nil }
        #expect(trace.handler == nil)
        #expect(trace.description.hasSuffix("→ dropped"))
    }
}
