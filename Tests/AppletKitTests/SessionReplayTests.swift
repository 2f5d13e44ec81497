@testable import AppletKit
import AppletTesting
import Foundation
import Testing
import TestSupport

// An applet whose screen depends on the outside world at every step: random numbers (a
// coeffect), a word fetched by a side effect that makes it up anew each time, and a timer. A
// replay must end on the same screen without doing any of it again.

extension Application {
    var dice: State<Int> { state(initial: 0, feature: "ReplayTests", id: "dice") }
    var diceWord: State<String> { state(initial: "-", feature: "ReplayTests", id: "word") }
    var diceRolls: StoredState<[Int]> { storedState(initial: [], feature: "ReplayTests", id: "rolls") }
}

enum DiceRequest: Request, Codable, Equatable {
    case rolled(Int)
    case word(String)

    func apply(to store: Application) {
        switch self {
        case .rolled(let n):
            store.dice.value = n
            store.diceRolls.value.append(n)
        case .word(let word): store.diceWord.value = word
        }
    }
}

/// Makes up a word: different on every run, so only a replayed result can match.
struct FetchWord: LiveSideEffect, Codable, Equatable {
    typealias Output = String
    func perform(with coeffects: Coeffects) async throws -> String {
        String(UUID().uuidString.prefix(8))
    }
}

struct DiceLogic: EventLogic {
    enum Event: Codable, Sendable { case roll, rollSoon, fetch }

    func executable(for event: Event, in context: LogicContext) -> Executable {
        switch event {
        case .roll: .request(DiceRequest.rolled(context.coeffects.random(1...6)))
        case .rollSoon: .effect(Sleep(.milliseconds(30)), id: "dice.soon") { _ in .send(.roll, to: self) }
        case .fetch: .effect(FetchWord()) { .request(DiceRequest.word($0)) }
        }
    }
}

struct DiceApplet: Applet {
    let id = "dice"
    let title = "Dice"
    @AppState(\.dice) private var dice
    @AppState(\.diceWord) private var word
    @StoredState(\.diceRolls) private var rolls
    @AppDependency(\.logic) private var logic

    var body: some View {
        VStack {
            Text("Dice: \(dice)")
            Text("Word: \(word)")
            Text("Rolls: \(rolls.map(String.init).joined(separator: " "))")
        }
    }

    var commands: [Command] {
        let logic = logic
        return [
            Command("r", "Roll") { logic.send(.roll, to: DiceLogic()) },
            Command("l", "Roll soon") { logic.send(.rollSoon, to: DiceLogic()) },
            Command("w", "Word") { logic.send(.fetch, to: DiceLogic()) },
        ]
    }
}

@Suite("Record and replay", .serialized)
@MainActor
struct SessionReplayTests {
    /// Records a headless session of keys, effects and coeffects, then replays the file.
    func record(to path: String, startingWith rolls: [Int] = []) async throws -> (lines: [String], folder: String) {
        let h = try AppletTestHost(tabs: [Tab(DiceApplet()), Tab(TallyApplet())], width: 60, height: 12)
        h.application.diceRolls.value = rolls
        h.application.flush()
        h.host.recorder = try SessionRecorder(path: path, app: "applet-test",   // the test host's store: its file is applet-test.json
                                              files: SessionReplayRunner.stateFiles(in: h.stateDirectory))
        h.press("r", "w")
        await h.host.logic.idle()
        await h.settle()
        h.press("l")
        await h.host.logic.idle()
        await h.settle()
        h.press("r", "alt-2", "+", "alt-1", "w")
        await h.host.logic.idle()
        await h.settle()
        let lines = h.lines
        h.host.quit()
        return (lines, h.stateDirectory)
    }

    @Test func aReplayEndsOnTheRecordedScreenWithoutDoingTheWorkAgain() async throws {
        let path = temporaryPath("dice", suffix: ".session")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorded = try await record(to: path, startingWith: [9])
        #expect(recorded.lines.joined().contains("Rolls: 9 "), "the stored state the session started from: \(recorded.lines)")

        let session = try Session(contentsOf: path)
        #expect(session.size == TerminalSize(columns: 60, rows: 12))
        let kinds = Set(session.entries.map(\.kind))
        #expect(kinds.isSuperset(of: [.input, .event, .request, .effect, .result, .coeffect]))
        #expect(session.entries.filter { $0.kind == .input }.count == 8)
        #expect(session.entries.contains { $0.kind == .request && $0.type == "DiceRequest" && $0.value != nil })
        // Requests are kept apart from the other entries until the flush: the file still has
        // every entry once, in the order they happened (an event before the requests it sent).
        let numbers = session.entries.compactMap(\.n)
        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count, "\(numbers)")
        let firstEvent = session.entries.firstIndex { $0.kind == .event } ?? .max
        let firstRequest = session.entries.firstIndex { $0.kind == .request } ?? -1
        #expect(firstEvent < firstRequest)
        #expect(session.files.keys.contains { $0.hasSuffix(".json") }, "the store file: \(session.files.keys)")

