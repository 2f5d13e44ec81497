@testable import AppletNavigation
import Foundation
import Testing

@Suite("Keymap")
struct KeymapTests {
    static func s(_ spec: String) -> KeySequence { KeySequence(spec)! }

    @Test("One key, a list, a chord, [] to unbind, and dotted bare keys all read")
    func parses() {
        let text = """
        # my keys
        [keys]
        "host.quit" = "ctrl-q"
        "notes.delete" = ["ctrl-d", "x x"]
        "host.suspend" = []
        notes.archive = "a"
        """
        let (keymap, issues) = Keymap.parse(text, file: "keys.toml")
        #expect(issues.isEmpty, "\(issues)")
        #expect(keymap.bindings == ["host.quit": [Self.s("ctrl-q")], "notes.delete": [Self.s("ctrl-d"), Self.s("x x")],
                                    "host.suspend": [], "notes.archive": [Self.s("a")]])
    }

    @Test("A key that does not parse is skipped with its file and line; the rest applies")
    func badKey() {
        let text = """
        [keys]
        "host.quit" = "ctrl-q"
        "notes.delete" = "ctrl-"
        "notes.new" = ["n", "hyper-n"]
        "notes.open" = 5
        """
        let (keymap, issues) = Keymap.parse(text, file: "/home/me/.config/demo/keys.toml")
        #expect(keymap.bindings == ["host.quit": [Self.s("ctrl-q")]])
        #expect(issues.map(\.line) == [3, 4, 5])
        #expect(issues[0].description.hasPrefix("/home/me/.config/demo/keys.toml:3: \"ctrl-\" (for \"notes.delete\") is not a key"))
        #expect(issues[1].description.contains("\"hyper-n\""))
        #expect(issues[2].description.contains("must be a key like"))
    }

    @Test("A broken file gives one issue with its line, and no bindings: the defaults stay")
    func brokenFile() throws {
        let (keymap, issues) = Keymap.parse("[keys]\n\"host.quit\" = \"q\"\n\"notes.delete\" = \n", file: "keys.toml")
        #expect(keymap.bindings.isEmpty)
        let issue = try #require(issues.first)
        #expect(issues.count == 1)
        #expect(issue.line == 3, "\(issue)")
        #expect(issue.description.hasPrefix("keys.toml:3: is not valid TOML"))
        #expect(issue.description.contains("default keys apply"))
    }

    @Test("Bindings outside [keys] and a [keys] that is not a table are reported")
    func wrongShape() {
        var (keymap, issues) = Keymap.parse("quit = \"q\"\n", file: "k.toml")
        #expect(keymap.bindings.isEmpty)
        #expect(issues.count == 1 && issues[0].line == 1 && issues[0].message.contains("put bindings under [keys]"))
        (keymap, issues) = Keymap.parse("keys = 3\n", file: "k.toml")
        #expect(issues.count == 1 && issues[0].message.contains("keys must be a table"))
    }

    @Test("A missing file is no keymap and no issue; an unreadable or non-UTF-8 one says what to do")
    func files() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("keymap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = Keymap.load(path: dir.appendingPathComponent("keys.toml").path)
        #expect(missing.keymap == Keymap() && missing.issues.isEmpty)

        let good = dir.appendingPathComponent("good.toml")
        try "[keys]\n\"host.quit\" = \"ctrl-q\"\n".write(to: good, atomically: true, encoding: .utf8)
        #expect(Keymap.load(path: good.path).keymap.bindings["host.quit"] == [Self.s("ctrl-q")])

        let binary = dir.appendingPathComponent("binary.toml")
        try Data([0xFF, 0xFE, 0x00, 0x80]).write(to: binary)
        let bad = Keymap.load(path: binary.path)
        #expect(bad.keymap == Keymap() && bad.issues.count == 1 && bad.issues[0].message.contains("UTF-8"))
    }

    @Test("The default path follows XDG_CONFIG_HOME, else ~/.config")
    func defaultPath() {
        #expect(Keymap.defaultPath(appID: "demo", environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/h"]) == "/cfg/demo/keys.toml")
        #expect(Keymap.defaultPath(appID: "demo", environment: ["HOME": "/h"]) == "/h/.config/demo/keys.toml")
        #expect(Keymap.defaultPath(appID: "demo", environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/demo/keys.toml",
                "a relative XDG_CONFIG_HOME is ignored, as the spec says")
    }

    @Test("Unknown ids are named, with a near id when one exists")
    func unknownIDs() {
        let keymap = Keymap(bindings: ["notes.delte": [], "host.quit": [], "note.delete": []])
        let issues = keymap.unknownIDs(known: ["host.quit", "notes.delete"], file: "keys.toml")
        #expect(issues.map(\.message) == ["no command has the id \"note.delete\"; did you mean \"notes.delete\"?",
                                          "no command has the id \"notes.delte\"; did you mean \"notes.delete\"?"])
        let far = Keymap(bindings: ["zzz.qqqqq": []]).unknownIDs(known: ["host.quit"])
        #expect(far.map(\.message) == ["no command has the id \"zzz.qqqqq\"; `keys` lists every command id"])
    }

    @Test("An unknown id read from a file names the file and its line")
    func unknownIDsNameTheirLine() {
        let (keymap, issues) = Keymap.parse("# mine\n[keys]\n\"host.quit\" = \"q\"\n\"notes.sav\" = \"ctrl-s\"\n", file: "/home/me/keys.toml")
        #expect(issues.isEmpty)
        let unknown = keymap.unknownIDs(known: ["host.quit", "notes.save"])
        #expect(unknown.map(\.description) == ["/home/me/keys.toml:4: no command has the id \"notes.sav\"; did you mean \"notes.save\"?"])
    }

    @Test("A keymap over the size limit is one issue and no bindings, whatever it holds")
    func tooLarge() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("keymap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("keys.toml").path
        var text = "[keys]\n"
        while text.utf8.count <= Keymap.maximumFileBytes { text += "\"host.quit\" = \"ctrl-q\"\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (keymap, issues) = Keymap.load(path: path)
        #expect(keymap == Keymap())
        #expect(issues.map(\.description) == ["\(path): is over 1 MiB, far more than a keymap needs; is it the right file? The default keys apply."])
        // Not a regular file: refused without waiting for a writer.
        let fifo = dir.appendingPathComponent("fifo.toml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let refused = Keymap.load(path: fifo)
        #expect(refused.keymap == Keymap() && refused.issues.first?.message.contains("not a regular file") == true)
    }

    @Test("Thousands of entries: every line found in one pass, hints for the first few unknown ids only")
    func manyEntries() {
        let count = 20_000
        var text = "# many\n[keys]\n"
        for index in 0..<count { text += "\"unknown.id\(index)\" = \"ctrl-\(index % 2 == 0 ? "a" : "b")\"\n" }
        text += "host.quit = \"q\"\n"
        let (keymap, issues) = Keymap.parse(text, file: "keys.toml")
        #expect(issues.isEmpty)
        #expect(keymap.bindings.count == count + 1)
        #expect(keymap.lines["unknown.id0"] == 3 && keymap.lines["unknown.id19999"] == count + 2 && keymap.lines["host.quit"] == count + 3)
        let unknown = keymap.unknownIDs(known: ["host.quit", "unknown.id"])
        #expect(unknown.count == count)
        // "unknown.id0" is one edit from "unknown.id": the first gets the hint, and at most the
        // first `suggestionLimit` are compared with every command.
        #expect(unknown.first?.message == "no command has the id \"unknown.id0\"; did you mean \"unknown.id\"?")
        #expect(unknown.filter { $0.message.contains("did you mean") }.count <= Keymap.suggestionLimit)
        #expect(unknown.dropFirst(Keymap.suggestionLimit).allSatisfy { $0.message.hasSuffix("`keys` lists every command id") })
    }

    @Test("An id with control characters is shown escaped")
    func controlCharactersInIDs() {
        let keymap = Keymap(bindings: ["evil\u{1B}[2J": []])
        let issues = keymap.unknownIDs(known: ["host.quit"])
        #expect(issues.map(\.message) == ["no command has the id \"evil\\e[2J\"; `keys` lists every command id"])
    }

    @Test("TOML as a keymap writes it: quoted, literal, dotted and table keys, escapes, multi-line arrays")
    func syntax() throws {
        let text = #"""
        # comment
        [keys]   # trailing comment
          "a.b" = "x"
        'c' = 'literal \ kept'
        d.e = "tab\there \u00e9 \U0001F680"
        "f" = [
          "one",   # first
          'two',
        ]
        g = [ [ "nested" ], 1, true ]
        h = 1979-05-27 07:32:00Z
        i = { x = 1, y = "z" }
        [ keys . "sub" ]
        j = """
        multi
        line"""
        """#
        let document = try KeymapSyntax.parse(text)
        #expect(document.headers == [.init(path: ["keys"], line: 2), .init(path: ["keys", "sub"], line: 13)])
        #expect(document.assignments == [
            .init(path: ["keys", "a.b"], value: .string("x"), line: 3),
            .init(path: ["keys", "c"], value: .string("literal \\ kept"), line: 4),
            .init(path: ["keys", "d", "e"], value: .string("tab\there é 🚀"), line: 5),
            .init(path: ["keys", "f"], value: .array([.string("one"), .string("two")]), line: 6),
            .init(path: ["keys", "g"], value: .array([.array([.string("nested")]), .other, .other]), line: 10),
            .init(path: ["keys", "h"], value: .other, line: 11),
            .init(path: ["keys", "i"], value: .other, line: 12),
            .init(path: ["keys", "sub", "j"], value: .string("multi\nline"), line: 14),
        ])
    }

    @Test("What is not TOML fails with its line, never a trap", arguments: [
        ("[keys]\n[[[a]]]\n", 2),                          // toml++ aborts on this
        ("[keys]\n\"a\" = \"x\"\n\"a\" = \"y\"\n", 3),        // defined twice
        ("[keys]\n[keys]\n", 2),
        ("[keys]\na = \"x\"\n[keys.a]\n", 3),                // a value used as a table
        ("[keys]\na = \"unclosed\n", 2),
        ("[keys]\na = [\"x\"\n", 3),
        ("[keys]\na = \"\\q\"\n", 2),
        ("[keys]\na = \"x\" b\n", 2),
        ("[keys]\n= \"x\"\n", 2),
        ("[keys]\na = " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n", 2),
        ("[keys]\na = \"\u{1}\"\n", 2),
    ])
    func syntaxErrors(text: String, line: Int) {
        #expect(throws: KeymapSyntax.Failure.self) { try KeymapSyntax.parse(text) }
        do { _ = try KeymapSyntax.parse(text) } catch { #expect(error.line == line, "\(error)") }
        let (keymap, issues) = Keymap.parse(text, file: "keys.toml")
        #expect(keymap == Keymap() && issues.count == 1 && issues.first?.line == line, "\(issues)")
    }

    /// Found by the fuzzer: `"" = "ctrl-q"` bound the key to a command with no id.
    @Test func anEmptyQuotedIDIsAnIssueNotABinding() {
        let (keymap, issues) = Keymap.parse("[keys]\n\"\" = \"ctrl-q\"\n\"notes.save\" = \"ctrl-s\"\n", file: "keys.toml")
        #expect(keymap.bindings.keys.sorted() == ["notes.save"], "\(keymap.bindings)")
        #expect(issues.count == 1 && issues.first?.line == 2, "\(issues)")
        #expect(issues.first?.message.contains("names no command") == true, "\(issues)")
    }
}
