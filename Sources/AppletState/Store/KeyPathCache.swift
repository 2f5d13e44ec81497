import Synchronization

/// Maps a key path (by object identity) and a scope to the storage box it resolved to, so that
/// `Application.state(\.counter)` skips running the declaration and hashing its id string.
///
/// Reads take no lock: buckets hold pointers to immutable nodes, and every node and table the
/// cache ever made lives as long as the cache, so a reader never sees freed memory. Writers (the
/// first access of a key) take a lock, push a node on its bucket and publish it with a release
/// store. The table doubles when it gets full; old tables stay alive for readers still in them.
final class KeyPathCache: @unchecked Sendable {
    final class Node: @unchecked Sendable {  // immutable after init
        let keyPath: ObjectIdentifier
        /// Held so that its address cannot be reused by another key path while it is cached: key
        /// paths with captured subscript arguments are temporaries, and a freed one's address
        /// would otherwise find this entry.
        let keyPathObject: AnyKeyPath
        let scope: Int
        let box: any StateStorage
        let next: UInt   // bits of the next node's pointer, 0 at the end of the chain
        init(keyPath: AnyKeyPath, scope: Int, box: any StateStorage, next: UInt) {
            self.keyPath = ObjectIdentifier(keyPath)
            self.keyPathObject = keyPath
            self.scope = scope
            self.box = box
            self.next = next
        }
    }

    final class Table: @unchecked Sendable {  // buckets are atomics
        let mask: Int
        let buckets: UnsafeMutablePointer<Atomic<UInt>>
        init(capacity: Int) {
            mask = capacity - 1
            buckets = .allocate(capacity: capacity)
            for i in 0..<capacity { (buckets + i).initialize(to: Atomic(0)) }
        }
        deinit {
            buckets.deinitialize(count: mask + 1)
            buckets.deallocate()
        }
    }

    private let current: Atomic<UInt>
    private struct Owned {
        var tables: [Table]
        var nodes: [Node] = []
        var count = 0
        /// How many cache entries point at each box: key paths that are not uniqued (built with
        /// captured subscript arguments) must not grow the cache without bound.
        var entriesPerBox: [ObjectIdentifier: Int] = [:]
    }
    private let owned: Mutex<Owned>

    init(capacity: Int = 256) {
        let table = Table(capacity: capacity)
        current = Atomic(UInt(bitPattern: Unmanaged.passUnretained(table).toOpaque()))
        owned = Mutex(Owned(tables: [table]))
    }

    @inline(__always)
    private static func hash(_ keyPath: ObjectIdentifier, _ scope: Int) -> Int {
        // The object's address, not `hashValue` (which runs seeded SipHash on every lookup).
        // Objects are 16-byte aligned: drop the low bits, spread with a multiply, mix the scope.
        var h = (UInt(bitPattern: keyPath) &>> 4) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt(bitPattern: scope) &* 0xC2B2_AE3D_27D4_EB4F
        return Int(bitPattern: h ^ (h &>> 29))
    }

    @inline(__always)
    func lookup(_ keyPath: ObjectIdentifier, scope: Int) -> (any StateStorage)? {
        // Unretained walks: everything reachable here lives as long as the cache.
        let tableBits = current.load(ordering: .acquiring)
        return Unmanaged<Table>.fromOpaque(UnsafeRawPointer(bitPattern: tableBits)!)._withUnsafeGuaranteedRef { table in
            var bits = table.buckets[Self.hash(keyPath, scope) & table.mask].load(ordering: .acquiring)
            while bits != 0 {
                let found: (any StateStorage)?? = Unmanaged<Node>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)._withUnsafeGuaranteedRef { node in
                    if node.keyPath == keyPath && node.scope == scope { return .some(node.box) }
                    bits = node.next
                    return .none
                }
                if let found { return found }
            }
            return nil
        }
    }

    func insert(_ keyPathObject: AnyKeyPath, scope: Int, box: any StateStorage) {
        let keyPath = ObjectIdentifier(keyPathObject)
        owned.withLock { owned in
            let boxID = ObjectIdentifier(box)
            guard owned.entriesPerBox[boxID, default: 0] < 8 else { return }
            var table = owned.tables[owned.tables.count - 1]
            // Already there (two threads missed at once)?
            if lookupLocked(table, keyPath, scope) { return }
            if owned.count + 1 > (table.mask + 1) * 3 / 4 {
                table = grown(table, &owned)
            }
            push(Node(keyPath: keyPathObject, scope: scope, box: box, next: 0), into: table, &owned)
            owned.count += 1
            owned.entriesPerBox[boxID, default: 0] += 1
        }
    }

    private func lookupLocked(_ table: Table, _ keyPath: ObjectIdentifier, _ scope: Int) -> Bool {
        var bits = table.buckets[Self.hash(keyPath, scope) & table.mask].load(ordering: .acquiring)
        while bits != 0 {
            let node = Unmanaged<Node>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
            if node.keyPath == keyPath && node.scope == scope { return true }
            bits = node.next
        }
        return false
    }

    private func push(_ template: Node, into table: Table, _ owned: inout Owned) {
        let slot = Self.hash(template.keyPath, template.scope) & table.mask
        let head = table.buckets[slot].load(ordering: .acquiring)
        let node = Node(keyPath: template.keyPathObject, scope: template.scope, box: template.box, next: head)
        owned.nodes.append(node)
        table.buckets[slot].store(UInt(bitPattern: Unmanaged.passUnretained(node).toOpaque()), ordering: .releasing)
    }

    private func grown(_ table: Table, _ owned: inout Owned) -> Table {
        let bigger = Table(capacity: (table.mask + 1) * 2)
        for slot in 0...table.mask {
            var bits = table.buckets[slot].load(ordering: .acquiring)
            while bits != 0 {
                let node = Unmanaged<Node>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
                push(node, into: bigger, &owned)
                bits = node.next
            }
        }
        owned.tables.append(bigger)
        current.store(UInt(bitPattern: Unmanaged.passUnretained(bigger).toOpaque()), ordering: .releasing)
        return bigger
    }

    /// Forgets every entry (the boxes stay in the store; the cache refills on the next reads).
    /// Old nodes and tables are kept: a reader may still be walking them.
    func reset() {
        owned.withLock { owned in
            let fresh = Table(capacity: 256)
            owned.tables.append(fresh)
            owned.count = 0
            owned.entriesPerBox.removeAll()
            current.store(UInt(bitPattern: Unmanaged.passUnretained(fresh).toOpaque()), ordering: .releasing)
        }
    }
}
