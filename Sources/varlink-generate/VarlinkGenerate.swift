import Foundation
import VarlinkGenerator

/// `varlink-generate --namespace NAME --output FOLDER FILE.varlink…`: writes the Swift of each interface into
/// FOLDER and removes Swift files there that no interface produces any more.
@main
struct VarlinkGenerate {
    static func main() {
        do {
            try run(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("varlink-generate: \(error)\n".utf8))
            exit(1)
        }
    }

    static let usage = "usage: varlink-generate --namespace NAME --output FOLDER FILE.varlink…"

    static func run(_ arguments: [String]) throws {
        var namespace: String?
        var output: String?
        var inputs: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--namespace": namespace = remaining.popFirst()
            case "--output": output = remaining.popFirst()
            case "--help", "-h":
                print(usage)
                return
            default: inputs.append(argument)
            }
        }
        guard let namespace, let output, !inputs.isEmpty else { throw GeneratorError(usage) }
        var files: [InterfaceFile] = []
        for path in inputs {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw GeneratorError("cannot read \(path): \(error.localizedDescription)")
            }
            files.append(try InterfaceFile(text: text, fileName: path))
        }
        let generated = try SwiftGenerator(namespace: namespace).generate(files)
        let manager = FileManager.default
        try manager.createDirectory(atPath: output, withIntermediateDirectories: true)
        let names = Set(generated.map(\.name))
        for stale in try manager.contentsOfDirectory(atPath: output) where stale.hasSuffix(".swift") {
            if !names.contains(stale) { try manager.removeItem(atPath: output + "/" + stale) }
        }
        for file in generated {
            try Data(file.contents.utf8).write(to: URL(fileURLWithPath: output + "/" + file.name))
        }
    }
}
