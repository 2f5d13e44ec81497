@_exported import Terminal
@_exported import AppletState

/// A piece of user interface: a value that describes what to draw, evaluated on the main actor.
///
/// Write views by composing others in `body`, as in SwiftUI:
///
/// ```swift
/// struct Greeting: View {
///     var name: String
///     var body: some View {
///         VStack(spacing: 1) {
///             Text("Hello, \(name)").bold()
///             Divider()
///             Text("Press q to quit").dim()
///         }
///         .padding(1)
///     }
/// }
/// ```
@MainActor
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }

    /// Turns this view into layout nodes. Composite views get this for free (their `body`'s nodes);
    /// primitive views (whose `Body` is `Never`) implement it.
    func _makeNodes(_ context: ResolveContext, into nodes: inout [Node])
}

extension View {
    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        _makeBodyNodes(context, into: &nodes)
    }

    /// What a composite view's `_makeNodes` does by default: hands its `@State` and `@FocusState`
    /// properties their storage in the tree, then turns `body` into nodes. A view type that
    /// implements `_makeNodes` to add something around its body calls this for the body.
    public func _makeBodyNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        // Before `body` reads them.
        ViewStateProperties.install(self, context)
        body._makeNodes(context, into: &nodes)
    }

    /// Resolves to exactly one node: several are stacked vertically, none is an empty node.
    func makeSingleNode(_ context: ResolveContext) -> Node {
        var nodes: [Node] = []
        _makeNodes(context, into: &nodes)
        if nodes.count == 1 { return nodes[0] }
        return StackNode(axis: .vertical, spacing: 0, alignment: .start, children: nodes)
    }
}

extension View where Body == Never {
    public var body: Never { preconditionFailure("\(Self.self) is a primitive view and has no body") }
}

extension Never: View {
    public typealias Body = Never
}

/// A view that draws nothing and takes no space.
public struct EmptyView: View {
    public typealias Body = Never
    public init() {}
    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {}
}

/// Several views in a row, made by `@ViewBuilder`; a stack lays them out.
public struct TupleView<each Content: View>: View {
    public typealias Body = Never
    let content: (repeat each Content)
    public init(_ content: repeat each Content) { self.content = (repeat each content) }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        // A pack expansion calling a generic function: iterating the pack with `for in` would
        // instantiate tuple metadata at run time on every call.
        var index = 0
        func make<V: View>(_ child: V) {
            child._makeNodes(context.child(index), into: &nodes)
            index += 1
        }
        repeat make(each content)
    }
}

/// One of two views, made by `if`/`else` in a `@ViewBuilder`. Taking the other branch drops the
/// `@State` of the views in the branch left.
public enum ConditionalView<TrueContent: View, FalseContent: View>: View {
    public typealias Body = Never
    case first(TrueContent)
    case second(FalseContent)

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        switch self {
        case .first(let view):
            let inner = context.child(0)
            inner.withinScope(branch: inner.id, container: context.id) { view._makeNodes(inner, into: &nodes) }
        case .second(let view):
            let inner = context.child(1)
            inner.withinScope(branch: inner.id, container: context.id) { view._makeNodes(inner, into: &nodes) }
        }
    }
}

/// A view or nothing, made by `if` without `else` in a `@ViewBuilder`. `nil` drops the `@State`
/// of the view that was there.
extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        guard let view = self else { return context.evaluatedEmptyScope() }
        let inner = context.child(0)
        inner.withinScope(branch: inner.id, container: context.id) { view._makeNodes(inner, into: &nodes) }
    }
}

/// Builds views from the statements of a closure, like SwiftUI's `ViewBuilder`.
@resultBuilder @MainActor
public enum ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<repeat each Content> {
        TupleView(repeat each content)
    }
    public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<T: View, F: View>(first: T) -> ConditionalView<T, F> { .first(first) }
    public static func buildEither<T: View, F: View>(second: F) -> ConditionalView<T, F> { .second(second) }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> Content { content }
}

/// Type-erases a view (for arrays of views of different types, or returning different views).
/// Holding a view of another type than on the last frame drops the `@State` of the one before.
///
/// ```swift
/// let pages: [AnyView] = [AnyView(Text("One")), AnyView(List(count: 3, selection: .constant(0)) { Text("\($0)") })]
/// ```
public struct AnyView: View {
    public typealias Body = Never
    private let make: @MainActor (ResolveContext, inout [Node]) -> Void
    public init<V: View>(_ view: V) {
        make = { context, nodes in
            let scope = context.id.child(ObjectIdentifier(AnyViewScope.self))
            context.withinScope(branch: scope.child(ObjectIdentifier(V.self)), container: scope) {
                view._makeNodes(context, into: &nodes)
            }
        }
    }
    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) { make(context, &nodes) }
}

/// Views built from a collection, one per element, each with the identity of its element's id:
/// a view keeps its `@State` while its element stays (wherever it moves), and drops it when its
/// element is gone.
///
/// ```swift
/// ForEach(["a", "b", "c"], id: \.self) { name in Text(name) }
/// ```
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
    public typealias Body = Never
    let data: Data
    let id: KeyPath<Data.Element, ID>
    let content: (Data.Element) -> Content

    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.id = id
        self.content = content
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        guard !data.isEmpty else { return context.evaluatedEmptyScope() }
        for element in data {
            let inner = context.child(hashing: element[keyPath: id])
            inner.withinScope(branch: inner.id, container: context.id) { content(element)._makeNodes(inner, into: &nodes) }
        }
    }
}

/// Names the scope of an `AnyView` (the type of the view it holds) apart from the scopes of
/// the view itself, which shares its identity.
private enum AnyViewScope {}

extension ForEach where Data == Range<Int>, ID == Int {
    public init(_ range: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.init(range, id: \.self, content: content)
    }
}
