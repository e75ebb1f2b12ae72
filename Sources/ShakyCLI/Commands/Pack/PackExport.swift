import ArgumentParser
import Foundation
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack export`.
    struct Export: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a pack as JSON or CSV, to standard output or a file.",
            discussion: """
                The format comes from --format, else the extension of --output, else JSON. What is \
                exported imports back with `shaky pack import`.
                """)

        @Argument(help: "The pack.")
        var name: String

        @Option(help: "The format (default: from --output's extension, else json).")
        var format: ShakyAPI.PacksInterface.ImportParameters.Format?

        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.", completion: .file())
        var output: String?

        @OptionGroup var global: GlobalOptions

        /// The format from `--format`, the output's extension, or JSON.
        var resolvedFormat: ShakyAPI.PacksInterface.ImportParameters.Format {
            format ?? output.flatMap {
                ShakyAPI.PacksInterface.ImportParameters.Format(rawValue: ($0 as NSString).pathExtension.lowercased())
            }
                ?? .json
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let data = try await client.packs.export(name: name, format: resolvedFormat)
            if global.json, output == nil {
                console.print(try JSONOutput.render(ShakyAPI.PacksInterface.ExportReply(data: data)))
                return
            }
            guard let output, output != "-" else {
                console.write(data.hasSuffix("\n") ? data : data + "\n")
                return
            }
            do {
                try Data(data.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw CommandFailure("cannot write \(output): \((error as NSError).localizedDescription)")
            }
            console.printError("Exported “\(name)” to \(output).")
        }
    }
}
