#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppletState
internal import SystemPackage

/// The user's key bindings, by command id, read from a TOML file: each entry gives a command new
/// keys (one spec, a list of them, or an empty list to unbind it). Commands it does not name keep
/// their defaults.
///
/// ```toml
/// # ~/.config/appletkit-demo/keys.toml
/// [keys]
/// "host.quit" = "ctrl-q"
/// "notes.delete" = ["ctrl-d", "x x"]
/// "host.suspend" = []
/// ```
///
/// ```swift
/// let (keymap, issues) = Keymap.load(path: Keymap.defaultPath(appID: "appletkit-demo"))
/// issues.forEach { log.warning("\($0)") }   // "keys.toml:3: …"; the rest still applies
/// ```
///
/// Invariants: loading never throws and never loses the defaults: a file that is missing is an
/// empty keymap with no issue, a file that cannot be parsed (or is over `maximumFileBytes`) is an
/// empty keymap with one issue, and a bad entry is skipped with an issue naming its line. Reading
/// and checking are linear in the file's size: a keymap may come from someone else.
public struct Keymap: Sendable, Equatable {
    /// The largest keymap file read: hundreds of times what rebinding every command takes.
    public static let maximumFileBytes = 1 << 20
    /// How many unknown ids get a "did you mean" (each costs a comparison with every command).
    static let suggestionLimit = 20

    /// Keys by command id; an empty list unbinds the command.
    public var bindings: [String: [KeySequence]]
    /// The file it was read from, for messages (nil when made in code).
    public var file: String?
    /// The line of each binding in `file`, for messages.
    public var lines: [String: Int] = [:]

    public init(bindings: [String: [KeySequence]] = [:], file: String? = nil) {
        self.bindings = bindings
        self.file = file
    }

