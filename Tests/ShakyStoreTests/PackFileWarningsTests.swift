import Foundation
import Testing
import TriviaEngine

@testable import ShakyStore

/// What an import says of a file it takes but that looks wrong stays something a person can read, and what the
/// reader keeps of a file stays small, however many repeats or unknown members the file holds.
@Suite struct PackFileWarningsTests {
    /// One JSON question with `count` members that are none of a question's fields (`"k0": 1`, `"k1": 1`, …).
    static func questionWithUnknownMembers(_ count: Int) -> Data {
        var text = #"{"name": "Many Keys", "questions": [{"question": "Q?", "answer": "A""#
        text.reserveCapacity(count * 12)
        for index in 0..<count { text += #","k\#(index)":1"# }
        return Data((text + "}]}").utf8)
    }

    @Test("The unknown members of a file are kept as twenty names and a count, found by name, whatever their number")
    func unknownMembersAreKeptBounded() {
        var members = PackFile.IgnoredMembers()
        for index in 0..<200_000 { members.note("k\(index)", line: 1) }
        members.note("k3", line: 9)
        #expect(members.named.count == PackFile.mostListedProblems)
        #expect(members.others == 200_000 - PackFile.mostListedProblems)
        #expect(members.named[3].name == "k3" && members.named[3].questions == 2 && members.named[3].firstLine == 1)
    }

    @Test("A question with 200 000 unknown members imports, with twenty of them named and the others counted")
    func aQuestionWithManyUnknownMembersImports() throws {
        let database = try AppDatabase.inMemory()
        let (pack, warnings) = try database.importPackWithWarnings(
            Self.questionWithUnknownMembers(200_000), format: .json)
        #expect(pack.questionCount == 1)
        #expect(warnings.count == PackFile.mostListedProblems + 1)
        // Named in the order of their names, as a question's members are read.
        #expect(
            warnings.first
                == "the field “k0” (line 1) is not one of question, answer, difficulty, alternates and was ignored")
        #expect(
            warnings.last
                == "and 199980 more fields of other names that are not one of question, answer, difficulty, "
                + "alternates were ignored")
    }

    @Test("Of thousands of repeated questions twenty are named and one warning counts the others", arguments: [1, 2])
    func repeatsAreCappedAndDoNotHideOtherWarnings(columns: Int) throws {
        let rows = String(repeating: "Capital of France?,Paris,easy,Lutetia\n", count: 2_000)
        let csv = "question,answer,difficulty,alternates" + (columns == 2 ? ",notes\n" : "\n") + rows
        let (pack, warnings) = try AppDatabase.inMemory().importPackWithWarnings(
            Data(csv.utf8), format: .csv, name: "Repeats")
        #expect(pack.questionCount == 2_000)
        let repeats = (3...22).map { "line \($0) repeats the question and answer of line 2" }
        let more = "and 1979 more questions repeat the question and answer of an earlier one"
        if columns == 2 {
            // The ignored column, found first, is not lost among the repeats.
            let column =
                "the column “notes” is not one of question, answer, difficulty, alternates and was ignored"
            #expect(warnings == [column] + repeats + [more])
        } else {
            #expect(warnings == repeats + [more])
        }
    }

    @Test("Each kind of warning is capped on its own")
    func warningsOfEachKindAreCappedApart() {
        var warnings = PackFile.Warnings()
        for index in 0..<30 { warnings.append(.repeatedQuestion, "repeat \(index)") }
        warnings.append(.ignoredMember, "member")
        for index in 0..<21 { warnings.append(.leftOutAlternates, "alternates \(index)") }
        warnings.count(5, of: .ignoredField)
        #expect(warnings.listed.count == 20 + 1 + 20)
        #expect(
            Array(warnings.all.suffix(3)) == [
                "and 10 more questions repeat the question and answer of an earlier one",
                "and 1 more question has alternates left out for repeating the answer or an alternate before them, "
                    + "or for being blank",
                "and 5 more fields of other names that are not one of question, answer, difficulty, alternates were "
                    + "ignored",
            ])
    }

    @Test("A repeat in a JSON file written on one line is named by the questions' places in the list")
    func repeatsOnOneLineAreNamedByIndex() throws {
        let json =
            #"{"name": "One Line", "questions": [{"question": "Q?", "answer": "A"}, "#
            + #"{"question": "R?", "answer": "B"}, {"question": "q?", "answer": "a"}]}"#
        let (_, warnings) = try AppDatabase.inMemory().importPackWithWarnings(Data(json.utf8), format: .json)
        #expect(warnings == ["questions[2] (line 1) repeats the question and answer of questions[0]"])
    }
}
