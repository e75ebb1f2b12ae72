import ArgumentParser
import Foundation
import ShakyCore
import ShakyProtocol
import SystemCalls

extension Shaky.Pack {
    /// `shaky pack export`.
    struct Export: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a pack as JSON, CSV or TSV, to standard output or a file.",
            discussion: """
                The format comes from --format, else the extension of --output (.json, .csv or .tsv; another \
                extension needs --format), else JSON. TSV is CSV with tabs between the fields, as spreadsheets \
                copy and save it. What is exported imports back with `shaky pack import`. For Excel, which \
                reads CSV without a byte order mark as the local code page, add --bom.

                EXAMPLES:
                  shaky pack export Animals --output animals.json
                  shaky pack export Animals --format csv --bom > animals.csv
                """)

        @Argument(help: "The pack.", completion: Completions.packNames)
        var name: String

        @Option(help: "The format (default: from --output's extension, else json).")
        var format: ShakyAPI.PacksInterface.ExportParameters.Format?

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"),
            completion: .file())
        var output: String?

        @Flag(help: "Start CSV or TSV with a UTF-8 byte order mark, so Excel reads accents right.")
        var bom = false

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            // A file named .yaml or .txt would get JSON under a name that says otherwise.
            if format == nil, let output, output != "-" {
                let fileExtension = (output as NSString).pathExtension
                if !fileExtension.isEmpty,
                    ShakyAPI.PacksInterface.ExportParameters.Format(rawValue: fileExtension.lowercased()) == nil
                {
                    throw ValidationError(
                        "Cannot tell the format from “.\(fileExtension)”: add --format json, csv or tsv.")
                }
            }
            if bom, resolvedFormat == .json {
                throw ValidationError("--bom is for CSV and TSV; add --format csv or tsv.")
            }
        }

        /// The format from `--format`, the output's extension, or JSON.
        var resolvedFormat: ShakyAPI.PacksInterface.ExportParameters.Format {
            format ?? output.flatMap {
                ShakyAPI.PacksInterface.ExportParameters.Format(rawValue: ($0 as NSString).pathExtension.lowercased())
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
