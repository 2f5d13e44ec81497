import AppletNavigation
import Foundation
import Terminal
import Testing

@Suite("RouterPath")
struct RouterPathTests {
    enum Route: Hashable, Codable, Sendable { case detail(Int), edit(Int) }
    enum Sheet: Hashable, Sendable { case tags, help }

    @Test func pushPopAndPopToRoot() {
        var path = RouterPath<Route, Sheet>()
        #expect(path.depth == 0 && path.top == nil)
        path.push(.detail(3))
        path.push(.edit(3))
        #expect(path.depth == 2 && path.top == .edit(3))
        #expect(path.pop() == .edit(3))
        #expect(path.path == [.detail(3)])
        path.popToRoot()
        #expect(path.path.isEmpty)
        #expect(path.pop() == nil, "pop at the root changes nothing")
        #expect(path == RouterPath())
    }

    @Test func popToDepthNeverGoesDeeperOrBelowTheRoot() {
        var path = RouterPath<Route, Sheet>(path: [.detail(1), .edit(1), .detail(2)])
        path.pop(toDepth: 5)
        #expect(path.depth == 3)
        path.pop(toDepth: 1)
        #expect(path.path == [.detail(1)])
        path.pop(toDepth: -2)
        #expect(path.depth == 0)
    }

    @Test func sheetsStackAndDismissTakesTheTopOne() {
        var path = RouterPath<Route, Sheet>()
        #expect(path.dismiss() == nil)
        path.present(.tags)
        path.present(.help)
        #expect(path.presentedSheet == .help)
        #expect(path.dismiss() == .help)
        #expect(path.sheets == [.tags])
        path.push(.detail(1))
        #expect(path.sheets == [.tags], "pushing leaves the sheets alone")
    }

    @Test func codingKeepsThePathAndNeverASheet() throws {
        var path = RouterPath<Route, Sheet>(path: [.detail(7), .edit(7)])
        path.present(.tags)
        let data = try JSONEncoder().encode(path)
        let back = try JSONDecoder().decode(RouterPath<Route, Sheet>.self, from: data)
        #expect(back.path == [.detail(7), .edit(7)])
        #expect(back.sheets.isEmpty)
        // A file from before any route was pushed, or one without the key, is the root.
        let empty = try JSONDecoder().decode(RouterPath<Route, Sheet>.self, from: Data("{}".utf8))
        #expect(empty.depth == 0)
    }
}

@Suite("Breadcrumb")
struct BreadcrumbTests {
    @Test func fitsWhole() {
        let crumbs = Breadcrumb(["Notes", "Note 3", "Edit"])
        #expect(crumbs.text(width: 80) == "Notes › Note 3 › Edit")
        let segments = crumbs.segments(width: 80)
        #expect(segments.map(\.level) == [0, 1, 2])
        #expect(segments.map(\.columns) == [0..<5, 8..<14, 17..<21])
    }

    @Test func clicksMapToLevelsAndSeparatorsToNothing() {
        let crumbs = Breadcrumb(["Notes", "Note 3", "Edit"])
        #expect(crumbs.level(at: 0, width: 80) == 0)
        #expect(crumbs.level(at: 4, width: 80) == 0)
        #expect(crumbs.level(at: 6, width: 80) == nil)
        #expect(crumbs.level(at: 9, width: 80) == 1)
        #expect(crumbs.level(at: 20, width: 80) == 2)
        #expect(crumbs.level(at: 21, width: 80) == nil)
    }

    @Test func theOldestLevelsCollapseIntoAnEllipsisAndTheCurrentOneStays() {
        let crumbs = Breadcrumb(["Notes", "Projects", "AppletKit", "Edit"])
        #expect(crumbs.text(width: 40) == "Notes › Projects › AppletKit › Edit")
        #expect(crumbs.text(width: 25) == "… › AppletKit › Edit")
        #expect(crumbs.level(at: 0, width: 25) == nil, "the ellipsis goes nowhere")
        #expect(crumbs.level(at: 5, width: 25) == 2)
        #expect(crumbs.text(width: 8) == "… › Edit")
        // Too narrow even for that: the current title is cut, never dropped.
        let tight = crumbs.text(width: 3)
        #expect(tight.terminalWidth <= 3 && !tight.isEmpty)
    }

    @Test func segmentsNeverOverlapOrLeaveTheWidth() {
        let crumbs = Breadcrumb(["根", "プロジェクト", "編集する画面", "x"])
        for width in 0...40 {
            let segments = crumbs.segments(width: width)
            for (a, b) in zip(segments, segments.dropFirst()) { #expect(a.columns.upperBound <= b.columns.lowerBound) }
            #expect(segments.allSatisfy { $0.columns.upperBound <= width }, "width \(width)")
            #expect(segments.last?.level == (width == 0 ? nil : 3), "width \(width)")
        }
    }

    @Test func anEmptyBreadcrumbHasNoSegments() {
        #expect(Breadcrumb([]).segments(width: 10).isEmpty)
    }
}
