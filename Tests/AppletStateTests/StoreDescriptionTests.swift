import Observation
import Synchronization
import Testing
@testable import AppletState

struct DumpPrefs: Codable, Equatable, Sendable {
    var theme = "dark"
    var fontSize = 12
}

protocol DumpGreeter: Sendable { func greet() -> String }
struct DumpEnglish: DumpGreeter { func greet() -> String { "Hello" } }
struct DumpFrench: DumpGreeter { func greet() -> String { "Bonjour" } }

extension Application {
    var dumpCount: State<Int> { state(initial: 0, feature: "Dump", id: "count") }
    var dumpDraft: State<String> { scopedState(initial: "", feature: "Dump", id: "draft") }
    var dumpMaybe: State<String?> { state(initial: nil, feature: "Dump", id: "maybe") }
    var dumpLaunches: StoredState<Int> { storedState(initial: 0, feature: "Dump", id: "launches") }
    var dumpPrefs: FileState<DumpPrefs> { fileState(initial: DumpPrefs(), feature: "Dump", id: "prefs") }
    var dumpToken: SecureState { secureState(feature: "Dump", id: "token") }
    var dumpNoToken: SecureState { secureState(feature: "Dump", id: "none") }
    var dumpShared: SyncState<String> { syncState(initial: "", feature: "Dump", id: "shared") }
    var dumpGreeter: Dependency<any DumpGreeter> { dependency(DumpEnglish(), feature: "Dump") }
    var dumpText: State<String> { state(initial: "", feature: "Dump", id: "text") }
    var dumpNumbers: State<[Int]> { state(initial: [], feature: "Dump", id: "numbers") }
    /// A dependency whose making prints the store: it is listed as being made, and nothing waits.
    var dumpSelfDescribing: Dependency<String> { dependency(Application.description, feature: "Dump", id: "selfDescribing") }
}

final class DumpApplication: Application, @unchecked Sendable {
    override var description: String { super.description + "\n(a custom store)" }
}

/// The lines of a description that list values (the rest are headings).
private func valueLines(_ text: String) -> [Substring] {
    text.split(separator: "\n").filter { $0.hasPrefix("  ") }
}

@Suite("Application.description")
struct StoreDescriptionTests {
    /// One of each kind: listed kind by kind in a fixed order, by key within a kind, each with its
    /// type and value; the secret only as `<secret>`.
    @Test func aStoreWithOneOfEachKind() {
        let sandbox = ParitySandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        Application.withCurrent(app) {
            Application.state(\.dumpCount).value = 3
            Scope.with(Scope(name: "notes", id: "left")) { Application.state(\.dumpDraft).value = "left" }
            Application.storedState(\.dumpLaunches).value = 2
            Application.fileState(\.dumpPrefs).value.theme = "light"
            Application.secureState(\.dumpToken).value = "hunter2-do-not-print"
            _ = Application.secureState(\.dumpNoToken).value
            Application.syncState(\.dumpShared).value = "hi"
            _ = Application.dependency(\.dumpGreeter)
        }
        let expected = """
            Application, 9 values (state folder \(sandbox.directory))
            State
              AppletState.storeIssues: [StoreIssue] = []
              Dump.count: Int = 3
              Dump.draft@notes.left: String = "left"
            StoredState (in \(sandbox.storePath))
              Dump.launches: Int = 2
            FileState
              Dump.prefs: DumpPrefs = DumpPrefs(theme: "light", fontSize: 12)  (files/Dump.prefs.json)
            SecureState (values hidden)
              Dump.none = nil
              Dump.token = <secret>
            SyncState (shared with the app's other running instances)
              Dump.shared: String = "hi"
            Dependency
              Dump.dumpGreeter: DumpGreeter = DumpEnglish()
            """
        #expect(app.description == expected, "got:\n\(app.description)")
        #expect("\(app)" == expected, "CustomStringConvertible")
        #expect(Application.withCurrent(app) { Application.description } == expected, "AppState's static spelling")
        #expect(!app.description.contains("hunter2"))
    }

    /// A secret never reaches the text, whatever else the store holds and however it is asked for.
    @Test func secretsNeverAppear() {
        let sandbox = ParitySandbox()
        defer { sandbox.remove() }
        let app = sandbox.launch()
        let secret = "s3cr3t-\(Int.random(in: 100_000...999_999))"
        Application.withCurrent(app) {
            Application.secureState(\.dumpToken).value = secret
            Application.state(\.dumpCount).value = 1
        }
        for text in [app.description, "\(app)", String(describing: app), Application.withCurrent(app) { Application.description }] {
            #expect(!text.contains(secret))
            #expect(!text.contains("s3cr3t"))
            #expect(text.contains("Dump.token = <secret>"))
        }
        Application.withCurrent(app) { Application.reset(\.dumpToken) }
        #expect(app.description.contains("Dump.token = nil"))
    }

