// Shared by every benchmark target (StoreBenchmarks, NavigationBenchmarks, LogicBenchmarks...).
import Benchmark
import Synchronization

/// A figure and its references, timed in the same process sample by sample (references first,
/// then the subject), with a budget on the subject-to-reference ratio.
///
/// The harness times the subject (its table shows that figure); this keeps its own clock over
/// both, so the ratio compares like with like, and prints it when the benchmark is torn down.
/// The ratio checked is the median of the per-sample ratios: a subject and its reference are
/// timed back to back, so a machine that is busier in one sample than in another (a build next
/// to the benchmark) slows both sides of that sample's ratio alike. A ratio over its budget is
/// printed as OVER BUDGET and fails the benchmark: the harness prints the reason and drops its
/// row from the table, as for UIBenchmarks' `benchmark.error` (its exit status stays 0 unless
/// it runs a baseline check).
public final class Comparison: Sendable {
    public struct Reference: Sendable {
        public let name: String
        /// Largest allowed subject/reference ratio; nil when the reference is only shown.
        public let budget: Double?
        public init(name: String, budget: Double?) {
            self.name = name
            self.budget = budget
        }
    }

    public let subject: String
    public let references: [Reference]
    public let unit: TimeUnit
    /// Leading samples to drop (the harness's warm-up iterations run the closure too).
    let warmup: Int

    public enum TimeUnit: Sendable {
        case nanoseconds, microseconds

        public var suffix: String { self == .nanoseconds ? "ns" : "us" }
        public func value(ns: Double) -> Double { self == .nanoseconds ? ns : ns / 1_000 }
    }

    /// Nanoseconds per operation: `[0]` the subject, then each reference.
    private let samples: Mutex<[[Double]]>
    /// Context printed under the figures (what matched, the routing trace).
    private let notes = Mutex<[String]>([])

    public init(subject: String, references: [Reference], unit: TimeUnit, warmup: Int) {
        self.subject = subject
        self.references = references
        self.unit = unit
        self.warmup = warmup
        samples = Mutex(Array(repeating: [], count: references.count + 1))
    }

    /// Records one sample: the subject's and each reference's time, each over its number of
    /// operations. A reference much cheaper than its subject should run many more operations, so
    /// that both sides take about as long: a short loop is rarely preempted and a long one often,
    /// and on a busy machine that alone would skew the ratio.
    public func record(iteration: Int, subject: (time: Duration, operations: Int),
                references: [(time: Duration, operations: Int)]) {
        precondition(references.count == self.references.count, "one time per reference")
        guard iteration >= warmup else { return }
        let perOperation = ([subject] + references).map { Self.nanoseconds($0.time) / Double($0.operations) }
        samples.withLock { samples in
            for (index, value) in perOperation.enumerated() { samples[index].append(value) }
        }
    }

    /// Sets the context line(s) printed with the figures (the last call wins).
    public func note(_ lines: [String]) {
        notes.withLock { $0 = lines }
    }

    /// Prints the medians and ratios; throws when a ratio is over its budget.
    public func report() throws {
        let all = samples.withLock { $0 }
        let count = all[0].count
        guard count > 0 else { throw BudgetFailure("\(subject): no samples recorded") }
        let medians = all.map { Self.median($0) ?? 0 }
        var lines = ["", "\(subject)  (\(count) samples; medians, \(unit.suffix) per operation)"]
        let width = max("measured".count, references.map { "reference: \($0.name)".count }.max() ?? 0)
        func pad(_ text: String) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        lines.append("  " + pad("measured") + "  " + Self.fixed(unit.value(ns: medians[0])) + " \(unit.suffix)")
        var failures: [String] = []
        for (index, reference) in references.enumerated() {
            let ratios = zip(all[0], all[index + 1]).compactMap { subject, reference in reference > 0 ? subject / reference : nil }
            guard let ratio = Self.median(ratios) else { continue }
            var line = "  " + pad("reference: " + reference.name) + "  " + Self.fixed(unit.value(ns: medians[index + 1]))
                + " \(unit.suffix)   ratio " + Self.ratio(ratio) + "x"
            if let budget = reference.budget {
                let ok = ratio <= budget
                line += " (budget <= " + Self.fixed(budget) + "x: " + (ok ? "ok)" : "OVER BUDGET)")
                if !ok {
                    failures.append("\(subject): \(Self.ratio(ratio))x \(reference.name), budget <= \(Self.fixed(budget))x")
                }
            }
            lines.append(line)
        }
        lines += notes.withLock { $0 }.map { "  " + $0 }
        print(lines.joined(separator: "\n"))
        if !failures.isEmpty { throw BudgetFailure(failures.joined(separator: "; ")) }
    }

    public struct BudgetFailure: Error, CustomStringConvertible, CustomDebugStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
        public var debugDescription: String { "over budget: " + description }
    }

    public static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }

    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// `value` with one decimal.
    /// A ratio as printed: two decimals below 10 (`1.24`), so one just past its budget never
    /// prints as the budget itself; one decimal above.
    public static func ratio(_ value: Double) -> String {
        guard value < 10 else { return fixed(value) }
        let hundredths = Int((value * 100).rounded())
        let fraction = abs(hundredths % 100)
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    public static func fixed(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}

/// How long `body` takes.
@inlinable @inline(__always)
public func time(_ body: () -> Void) -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    body()
    return clock.now - start
}
