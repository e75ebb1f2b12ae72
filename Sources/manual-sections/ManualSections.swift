import Foundation

/// `manual-sections PAGE.1…`: turns the reference sections a command's discussion holds into real man page
/// sections, in place.
///
/// swift-argument-parser's generate-manual writes a command's discussion into DESCRIPTION as text, so a
/// discussion's `FILES:`, `ENVIRONMENT:` and `EXIT STATUS:` would be paragraphs, and every page would end with
/// the generic `.Ex -std`. In a discussion such a section is a line holding only its title and a colon,
/// followed by one line per entry, `TERM: what it is`, up to a blank line:
///
/// ```
/// FILES:
/// /etc/shaky/shakyd.conf: the configuration file.
/// ```
///
/// Each becomes `.Sh TITLE` with a tagged list (paths as `Pa`, variables as `Ev`), placed in mdoc's order
/// (ENVIRONMENT, FILES, EXIT STATUS, EXAMPLES) before SEE ALSO; a page's own EXIT STATUS replaces the generic one.
/// EXAMPLES is not a list: its lines indented by two spaces are commands, shown as typed (`.Bd -literal`), and
/// the others say what the commands after them do:
///
/// ```
/// EXAMPLES:
/// Two teams, five questions:
///   shaky new --team Owls --team Foxes --questions 5
/// ```
///
/// The list of arguments and options, which generate-manual leaves at the end of DESCRIPTION, becomes a section of
/// its own, OPTIONS. The blank lines generate-manual leaves in a discussion become `.Pp`, and a paragraph break with nothing to
/// separate is dropped, so that `groff -ww` and `mandoc -T lint` have nothing to say.
///
/// Given all the pages of a program (`shaky.1`, `shaky.pack.1`, `shaky.pack.import.1`…), a subcommand's page
/// without an EXIT STATUS of its own takes its program's (not the generic "exits 0 on success, and >0 if an error
/// occurs"), and names its program's and its parent command's pages in SEE ALSO; each program's page names the others' (`shaky(1)` and
/// `shakyd(1)`). SEE ALSO names only pages that are there (the Makefile leaves out the pages of `help`). A command's
/// page lists its subcommands, each with its one line, at the end of DESCRIPTION, as `--help` does.
@main
struct ManualSections {
    /// The section titles a discussion may hold, in the order mdoc places them.
    static let titles = ["ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"]

