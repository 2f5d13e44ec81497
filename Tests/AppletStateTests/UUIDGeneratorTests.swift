import Foundation
import Testing
import AppletState

@Suite("UUIDGenerator")
struct UUIDGeneratorTests {
    @Test func incrementingCountsFromZeroAndEachSequenceIsItsOwn() {
        let first = UUIDGenerator.incrementing()
        #expect(first().uuidString == "00000000-0000-0000-0000-000000000000")
        #expect(first().uuidString == "00000000-0000-0000-0000-000000000001")
        let second = UUIDGenerator.incrementing()
        #expect(second().uuidString == "00000000-0000-0000-0000-000000000000")
        #expect(UUIDGenerator.sequential(255).uuidString == "00000000-0000-0000-0000-0000000000FF")
        #expect(UUIDGenerator.sequential(0x1234_5678_9ABC).uuidString == "00000000-0000-0000-0000-123456789ABC")
    }

    @Test func theStoreMakesRandomIDsUnlessToldOtherwise() {
        let store = Application()
        Application.withCurrent(store) {
            let a = Application.dependency(\.uuid)(), b = Application.dependency(\.uuid)()
            #expect(a != b)
            let token = Application.override(\.uuid, with: .incrementing())
            #expect(Application.dependency(\.uuid)() == UUIDGenerator.sequential(0))
            #expect(Application.dependency(\.uuid)() == UUIDGenerator.sequential(1))
            token.cancel()
            #expect(Application.dependency(\.uuid)() != UUIDGenerator.sequential(2))
        }
    }
}
