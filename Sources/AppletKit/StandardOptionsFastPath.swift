import ArgumentParser

/// The command lines most launches have (`app`, `app --tab 2`, `app --state-dir DIR --no-animation`)
/// read without ArgumentParser's reflection.
///
/// ArgumentParser builds its picture of the command by reflecting over the option types (twice:
/// once for the completion-script check, once to parse), and each first cast and generic type it
/// meets makes the Swift runtime scan every protocol conformance in the binary: about 3 ms of a
/// 15 ms launch on the benchmark machine. This reads only what it is sure of — the standard
/// options, each at most once, as `--name value` or `--name=value`, and their two flags — for an
/// app with no options of its own; anything else (help, a subcommand, a short flag, a repeated
/// or unknown option, a value that starts with `-`) returns nil and ArgumentParser parses the
/// line as always, with its messages. A test checks that both agree on every line this accepts.
///
/// ```swift
/// StandardOptionsFastPath.parse(["--tab", "2", "--no-animation"])   // tab "2", noAnimation
/// StandardOptionsFastPath.parse(["--help"])                          // nil: ArgumentParser's job
/// ```
enum StandardOptionsFastPath {
    /// The standard options in `arguments` (without the program name), or nil when ArgumentParser
    /// must read them.
    static func parse(_ arguments: [String]) -> StandardOptions? {
        var options = StandardOptions()
        // Every field starts from its default, so none is left unparsed.
        options.tab = nil
        options.stateDir = nil
        options.keymap = nil
        options.record = nil
        options.replay = nil
        options.syncUrl = nil
        options.logLevel = "info"
        options.theme = "auto"
        options.noAnimation = false
        options.debugKeys = false
        options.diagnose = false
        var seen: Set<String> = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else { return nil }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard seen.insert(name).inserted else { return nil }
            switch name {
            case "no-animation", "debug-keys", "diagnose":
                guard value == nil else { return nil }
                switch name {
                case "no-animation": options.noAnimation = true
                case "debug-keys": options.debugKeys = true
                default: options.diagnose = true
                }
                continue
            case "tab", "state-dir", "keymap", "record", "replay", "log-level", "theme", "sync-url":
                break
            default:
                return nil
            }
            if value == nil {
                guard index < arguments.count else { return nil }
                value = arguments[index]
                index += 1
            }
            guard let value, !value.isEmpty, !value.hasPrefix("-") else { return nil }
            switch name {
            case "tab": options.tab = value
            case "state-dir": options.stateDir = value
            case "keymap": options.keymap = value
            case "record": options.record = value
            case "replay": options.replay = value
            case "sync-url": options.syncUrl = value
            case "log-level": options.logLevel = value
            default: options.theme = value
            }
        }
        return options
    }
}
