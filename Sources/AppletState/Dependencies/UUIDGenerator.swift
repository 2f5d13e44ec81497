import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the store's new ids come from (a toast's, for one): random UUIDs in an app, a sequence
/// that starts again at zero in each test, so a test can say which id a value got.
///
/// Read it through the store's `uuid` dependency; tests (`TestLogic`, `AppletTestHost`) install
/// `.incrementing()` for theirs, and a test of your own can do the same:
///
/// ```swift
/// let id = Application.dependency(\.uuid)()         // a new id
/// let token = Application.override(\.uuid, with: .incrementing())
/// Application.dependency(\.uuid)()                  // 00000000-0000-0000-0000-000000000000
/// Application.dependency(\.uuid)()                  // 00000000-0000-0000-0000-000000000001
/// ```
public struct UUIDGenerator: Sendable {
    private let make: @Sendable () -> UUID

    /// A generator that calls `make` for each id.
    public init(_ make: @escaping @Sendable () -> UUID) {
        self.make = make
    }

    /// A new id.
    public func callAsFunction() -> UUID { make() }

    /// Random (version 4) UUIDs: what an app uses.
    public static let live = UUIDGenerator { UUID() }

    /// `00000000-0000-0000-0000-000000000000`, then `…0001`, `…0002`…: the same ids in the same
    /// order every run. Each call makes a sequence of its own, starting at zero.
    public static func incrementing() -> UUIDGenerator {
        let next = Mutex(0)
        return UUIDGenerator {
            UUIDGenerator.sequential(next.withLock { number in
                defer { number += 1 }
                return number
            })
        }
    }

    /// The `number`th id of `incrementing()`: its last 12 hexadecimal digits are `number`.
    public static func sequential(_ number: Int) -> UUID {
        let value = UInt64(truncatingIfNeeded: number)
        func byte(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (8 * (5 - index))) }
        return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, byte(0), byte(1), byte(2), byte(3), byte(4), byte(5)))
    }
}

extension Application {
    /// Makes the store's new ids (`toast` uses it): random UUIDs, or in tests, which install
    /// `UUIDGenerator.incrementing()`, `00000000-0000-0000-0000-000000000000` and up.
    public var uuid: Dependency<UUIDGenerator> {
        dependency(.live, feature: "AppletState", id: "uuid")
    }
}
