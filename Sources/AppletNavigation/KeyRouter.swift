import Terminal

/// Gives a key to the first handler that takes it, in a fixed order, and says who took it:
///
/// 1. the rest of a pending chord (a wrong key cancels it and is swallowed);
/// 2. priority commands, which no widget can take;
/// 3. a presented sheet, which is modal: what it does not use goes no further;
/// 4. the focused widget;
/// 5. the commands of the focused applet, the navigation stack (`Esc` pops), the tab and the
///    host, in that order: the first enabled command bound to the key (or starting a chord) wins.
///
/// The router holds no state of its own but the pending chord; the host gives it, per key, the
/// registry of what is on screen and a handler for the sheet and the widget levels.
///
/// ```swift
/// var router = KeyRouter()
/// let trace = router.route(key, registry: registry,
///                          sheet: nil, widget: { tree.handleKey($0) ? "text field" : nil })
/// print(trace)   // "x: widget took text field"
/// ```
@MainActor
public struct KeyRouter {
    /// The chord in progress (its prefix is shown in the footer).
    public private(set) var chords: ChordMatcher

    public init(chordTimeout: Duration = ChordMatcher.defaultTimeout) {
        chords = ChordMatcher(timeout: chordTimeout)
    }

    /// The typed keys of an unfinished chord (`g`), for the footer; nil when none.
    public var pendingChord: String? { chords.pendingLabel }

    /// The chord timeout passed: forgets the prefix. Returns it, if one was pending.
    @discardableResult
    public mutating func expireChord() -> KeySequence? { chords.expire() }

    /// A sheet's part in routing: the sheet's own widget handling, then its commands (in the
    /// registry's `.sheet` scope). Everything else it swallows.
    public typealias LevelHandler = (KeyEvent) -> String?

    /// Routes `key`, running what takes it, and returns the trace.
    ///
    /// - Parameters:
    ///   - sheet: nil when no sheet is presented; else the sheet's widget handler (returns what
    ///     took the key, or nil).
    ///   - widget: the focused widget's handler (returns what took the key, or nil).
    public mutating func route(_ key: KeyEvent, registry: CommandRegistry,
                               sheet: LevelHandler?, widget: LevelHandler) -> RoutingTrace {
        var trace = RoutingTrace(key: key)
        let commandScopes = sheet == nil ? CommandScope.withoutSheet : CommandScope.onlySheet

        // 1. A chord in progress takes the next key whatever it is.
        if !chords.pending.isEmpty {
            let outcome = chords.feed(key, bound: registry.boundSequences(in: commandScopes))
            switch outcome {
            case .matched(let sequence):
                if let entry = registry.entry(for: sequence, in: commandScopes) { run(entry, level: .chord, &trace) }
            case .pending(let prefix):
                trace.took(.chord, "waiting after \(prefix.label)")
            case .cancelled(let prefix):
                trace.took(.chord, "cancelled \(prefix.label): no chord continues with \(KeySpec.label(for: key))")
            case .unbound:
                trace.passed(.chord, "no chord pending")
            }
            if trace.handler != nil { return trace }
        }

        // 2. Priority commands come before any widget.
        if let entry = registry.entry(for: KeySequence(key), priorityOnly: true) {
            run(entry, level: .priority, &trace)
            return trace
        }
        trace.passed(.priority, "no priority command on this key")

        // 3–4. The sheet or the focused widget.
        if let sheet {
            if let what = sheet(key) {
                trace.took(.sheet, what)
                return trace
            }
        } else if let what = widget(key) {
            trace.took(.widget, what)
            return trace
        } else {
            trace.passed(.widget, "the focused widget does not use it, or none has focus")
        }

        // 5. Commands, scope by scope; a chord's first key waits for the rest.
        let outcome = chords.feed(key, bound: registry.boundSequences(in: commandScopes))
        switch outcome {
        case .matched(let sequence):
            if let entry = registry.entry(for: sequence, in: commandScopes) {
                for level in [RoutingLevel.sheet, .applet, .navigation, .tab, .host] where level.scope.map(commandScopes.contains) == true {
                    guard level.scope != entry.scope else { break }
                    trace.passed(level, Self.whyNot(sequence, in: level.scope!, registry))
                }
                run(entry, level: RoutingLevel.allCases.first { $0.scope == entry.scope } ?? .host, &trace)
            }
        case .pending(let prefix):
            trace.took(.chord, "started \(prefix.label) …")
        case .cancelled, .unbound:
            if sheet != nil {
                trace.took(.sheet, "kept by the sheet (modal)")
            } else {
                for level in [RoutingLevel.applet, .navigation, .tab, .host] {
                    trace.passed(level, Self.whyNot(KeySequence(key), in: level.scope!, registry))
                }
            }
        }
        return trace
    }

    private func run(_ entry: CommandRegistry.Entry, level: RoutingLevel, _ trace: inout RoutingTrace) {
        trace.took(level, entry.id)
        trace.commandID = entry.id
        entry.command.action()
    }

    private static func whyNot(_ sequence: KeySequence, in scope: CommandScope, _ registry: CommandRegistry) -> String {
        var bound: [String] = []
        for index in registry.entries.indices
        where registry.entries[index].scope == scope && registry.entries[index].keys.contains(sequence) {
            bound.append(registry.entries[index].id)
        }
        if bound.isEmpty { return "not bound" }
        return "\(bound.joined(separator: ", ")) disabled"
    }
}
