import Dispatch
import Synchronization
import Testing
@testable import AppletState

/// `ValueLock` keeps values that are plain bits and fit in 8 bytes in an atomic word too, and
/// reads that word without the lock. These tests fail if a write path forgot to publish to the
/// word (a read would see a stale value) or if a read could see half of a write.
@Suite("ValueLock")
struct ValueLockTests {
    private struct Failure: Error {}

    @Test func wordSizedPlainValuesTakeTheLockFreeRead() {
        #expect(ValueLock<Int>.isWord)
        #expect(ValueLock<Bool>.isWord)
        #expect(ValueLock<Double>.isWord)
        #expect(ValueLock<UInt8>.isWord)
        #expect(!ValueLock<Int?>.isWord)   // 9 bytes
        #expect(!ValueLock<String>.isWord) // holds a reference
        #expect(!ValueLock<[Int]>.isWord)
    }

    @Test func everyWritePathIsSeenByTheNextRead() {
        let box = StateBox(1, key: "Tests.valueLockWrites")
        #expect(box.value == 1)
        box.set(2)
        #expect(box.value == 2 && box.untrackedValue == 2)
        box.modify { $0 += 10 }
        #expect(box.value == 12)
        // A throwing modify keeps what it changed before it threw, as the locked value does.
        #expect(throws: Failure.self) { try box.modify { value in value = 40; throw Failure() } }
        #expect(box.value == 40)
        box.setFromOutside(7)
        #expect(box.value == 7)
        box.reset()
        #expect(box.value == 1)
        box.set(9)
        box.restoreInitial()
        #expect(box.value == 1)
    }

    @Test func valuesOutsideTheWordStillGoThroughTheLock() {
        let optional = StateBox<Int?>(nil, key: "Tests.valueLockOptional")
        optional.set(3)
        #expect(optional.value == 3)
        optional.modify { $0 = nil }
        #expect(optional.value == nil)
        let text = StateBox("a", key: "Tests.valueLockText")
        text.modify { $0 += "b" }
        #expect(text.value == "ab")
    }

    @Test func concurrentReadsNeverSeeAHalfWrittenValueNorLoseAnIncrement() {
        // Every value written has equal high and low halves: a torn read would not.
        let box = StateBox(UInt64(0), key: "Tests.valueLockTearing")
        let counter = StateBox(0, key: "Tests.valueLockCounter")
        let torn = Atomic<Int>(0)
        let writers = 2, rounds = 5_000
        DispatchQueue.concurrentPerform(iterations: writers + 2) { index in
            if index < writers {
                for round in 1...rounds {
                    let half = UInt64(index * rounds + round)
                    box.set(half << 32 | half)
                    counter.modify { $0 += 1 }
                }
            } else {
                for _ in 0..<rounds {
                    let value = box.value
                    if value >> 32 != value & 0xFFFF_FFFF { torn.add(1, ordering: .relaxed) }
                    _ = counter.value
                }
            }
        }
        #expect(torn.load(ordering: .relaxed) == 0)
        #expect(counter.value == writers * rounds)
    }
}
