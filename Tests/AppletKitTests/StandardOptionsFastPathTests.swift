import ArgumentParser
import Testing
@testable import AppletKit

/// The fast path must read every line it accepts exactly as ArgumentParser does, and leave every
/// other line to it.
@Suite("Standard options without ArgumentParser")
struct StandardOptionsFastPathTests {
    struct Fields: Equatable, CustomStringConvertible {
        var tab, stateDir, keymap, record, replay, syncUrl: String?
        var logLevel, theme: String
        var noAnimation, debugKeys, diagnose: Bool
        init(_ o: StandardOptions) {
            tab = o.tab; stateDir = o.stateDir; keymap = o.keymap; record = o.record; replay = o.replay; syncUrl = o.syncUrl
            logLevel = o.logLevel; theme = o.theme; noAnimation = o.noAnimation; debugKeys = o.debugKeys; diagnose = o.diagnose
        }
        var description: String { "\(tab as Any) \(stateDir as Any) \(keymap as Any) \(record as Any) \(replay as Any) \(syncUrl as Any) \(logLevel) \(theme) \(noAnimation) \(debugKeys) \(diagnose)" }
    }

    @Test("Lines it reads: the same options as ArgumentParser's", arguments: [
        [],
        ["--tab", "2"],
        ["--tab=list"],
        ["--state-dir", "/tmp/x y", "--no-animation"],
        ["--no-animation", "--debug-keys", "--theme", "light", "--log-level=debug"],
        ["--keymap", "keys.toml", "--record", "s.json"],
        ["--replay=s.json", "--tab", "3"],
        ["--state-dir=/a=b"],
        ["--diagnose", "--theme", "auto"],
        ["--sync-url", "postgres://ada@db/notes"],
        ["--sync-url=postgres://ada:pw@/notes?host=/tmp/s", "--tab", "2"],
    ])
    func agreesWithArgumentParser(_ line: [String]) throws {
        let fast = try #require(StandardOptionsFastPath.parse(line), "refused \(line)")
        let parsed = try StandardOptions.parse(line)
        #expect(Fields(fast) == Fields(parsed))
    }

    @Test("Lines it leaves to ArgumentParser", arguments: [
        ["--help"], ["-h"], ["--version"], ["keys"], ["keys", "--json"], ["--tab"], ["--tab", "--theme", "x"],
        ["--tab", "-1"], ["--tab=1", "--tab=2"], ["--no-animation=yes"], ["--unknown"], ["--"], ["-"],
        ["--theme="], ["--state-dir", ""],
    ])
    func refuses(_ line: [String]) {
        #expect(StandardOptionsFastPath.parse(line) == nil)
    }

    @Test("A line it reads that fails validation goes to ArgumentParser for the message")
    func invalidLinesAreNotTaken() throws {
        let line = ["--theme", "neon"]
        let standard = try #require(StandardOptionsFastPath.parse(line))
        #expect(AppletAppCommand<FastPathApp>(validated: standard) == nil)
        #expect(AppletAppCommand<FastPathApp>(validated: try #require(StandardOptionsFastPath.parse(["--theme", "light"]))) != nil)
    }
}

private struct FastPathApp: AppletApp {
    static let id = "fast-path"
    var tabs: [Tab] { [] }
}
