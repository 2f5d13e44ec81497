import Foundation
import Synchronization
import Testing
import TestSupport
@testable import AppletState

extension Application {
    var coreCount: State<Int> { state(initial: 0, feature: "Core", id: "count") }
    var coreDraft: State<String> { scopedState(initial: "", feature: "Core", id: "draft") }
    subscript(coreKey index: Int) -> State<Int> { state(initial: index, feature: "Core", id: "key\(index)") }
    var coreStored: StoredState<Int> { storedState(initial: 1, feature: "Core", id: "stored") }
    var coreStoredToo: StoredState<String> { storedState(initial: "", feature: "Core", id: "storedToo") }
}

@Suite("Store core")
struct StoreCoreTests {
    @Test func keyPathCacheReturnsTheSameStateAsTheDeclaration() {
        let app = Application()
        Application.withCurrent(app) {
            Application.state(\.coreCount).value = 4              // first access: declaration runs
            #expect(Application.state(\.coreCount).value == 4)    // cached
            #expect(app.coreCount.value == 4)                     // the declaration sees the same box
            app.coreCount.value = 5
            #expect(Application.state(\.coreCount).value == 5)
        }
    }

    @Test func manyKeysAndSubscriptKeyPathsStayCorrect() {
        let app = Application()
        Application.withCurrent(app) {
            // 10,000 distinct keys, each through its own (not uniqued) key path: the cache grows
            // through several tables and every key still finds its own value.
            for i in 0..<10_000 { #expect(Application.state(\.[coreKey: i]).value == i) }
            for i in stride(from: 0, to: 10_000, by: 7) { Application.state(\.[coreKey: i]).value = -i }
            for i in stride(from: 0, to: 10_000, by: 7) { #expect(Application.state(\.[coreKey: i]).value == -i) }
            #expect(Application.state(\.[coreKey: 1]).value == 1)
            // The same subscript key path built many times does not grow the cache without bound,
            // and keeps answering.
            for _ in 0..<100 { #expect(Application.state(\.[coreKey: 3]).value == 3) }
        }
    }

    @Test func cacheIsPerStore() {
        let a = Application(), b = Application()
        Application.withCurrent(a) { Application.state(\.coreCount).value = 1 }
        Application.withCurrent(b) { #expect(Application.state(\.coreCount).value == 0) }
    }

    @Test func concurrentFirstAccessFindsOneBox() async {
        let app = Application()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    Application.withCurrent(app) { Application.state(\.coreCount).modify { $0 += 1 } }
                }
            }
        }
        #expect(app.coreCount.value == 200)
    }

    @Test func scopesKeepScopedStateApartAndShareTheRest() {
        let app = Application()
        let left = Scope(name: "notes", id: "left"), right = Scope(name: "notes", id: "right")
        Application.withCurrent(app) {
            Scope.with(left) {
                Application.state(\.coreDraft).value = "left text"
                Application.state(\.coreCount).value = 9          // not scoped: shared
            }
            Scope.with(right) {
                #expect(Application.state(\.coreDraft).value == "")
                Application.state(\.coreDraft).value = "right text"
                #expect(Application.state(\.coreCount).value == 9)
            }
            Scope.with(left) { #expect(Application.state(\.coreDraft).value == "left text") }
            #expect(Application.state(\.coreDraft).value == "")   // outside any scope: its own value
            #expect(Scope.current == nil)
        }
    }

    /// Stored state read again (a view's `@StoredState` on every frame) finds its box the same
    /// way, and that box is the one the registry holds and saves.
    @Test func storedDeclarationsReadAgainFindTheirBoxes() throws {
        let directory = temporaryPath("core")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = Application()
        app.storage = StorageConfiguration(appID: "core", directory: directory)
        app.coreStored.value = 7   // (the first stored value also sets up the store's own state)
        let before = app.declarations.count
        app.coreStoredToo.value = "kept"
        #expect(app.declarations.count == before + 1)
        for _ in 0..<10 { #expect(app.coreStored.value == 7 && app.coreStoredToo.value == "kept") }
        #expect(app.declarations.count == before + 1)
        #expect(app.coreStored.box === Application.withCurrent(app) { Application.storedState(\.coreStored).box })
        app.flush()
        let again = Application()
        again.storage = StorageConfiguration(appID: "core", directory: directory)
        #expect(again.coreStored.value == 7 && again.coreStoredToo.value == "kept")
    }

    /// A declaration read again (`store.coreDraft`) finds its box without the registry: per
    /// store, per scope, per computed id at one place, and the value type still decides.
    @Test func declarationsReadAgainFindTheirOwnBoxes() {
        let app = Application(), other = Application()
        app.coreCount.value = 3
        #expect(app.coreCount.value == 3 && other.coreCount.value == 0)
        #expect(app.coreCount.box === app.coreCount.box)
        for i in 0..<500 { app[coreKey: i].value = i * 2 }      // one place, 500 computed ids
        for i in 0..<500 { #expect(app[coreKey: i].value == i * 2) }
        #expect(Set((0..<500).map { ObjectIdentifier(app[coreKey: $0].box) }).count == 500)
        // Each kept once (the table grew past its first size), and reading again adds nothing.
        let kept = app.declarations.count
        #expect(kept == 501)
        for i in 0..<500 { _ = app[coreKey: i].value }
        #expect(app.declarations.count == kept)
        let left = Scope(name: "notes", id: "left"), right = Scope(name: "notes", id: "right")
        Application.withCurrent(app) {
            Scope.with(left) { app.coreDraft.value = "left" }
            Scope.with(right) { app.coreDraft.value = "right" }
            Scope.with(left) { #expect(app.coreDraft.value == "left") }
            Scope.with(right) { #expect(app.coreDraft.value == "right") }
            #expect(app.coreDraft.value == "")
            #expect(Application.state(\.coreDraft).value == "")
        }
        // The same name with another value type, at another place: a box of its own, reported.
        let clash = app.state(initial: "text", feature: "Core", id: "count")
        #expect(clash.value == "text" && app.coreCount.value == 3)
        #expect(app.storeIssues.value.contains { $0.message.contains("two value types") })
    }

    @Test func changesStreamsEveryNewValue() async {
        let app = Application()
        let state = app.coreCount
        let stream = state.changes
        let reader = Task { () -> [Int] in
            var seen: [Int] = []
            for await value in stream {
                seen.append(value)
                if seen.count == 3 { break }
            }
            return seen
        }
        state.value = 1
        state.modify { $0 += 1 }
        state.value = 10
        #expect(await reader.value == [1, 2, 10])
    }
}
