import Foundation

/// Every benchmark, in the order they run. Add yours here; each lives in its own file.
let allBenchmarks: [Benchmark] = [
    .sound, .callRate, .jsonPasses, .fanOut, .shakeLatency, .shakeDetection, .traceParsing,
]

let usage = """
    Usage: shaky-bench [--only NAME]... [--OPTION VALUE]...
    Prints benchmark figures; runs every benchmark unless --only selects some.

    Benchmarks:
    \(allBenchmarks.map { "  \($0.name)\n      \($0.summary)" }.joined(separator: "\n"))
    """

do {
    let arguments = try BenchmarkArguments(Array(CommandLine.arguments.dropFirst()))
    if arguments.wantsHelp {
        print(usage)
        exit(0)
    }
    let unknown = arguments.only.filter { name in !allBenchmarks.contains { $0.name == name } }
    guard unknown.isEmpty else {
        throw BenchmarkError(
            "no benchmark named \(unknown.joined(separator: ", ")); known: \(allBenchmarks.map(\.name).joined(separator: ", "))"
        )
    }
    for benchmark in allBenchmarks where arguments.only.isEmpty || arguments.only.contains(benchmark.name) {
        print("== \(benchmark.name)")
        let before = HostSteal()
        try await benchmark.run(arguments)
        if let before, let after = HostSteal() {
            print(String(format: "host steal while it ran: %.1f %% of the CPU time", after.share(since: before) * 100))
        }
    }
} catch {
    FileHandle.standardError.write(Data("shaky-bench: \(error)\n".utf8))
    exit(1)
}
