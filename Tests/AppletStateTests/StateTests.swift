import Observation
import Synchronization
import Testing
@testable import AppletState

extension Application {
    var testCount: State<Int> { state(initial: 0, id: "testCount") }
    var testName: State<String> { state(initial: "anon", feature: "Tests", id: "name") }
}

@Suite("State")
struct StateTests {
    @Test func initialValueThenWrites() {
        let app = Application()
        #expect(app.testCount.value == 0)
        app.testCount.value = 5
        #expect(app.testCount.value == 5)
        app.testName.value += "!"
        #expect(app.testName.value == "anon!")
    }

    @Test func storesAreIndependent() {
        let a = Application(), b = Application()
        a.testCount.value = 7
        #expect(b.testCount.value == 0)
    }

    @Test func currentFollowsTheInstalledStore() {
        let app = Application()
        Application.withCurrent(app) {
            Application.state(\.testCount).value = 3
        }
        #expect(app.testCount.value == 3)
        #expect(Application.current === Application.shared)
    }

    @Test func propertyWrapperReadsAndWritesTheCurrentStore() {
        struct Model {
            @AppState(\.testCount) var count
        }
        let app = Application()
        Application.withCurrent(app) {
            let model = Model()
            model.count += 2
            model.$count.wrappedValue += 1
            #expect(model.count == 3)
        }
        #expect(app.testCount.value == 3)
    }

    @Test func concurrentModifyLosesNoUpdates() async {
        let app = Application()
        let counter = app.testCount
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1000 { group.addTask { counter.modify { $0 += 1 } } }
        }
        #expect(counter.value == 1000)
    }

    @Test func observationFiresOnChangeOfWhatWasRead() {
        let app = Application()
        let fired = Mutex(0)
        withObservationTracking {
            _ = app.testCount.value
        } onChange: {
            fired.withLock { $0 += 1 }
        }
        app.testName.value = "other"          // not read: no notification
        #expect(fired.withLock { $0 } == 0)
        app.testCount.value = 1
        #expect(fired.withLock { $0 } == 1)
    }

    @Test func bindingWritesThrough() {
        let app = Application()
        let binding = app.testCount.binding
        binding.wrappedValue = 9
        #expect(app.testCount.value == 9)
        #expect(Binding.constant(4).wrappedValue == 4)
    }
}
