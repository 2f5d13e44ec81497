import AppletTesting

/// The tabs workload (see Benchmarks/Tabs/README.md): the keys, what each does, and what the
/// screen must show once it has done it. Both programs get the same script and the same checks.
enum Workload {
    static let width = 100
    static let height = 30
    static let rowCount = 10_000
    static let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"]
    static let titles = ["Counter", "List", "Mirror"]
    /// The list's rows on screen: rows 2...27 (row 1 is `row I of 10000`, 28 the status line,
    /// 29 the footer).
    static let listTop = 2
    static let listRows = height - 4
    /// The column of each tab's digit in the tab bar ` 1 Counter │ 2 List │ 3 Mirror `.
    static let tabDigitColumns = [1, 13, 22]

    /// One key of the script.
    enum Key: Hashable, Sendable {
        case tab(Int)   // `1`, `2`, `3`
        case increment  // `+`
        case decrement  // `-`
        case down       // `j`
        case up         // `k`

        var byte: UInt8 {
            switch self {
            case .tab(let n): return UInt8(ascii: "0") + UInt8(n)
            case .increment: return UInt8(ascii: "+")
            case .decrement: return UInt8(ascii: "-")
            case .down: return UInt8(ascii: "j")
            case .up: return UInt8(ascii: "k")
            }
        }

        /// The kind, for the per-kind breakdown.
        var kind: Kind {
            switch self {
            case .tab: return .tabSwitch
            case .increment, .decrement: return .counter
            case .down, .up: return .listMove
            }
        }
    }

    enum Kind: String, CaseIterable, Sendable {
        case counter = "counter (+/-)"
        case listMove = "list move (j/k)"
        case tabSwitch = "tab switch (1/2/3)"
    }

    /// What the app holds: the tab on screen, the shared counter, the selected row (0-based) and
    /// the first row the list shows (it scrolls only when the selection would leave the view).
    struct Model: Hashable, Sendable {
        var tab = 1
        var count = 0
        var row = 0
        var offset = 0

        mutating func apply(_ key: Key) {
            switch key {
            case .tab(let n): tab = n
            case .increment: count += 1
            case .decrement: count -= 1
            case .down: row = min(row + 1, rowCount - 1)
            case .up: row = max(row - 1, 0)
            }
            if row < offset { offset = row }
            if row >= offset + listRows { offset = row - listRows + 1 }
        }
    }

    /// `Row 00001 alpha` for the first row (0-based index).
    static func label(_ index: Int) -> String {
        let number = String(index + 1)
        return "Row " + String(repeating: "0", count: max(0, 5 - number.count)) + number + " " + words[index % words.count]
    }

    /// The footer both programs draw on the last row: AppletKit's key hints for the tab.
    static let footers = [
        "+ Increment  - Decrement  1-3 Tab  ]/[ Next/Prev  ? Help  q Quit",
        "1-3 Tab  ]/[ Next/Prev  Alt-C Copy  Tab Focus  ? Help  q Quit",
        "1-3 Tab  ]/[ Next/Prev  ? Help  q Quit",
    ]

    static func statusLine(_ model: Model) -> String {
        "tab \(model.tab) · count \(model.count) · row \(model.row + 1)"
    }

    /// Whether `screen` shows everything `model` says: the status line, the tab's footer (the
    /// last row both programs draw, so a frame has fully arrived when it shows), the selected tab
    /// in the tab bar, and the tab's content (for the list: the header, the first and last rows
    /// shown, the selected row reversed across the width and its neighbours not).
    static func shows(_ model: Model, on screen: TerminalScreen) -> Bool {
        guard screen.row(height - 2) == statusLine(model), screen.row(height - 1) == footers[model.tab - 1] else { return false }
        guard screen.row(0).hasPrefix(" 1 Counter │ 2 List │ 3 Mirror ") else { return false }
        for (index, x) in tabDigitColumns.enumerated() {
            let reversed = screen.cell(x: x, y: 0).attributes.contains(.reverse)
            if reversed != (index + 1 == model.tab) { return false }
        }
        switch model.tab {
        case 1:
            return screen.row(2) == " Count: \(model.count)"
        case 2:
            guard screen.row(1) == "row \(model.row + 1) of \(rowCount)",
                  screen.row(listTop) == label(model.offset),
                  screen.row(listTop + listRows - 1) == label(model.offset + listRows - 1) else { return false }
            let y = listTop + model.row - model.offset
            guard screen.row(y) == label(model.row),
                  screen.cell(x: 0, y: y).attributes.contains(.reverse),
                  screen.cell(x: width - 1, y: y).attributes.contains(.reverse) else { return false }
            for neighbour in [y - 1, y + 1] where (listTop..<(listTop + listRows)).contains(neighbour) {
                if screen.cell(x: 0, y: neighbour).attributes.contains(.reverse) { return false }
            }
            return true
        default:
            return screen.row(2) == " Mirror: \(model.count) (\(model.count % 2 == 0 ? "even" : "odd"))"
        }
    }

    /// The fixed script: 150 tab switches, with counter presses on the Counter tab and runs of
    /// `j` (and some `k`, a few runs long enough to scroll back up) on the List tab. The same
    /// seed gives the same keys on every machine.
    static func script(seed: UInt64 = 0x7AB5_2025) -> [Key] {
        var random = SeededRandom(seed: seed)
        var keys: [Key] = []
        var model = Model()
        for _ in 0..<150 {
            switch model.tab {
            case 1:
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    keys.append(Int.random(in: 0..<4, using: &random) == 0 ? .decrement : .increment)
                }
            case 2:
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let roll = Int.random(in: 0..<20, using: &random)
                    let (key, length): (Key, Int)
                    switch roll {
                    case 0: (key, length) = (.up, Int.random(in: 20...30, using: &random))   // scrolls back up
                    case 1...3: (key, length) = (.up, Int.random(in: 1...4, using: &random))
                    default: (key, length) = (.down, Int.random(in: 5...20, using: &random))
                    }
                    for _ in 0..<length {
                        // A key that would change nothing (k on the first row) is left out: every
                        // key must change the screen, or there is nothing to wait for.
                        if key == .up && model.row == 0 { break }
                        keys.append(key)
                        model.apply(key)
                    }
                }
            default:
                break   // the Mirror tab is only looked at
            }
            var next = Int.random(in: 1...2, using: &random)
            if next >= model.tab { next += 1 }   // always another tab
            keys.append(.tab(next))
            model.apply(.tab(next))
        }
        return keys
    }
}
