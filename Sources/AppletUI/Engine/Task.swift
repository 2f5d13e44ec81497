import AppletState
import Terminal

extension View {
    /// Runs `action` on the main actor while this view is shown, like SwiftUI's `task(id:)`.
    ///
    /// The task starts after the first frame of its `ViewTree` that holds the view. It is
    /// cancelled after the first frame that no longer holds it (an `if` turned false, its
    /// `ForEach` element went away, another screen took its place), when the tree is told it is
    /// no longer shown (`ViewTree.disappear()`) and when the tree is freed. When `id` changes
    /// between frames, the running task is cancelled and a new one started. Frames that hold the
    /// view with an equal `id` leave the task alone, running or finished.
    ///
    /// Cancellation is cooperative: check `Task.isCancelled` or use throwing waits, which end
    /// with `CancellationError`.
    ///
    /// ```swift
    /// struct ProcessDetail: View {
    ///     let pid: Int32
    ///     @AppState(\.processInfo) var info
    ///     var body: some View {
    ///         Text(info.summary)
    ///             .task(id: pid) {
    ///                 while !Task.isCancelled {
    ///                     info = await ProcessInfoReader.read(pid)
    ///                     try? await Task.sleep(for: .seconds(1))
    ///                 }
    ///             }
    ///     }
    /// }
    /// ```
    public func task<ID: Equatable>(id value: ID, priority: TaskPriority = .userInitiated,
                                    _ action: @escaping @MainActor () async -> Void) -> TaskView<Self, ID> {
        TaskView(content: self, id: value, priority: priority, action: action)
    }

    /// Runs `action` on the main actor while this view is shown: started after the first frame
    /// that holds the view, cancelled after the first that does not (see `task(id:priority:_:)`).
    ///
    /// ```swift
    /// Text(status).task {
    ///     for await line in logLines() { status = line }
    /// }
    /// ```
    public func task(priority: TaskPriority = .userInitiated,
                     _ action: @escaping @MainActor () async -> Void) -> TaskView<Self, Never?> {
        TaskView(content: self, id: nil, priority: priority, action: action)
    }
}

/// A view with a task that runs while it is shown (see `View.task(id:priority:_:)`).
/// It adds no node of its own, so it changes no layout.
///
/// A task is known by the view's identity and the modifier's type, so two `.task`s on one view
/// are two tasks, and a view met twice in a frame still has one.
public struct TaskView<Content: View, ID: Equatable>: View {
    public typealias Body = Never
    let content: Content
    let id: ID
    let priority: TaskPriority
    let action: @MainActor () async -> Void

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        let id = self.id, priority = self.priority, action = self.action
        context.tree.addTask(TaskRegistration(
            key: TaskKey(view: context.id, type: ObjectIdentifier(Self.self)),
            id: id,
            hasSameID: { ($0 as? ID) == id },
            start: { completion in
                Task(priority: priority) {
                    await action()
                    completion.isDone = true
                }
            }))
        content._makeNodes(context, into: &nodes)
    }
}

/// Which `.task` a running task belongs to.
struct TaskKey: Hashable {
    let view: ViewID
    let type: ObjectIdentifier
}

/// A `.task` met while evaluating a frame.
@MainActor
struct TaskRegistration {
    let key: TaskKey
    let id: Any
    /// Whether a running task's id equals this one.
    let hasSameID: @MainActor (Any) -> Bool
    let start: @MainActor (TaskCompletion) -> Task<Void, Never>
}

/// Set when a `.task`'s action returns (so a finished task is not counted as running).
@MainActor
final class TaskCompletion {
    var isDone = false
}

/// A task the tree started, with the id it was started for.
struct RunningTask {
    let id: Any
    let task: Task<Void, Never>
    let completion: TaskCompletion
}
