import ArgumentParser
import Foundation
import ShakyCore
import ShakyProtocol
import SystemCalls

extension Shaky.Pack {
    /// `shaky pack import`.
    struct Import: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a pack from a JSON or CSV file.",
            discussion: """
                The format comes from the file's extension (.json, .csv, or .tsv for CSV separated by tabs) \
                unless --format says it. CSV files have the header question,answer,difficulty,alternates \
                (alternates separated by |), separated by commas, semicolons or tabs; JSON files are shaped \
                as `shaky pack export NAME --format json` writes them. In both, only question and answer are \
                needed: a missing or empty difficulty is medium. \
                A file with a bad question imports nothing; the error names each bad question with its line \
                and its problem (the first 20, then how many more). Files up to 16 MiB are taken (a large one \
                goes to the daemon in parts), and a pack holds at most 16 MiB as JSON, its largest export, so \
                that what is exported imports back: a CSV file of very many short questions can be refused \
                below 16 MiB. Use - to read standard input (then --format is needed, and --name for CSV).

                EXAMPLES:
                The pack "Pub night" from a spreadsheet saved as CSV:
                  shaky pack import "Pub night.csv"
                A file of another extension, and standard input, named:
                  shaky pack import questions.txt --format csv --name "Pub night"
                  shaky pack import - --format json --name "Pub night" < pub-night.json
                """)

        @Argument(
            help: "The file to import, or - for standard input.", completion: .file(extensions: ["json", "csv", "tsv"]))
        var file: String

        @Option(help: "The file's format (default: from its extension); tsv is read as CSV, whose tabs it finds.")
        var format: ShakyAPI.PacksInterface.ExportParameters.Format?

        @Option(
            help: ArgumentHelp(
                "The new pack's name (default: the name in the file, or the file's name).", valueName: "name"))
        var name: String?

        @OptionGroup var global: GlobalOptions

        /// The format from `--format` or the file's extension (a spreadsheet's `.tsv` is CSV separated by tabs).
        var resolvedFormat: ShakyAPI.PacksInterface.ImportParameters.Format? {
            let fileExtension = (file as NSString).pathExtension.lowercased()
            let given = format.map(\.rawValue) ?? fileExtension
            return ShakyAPI.PacksInterface.ImportParameters.Format(rawValue: given == "tsv" ? "csv" : given)
        }

        func validate() throws {
            guard let format = resolvedFormat else {
                throw ValidationError("Cannot tell the format of “\(file)”: add --format json, csv or tsv.")
            }
            // A JSON file may hold its name; CSV has no place for one, and standard input has no file name.
            guard file != "-" || name != nil || format == .json else {
                throw ValidationError("A CSV pack from standard input needs a name: add --name NAME.")
            }
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

        /// The `name` inside a JSON pack file, if it has one.
        static func nameInFile(_ text: String) -> String? {
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let name = object["name"] as? String, !name.trimmingSpaces.isEmpty
            else { return nil }
            return name
        }

        /// Reads the file before connecting, so that a file that cannot be read is said first.
        func run() async throws {
            let text = try readText()
            let console = CurrentConsole.value
            try await global.withClient { client in try await importText(text, client: client, console: console) }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            try await importText(try readText(), client: client, console: console)
        }

        /// The largest file read: the most the daemon imports (`PackRules.largestPackFile`, the `limit` of
        /// `Packs.BeginUpload`; the client does not link the store).
        static let largestFile = 16 << 20

        /// The file's text (standard input's for -).
        func readText() throws -> String {
            let name = file == "-" ? "standard input" : file
            let data: Data
            do {
                data =
                    file == "-"
                    ? try FileAccess.readStandardInput(limit: Self.largestFile)
                    : try FileAccess.read(file, limit: Self.largestFile, waitingForAWriter: true)
            } catch {
                guard let limit = error.limitExceeded else {
                    throw CommandFailure("cannot read \(name): \(error.reason)")
                }
                throw CommandFailure(
                    "\(name) is larger than \(limit >> 20) MiB; shakyd imports pack files of up to \(limit >> 20) MiB: "
                        + "split it into smaller files and import each")
            }
            // What a spreadsheet saves as "Unicode text" is said as such (the daemon says it of text that is UTF-8 by
            // accident, UTF-16 without a byte order mark); "not UTF-8" would leave one guessing.
            if let wide = WideText.encoding(of: data) {
                throw CommandFailure("\(name) is \(wide.name) text; save it as UTF-8 and import again")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw CommandFailure("\(name) is not UTF-8 text; save it as UTF-8 and import again")
            }
            return text
        }

        private func importText(_ text: String, client: ShakyClient, console: any Console) async throws {
            let format = resolvedFormat ?? .json
            let name = packName(for: text, format: format)
            let reply: ShakyAPI.PacksInterface.ImportReply
            do {
                reply = try await client.importPack(text: text, format: format, name: name)
            } catch {
                guard error.refusalName == "PackExists" else { throw error }
                // Most often the host edited the file and imports it again: say both ways on.
                let taken = name ?? Self.nameInFile(text) ?? "NAME"
                // A built-in pack stays: deleting it is no way on (an exported built-in pack imported back, say).
                let packs = (try? await client.packs.list()) ?? []
                if packs.contains(where: { $0.builtin && $0.name.lowercased() == taken.lowercased() }) {
                    throw CommandFailure(
                        "\(error); it is a built-in pack, which stays: import this file under another name with "
                            + "--name NAME")
                }
                // The old pack by its own name (names are told apart ignoring case), quoted as a shell reads it.
                let old = packs.first { $0.name.lowercased() == taken.lowercased() }?.name ?? taken
                throw CommandFailure(
                    "\(error): import it under another name with --name NAME, or delete the old pack first "
                        + "(`shaky pack delete \(ShellWord.quoted(old))`) to import this file in its place")
            }
            // Warnings go to standard error, so that `--json` output stays one document.
            for warning in reply.warnings ?? [] {
                console.printError("shaky: warning: \(file == "-" ? "standard input" : file): \(warning)")
            }
            try global.emit(reply, on: console) { _ in "Imported " + TextRenderer.pack(reply.pack) }
        }
    }
}
