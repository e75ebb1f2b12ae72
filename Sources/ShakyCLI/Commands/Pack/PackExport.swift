import ArgumentParser
import Foundation
import ShakyCore
import ShakyProtocol
import SystemCalls

extension Shaky.Pack {
    /// `shaky pack export`.
    struct Export: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a pack as JSON or CSV, to standard output or a file.",
            discussion: """
                The format comes from --format, else the extension of --output (.json or .csv; another \
                extension needs --format), else JSON. What is exported imports back with `shaky pack \
                import`. For Excel, which reads CSV without a byte order mark as the local code page, add \
                --bom.

                EXAMPLES:
                  shaky pack export Animals --output animals.json
                  shaky pack export Animals --format csv --bom > animals.csv
                """)

        @Argument(help: "The pack.", completion: Completions.packNames)
        var name: String

        @Option(help: "The format (default: from --output's extension, else json).")
        var format: ShakyAPI.PacksInterface.ImportParameters.Format?

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"),
            completion: .file())
        var output: String?

        @Flag(help: "Start CSV with a UTF-8 byte order mark, so Excel reads accents right.")
        var bom = false

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            // A file named .tsv, .yaml or .txt would get JSON under a name that says otherwise.
            if format == nil, let output, output != "-" {
                let fileExtension = (output as NSString).pathExtension
                if !fileExtension.isEmpty,
                    ShakyAPI.PacksInterface.ImportParameters.Format(rawValue: fileExtension.lowercased()) == nil
                {
                    throw ValidationError(
                        "Cannot tell the format from “.\(fileExtension)”: add --format json or --format csv.")
                }
            }
            if bom, resolvedFormat != .csv { throw ValidationError("--bom is for CSV; add --format csv.") }
        }

        /// The format from `--format`, the output's extension, or JSON.
        var resolvedFormat: ShakyAPI.PacksInterface.ImportParameters.Format {
            format ?? output.flatMap {
                ShakyAPI.PacksInterface.ImportParameters.Format(rawValue: ($0 as NSString).pathExtension.lowercased())
            }
                ?? .json
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let exported = try await client.packs.export(name: name, format: resolvedFormat)
            // The import reads a leading byte order mark, so a file made with --bom imports back.
            let data = bom ? "\u{FEFF}" + exported : exported
            if global.json, output == nil {
                console.print(try JSONOutput.render(ShakyAPI.PacksInterface.ExportReply(data: data)))
                return
            }
            guard let output, output != "-" else {
                // By bytes: a CSV file's last line break is CRLF, one Character that `hasSuffix("\n")` does not see.
                console.write(data.utf8.last == UInt8(ascii: "\n") ? data : data + "\n")
                return
            }
            do {
                try FileAccess.write(Data(data.utf8), to: output)
            } catch {
                throw CommandFailure("cannot write --output \(output): \(error.reason)")
            }
            // With --json the reply went to the file: standard output says done as every command without a reply.
            if global.json {
                console.print("{}")
            } else {
                console.printError("Exported “\(name)” to \(output).")
            }
        }
    }
}
