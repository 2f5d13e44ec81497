import Testing
@testable import AppletUI

@Suite("ViewID")
struct ViewIDTests {
    @Test func childrenOfOneParentNeverCollideAndAreStable() {
        let parent = ViewID.root
        let children = (0..<100_000).map { parent.child($0) }
        #expect(Set(children).count == children.count)
        #expect(parent.child(42) == parent.child(42))
        #expect(!children.contains(parent))
    }

    @Test func theSameIndexUnderOtherParentsIsAnotherIdentity() {
        let parents = (0..<1_000).map { ViewID.root.child($0) }
        let grandchildren = parents.map { $0.child(7) }
        #expect(Set(grandchildren).count == parents.count)
        #expect(Set(grandchildren).isDisjoint(with: parents))
    }

    @Test func aHashableComponentIsStableAndDistinctFromItsSiblings() {
        let parent = ViewID.root.child(3)
        #expect(parent.child("name") == parent.child("name"))
        #expect(Set(["a", "b", "c", "d"].map { parent.child($0) }).count == 4)
    }
}
