import Dispatch
import Observation
import Synchronization

/// A state box's `\.value` key path, kept where its reference count can be read, so that a set can
/// tell that nobody observes the value and skip the registrar.
///
/// Observation keeps the key path of every tracked property referenced for as long as anyone
/// observes it: in the tracking's access list from the read on, then in the registrar's table
/// until the observer is told or cancelled. So a key path that only its box holds means that no
/// view, `withObservationTracking` or `Observations` sequence is watching, and a set need not pay
/// the registrar's `willSet` and `didSet` (a lock and a table lookup each, about half of a set).
///
/// Invariants:
/// - The key path object is this box's own, made at run time by an unspecialized generic call
///   (a key path into a concrete type is one shared object kept by the runtime, never unique).
///   If it is not unique when made anyway, or `ObservationProbe` finds that Observation does not
///   keep tracked key paths, `mayBeObserved` is always true: every set tells the registrar.
/// - A set that sees the key path unique behaves as a set made just before the read that is about
///   to retain it: the same window Observation itself has between a read and the install of its
///   observer (which the host closes with its change count, taken before this check).
///
/// ```swift
/// let observed = ObservedKeyPath(StateBox<Int>.freshValueKeyPath)
/// observed.with { registrar.access(box, keyPath: $0) }        // in the getter
/// if observed.mayBeObserved { observed.with { registrar.willSet(box, keyPath: $0) } }   // in a set
/// ```
@usableFromInline
struct ObservedKeyPath<Root, Value>: @unchecked Sendable {
    /// Written once at init; read concurrently (a load, and a refcount load) afterwards.
    @usableFromInline let cell: UnsafeMutablePointer<KeyPath<Root, Value>>
    /// The same object, for handing it to the registrar without a retain and release per call.
    @usableFromInline let unretained: Unmanaged<KeyPath<Root, Value>>
    /// Whether a unique key path proves that nobody observes (see the invariants).
    @usableFromInline let tellsUnobserved: Bool

    /// Keeps the key path `make` returns (made there, so that no caller holds it too).
    init(_ make: () -> KeyPath<Root, Value>) {
        cell = .allocate(capacity: 1)
        cell.initialize(to: make())
        unretained = .passUnretained(cell.pointee)
        tellsUnobserved = ObservationProbe.keepsTrackedKeyPaths && isKnownUniquelyReferenced(&cell.pointee)
    }

    /// The key path (retained by the caller).
    var keyPath: KeyPath<Root, Value> { cell.pointee }

    /// Calls `body` with the key path, borrowed: the registrar's calls take it at +0.
    @inlinable func with<R>(_ body: (KeyPath<Root, Value>) -> R) -> R {
        unretained._withUnsafeGuaranteedRef(body)
    }

    /// False only when nobody can be observing the value.
    @inlinable var mayBeObserved: Bool {
        !tellsUnobserved || !isKnownUniquelyReferenced(&cell.pointee)
    }

    /// Frees the cell; called once, from the owner's deinit.
    func free() {
        cell.deinitialize(count: 1)
        cell.deallocate()
    }
}

/// Checks, once per process, that Observation keeps a tracked key path referenced while the
/// observer is registered and lets it go once the observer is told: what `ObservedKeyPath` relies
/// on. A toolchain that stopped doing so turns the check off (every set tells the registrar)
/// instead of losing a redraw.
///
/// The probe runs outside any tracking scope: a scope merges what is read in scopes nested in it,
/// so inside one (the first box is often made while a view reads it) the probe's key path would
/// stay held and the check would look broken. There it runs on a thread of its own, once.
enum ObservationProbe {
    static let keepsTrackedKeyPaths: Bool = probe()

    /// Runs the check (out of any tracking scope); `keepsTrackedKeyPaths` keeps its answer.
    static func probe() -> Bool { insideTrackingScope() ? onAnotherThread(run) : run() }

    private final class Subject<Member: Sendable>: Observable, @unchecked Sendable {
        let registrar = ObservationRegistrar()
        var member: Member
        init(_ member: Member) { self.member = member }
    }

    /// The check itself, on this thread.
    static func run() -> Bool {
        let subject = Subject(0)
        let observed = UnsafeMutablePointer<KeyPath<Subject<Int>, Int>>.allocate(capacity: 1)
        observed.initialize(to: freshKeyPath(Subject<Int>.self))
        defer { observed.deinitialize(count: 1); observed.deallocate() }
        guard isKnownUniquelyReferenced(&observed.pointee) else { return false }
        withObservationTracking {
            subject.registrar.access(subject, keyPath: observed.pointee)
        } onChange: {}
        let keptWhileObserved = !isKnownUniquelyReferenced(&observed.pointee)
        subject.registrar.willSet(subject, keyPath: observed.pointee)
        subject.registrar.didSet(subject, keyPath: observed.pointee)
        let releasedOnceTold = isKnownUniquelyReferenced(&observed.pointee)
        return keptWhileObserved && releasedOnceTold
    }

    /// Whether a tracking scope is recording reads on this thread: it would keep a key path read
    /// here referenced.
    static func insideTrackingScope() -> Bool {
        let subject = Subject(0)
        var keyPath = freshKeyPath(Subject<Int>.self)
        guard isKnownUniquelyReferenced(&keyPath) else { return true }
        subject.registrar.access(subject, keyPath: keyPath)
        return !isKnownUniquelyReferenced(&keyPath)
    }

    private static func onAnotherThread(_ body: @escaping @Sendable () -> Bool) -> Bool {
        let result = Mutex(false)
        let done = DispatchSemaphore(value: 0)
        // A global queue's worker: this thread waits on the semaphore, so another one runs it.
        DispatchQueue.global().async {
            result.withLock { $0 = body() }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }

    @_semantics("optimize.sil.specialize.generic.never") @inline(never)
    private static func freshKeyPath<Member>(_ type: Subject<Member>.Type) -> KeyPath<Subject<Member>, Member> {
        \Subject<Member>.member
    }
}