    /// Long values are cut at 80 characters, control characters are escaped (the text is safe to
    /// print in a terminal), optionals show their value or `nil`, and a large value (AppState's
    /// thousand-element array) prints without trouble.
    @Test func valuesAreBoundedAndSafeToPrint() {
        let app = Application()
        app.dumpText.value = String(repeating: "x", count: 500)
        app.dumpNumbers.value = Array(0..<1_000)
        _ = app.dumpMaybe.value
        var lines = valueLines(app.description)
        let text = lines.first { $0.contains("Dump.text") }.map(String.init) ?? ""
        #expect(text.hasSuffix("…"))
        #expect(text.count == "  Dump.text: String = ".count + 80)
        let numbers = lines.first { $0.contains("Dump.numbers") }.map(String.init) ?? ""
        #expect(numbers.hasPrefix("  Dump.numbers: [Int] = [0, 1, 2"))
        #expect(numbers.hasSuffix("…"))
        #expect(lines.contains("  Dump.maybe: String? = nil"))

        app.dumpText.value = "a\u{1B}[2Jb\nc"
        app.dumpMaybe.value = "here"
        let description = app.description
        #expect(!description.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        lines = valueLines(description)
        #expect(lines.contains(#"  Dump.text: String = "a\u{1B}[2Jb\nc""#))
        #expect(lines.contains(#"  Dump.maybe: String? = "here""#))
    }

    /// A store with more values than are listed says how many more there are.
    @Test func pastAThousandValuesTheRestAreCounted() {
        let app = Application()
        for i in 0..<1_005 { _ = app.state(initial: i, feature: "Many", id: "k\(i)") }
        let description = app.description
        #expect(description.hasPrefix("Application, 1005 values"))
        #expect(valueLines(description).count == 1_000)
        #expect(description.hasSuffix("… and 5 more, not shown"))
    }

    /// Reading it observes nothing: a view that prints the store is not redrawn by every change.
    @Test func readingItObservesNothing() {
        let app = Application()
        app.dumpCount.value = 1
        _ = app.dumpGreeter.value
        let told = Atomic<Int>(0)
        let observer = StateObserver { told.add(1, ordering: .relaxed) }
        StateTracking.withTracking({ _ = app.description }, observer: observer)
        withObservationTracking { _ = app.description } onChange: { told.add(1, ordering: .relaxed) }
        app.dumpCount.value = 2
        _ = Application.withCurrent(app) { Application.override(\.dumpGreeter, with: DumpFrench()) }
        #expect(told.load(ordering: .relaxed) == 0)
    }

    /// The same content gives the same text, whatever order it was declared in.
    @Test func theOrderIsStable() {
        let first = Application(), second = Application()
        _ = first.dumpCount.value
        _ = first.dumpText.value
        _ = first.dumpGreeter.value
        _ = second.dumpGreeter.value
        _ = second.dumpText.value
        _ = second.dumpCount.value
        #expect(first.description == second.description)
        #expect(valueLines(first.description).map { $0.split(separator: ":")[0] } == ["  Dump.count", "  Dump.text", "  Dump.dumpGreeter"])
    }

    /// A dependency says when it is overridden or promoted.
    @Test func dependenciesSayWhetherOverriddenOrPromoted() {
        let app = Application()
        Application.withCurrent(app) {
            _ = Application.dependency(\.dumpGreeter)
            let one = Application.override(\.dumpGreeter, with: DumpFrench())
            #expect(app.description.contains("Dump.dumpGreeter: DumpGreeter = DumpFrench()  [overridden]"))
            let two = Application.override(\.dumpGreeter, with: DumpEnglish())
            #expect(app.description.contains("Dump.dumpGreeter: DumpGreeter = DumpEnglish()  [overridden 2 times]"))
            Application.promote(\.dumpGreeter, with: DumpFrench())
            #expect(app.description.contains("[promoted, overridden 2 times]"))
            one.cancel()
            two.cancel()
            #expect(app.description.contains("Dump.dumpGreeter: DumpGreeter = DumpFrench()  [promoted]"))
        }
    }

    /// A dependency being made when the store is printed (by its own making) is listed as such,
    /// and printing does not wait for it.
    @Test func aDependencyBeingMadeIsListedAsSuch() {
        let app = Application()
        let printed = Application.withCurrent(app) { Application.dependency(\.dumpSelfDescribing) }
        #expect(printed.contains("Dump.selfDescribing: String = (being made)"))
        #expect(app.description.contains(#"Dump.selfDescribing: String = "Application, 1 value"#))
    }

    /// A subclass is named, and may add to the text.
    @Test func aSubclassIsNamedAndMayAddToIt() {
        let app = DumpApplication()
        _ = app.dumpCount.value
        #expect(app.description == "Application (DumpApplication), 1 value\nState\n  Dump.count: Int = 0\n(a custom store)")
        #expect(Application().description == "Application, no values")
    }

    /// Type names as code writes them.
    @Test func typeNamesReadAsCode() {
        #expect(StoreDump.typeName("Optional<Array<Dictionary<String, Int>>>") == "[[String: Int]]?")
        #expect(StoreDump.typeName("Optional<any DumpGreeter>") == "(any DumpGreeter)?")
        #expect(StoreDump.typeName("Result<Array<Int>, any Error>") == "Result<[Int], any Error>")
        #expect(StoreDump.typeName("Dictionary<String, Optional<(Int, Array<Int>)>>") == "[String: (Int, Array<Int>)?]")
        #expect(StoreDump.typeName("Dictionary<String, Optional<(Int) -> Int>>") == "[String: ((Int) -> Int)?]")
        #expect(StoreDump.typeName("Int") == "Int")
    }
}
