import CNcursesShim
import Testing

/// The shim fills a one-character ncurses cell itself instead of calling setcchar for each one
/// (`ak_put_cells`); what it makes must be exactly what setcchar makes, for every attribute and
/// for colour pairs on both sides of the limits that change how a pair is stored (255 in the
/// attribute bits, 32767 in setcchar's short argument).
@Suite("ncurses cells made by the shim")
struct NcursesCellTests {
    @Test("A one-character cell is byte for byte setcchar's, for every attribute and pair", arguments: [
        0x20, 0x41, 0x7E, 0xE9, 0x2500, 0x4E2D, 0x1F600,
    ] as [UInt32])
    func matchesSetcchar(scalar: UInt32) {
        let pairs: [Int32] = [0, 1, 7, 254, 255, 256, 1_000, 32_767, 32_768, 65_535]
        for attrs in UInt32(0)..<64 {
            for pair in pairs {
                #expect(ak_cchar_matches_setcchar(scalar, attrs, pair) == 1,
                        "U+\(String(scalar, radix: 16)), attributes \(attrs), pair \(pair)")
            }
        }
    }
}
