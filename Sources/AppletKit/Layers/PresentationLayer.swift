import AppletNavigation
import AppletState
import AppletUI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Terminal

/// A view an applet presented over the panes (`Application.present`): one entry of the store's
/// presentation stack, with what to do with its result.
public final class Presented: @unchecked Sendable, Identifiable {
    public let id: UUID
    public let title: String
    /// Made on the main actor, in the store, each frame it is drawn.
    let makeView: @MainActor () -> AnyView
    let commands: @MainActor () -> [Command]
    /// Hands the result (nil: cancelled) to the presenter; called once.
    let finish: @MainActor (Any?) -> Void

    init(id: UUID, title: String, makeView: @escaping @MainActor () -> AnyView, commands: @escaping @MainActor () -> [Command],
         finish: @escaping @MainActor (Any?) -> Void) {
        self.id = id
        self.title = title
        self.makeView = makeView
        self.commands = commands
        self.finish = finish
    }
}

/// What a presented view closes itself with, handing its result back to the presenter.
///
/// ```swift
/// struct RenameSheet: View {
///     let done: PresentationHandle<String>
///     @State private var name = ""
///     var body: some View {
///         VStack {
///             TextField("New name", text: $name)
///             Button("Rename") { done.dismiss(returning: name) }
///         }
///     }
/// }
/// ```
public struct PresentationHandle<Result: Sendable>: Sendable {
    let id: UUID
    let application: Application

    /// Closes the presented view and hands `result` to the presenter's `onResult`.
    @MainActor public func dismiss(returning result: Result) { application.finishPresentation(id, result: result) }

    /// Closes it without a result (as `Esc` does): the presenter gets nil.
    @MainActor public func cancel() { application.finishPresentation(id, result: nil) }
}

extension Application {
    /// The views presented over the panes, bottom first (the host draws them; the top one is
    /// modal).
    public var presentations: State<[Presented]> { state(initial: [], feature: "AppletKit", id: "presentations") }

    /// Presents `content` over the panes from anywhere that has the store (a command, a button, a
    /// task): a framed box titled `title`, as tall as its content, with the keyboard until it is
    /// closed. It closes with its handle's `dismiss(returning:)` (the presenter's `onResult` gets
    /// the value) or `cancel()`, or with `Esc` (nil). `commands` are keys it handles besides `Esc`;
    /// the footer shows them while it is up.
    ///
    /// ```swift
    /// Command("r", "Rename") {
    ///     Application.current.present("Rename", returning: String.self) { done in
    ///         RenameSheet(done: done)
    ///     } onResult: { name in
    ///         if let name { notes.rename(selected, to: name) }
    ///     }
    /// }
    /// ```
    @MainActor
    @discardableResult
    public func present<Result: Sendable, Content: View>(
        _ title: String, returning: Result.Type = Result.self,
        commands: @escaping @MainActor (PresentationHandle<Result>) -> [Command] = { _ in [] },
        @ViewBuilder content: @escaping @MainActor (PresentationHandle<Result>) -> Content,
        onResult: @escaping @MainActor (Result?) -> Void
    ) -> PresentationHandle<Result> {
        let handle = PresentationHandle<Result>(id: UUID(), application: self)
        let presented = Presented(id: handle.id, title: title,
                                  makeView: { AnyView(content(handle)) },
                                  commands: { commands(handle) },
                                  finish: { value in onResult(value as? Result) })
        presentations.modify { $0.append(presented) }
        return handle
    }

    /// Closes a presentation (once: a second call finds it gone), handing its result on.
    @MainActor
    func finishPresentation(_ id: UUID, result: Any?) {
        guard let presented = presentations.value.first(where: { $0.id == id }) else { return }
        presentations.modify { $0.removeAll { $0.id == id } }
        presented.finish(result)
    }

    /// Closes the top presentation as `Esc` does.
    @MainActor
    func cancelTopPresentation() {
        if let top = presentations.value.last { finishPresentation(top.id, result: nil) }
    }
}

/// Draws what applets presented (`Application.present`), each as a framed box over the content
/// rows with the screen dimmed behind; the top one is modal.
@MainActor
final class PresentationLayer: HostLayer {
    unowned let host: AppletHost
    private var trees: [UUID: ViewTree] = [:]
    private lazy var presentations = host.application.presentations

    init(host: AppletHost) { self.host = host }

    var top: Presented? { presentations.value.last }
    var isPresented: Bool { top != nil }
    var isModal: Bool { top != nil }
    var fingerprint: [UUID] { presentations.value.map(\.id) }

    func commands() -> [Command] {
        guard let top else { return [] }
        let application = host.application
        return host.inPane { top.commands() } + [Command(id: "presentation.cancel", "Close", keys: ["esc"]) {
            application.cancelTopPresentation()
        }]
    }

    func handleKey(_ key: KeyEvent) -> String? {
        guard let top, let tree = trees[top.id] else { return nil }
        if host.inPane({ tree.handleKey(key) }) { return "the presented view's focused widget" }
        if key == KeyEvent(.tab) || key == KeyEvent(.tab, modifiers: .shift), tree.hasFocusableWidgets {
            tree.moveFocus(forward: key.modifiers.isEmpty, wrap: true)
            return "focus moved inside the presented view"
        }
        return nil
    }

    func handleMouse(_ mouse: MouseEvent, in context: LayerContext) -> Bool {
        guard let top, let tree = trees[top.id] else { return false }
        return host.inPane { tree.handleMouse(mouse) }
    }

    func handlePaste(_ text: String) -> Bool {
        guard let top, let tree = trees[top.id] else { return false }
        return host.inPane { tree.handlePaste(text) }
    }

    func coverage(in context: LayerContext) -> [Rect] { isPresented ? [context.content] : [] }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        let area = context.content
        var used = Set<UUID>()
        for presented in presentations.value {
            used.insert(presented.id)
            context.dimBackdrop(area, on: &canvas)
            let width = min(area.width - 2, max(36, min(72, area.width * 2 / 3)))
            let view = host.inPane { AnyView(SheetFrame(title: presented.title) { presented.makeView() }) }
            let wanted = host.inPane { ViewTree.idealSize(of: view, proposal: ProposedSize(width: width, height: nil)) }
            let height = min(area.height, max(3, wanted.height))
            guard width > 4, height > 2 else { continue }
            let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
            let tree = trees[presented.id] ?? ViewTree()
            trees[presented.id] = tree
            tree.theme = context.theme
            canvas.fill(box, with: .blank())
            host.inPane { tree.render(view, in: box, on: &canvas, isActive: presented === presentations.value.last) }
        }
        for id in trees.keys where !used.contains(id) { trees[id] = nil }
    }
}
