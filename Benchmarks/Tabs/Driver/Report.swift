import AppletTesting
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One figure of the table: how to get it from a run, how to print it, and its budget (the most
/// AppletKit / C may be).
struct Figure {
    var name: String
    var budget: Double
    var value: (RunResult) -> Double
    var format: (Double) -> String
}

enum Stats {
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The nearest-rank percentile (`p` in 0...1).
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }
}

extension Duration {
    var milliseconds: Double { Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15 }
    var seconds: Double { milliseconds / 1e3 }
}

enum Format {
    static func ms(_ value: Double) -> String { String(format: value < 10 ? "%.2f ms" : "%.1f ms", value) }
    static func s(_ value: Double) -> String { String(format: "%.3f s", value) }
    static func mb(_ value: Double) -> String { String(format: "%.1f MB", value / 1_000_000) }
    static func count(_ value: Double) -> String { grouped(Int(value.rounded())) }
    static func ratio(_ value: Double) -> String { String(format: "%.2fx", value) }

    static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// A Markdown table with its columns padded, readable as it is in a terminal.
    static func table(_ header: [String], _ rows: [[String]], rightAligned: Set<Int>) -> String {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? pad + cell : cell + pad
            }.joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.indices.map { column in
            rightAligned.contains(column) ? String(repeating: "-", count: widths[column] + 1) + ":"
                : String(repeating: "-", count: widths[column] + 2)
        }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

enum Machine {
    static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown CPU" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        }
        return "unknown CPU"
    }

    static func memory() -> String {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return "? GB" }
        for line in text.split(separator: "\n") where line.hasPrefix("MemTotal:") {
            let fields = line.split(separator: " ")
            if fields.count >= 2, let kb = Double(fields[1]) { return String(format: "%.1f GB RAM", kb * 1024 / 1e9) }
        }
        return "? GB RAM"
    }

    static func kernel() -> String {
        var name = utsname()
        uname(&name)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(field(name.sysname)) \(field(name.release)) \(field(name.machine))"
    }

    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    static func date() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: Date())
    }
}

/// Compares the two programs' screens, taken after each key once the output settled.
enum ScreenCheck {
    struct RowReport {
        var textDiffers = 0
        var styleDiffers = 0
        var textExample: (key: Int, c: String, other: String)?
        var styleExample: (key: Int, x: Int, c: String, other: String)?
    }

    static func compare(_ c: [TerminalScreen], _ other: [TerminalScreen]) -> [Int: RowReport] {
        var rows: [Int: RowReport] = [:]
        for (index, (left, right)) in zip(c, other).enumerated() {
            for y in 0..<Workload.height {
                var report = rows[y] ?? RowReport()
                if left.row(y) != right.row(y) {
                    report.textDiffers += 1
                    if report.textExample == nil { report.textExample = (index, left.row(y), right.row(y)) }
                } else {
                    for x in 0..<Workload.width {
                        let a = left.cell(x: x, y: y), b = right.cell(x: x, y: y)
                        if a.attributes != b.attributes || a.foreground != b.foreground || a.background != b.background {
                            report.styleDiffers += 1
                            if report.styleExample == nil { report.styleExample = (index, x, a.description, b.description) }
                            break
                        }
                    }
                }
                rows[y] = report
            }
        }
        return rows.filter { $0.value.textDiffers > 0 || $0.value.styleDiffers > 0 }
    }

    static func describe(_ rows: [Int: RowReport], screens: Int, otherName: String) -> [String] {
        guard !rows.isEmpty else {
            return ["all \(Workload.height) rows have the same text, attributes and colours on all \(screens) screens"]
        }
        var lines: [String] = []
        let same = (0..<Workload.height).filter { rows[$0] == nil }
        lines.append("rows with the same text, attributes and colours on all \(screens) screens: \(ranges(same))")
        for y in rows.keys.sorted() {
            let report = rows[y]!
            var parts: [String] = []
            if report.textDiffers > 0, let e = report.textExample {
                parts.append("text differs on \(report.textDiffers) (after key \(e.key): C \"\(e.c)\", \(otherName) \"\(e.other)\")")
            }
            if report.styleDiffers > 0, let e = report.styleExample {
                parts.append("same text, style differs on \(report.styleDiffers) (after key \(e.key), column \(e.x): C \(e.c), \(otherName) \(e.other))")
            }
            lines.append("row \(y): " + parts.joined(separator: "; "))
        }
        return lines
    }

    static func ranges(_ values: [Int]) -> String {
        var parts: [String] = []
        var start: Int?
        var previous = -2
        for value in values + [Int.max] {
            if value != previous + 1 {
                if let s = start { parts.append(s == previous ? "\(s)" : "\(s)-\(previous)") }
                start = value
            }
            previous = value
        }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// A row's text, then its style runs: `[0-10 underline] [11 dim, underline] ...`.
    static func styled(_ screen: TerminalScreen, row y: Int) -> String {
        var runs: [String] = []
        var start = 0
        func style(_ x: Int) -> String {
            let cell = screen.cell(x: x, y: y)
            var parts: [String] = []
            if !cell.attributes.isEmpty { parts.append(cell.attributes.description.dropFirst().dropLast().description) }
            if cell.foreground != .default { parts.append("fg \(cell.foreground)") }
            if cell.background != .default { parts.append("bg \(cell.background)") }
            return parts.joined(separator: " ")
        }
        for x in 1...Workload.width where x == Workload.width || style(x) != style(start) {
            let current = style(start)
            if !current.isEmpty { runs.append("[\(start)\(x - 1 == start ? "" : "-\(x - 1)") \(current)]") }
            start = x
        }
        return screen.row(y) + (runs.isEmpty ? "" : "   " + runs.joined(separator: " "))
    }
}
