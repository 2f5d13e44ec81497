import AppletState
import Foundation
import Observation
import Testing
@testable import AppletLogic

/// The action log tells its observers of every entry they could have seen, though it skips the
/// registrar when nobody read it since the last change it announced.
@Suite("Action log observation")
@MainActor
struct ActionLogObservationTests {
    /// Observes `revision` once, as a view's evaluation does; notes each change it is told of.
    private func track(_ log: ActionLog, _ changes: Calls) {
        withObservationTracking {
            _ = log.revision
        } onChange: {
            changes.add("changed")
        }
    }

    @Test func theFilterIgnoresCaseAndTheBlanksAroundIt() {
        struct Disk: Error, CustomStringConvertible { var description: String { "Disk Full" } }
        let log = ActionLog(capacity: 5)
        log.append(.unhandledError)
        log.append(.unhandledError, error: Disk())
        #expect(log.entries(matching: "  DISK full\t").map(\.error) == ["Disk Full"])
        #expect(log.entries(matching: "unhandled").count == 2)   // the title
        #expect(log.entries(matching: " \t ").count == 2)         // blank: everything
        #expect(log.entries(matching: "disk  full").isEmpty)     // blanks inside count
    }

    @Test func everyRegisteredObserverIsToldOfTheNextEntry() {
        let log = ActionLog(capacity: 3)
        let changes = Calls()
        log.append(.unhandledError)   // nobody reads it yet
        track(log, changes)
        log.append(.unhandledError)
        #expect(changes.all.count == 1)
        log.append(.unhandledError)   // the observation ended at the first change
        #expect(changes.all.count == 1)

        track(log, changes)
        track(log, changes)
        log.append(.unhandledError)   // past the capacity: replaces the oldest
        #expect(changes.all.count == 3)

        track(log, changes)
        log.clear()
        #expect(changes.all.count == 4)
        #expect(log.entries.isEmpty)
    }

    @Test func theRevisionChangesWithEveryEntryObservedOrNot() {
        let log = ActionLog(capacity: 2)
        let before = log.revision
        log.append(.unhandledError)
        log.append(.unhandledError)
        #expect(log.revision == before + 2)
        log.append(.unhandledError)
        #expect(log.revision == before + 3)
        #expect(log.entries.map(\.number) == [2, 3])
    }

    @Test func anEntrysTimeIsTheWallClockWhenItWasLogged() throws {
        let log = ActionLog()
        let before = Date()
        log.append(.unhandledError)
        let after = Date()
        let time = try #require(log.entries.first).time
        #expect(time >= before.addingTimeInterval(-0.05) && time <= after.addingTimeInterval(0.05))
    }
}
