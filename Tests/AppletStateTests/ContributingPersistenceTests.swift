// Docs/Contributing.md, "Add a persistence kind": a kind written as the framework's own kinds are
// (the type's name, its declaration, its accessor by key path), compiled and run here.
// `@testable`, as the code is the framework's: it uses the store's internal declaration and
// folders. DocSnippetsTests checks that each block marked
// `<!-- tested in Tests/AppletStateTests/ContributingPersistenceTests.swift -->` appears in this
// file line for line.
import Foundation
import Testing
@testable import AppletState

// MARK: The kind, as Sources/AppletState/Persistence/TextState.swift would hold it

/// A string in a plain-text file of its own, `<state folder>/files/<feature>.<id>.txt`: a note or
/// a message of the day that people may edit by hand. Saved as `FileState` is: coalesced.
public typealias TextState = PersistentState<TextStateStrategy>

/// How `TextState` keeps a value: the file holds the string's UTF-8, and nothing else.
public struct TextStateStrategy: PersistenceStrategy {
    public static var kind: String { "TextState" }
    /// What the value is named by in messages ("Feature.id").
    public let key: String
    /// The file.
    public let path: String
    public var id: String { path }

    public init(key: String, path: String) {
        self.key = key
        self.path = path
    }

    public func load(initial: String, from storage: PersistentStorage) -> String? {
        storage.read(path, key: key) { String(decoding: $0, as: UTF8.self) }
    }

    public func save(_ value: String, to storage: PersistentStorage) throws {
        try storage.write(Data(value.utf8), to: path)
    }

    public func remove(from storage: PersistentStorage) throws {
        try storage.removeFile(path, key: key)
    }

    public func unsavedCopy(of value: String) -> Data? { Data(value.utf8) }
}

extension Application {
    /// Declares (or finds) text state; the first access reads the file, or uses `initial`.
    /// Without an `id`, the declaring property's name is the id.
    public func textState(initial: @autoclosure () -> String = "", feature: String = "App", id: String? = nil,
                          function: String = #function, fileID: String = #fileID, line: Int = #line) -> TextState {
        let key = "\(feature).\(id ?? function)"
        let path = Path.join(persistence.filesFolder, Persistence.fileName(key) + ".txt")
        let declaration = Declaration(derived: id == nil, fileID: fileID, line: line)
        return TextState(box: persistentBox(TextStateStrategy(key: key, path: path), declaration: declaration, initial: initial))
    }

    /// The text state at `keyPath` in the current store (the same as `state(_:)`).
    public static func textState(_ keyPath: KeyPath<Application, TextState>) -> TextState {
        withCurrentUnretained { $0.resolve(keyPath) }
    }
}

// MARK: Its tests

extension Application {
    var plan: TextState { textState(feature: "Profile", id: "plan") }
    var motto: TextState { textState(initial: "Keep going") }
}

private struct PlanView {
    @TextState(\.plan) var plan
}

@Suite("Docs/Contributing.md: a persistence kind", .serialized)
struct ContributingPersistenceTests {
    @Test func itIsSavedCoalescedLoadedByTheNextRunAndReset() throws {
        try PersistentStateDocsTests.withFolder { folder, launch throws in
            let app = launch(folder)
            let file = folder + "/files/Profile.plan.txt"
            Application.withCurrent(app) {
                Application.textState(\.plan).value = "Back"
                let view = PlanView()
                view.plan += " at 3"
            }
            #expect(!FileManager.default.fileExists(atPath: file), "written about 100 ms later, not at once")
            app.flush()
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "Back at 3")
            #expect(app.persistentFileWrites == 1, "two changes, one write")

            Application.withCurrent(launch(folder)) {
                #expect(Application.textState(\.plan).value == "Back at 3", "loaded by the next run")
                Application.reset(\.plan)
                #expect(PlanView().plan == "")
                Application.current.flush()
            }
            #expect(!FileManager.default.fileExists(atPath: file), "reset deletes the file")
        }
    }

    @Test func withoutAnIDThePropertysNameIsTheID() throws {
        try PersistentStateDocsTests.withFolder { folder, launch throws in
            let app = launch(folder)
            Application.withCurrent(app) {
                #expect(Application.textState(\.motto).value == "Keep going")
                Application.textState(\.motto).value = "Onwards"
            }
            app.flush()
            #expect(try String(contentsOfFile: folder + "/files/App.motto.txt", encoding: .utf8) == "Onwards")
        }
    }

    @Test func aFileThatCannotBeReadIsLeftAloneAndNamedAtExit() throws {
        try PersistentStateDocsTests.withFolder { folder, launch throws in
            let file = folder + "/files/Profile.plan.txt"
            try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: true)
            let app = launch(folder)
            Application.withCurrent(app) { Application.textState(\.plan).value = "kept" }
            #expect(app.storeIssues.value.first?.message.hasPrefix("Cannot read \(file)") == true, "\(app.storeIssues.value)")
            let unsaved = app.saveBeforeExit()
            #expect(unsaved.map(\.keys) == [["Profile.plan"]], "\(unsaved)")
            let copy = try #require(unsaved.first?.copy)
            #expect(try String(contentsOfFile: copy, encoding: .utf8) == "kept")
            try? FileManager.default.removeItem(atPath: copy)
        }
    }

    @Test func theStoreDescriptionListsIt() throws {
        try PersistentStateDocsTests.withFolder { folder, launch throws in
            let app = launch(folder)
            Application.withCurrent(app) { Application.textState(\.plan).value = "Back at 3" }
            // Under "State", named by its kind and id, until `StoreDump.Kind` gives the kind a heading.
            let line = "TextState:\(folder)/files/Profile.plan.txt: String = \"Back at 3\""
            #expect(app.description.contains(line), "\(app.description)")
        }
    }
}
