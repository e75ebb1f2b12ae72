/// One benchmark of `shaky-bench`: a name to select it with `--only`, a line of help, and a body that prints
/// its figures.
///
/// To add one, write `extension Benchmark { static let myThing = Benchmark(…) }` in a file of its own and list
/// it in ``Benchmark/all`` (main.swift).
struct Benchmark: Sendable {
    /// The name given to `--only`.
    var name: String
    /// One line for `--help`, including the options the benchmark reads.
    var summary: String
    /// Runs the benchmark and prints its figures; throws to report a failure (the tool then exits non-zero).
    var run: @Sendable (BenchmarkArguments) async throws -> Void
}

/// The command line's `--name value` options, for benchmarks to read their own.
struct BenchmarkArguments: Sendable {
    private var values: [String: String] = [:]
    /// Benchmark names given with `--only` (empty: run all).
    private(set) var only: [String] = []
    /// Whether `--help` or `-h` was given.
    private(set) var wantsHelp = false

    /// Parses `--only NAME` (repeatable), `--help`, and `--name value` pairs.
    init(_ arguments: [String]) throws(BenchmarkError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" {
                wantsHelp = true
                continue
            }
            guard argument.hasPrefix("--") else { throw BenchmarkError("unexpected argument \(argument)") }
            guard let value = remaining.popFirst() else { throw BenchmarkError("\(argument) needs a value") }
            if argument == "--only" {
                only.append(value)
            } else {
                values[argument] = value
            }
        }
    }

    /// The value of `--name`, if given.
    func string(_ name: String) -> String? { values[name] }

    /// The value of `--name` as a number, or `defaultValue` when absent; a value that is not a number is an error.
    func double(_ name: String, default defaultValue: Double) throws(BenchmarkError) -> Double {
        guard let text = values[name] else { return defaultValue }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw BenchmarkError("\(name) must be a non-negative number, got \(text)")
        }
        return value
    }

    /// The value of `--name` as a whole number, or `defaultValue` when absent.
    func int(_ name: String, default defaultValue: Int) throws(BenchmarkError) -> Int {
        guard let text = values[name] else { return defaultValue }
        guard let value = Int(text), value > 0 else {
            throw BenchmarkError("\(name) must be a positive whole number, got \(text)")
        }
        return value
    }
}

/// A benchmark could not run, and why.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Percentiles of a list of durations, for printing.
struct DurationSummary {
    var sorted: [Duration]

    init(_ durations: [Duration]) { sorted = durations.sorted() }

    /// The `fraction` percentile (nearest rank).
    func percentile(_ fraction: Double) -> Duration {
        guard !sorted.isEmpty else { return .zero }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// Milliseconds with two decimals.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(format: "%.2f ms", value)
    }
}
