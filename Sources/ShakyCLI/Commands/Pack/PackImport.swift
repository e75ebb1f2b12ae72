import ArgumentParser
import Foundation
import ShakyProtocol
import Varlink

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

        /// The most a pack file may hold: one Varlink message carries it, with room for the call around it.
        static let largestFile = VarlinkFrameDecoder.defaultMaximumFrameLength - 4096

        /// Refuses, with a message that says what to do, a file too large for one call to the daemon
        /// (sent anyway, the daemon would close the connection and the host would read "is it running?").
        static func checkSize(of text: String, file: String) throws {
            let encoded = (try? JSONEncoder().encode(text).count) ?? text.utf8.count
            guard encoded > largestFile else { return }
            let size = String(format: "%.1f", Double(encoded) / 1_048_576)
            throw CommandFailure(
                "\(file) is too large to import in one go (\(size) MiB as sent; the daemon takes up to 1 MiB per "
                    + "call): split it into files of fewer questions and import each (`--name` names each pack)")
        }

        /// The pack's name: `--name`, else the name inside a JSON file, else the file's name without its
        /// extension ("My Quiz.csv" makes the pack "My Quiz").
        func packName(for text: String, format: ShakyAPI.PacksInterface.ImportParameters.Format) -> String? {
            if let name { return name }
            guard file != "-" else { return nil }
            if format == .json,
                let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let inFile = object["name"] as? String, !inFile.trimmingSpaces.isEmpty
            {
                return nil
            }
            let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
            return stem.trimmingSpaces.isEmpty ? nil : stem
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
            let format = resolvedFormat ?? .json
            try Self.checkSize(of: text, file: file)
            let reply = try await client.packs.import(
                data: text, format: format, name: packName(for: text, format: format))
            // Warnings go to standard error, so that `--json` output stays one document.
            for warning in reply.warnings ?? [] {
                console.printError("shaky: warning: \(file == "-" ? "standard input" : file): \(warning)")
            }
            try global.emit(reply, on: console) { _ in "Imported " + TextRenderer.pack(reply.pack) }
        }
    }
}
