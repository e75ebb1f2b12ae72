import ArgumentParser
import Foundation
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack import`.
    struct Import: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a pack from a JSON or CSV file.",
            discussion: """
                The format comes from the file's extension (.json, .csv) unless --format says it. CSV \
                files have the header question,answer,difficulty,alternates (alternates separated by |). \
                A file with any bad line imports nothing; the error names the line. Use - to read \
                standard input (then --format is needed).
                """)

        @Argument(help: "The file to import, or - for standard input.", completion: .file(extensions: ["json", "csv"]))
        var file: String

        @Option(help: "The file's format (default: from its extension).")
        var format: ShakyAPI.PacksInterface.ImportParameters.Format?

        @Option(help: "The new pack's name (default: the name in the file, or the file's name).")
        var name: String?

        @OptionGroup var global: GlobalOptions

        /// The format from `--format` or the file's extension.
        var resolvedFormat: ShakyAPI.PacksInterface.ImportParameters.Format? {
            format
                ?? ShakyAPI.PacksInterface.ImportParameters.Format(
                    rawValue: (file as NSString).pathExtension.lowercased())
        }

        func validate() throws {
            guard resolvedFormat != nil else {
                throw ValidationError("Cannot tell the format of “\(file)”: add --format json or --format csv.")
            }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let data: Data
            do {
                data =
                    file == "-"
                    ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CommandFailure("cannot read \(file): \((error as NSError).localizedDescription)")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw CommandFailure("\(file) is not UTF-8 text; save it as UTF-8 and import again")
            }
            let pack = try await client.packs.import(data: text, format: resolvedFormat ?? .json, name: name)
            try global.emit(ShakyAPI.PacksInterface.CreateReply(pack: pack), on: console) { _ in
                "Imported " + TextRenderer.pack(pack)
            }
        }
    }
}
