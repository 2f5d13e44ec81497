@testable import AppletKit
import AppletTesting
import Foundation
import Testing

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
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dice-\(UUID().uuidString).session").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorded = try await record(to: path, startingWith: [9])
        #expect(recorded.lines.joined().contains("Rolls: 9 "), "the stored state the session started from: \(recorded.lines)")

        let session = try Session(contentsOf: path)
        #expect(session.size == ScreenSize(columns: 60, rows: 12))
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
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dice-\(UUID().uuidString).session").path
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)").path
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
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-\(UUID().uuidString).session").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\"kind\":\"input\"}\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SessionError.self) { try Session(contentsOf: path) }
        do { _ = try Session(contentsOf: path) } catch { #expect("\(error)".contains(":1: the first line is not a session header")) }
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        do { _ = try Session(contentsOf: path) } catch { #expect("\(error)".contains(":1: not a session entry")) }
    }
}