        // Twice, to be sure nothing of the first replay leaks into the second.
        for _ in 0..<2 {
            let replayed = try await SessionReplayRunner.replay(session, install: { _ in () }, tabs: { [Tab(DiceApplet()), Tab(TallyApplet())] },
                                                                theme: .dark, shell: .tabBar, statusBar: nil)
            #expect(replayed == recorded.lines, "replayed:\n\(replayed.joined(separator: "\n"))\nrecorded:\n\(recorded.lines.joined(separator: "\n"))")
        }
    }

    @Test func aReplayOfAppThatChangedSaysWhereItParted() async throws {
        let path = temporaryPath("dice", suffix: ".session")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try await record(to: path)
        let session = try Session(contentsOf: path)
        // Today's app no longer fetches a word on `w`.
        await #expect {
            _ = try await SessionReplayRunner.replay(session, install: { _ in () }, tabs: { [Tab(TallyApplet())] },
                                                     theme: .dark, shell: .tabBar, statusBar: nil)
        } throws: { error in
            "\(error)".contains("did not start side effect") && "\(error)".contains("FetchWord")
        }
    }

    @Test func aRecordingTakesTheStateFolderJSONButNotSecretsLogsOrLargeFiles() throws {
        let folder = temporaryPath("state")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for sub in ["files", "sync", "secure", "logs"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        let small = "{\"a\": 1}\n"
        let files = ["app.json": small, "files/notes.json": small, "sync/Feature.id.json": small,
                     "secure/token.json": small, "logs/app.json": small, "notes.txt": "text",
                     "big.json": String(repeating: " ", count: (1 << 20) + 1)]
        for (path, text) in files { try text.write(toFile: folder + "/" + path, atomically: false, encoding: .utf8) }

        let taken = SessionReplayRunner.stateFiles(in: folder)
        #expect(Set(taken.keys) == ["app.json", "files/notes.json", "sync/Feature.id.json"])
        #expect(taken["files/notes.json"] == small)
        #expect(SessionReplayRunner.stateFiles(in: folder + "/missing").isEmpty)
    }

    @Test func aFileThatIsNotASessionIsRefusedWithItsLine() throws {
        let path = temporaryPath("not", suffix: ".session")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\"kind\":\"input\"}\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SessionError.self) { try Session(contentsOf: path) }
        do { _ = try Session(contentsOf: path) } catch { #expect("\(error)".contains(":1: the first line is not a session header")) }
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        do { _ = try Session(contentsOf: path) } catch { #expect("\(error)".contains(":1: not a session entry")) }
    }

    // MARK: A session file from someone else

    /// A header line as `--record` writes it, with `fields` laid over it.
    static func header(_ fields: String = "") -> String {
        #"{"kind":"header","n":1,"app":"applet-test","version":1,"size":{"columns":60,"rows":12}"# + fields + "}"
    }

    static func refusal(_ text: String) -> String? {
        do {
            _ = try Session(data: Data(text.utf8), file: "bug.session")
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: ["../../escaped.json", "/etc/passwd", "a/../../b", "a//b", "./a", "a/.", "..", "", "a\u{0}b",
                      String(repeating: "x/", count: 40) + "f"])
    func aStateFileNamedOutsideItsFolderIsRefused(_ name: String) throws {
        let encoded = String(decoding: try JSONEncoder().encode([name: "{}"]), as: UTF8.self)
        let message = try #require(Self.refusal(Self.header(",\"files\":\(encoded)") + "\n"))
        #expect(message.hasPrefix("bug.session:1: the header names a state file"), "\(message)")
        #expect(!message.contains("\u{0}"))
    }

    @Test func namesInsideTheFolderAreAccepted() {
        for name in ["app.json", "files/notes.json", "sync/Feature.id.json", ".hidden", "a..b", "...", "é/日本.json"] {
            #expect(Session.isContainedPath(name), "\(name)")
        }
        #expect(!Session.isContainedPath(String(repeating: "x", count: 256)))
    }

    @Test(arguments: [(100_000, 100_000), (-5, -5), (0, 24), (80, 0), (5_000, 10)])
    func aTerminalSizeNoTerminalHasIsTheFilesFault(columns: Int, rows: Int) throws {
        let text = #"{"kind":"header","n":1,"app":"applet-test","version":1,"size":{"columns":\#(columns),"rows":\#(rows)}}"# + "\n"
        let message = try #require(Self.refusal(text))
        #expect(message.contains("bug.session:1: the recorded terminal size \(columns)x\(rows) is not one a terminal has"), "\(message)")
    }

    @Test func aSizeBelowTheAppsMinimumIsTheFilesFaultToo() async throws {
        let session = try Session(data: Data((#"{"kind":"header","n":1,"app":"applet-test","version":1,"size":{"columns":10,"rows":3}}"# + "\n").utf8),
                                  file: "small.session")
        await #expect {
            _ = try await SessionReplayRunner.replay(session, install: { _ in () }, tabs: { [Tab(DiceApplet())] },
                                                     theme: .dark, shell: .tabBar, statusBar: nil)
        } throws: { error in
            "\(error)".hasPrefix("small.session:1: the recorded terminal is 10x3, smaller than the 20x5 this app needs")
        }
    }

    @Test func aResizeToNoTerminalsSizeIsRefusedNotAllocated() async throws {
        let text = Self.header() + "\n" + #"{"kind":"input","n":2,"at":0.1,"value":{"resize":{"_0":{"width":100000,"height":100000}}}}"# + "\n"
        let session = try Session(data: Data(text.utf8), file: "resize.session")
        await #expect {
            _ = try await SessionReplayRunner.replay(session, install: { _ in () }, tabs: { [Tab(DiceApplet())] },
                                                     theme: .dark, shell: .tabBar, statusBar: nil)
        } throws: { error in
            "\(error)".contains("resize.session: a resize to 100000x100000 is not a size a terminal has")
        }
    }

    @Test func tooManyOrTooLargeStateFilesAreRefused() throws {
        let many = Dictionary(uniqueKeysWithValues: (0...Session.Limits.files).map { ("f\($0).json", "{}") })
        let manyJSON = String(decoding: try JSONEncoder().encode(many), as: UTF8.self)
        #expect(Self.refusal(Self.header(",\"files\":\(manyJSON)") + "\n")?.contains("10001 state files") == true)
        let big = String(decoding: try JSONEncoder().encode(["big.json": String(repeating: "x", count: Session.Limits.fileText + 1)]), as: UTF8.self)
        #expect(Self.refusal(Self.header(",\"files\":\(big)") + "\n")?.contains("\"big.json\" is over 1 MiB") == true)
        let keymap = String(decoding: try JSONEncoder().encode(String(repeating: "#", count: Session.Limits.fileText + 1)), as: UTF8.self)
        #expect(Self.refusal(Self.header(",\"keymap\":\(keymap)") + "\n")?.contains("the keymap is over 1 MiB") == true)
    }

    @Test func aSessionFileOverTheLimitIsNotRead() throws {
        let path = temporaryPath("huge", suffix: ".session")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(fd, off_t(Session.Limits.fileBytes + 1)) == 0)
        close(fd)
        #expect(throws: SessionError.self) { try Session(contentsOf: path) }
        do { _ = try Session(contentsOf: path) } catch { #expect("\(error)".contains("is over 64 MiB, more than a session file may be")) }
    }

    @Test func aReplayRestoresItsFilesInAPrivateFolderAndNothingElsewhere() async throws {
        // A recorded session whose state file names a folder: restored under the replay's folder.
        let text = Self.header(#","files":{"files/ReplayTests.note.json":"[1]\n","applet-test.json":"{\"ReplayTests.rolls\": [4, 2]}"}"#) + "\n"
        let session = try Session(data: Data(text.utf8), file: "files.session")
        let lines = try await SessionReplayRunner.replay(session, install: { _ in () }, tabs: { [Tab(DiceApplet())] },
                                                         theme: .dark, shell: .tabBar, statusBar: nil)
        #expect(lines.joined(separator: "\n").contains("Rolls: 4 2"), "\(lines.joined(separator: "\n"))")
    }

    @Test func aRecordingIsPrivateEvenUnderAnOpenUmask() throws {
        let path = temporaryPath("private", suffix: ".session")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        let old = umask(0)
        defer { umask(old) }
        let recorder = try SessionRecorder(path: path, app: "applet-test")
        recorder.close()
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        // Not through a link put in its place.
        let link = path + ".link"
        defer { try? FileManager.default.removeItem(atPath: link) }
        #expect(symlink(path, link) == 0)
        #expect(throws: SessionError.self) { try SessionRecorder(path: link, app: "applet-test") }
    }
}
