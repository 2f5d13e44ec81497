import Testing
@testable import AppletUI

@Suite("Text links")
@MainActor
struct TextLinkTests {
    @Test func aLinkedTextShowsTheSameAndItsCellsCarryTheLink() {
        let plain = render(Text("see the docs"), width: 20, height: 1)
        let linked = render(Text("see the docs").link("https://example.com/docs"), width: 20, height: 1)
        #expect(linked.lines == plain.lines)
        #expect(linked.linkedRuns.map(\.text) == ["see the docs"])
        #expect(linked.linkedRuns.first?.hyperlink.url == "https://example.com/docs")
        #expect(linked[12, 0].hyperlink == nil, "only the text's own cells")
    }

    @Test func wrappedAndCutTextIsLinkedOnEveryLineItShows() {
        let canvas = render(Text("one two three four").link("https://example.com/x"), width: 9, height: 2)
        #expect(canvas.lines == ["one two", "three…"])
        #expect(canvas.linkedRuns.map(\.text) == ["one two", "three…"])
    }

    @Test func styleModifiersKeepTheLinkAndNilOrAnUnusableAddressLinksNothing() {
        let styled = render(Text("docs").link("https://example.com").underline().bold(), width: 10, height: 1)
        #expect(styled.linkedRuns.map(\.text) == ["docs"])
        #expect(styled[0, 0].style.attributes == [.bold, .underline])
        #expect(render(Text("docs").link(nil), width: 10, height: 1).linkedRuns.isEmpty)
        #expect(render(Text("docs").link("\u{1B}\u{7}"), width: 10, height: 1).linkedRuns.isEmpty)
    }
}
