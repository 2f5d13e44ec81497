/// Turns a `Color` into a colour number the terminal can show.
///
/// 256-colour terminals get palette entries (24-bit colours become the nearest entry of the
/// 6x6x6 cube or grey ramp); 16- and 8-colour terminals get the nearest basic colour; with no
/// colour support (or `NO_COLOR`) everything is the terminal's default (-1).
///
/// ```swift
/// ColorMapping.number(for: .rgb(255, 0, 0), support: .palette256) // 196
/// ColorMapping.number(for: .indexed(196), support: .basic8)        // 1 (red)
/// ```
public enum ColorMapping {
    public static func number(for color: Color, support: ColorSupport) -> Int32 {
        switch (color.kind, support) {
        case (.default, _), (_, .none): return -1
        // Direct colour: numbers below 8 are the basic colours, every other number is 0xRRGGBB.
        case (.ansi(let c), .truecolor) where c.rawValue < 8: return Int32(c.rawValue)
        case (.ansi(let c), .truecolor): return packed(rgb(ofIndex: c.rawValue))
        case (.indexed(let i), .truecolor): return i < 8 ? Int32(i) : packed(rgb(ofIndex: i))
        case (.rgb(let r, let g, let b), .truecolor): return packed((r, g, b))
        // Bright black ("gray") has no 8-colour counterpart that stays readable: black would vanish
        // on a dark background, so it falls back to the default colour.
        case (.ansi(.brightBlack), .basic8): return -1
        case (.ansi(let c), .basic8): return Int32(c.rawValue % 8)
        case (.ansi(let c), _): return Int32(c.rawValue)
        case (.indexed(let i), .palette256): return Int32(i)
        case (.indexed(let i), _): return basic(rgb(ofIndex: i), colors: support == .basic8 ? 8 : 16)
        case (.rgb(let r, let g, let b), .palette256): return Int32(paletteIndex(r, g, b))
        case (.rgb(let r, let g, let b), _): return basic((r, g, b), colors: support == .basic8 ? 8 : 16)
        }
    }

    /// The nearest entry of the 256-colour palette's cube (16–231) or grey ramp (232–255).
    public static func paletteIndex(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let levels: [Int] = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ v: UInt8) -> Int {
            var best = 0
            for (i, l) in levels.enumerated() where abs(l - Int(v)) < abs(levels[best] - Int(v)) { best = i }
            return best
        }
        let (ri, gi, bi) = (nearestLevel(r), nearestLevel(g), nearestLevel(b))
        let cube = (levels[ri], levels[gi], levels[bi])
        let cubeIndex = 16 + 36 * ri + 6 * gi + bi
        let avg = (Int(r) + Int(g) + Int(b)) / 3
        let greyStep = max(0, min(23, (avg - 8 + 5) / 10))
        let grey = 8 + 10 * greyStep
        let cubeDistance = distance((cube.0, cube.1, cube.2), (Int(r), Int(g), Int(b)))
        let greyDistance = distance((grey, grey, grey), (Int(r), Int(g), Int(b)))
        return UInt8(greyDistance < cubeDistance ? 232 + greyStep : cubeIndex)
    }

    private static let basicRGB: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The RGB xterm shows for palette entry `i` (its default palette).
    public static func rgb(ofIndex i: UInt8) -> (UInt8, UInt8, UInt8) {
        switch i {
        case 0..<16:
            let c = basicRGB[Int(i)]
            return (UInt8(c.0), UInt8(c.1), UInt8(c.2))
        case 16..<232:
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let n = Int(i) - 16
            return (levels[n / 36], levels[(n / 6) % 6], levels[n % 6])
        default:
            let v = UInt8(8 + 10 * (Int(i) - 232))
            return (v, v, v)
        }
    }

    /// 0xRRGGBB, nudged off 1–7 (which a direct-colour terminal reads as basic colours).
    private static func packed(_ c: (UInt8, UInt8, UInt8)) -> Int32 {
        let value = Int32(c.0) << 16 | Int32(c.1) << 8 | Int32(c.2)
        return value > 0 && value < 8 ? 8 : value
    }

    private static func basic(_ c: (UInt8, UInt8, UInt8), colors: Int) -> Int32 {
        var best = 0, bestDistance = Int.max
        for i in 0..<colors {
            let d = distance(basicRGB[i], (Int(c.0), Int(c.1), Int(c.2)))
            if d < bestDistance { best = i; bestDistance = d }
        }
        return Int32(best)
    }

    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let dr = a.0 - b.0, dg = a.1 - b.1, db = a.2 - b.2
        return dr * dr + dg * dg + db * db
    }
}