    /// Where an app's keymap lives: `$XDG_CONFIG_HOME/<appID>/keys.toml`, else
    /// `~/.config/<appID>/keys.toml`.
    public static func defaultPath(appID: String,
                                   environment: [String: String] = ProcessEnvironment.current) -> String {
        let config: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            config = xdg
        } else {
            config = FilePath(ProcessEnvironment.home(in: environment)).appending(".config").string
        }
        return FilePath(config).appending(appID).appending("keys.toml").string
    }

    /// Reads the keymap at `path`. A missing file is no keymap and no issue.
    public static func load(path: String) -> (keymap: Keymap, issues: [KeymapIssue]) {
        let data: Data
        do {
            guard let read = try AtomicFile.read(path, limit: maximumFileBytes) else { return (Keymap(), []) }
            data = read
        } catch is AtomicFile.TooLarge {
            return (Keymap(), [KeymapIssue(file: path, message: "is over \(maximumFileBytes >> 20) MiB, far more than a keymap needs; is it the right file? The default keys apply.")])
        } catch let failure as AtomicFile.Failure {
            return (Keymap(), [KeymapIssue(file: path, message: "cannot be read (\(failure.reason)); check it and its permissions. The default keys apply.")])
        } catch {
            return (Keymap(), [KeymapIssue(file: path, message: "cannot be read (\(error)). The default keys apply.")])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return (Keymap(), [KeymapIssue(file: path, message: "is not UTF-8 text; save it as UTF-8. The default keys apply.")])
        }
        return parse(text, file: path)
    }

    /// Parses keymap text; `file` names it in the issues.
    public static func parse(_ text: String, file: String = "keys.toml") -> (keymap: Keymap, issues: [KeymapIssue]) {
        let document: KeymapSyntax.Document
        do {
            document = try KeymapSyntax.parse(text)
        } catch {
            return (Keymap(), [KeymapIssue(file: file, line: error.line,
                                           message: "is not valid TOML (\(LogText.escaped(error.message))); fix it and restart. The default keys apply.")])
        }
        var keymap = Keymap()
        var issues: [KeymapIssue] = []
        // Anything outside [keys]: one issue per top-level name, at its first line.
        var outside: [String: Int] = [:]
        for (path, line) in document.headers.map({ ($0.path, $0.line) }) + document.assignments.map({ ($0.path, $0.line) })
        where path.first != "keys" {
            outside[path[0]] = min(outside[path[0]] ?? .max, line)
        }
        for (name, line) in outside.sorted(by: { $0.value < $1.value }) {
            issues.append(KeymapIssue(file: file, line: line,
                                      message: "\"\(LogText.escaped(name))\" is not a section of a keymap; put bindings under [keys]"))
        }
        if let misplaced = document.assignments.first(where: { $0.path == ["keys"] }) {
            return (keymap, issues + [KeymapIssue(file: file, line: misplaced.line,
                                                  message: "keys must be a table: write [keys] and then \"command.id\" = \"key\" lines")])
        }
        let bindings = document.assignments.filter { $0.path.count > 1 && $0.path[0] == "keys" }
        if !bindings.isEmpty || document.headers.contains(where: { $0.path.first == "keys" }) { keymap.file = file }
        for assignment in bindings {
            let id = assignment.path.dropFirst().joined(separator: ".")
            guard !id.isEmpty else {
                issues.append(KeymapIssue(file: file, line: assignment.line,
                                          message: "\"\" names no command; write \"command.id\" = \"key\" (the ids are in `keys`)"))
                continue
            }
            keymap.lines[id] = assignment.line
            if let issue = bind(id, to: assignment.value, line: assignment.line, in: &keymap, file: file) { issues.append(issue) }
        }
        return (keymap, issues.sorted { ($0.line ?? 0) < ($1.line ?? 0) })
    }

    /// Sets the keys of `id` from a value of the file, or returns why it cannot.
    private static func bind(_ id: String, to value: KeymapSyntax.Value, line: Int, in keymap: inout Keymap, file: String) -> KeymapIssue? {
        switch value {
        case .string(let spec):
            guard let sequence = KeySequence(spec) else { return badKey(spec, id: id, line: line, file: file) }
            keymap.bindings[id] = [sequence]
        case .array(let elements):
            var sequences: [KeySequence] = []
            for element in elements {
                guard case .string(let spec) = element else {
                    return KeymapIssue(file: file, line: line, message: "\"\(LogText.escaped(id))\": every key in the list must be a string like \"ctrl-d\"")
                }
                guard let sequence = KeySequence(spec) else { return badKey(spec, id: id, line: line, file: file) }
                sequences.append(sequence)
            }
            keymap.bindings[id] = sequences
        case .other:
            return KeymapIssue(file: file, line: line,
                               message: "\"\(LogText.escaped(id))\" must be a key like \"ctrl-d\", a list of keys, or [] to unbind it")
        }
        return nil
    }

    /// The entries that name no command the app has, as issues (a typo, or an applet not loaded).
    /// The first `suggestionLimit` get the likely id they meant.
    public func unknownIDs(known: Set<String>, file: String? = nil) -> [KeymapIssue] {
        let sorted = known.sorted()
        return bindings.keys.filter { !known.contains($0) }.sorted().enumerated().map { index, id in
            let guess = index < Self.suggestionLimit ? Self.nearest(to: id, in: sorted) : nil
            let hint = guess.map { "; did you mean \"\($0)\"?" } ?? "; `keys` lists every command id"
            return KeymapIssue(file: file ?? self.file ?? "keymap", line: lines[id],
                               message: "no command has the id \"\(LogText.escaped(id))\"\(hint)")
        }
    }

    /// The known id a mistyped one most likely meant: the same last part in another owner
    /// (`note.delete` → `notes.delete`), else the closest by edits, if at most 3 away.
    static func nearest(to id: String, in known: Set<String>) -> String? {
        nearest(to: id, in: known.sorted())
    }

    static func nearest(to id: String, in sorted: [String]) -> String? {
        // Ids longer than any command's are typos of none; the edit distance is quadratic in length.
        guard id.utf8.count <= 256 else { return nil }
        let name = id.split(separator: ".").last.map(String.init) ?? id
        if let sameName = sorted.first(where: { $0.hasSuffix("." + name) }) { return sameName }
        let scored = sorted.map { ($0, editDistance(Array(id), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 3 else { return nil }
        return best.0
    }

    /// Levenshtein distance: insertions, deletions and substitutions, each 1.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    private static func badKey(_ spec: String, id: String, line: Int?, file: String) -> KeymapIssue {
        KeymapIssue(file: file, line: line,
                    message: "\"\(LogText.escaped(spec))\" (for \"\(LogText.escaped(id))\") is not a key; write keys like \"ctrl-d\", \"alt-x\", \"f5\", \"shift-tab\" or a chord \"g g\"")
    }
}
