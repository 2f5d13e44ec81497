import Synchronization

/// Maps a declaration, as written at one place, to the box it resolved to, so that reading
/// `store.counter` again skips building its key ("Counter.count"), hashing that with the store's
/// registry under its lock, copying the registry entry and checking the box's type.
///
/// The key is everything that decides the box: the name (feature and id, or the property's
/// name), whether the id was derived, the place it is written (so a second place still goes
/// through the registry once and is reported there if it clashes), the scope for scoped state,
/// and the value type (another type gets another box). A store never removes or replaces a box
/// under a key, so an entry never goes stale.
///
/// ```swift
/// if let box = declarations.box(for: key) { ... }   // a declaration read before
/// declarations.insert(box, for: key)                 // after the registry resolved it
/// ```
final class DeclarationCache: Sendable {
    struct Key: Equatable, Sendable {
        let feature: String
        let id: String
        let derived: Bool
        let fileID: String
        let line: Int
        let scope: Int
        let type: ObjectIdentifier
        /// Computed once from all of the above: hashing the key is combining one word, and most
        /// unequal keys differ here.
        fileprivate let digest: UInt64

        init(feature: String, id: String, derived: Bool, fileID: String, line: Int, scope: Int, type: ObjectIdentifier) {
            self.feature = feature
            self.id = id
            self.derived = derived
            self.fileID = fileID
            self.line = line
            self.scope = scope
            self.type = type
            // The place (file and line) almost always decides the feature; the id varies at one
            // place when it is computed (`id: "row\(index)"`), so its bytes are hashed, the rest
            // cheaply. FNV-1a over the id's contiguous bytes.
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            let hashed: Bool = id.utf8.withContiguousStorageIfAvailable { bytes in
                for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
                return true
            } ?? false
            if !hashed { h ^= UInt64(UInt(bitPattern: id.hashValue)) }
            h ^= UInt64(bitPattern: Int64(line)) &* 0x9E37_79B9_7F4A_7C15
            h ^= UInt64(bitPattern: Int64(scope)) &* 0xC2B2_AE3D_27D4_EB4F
            // The type's metadata address: unique per type, and no Hasher to seed and finalize.
            h ^= UInt64(UInt(bitPattern: type)) &* 0x1656_67B1_9E37_79F9
            h ^= UInt64(feature.utf8.count &* 31 &+ fileID.utf8.count) &* 0x2545_F491_4F6C_DD1D
            h ^= h >> 29
            digest = derived ? ~h : h
        }


        static func == (a: Key, b: Key) -> Bool {
            a.digest == b.digest && a.line == b.line && a.scope == b.scope && a.type == b.type && a.derived == b.derived
                && a.id == b.id && a.feature == b.feature && a.fileID == b.fileID
        }
    }

    /// Open addressing on the key's digest, probed linearly: a read hashes nothing more (a
    /// `Dictionary` would seed, feed and finalize a `Hasher` for the one word, the largest part
    /// of a hit).
    private struct Table {
        struct Slot {
            let key: Key
            let box: any StateStorage
        }
        var slots = [Slot?](repeating: nil, count: 16)
        var count = 0

        func find(_ key: Key) -> (any StateStorage)? {
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: key.digest) & mask
            while let slot = slots[index] {
                if slot.key == key { return slot.box }
                index = (index + 1) & mask
            }
            return nil
        }

        mutating func insert(_ box: any StateStorage, for key: Key) {
            if find(key) != nil { return }
            if (count + 1) * 4 > slots.count * 3 {
                let old = slots
                slots = [Slot?](repeating: nil, count: old.count * 2)
                count = 0
                for case let slot? in old { place(slot) }
            }
            place(Slot(key: key, box: box))
        }

        private mutating func place(_ slot: Slot) {
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: slot.key.digest) & mask
            while slots[index] != nil { index = (index + 1) & mask }
            slots[index] = slot
            count += 1
        }
    }

    private let table = Mutex(Table())

    /// The box `key` resolved to before, if it did.
    func box(for key: Key) -> (any StateStorage)? { table.withLock { $0.find(key) } }

    /// Remembers what `key` resolved to (the first box stays if two threads resolved it at once:
    /// the registry hands both the same box anyway).
    func insert(_ box: any StateStorage, for key: Key) { table.withLock { $0.insert(box, for: key) } }

    /// How many declarations are kept (tests).
    var count: Int { table.withLock { $0.count } }
}
