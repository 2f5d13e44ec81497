import AppletState
import Terminal

extension View {
    /// A frame of a fixed width and/or height around the view. The frame offers its size to
    /// the view, takes that size whatever the view chooses, and aligns the view inside it. A
    /// side left `nil` is the view's own. Negative sizes count as zero; a frame larger than its
    /// parent offers is cut by the parent (it keeps its top-left corner).
    ///
    /// ```swift
    /// Text("OK").frame(width: 10)                          // "    OK    "
    /// Text("Total").frame(width: 12, alignment: .trailing)
    /// List(count: n, selection: $row) { Text(items[$0]) }.frame(height: 5)
    /// ```
    public func frame(width: Int? = nil, height: Int? = nil, alignment: Alignment = .center) -> FrameView<Self> {
        FrameView(content: self, layout: FrameLayout(
            width: FrameLayout.Limits(fixed: width), height: FrameLayout.Limits(fixed: height), alignment: alignment))
    }

    /// A flexible frame: the offered size is clamped to `minWidth...maxWidth` (and
    /// `minHeight...maxHeight`) and offered to the view; the frame then takes the view's size
    /// clamped the same way. `maxWidth: .max` makes the frame as wide as offered, which with an
    /// alignment pushes the view to one side. When asked for its ideal size the frame offers
    /// `idealWidth` (or nothing) to the view. These are SwiftUI's rules.
    ///
    /// ```swift
    /// Text("right").frame(maxWidth: .max, alignment: .trailing)      // flush right
    /// Text("x").frame(minWidth: 8)                                    // at least 8 columns
    /// Box { Text(body) }.frame(maxWidth: 60, maxHeight: .max)         // at most 60 wide, full height
    /// ```
    public func frame(minWidth: Int? = nil, idealWidth: Int? = nil, maxWidth: Int? = nil,
                      minHeight: Int? = nil, idealHeight: Int? = nil, maxHeight: Int? = nil,
                      alignment: Alignment = .center) -> FrameView<Self> {
        FrameView(content: self, layout: FrameLayout(
            width: FrameLayout.Limits(min: minWidth, ideal: idealWidth, max: maxWidth),
            height: FrameLayout.Limits(min: minHeight, ideal: idealHeight, max: maxHeight),
            alignment: alignment))
    }
}

/// A view inside a fixed or flexible frame (see `View.frame`).
public struct FrameView<Content: View>: View {
    public typealias Body = Never
    let content: Content
    let layout: FrameLayout

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(FrameNode(child: content.makeSingleNode(context.child(0)), layout: layout))
    }
}

/// The sizing rules of a frame, one axis at a time.
struct FrameLayout: Sendable, Equatable {
    struct Limits: Sendable, Equatable {
        /// Set for a fixed frame: the length, whatever is offered.
        var fixed: Int?
        var min: Int?
        var ideal: Int?
        var max: Int?

        /// Every length cut to `0...unboundedLength`, so sums in stacks cannot overflow, and a
        /// maximum below the minimum raised to it.
        init(fixed: Int? = nil, min: Int? = nil, ideal: Int? = nil, max: Int? = nil) {
            func sane(_ v: Int?) -> Int? { v.map { Swift.min(Swift.max(0, $0), unboundedLength) } }
            self.fixed = sane(fixed)
            self.min = sane(min)
            self.ideal = sane(ideal)
            self.max = sane(max)
            if let lo = self.min, let hi = self.max, hi < lo { self.max = lo }
        }

        func clamp(_ v: Int) -> Int {
            var v = v
            if let max { v = Swift.min(v, max) }
            if let min { v = Swift.max(v, min) }
            return v
        }

        /// What the frame offers its child for an offered length (`nil`: ideal).
        func childProposal(_ offered: Int?) -> Int? {
            if let fixed { return fixed }
            return (offered.map { Swift.max(0, $0) } ?? ideal).map(clamp)
        }

        /// The frame's own length, given what it offered its child and what the child took.
        func length(offered: Int?, child: Int) -> Int {
            if let fixed { return fixed }
            let proposed = childProposal(offered) ?? child
            var result = child
            if let min { result = Swift.max(min, Swift.min(result, proposed)) }
            if let max { result = Swift.min(max, Swift.max(result, proposed)) }
            return Swift.min(Swift.max(0, result), unboundedLength)
        }
    }

    var width: Limits
    var height: Limits
    var alignment: Alignment

    func childProposal(_ proposal: ProposedSize) -> ProposedSize {
        ProposedSize(width: width.childProposal(proposal.width), height: height.childProposal(proposal.height))
    }
}

final class FrameNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let child: Node
    let layout: FrameLayout
    /// The part of the frame its parent gave it: drawing is cut to this.
    private var visible: Rect = .zero

    init(child: Node, layout: FrameLayout) {
        self.child = child
        self.layout = layout
    }

    override var children: [Node] { [child] }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let s = child.measure(layout.childProposal(proposal))
        return Size(width: layout.width.length(offered: proposal.width, child: s.width),
                    height: layout.height.length(offered: proposal.height, child: s.height))
    }

    override func place(in rect: Rect) {
        // The frame takes its own size at the rectangle's top-left corner: a fixed frame keeps
        // its size even when the parent gives less (the parent's rectangle then cuts it) or more.
        let own = measure(ProposedSize(rect.size))
        frame = Rect(origin: rect.origin, size: own)
        visible = frame.intersection(rect)
        let childProposal = layout.childProposal(ProposedSize(own))
        child.place(in: layout.alignment.place(child.measure(childProposal), in: frame))
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(visible)
        guard !area.isEmpty else { return }
        child.draw(in: &canvas, clip: area)
    }
}
