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
/// (ENVIRONMENT, FILES, EXIT STATUS) before SEE ALSO; a page's own EXIT STATUS replaces the generic one. The
/// blank lines generate-manual leaves in a discussion become `.Pp`, and a paragraph break with nothing to
/// separate is dropped, so that `groff -ww` and `mandoc -T lint` have nothing to say.
@main
struct ManualSections {
    /// The section titles a discussion may hold, in the order mdoc places them.
    static let titles = ["ENVIRONMENT", "FILES", "EXIT STATUS"]

    static func main() {
        let pages = CommandLine.arguments.dropFirst()
        guard !pages.isEmpty, !pages.contains(where: { $0.hasPrefix("-") }) else {
            FileHandle.standardError.write(Data("usage: manual-sections PAGE.1…\n".utf8))
            exit(2)
        }
        for page in pages {
            do {
                let text = try String(contentsOfFile: page, encoding: .utf8)
                try Data(rewrite(text).utf8).write(to: URL(fileURLWithPath: page), options: .atomic)
            } catch {
                FileHandle.standardError.write(Data("manual-sections: cannot rewrite \(page): \(error)\n".utf8))
                exit(1)
            }
        }
    }

    /// The page `text` with its discussion's sections made real.
    static func rewrite(_ text: String) -> String {
        var lines = text.components(separatedBy: "\n").map { $0.isEmpty ? ".Pp" : $0 }
        if lines.last == ".Pp" { lines.removeLast() }
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
                sections[title] = list(entries, title: title)
                continue
            }
            kept.append(line)
            index += 1
        }
        guard !sections.isEmpty else { return tidy(kept).joined(separator: "\n") + "\n" }
        // The generic EXIT STATUS goes when the page says its own.
        if sections["EXIT STATUS"] != nil, let start = kept.firstIndex(of: ".Sh \"EXIT STATUS\"") {
            var end = start + 1
            while end < kept.count, !kept[end].hasPrefix(".Sh ") { end += 1 }
            kept.removeSubrange(start..<end)
        }
        let added = titles.flatMap { title in sections[title].map { [".Sh \(quoted(title))"] + $0 } ?? [] }
        let place =
            kept.firstIndex(of: ".Sh \"EXIT STATUS\"") ?? kept.firstIndex(of: ".Sh \"SEE ALSO\"")
            ?? kept.firstIndex(of: ".Sh AUTHORS") ?? kept.endIndex
        kept.insert(contentsOf: added, at: place)
        return tidy(kept).joined(separator: "\n") + "\n"
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
        for (index, line) in lines.enumerated() {
            guard line == ".Pp" else {
                result += line.hasPrefix(".") ? [line] : sentences(line)
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
