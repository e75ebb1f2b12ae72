import Foundation
import ShakyFuzzing

#if FUZZING
    /// libFuzzer's driver (from `libclang_rt.fuzzer_no_main`, linked by `make fuzz`).
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// The target libFuzzer drives; set once before the driver starts.
    nonisolated(unsafe) var selectedTarget = FuzzTarget.varlink
#endif

/// `shaky-fuzz TARGET [libFuzzer options] [corpus folders]`: built with `make fuzz`, runs TARGET under
/// libFuzzer; in an ordinary build, replays the given files or folders through TARGET once each.
@main
struct ShakyFuzz {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(
                Data("usage: shaky-fuzz TARGET [options] [corpus…]; TARGET: \(names)\n".utf8))
            exit(2)
        }
        #if FUZZING
            selectedTarget = target
            // libFuzzer reads its own options; it must not see the target's name.
            var argv = [CommandLine.unsafeArgv[0]] + (2..<Int(CommandLine.argc)).map { CommandLine.unsafeArgv[$0] }
            var argc = Int32(argv.count)
            argv.append(nil)
            let status = argv.withUnsafeMutableBufferPointer { buffer in
                var base = Optional(buffer.baseAddress!)
                return runFuzzerDriver(&argc, &base) { data, count in
                    selectedTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
                    return 0
                }
            }
            exit(status)
        #else
            var count = 0
            for path in arguments.dropFirst(2) {
                let files =
                    (try? FileManager.default.contentsOfDirectory(atPath: path).sorted().map { path + "/" + $0 })
                    ?? [path]
                for file in files {
                    guard let data = FileManager.default.contents(atPath: file) else { continue }
                    target.run(Array(data))
                    count += 1
                }
            }
            print("\(target.rawValue): \(count) inputs ran clean")
        #endif
    }
}
