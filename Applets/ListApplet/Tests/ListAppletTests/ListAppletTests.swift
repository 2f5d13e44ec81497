import AppletTesting
import ListApplet
import Testing

@Suite("List applet")
@MainActor
struct ListAppletTests {
    @Test func firstRowsAndTheHeader() throws {
        let host = try AppletTestHost(ListApplet(), width: 60, height: 10)
        host.expectRows(1..<6, toShow: """
             Long list                                 row 1 of 1000000
             ──────────────────────────────────────────────────────────
             #0000001  alpha
             #0000002  beta
             #0000003  東京 Tokyo
            """)
    }

    @Test func movesByRowPageAndToTheEnds() throws {
        let host = try AppletTestHost(ListApplet(), width: 60, height: 10)
        host.press("j", "j")
        #expect(host.contains("row 3 of 1000000"))
        host.press("k")
        #expect(host.contains("row 2 of 1000000"))
        host.press("G")
        #expect(host.contains("row 1000000 of 1000000"))
        #expect(host.contains("#1000000"))
        host.press("g")
        #expect(host.contains("row 1 of 1000000"))
        host.press("pgdn")
        #expect(!host.contains("row 1 of 1000000"))
    }

    @Test func theSelectedRowStaysOnScreen() throws {
        let host = try AppletTestHost(ListApplet(), width: 60, height: 10)
        for _ in 0..<50 { host.press("j") }
        let y = try #require(host.lines.firstIndex { $0.contains("#0000051") })
        #expect(y < 9)
        #expect(host.cell(x: 2, y: y).style.attributes.contains(.reverse))
    }
}
