import Synchronization

/// A stream of typed events with any number of subscribers: callbacks (run on the main actor,
/// in the order they subscribed) and async sequences.
///
/// ```swift
/// let channel = EventChannel<TextFieldEvent>()
/// let subscription = channel.subscribe { event in print(event) }
/// Task { for await event in channel.stream() { print(event) } }
/// channel.send(.submitted("hello"))
/// subscription.cancel()
/// ```
public final class EventChannel<Event: Sendable>: Sendable {
    private struct Subscribers {
        var next = 0
        var callbacks: [(Int, @MainActor (Event) -> Void)] = []
        var streams: [Int: AsyncStream<Event>.Continuation] = [:]
    }
    private let subscribers = Mutex(Subscribers())

    public init() {}

    /// Calls `handler` for every event until the subscription is cancelled or released.
    public func subscribe(_ handler: @escaping @MainActor (Event) -> Void) -> EventSubscription {
        let id = subscribers.withLock { s in
            s.next += 1
            s.callbacks.append((s.next, handler))
            return s.next
        }
        return EventSubscription { [weak self] in
            self?.subscribers.withLock { $0.callbacks.removeAll { $0.0 == id } }
        }
    }

    /// A new async sequence of the events sent from now on; it ends when the consumer stops.
    public func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1024))
        let id = subscribers.withLock { s in
            s.next += 1
            s.streams[s.next] = continuation
            return s.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Delivers an event to every subscriber.
    @MainActor
    public func send(_ event: Event) {
        let (callbacks, streams) = subscribers.withLock { ($0.callbacks.map(\.1), Array($0.streams.values)) }
        for callback in callbacks { callback(event) }
        for stream in streams { stream.yield(event) }
    }

    /// How many subscribers there are (callbacks and streams).
    public var subscriberCount: Int { subscribers.withLock { $0.callbacks.count + $0.streams.count } }
}

/// A subscription to an `EventChannel`; cancelling it (or releasing it) stops the callbacks.
public final class EventSubscription: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = Mutex(onCancel) }

    public func cancel() {
        let action = onCancel.withLock { value -> (@Sendable () -> Void)? in
            defer { value = nil }
            return value
        }
        action?()
    }

    deinit { cancel() }
}