    static func main() {
        let paths = Array(CommandLine.arguments.dropFirst())
        if paths.count == 2, paths[0] == "--ascii-dump-help" { printASCIIDumpHelp(of: paths[1]) }
        guard !paths.isEmpty, !paths.contains(where: { $0.hasPrefix("-") }) else {
            FileHandle.standardError.write(
                Data("usage: manual-sections PAGE.1…\n       manual-sections --ascii-dump-help PROGRAM\n".utf8))
            exit(2)
        }
        var pages: [String: String] = [:]
        for path in paths {
            do {
                pages[path] = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                FileHandle.standardError.write(Data("manual-sections: cannot read \(path): \(error)\n".utf8))
                exit(1)
            }
        }
        for (path, text) in rewrite(pages: pages) {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                FileHandle.standardError.write(Data("manual-sections: cannot rewrite \(path): \(error)\n".utf8))
                exit(1)
            }
        }
    }

    /// What marks a character beyond ASCII in ``printASCIIDumpHelp(of:)``'s output: DEL, which no help text holds and
    /// generate-manual passes on, around the character's code point in hexadecimal (`\u{7F}E0\u{7F}` for à).
    static let marker: Character = "\u{7F}"

    /// `--ascii-dump-help PROGRAM`: prints `PROGRAM --experimental-dump-help` (the help as JSON, which is what
    /// generate-manual reads) with each character beyond ASCII marked in ASCII, then exits.
    ///
    /// generate-manual drops every character beyond ASCII (Hà Nội became "H Ni", m/s² "m/s", “…” nothing), so the
    /// Makefile gives it a script that runs this instead of the program; ``rewrite(_:)`` turns the marks into mdoc's
    /// escapes for those characters (`\[u00E0]`).
    static func printASCIIDumpHelp(of program: String) -> Never {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["--experimental-dump-help"]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            FileHandle.standardError.write(Data("manual-sections: cannot run \(program): \(error)\n".utf8))
            exit(1)
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { exit(process.terminationStatus) }
        var marked = ""
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                marked.unicodeScalars.append(scalar)
            } else {
                marked += "\(marker)\(String(scalar.value, radix: 16, uppercase: true))\(marker)"
            }
        }
        FileHandle.standardOutput.write(Data(marked.utf8))
        exit(0)
    }

    /// `text` with the marks of ``printASCIIDumpHelp(of:)`` turned back into the characters they stand for.
    static func unmarked(_ text: String) -> String {
        guard text.contains(marker) else { return text }
        var result = ""
        var pieces = text.split(separator: marker, omittingEmptySubsequences: false)[...]
        // Text and marks alternate: text, code point, text…
        result += pieces.popFirst() ?? ""
        while let code = pieces.popFirst() {
            if let value = UInt32(code, radix: 16), let scalar = Unicode.Scalar(value) {
                result.unicodeScalars.append(scalar)
            }
            result += pieces.popFirst() ?? ""
        }
        return result
    }

    /// `text` in ASCII: each character beyond it as mdoc's escape (`\[u00E0]`), which groff and mandoc both read.
    static func escapedBeyondASCII(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                result.unicodeScalars.append(scalar)
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return result
    }

    /// The pages (by path) rewritten, and tied to their program's page: its EXIT STATUS where a subcommand's page
    /// has only the generic one, and SEE ALSO entries between them.
    static func rewrite(pages: [String: String]) -> [String: String] {
        let rewritten = pages.mapValues { rewrite($0) }
        /// `shaky.pack.import` for `…/shaky.pack.import.1`.
        func name(_ path: String) -> String {
            String(((path as NSString).lastPathComponent as NSString).deletingPathExtension)
        }
        let names = Set(pages.keys.map(name))
        let programs = names.filter { !$0.contains(".") }.sorted()
        var statuses: [String: [String]] = [:]
        for (path, text) in rewritten where programs.contains(name(path)) {
            let lines = text.components(separatedBy: "\n")
            let body = section(".Sh \"EXIT STATUS\"", in: lines)
            if !body.isEmpty, !body.contains(".Ex -std") { statuses[name(path)] = body }
        }
        // Each page's one line (its `.Nd`), for the page of the command above it.
        var summaries: [String: String] = [:]
        for (path, text) in rewritten {
            guard let line = text.components(separatedBy: "\n").first(where: { $0.hasPrefix(".Nd ") }) else { continue }
            var summary = String(line.dropFirst(".Nd ".count))
            if summary.count >= 2, summary.hasPrefix("\""), summary.hasSuffix("\"") {
                summary = String(summary.dropFirst().dropLast())
            }
            summaries[name(path)] = summary.hasPrefix(".") || summary.hasPrefix("'") ? "\\&" + summary : summary
        }
        var result: [String: String] = [:]
        for (path, text) in rewritten {
            let page = name(path)
            let program = String(page.prefix { $0 != "." })
            var lines = text.components(separatedBy: "\n")
            if lines.last == "" { lines.removeLast() }
            if page != program, let status = statuses[program],
                let start = lines.firstIndex(of: ".Sh \"EXIT STATUS\""),
                section(".Sh \"EXIT STATUS\"", in: lines) == [".Ex -std"]
            {
                lines.replaceSubrange((start + 1)...(start + 1), with: status)
            }
            // A command's subcommands, each with its one line, end its DESCRIPTION (generate-manual names them only in
            // SEE ALSO), as --help lists them.
            let children = names.filter { child in
                child.hasPrefix(page + ".") && !child.dropFirst(page.count + 1).contains(".")
            }
            if !children.isEmpty, let options = lines.firstIndex(of: ".Sh OPTIONS") {
                let items = children.sorted().flatMap { child in
                    [".It Cm " + child.dropFirst(page.count + 1), summaries[child] ?? ""]
                }
                lines.insert(contentsOf: [".Ss Commands", ".Bl -tag -width Ds"] + items + [".El"], at: options)
            }
            // A subcommand's page names its program's and its parent command's; a program's page the other programs'.
            let parent = page.split(separator: ".").dropLast().joined(separator: ".")
            let related = page == program ? programs.filter { $0 != page } : [program, parent]
            lines = seeAlso(Array(Set(related.filter(names.contains))), in: lines, keeping: names)
            result[path] = lines.joined(separator: "\n") + "\n"
        }
        return result
    }

    /// The lines of the section `header` in `lines`, up to the next section.
    static func section(_ header: String, in lines: [String]) -> [String] {
        guard let start = lines.firstIndex(of: header) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.hasPrefix(".Sh ") && !$0.isEmpty })
    }

    /// `lines` with SEE ALSO naming `first` too, and none of the pages not in `existing`.
    static func seeAlso(_ first: [String], in lines: [String], keeping existing: Set<String>) -> [String] {
        var lines = lines
        var entries = first.map { ($0, "1") }
        var place = lines.firstIndex(of: ".Sh AUTHORS") ?? lines.endIndex
        if let start = lines.firstIndex(of: ".Sh \"SEE ALSO\"") {
            var end = start + 1
            while end < lines.count, lines[end].hasPrefix(".Xr ") {
                let words = lines[end].split(separator: " ").map(String.init)
                if words.count >= 3, existing.contains(words[1]), !entries.contains(where: { $0.0 == words[1] }) {
                    entries.append((words[1], words[2]))
                }
                end += 1
            }
            lines.removeSubrange(start..<end)
            place = start
        }
        guard !entries.isEmpty else { return lines }
        // In the order mandoc expects: by section, then by name.
        entries.sort { ($0.1, $0.0) < ($1.1, $1.0) }
        let references = entries.enumerated().map { index, entry in
            ".Xr \(entry.0) \(entry.1)" + (index < entries.count - 1 ? " ," : "")
        }
        lines.insert(contentsOf: [".Sh \"SEE ALSO\""] + references, at: place)
        return lines
    }

    /// The page `text` with its discussion's sections made real.
    static func rewrite(_ text: String) -> String {
        escapedBeyondASCII(rewriteSections(unmarked(text)))
    }

    /// The page `text` with its discussion's sections made real, as it reads (characters beyond ASCII as they are).
    static func rewriteSections(_ text: String) -> String {
        var lines = text.components(separatedBy: "\n").map { $0.isEmpty ? ".Pp" : $0 }
        if lines.last == ".Pp" { lines.removeLast() }
        lines = optionsSection(lines)
        var sections: [String: [String]] = [:]
        var kept: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasSuffix(":"), titles.contains(String(line.dropLast())) {
                let title = String(line.dropLast())
                index += 1
                var entries: [String] = []
                while index < lines.count, !lines[index].hasPrefix(".") {
                    entries.append(lines[index])
                    index += 1
                }
                sections[title] = title == "EXAMPLES" ? examples(entries) : list(entries, title: title)
                continue
            }
            kept.append(line)
            index += 1
        }
        guard !sections.isEmpty else { return tidy(kept).joined(separator: "\n") + "\n" }
        // The generic EXIT STATUS goes in mdoc's order with the others, unless the page says its own.
        if let start = kept.firstIndex(of: ".Sh \"EXIT STATUS\"") {
            var end = start + 1
            while end < kept.count, !kept[end].hasPrefix(".Sh ") { end += 1 }
            if sections["EXIT STATUS"] == nil { sections["EXIT STATUS"] = Array(kept[(start + 1)..<end]) }
            kept.removeSubrange(start..<end)
        }
        let added = titles.flatMap { title in sections[title].map { [".Sh \(quoted(title))"] + $0 } ?? [] }
        let place = kept.firstIndex(of: ".Sh \"SEE ALSO\"") ?? kept.firstIndex(of: ".Sh AUTHORS") ?? kept.endIndex
        kept.insert(contentsOf: added, at: place)
        return tidy(kept).joined(separator: "\n") + "\n"
    }

    /// `lines` with the list of arguments and options generate-manual writes at the end of DESCRIPTION (after the
    /// discussion) in a section of its own, OPTIONS, where a reader of Linux manuals looks for them.
    static func optionsSection(_ lines: [String]) -> [String] {
        guard let description = lines.firstIndex(of: ".Sh DESCRIPTION") else { return lines }
        let end = lines[(description + 1)...].firstIndex { $0.hasPrefix(".Sh ") } ?? lines.endIndex
        // The first list of the section whose first item is an option or argument; a discussion has no lists.
        guard
            let list = lines[(description + 1)..<end].indices.first(where: { index in
                lines[index].hasPrefix(".Bl ") && lines.indices.contains(index + 1)
                    && (lines[index + 1].hasPrefix(".It Fl ") || lines[index + 1].hasPrefix(".It Ar "))
            }),
            // A page whose description is nothing but its options keeps them there.
            lines[(description + 1)..<list].contains(where: { !$0.hasPrefix(".") })
        else { return lines }
        var lines = lines
        lines.insert(".Sh OPTIONS", at: list)
        return lines
    }

    /// The EXAMPLES lines: the indented ones (commands) in a literal display as typed, the others as text.
    static func examples(_ entries: [String]) -> [String] {
        var lines: [String] = []
        var inDisplay = false
        for entry in entries {
            let isCommand = entry.hasPrefix("  ")
            if isCommand != inDisplay {
                // A display sets itself apart from the text before it; the text after it needs a break of its own.
                lines += isCommand ? [".Bd -literal -offset indent"] : [".Ed", ".Pp"]
                inDisplay = isCommand
            }
            // A command continued on the next line (after `\`) keeps that line's indent beyond the two spaces.
            let text = isCommand ? String(entry.dropFirst(2)) : entry
            lines.append(text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" + text : text)
        }
        if inDisplay { lines.append(".Ed") }
        return lines
    }

    /// `entries` (`TERM: text` lines) as a tagged list.
    static func list(_ entries: [String], title: String) -> [String] {
        let macro =
            switch title {
            case "FILES": "Pa "
            case "ENVIRONMENT": "Ev "
            default: ""
            }
        var lines = [".Bl -tag -width Ds"]
        for entry in entries {
            guard let colon = entry.range(of: ": ") else {
                lines.append(entry)
                continue
            }
            let term = String(entry[..<colon.lowerBound])
            let text = String(entry[colon.upperBound...])
            lines.append(".It " + macro + term)
            lines.append(text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" + text : text)
        }
        lines.append(".El")
        return lines
    }

    /// A text line cut after each sentence: after `.`, `?` or `!` (and any closing quote or parenthesis) that a
    /// space and more text follow.
    static func sentences(_ line: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var characters = line[...]
        while let character = characters.popFirst() {
            current.append(character)
            guard ".?!".contains(character) else { continue }
            while let closing = characters.first, "\"')”’".contains(closing) {
                current.append(closing)
                characters.removeFirst()
            }
            guard characters.first == " " else { continue }
            let rest = characters.drop { $0 == " " }
            guard let next = rest.first, !next.isLowercase else { continue }
            pieces.append(current)
            current = ""
            characters = rest
            if next == "." || next == "'" { current = "\\&" }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    /// A section title as a macro argument.
    static func quoted(_ title: String) -> String {
        title.contains(" ") ? "\"\(title)\"" : title
    }

    /// `lines` with each sentence of a text line on a line of its own (as mdoc wants), and without paragraph
    /// breaks that separate nothing: repeated, at the start of a section, or just before a section, a list, a
    /// list item, or the end.
    static func tidy(_ lines: [String]) -> [String] {
        var result: [String] = []
        var literal = false
        for (index, line) in lines.enumerated() {
            // A literal display (an example's commands) stays as typed.
            if line.hasPrefix(".Bd -literal") { literal = true }
            if line == ".Ed" { literal = false }
            guard line == ".Pp" else {
                result += line.hasPrefix(".") || literal ? [line] : sentences(line)
                continue
            }
            let previous = result.last ?? ""
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            let separatesNothing =
                previous == ".Pp" || previous.hasPrefix(".Sh ") || previous.hasPrefix(".Ss ") || next.isEmpty
                || next.hasPrefix(".Sh ") || next.hasPrefix(".Ss ") || next.hasPrefix(".Bl ") || next == ".Pp"
                || next == ".El" || next.hasPrefix(".It ")
            if !separatesNothing { result.append(line) }
        }
        return result
    }
}
