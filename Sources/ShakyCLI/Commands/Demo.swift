import ArgumentParser
import ShakyCore
import ShakyProtocol

extension Shaky {
    /// `shaky demo`: a scripted game that shows what Shaky Words looks like.
    struct Demo: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play a short scripted game against the daemon, to see how Shaky Words goes.",
            discussion: """
                Adds the pack "Shaky Demo" if it is missing, starts a one-question game between Owls and Foxes \
                and plays it as `shaky play` would: the question opens with its letters scrambled, shakes \
                reveal hints (run the daemon with `--input demo` to have the bundled trace shake it every six \
                seconds), both teams buzz, Owls answer wrong, Foxes answer right, and the game ends with the \
                scoreboard. `make run` starts a private daemon and runs this.

                A game in play is replaced only with --replace.
                """)

        @Flag(help: "End a game in play and start the demo instead.")
        var replace = false

        @Option(
            help: ArgumentHelp(
                "Seconds to wait for shakes while the question is open, 0 to 600 (default: 10).", valueName: "seconds"),
            transform: DecimalText.argument)
        var shakeTime: Double = 10

        @OptionGroup var global: GlobalOptions

        static let packName = DemoPack.name

        /// The demo's questions and answers, as a pack file.
        static let pack = """
            question,answer,difficulty,alternates
            Which animal has the longest neck?,Giraffe,easy,
            Which ocean is the largest?,Pacific Ocean,easy,Pacific
            What is the capital of Denmark?,Copenhagen,easy,København
            """

        func validate() throws {
            guard shakeTime >= 0, shakeTime <= 600 else {
                throw ValidationError("--shake-time must be between 0 and 600 seconds")
            }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let packs = try await client.packs.list()
            if !packs.contains(where: { $0.name == Self.packName }) {
                _ = try await client.packs.import(data: Self.pack, format: .csv, name: Self.packName)
            }
            let rules = ShakyAPI.Rules(indicationTime: 40, timeAfterFirstBuzz: 5, answerTime: 30)
            _ = try await client.startGame(
                ShakyAPI.GameInterface.NewParameters(
                    teams: ["Owls", "Foxes"], packs: [Self.packName], questions: 1, seed: 2026, rules: rules,
                    replace: replace),
                orReplaceWith: "shaky demo --replace")
            let answers = Dictionary(
                uniqueKeysWithValues: Self.pack.split(separator: "\n").dropFirst().map { line in
                    let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                    return (String(fields[0]), String(fields[1]))
                })
            let steps = DemoSteps(client: client, answers: answers, shakeTime: shakeTime)
            let session = PlaySession(client: client, console: console, json: global.json)
            try await session.run(commands: AsyncStream(unfolding: { await steps.next() }))
        }
    }
}

/// The demo's host, one command at a time: the play session asks for the next only when the last is done,
/// so the right answer can be read off the question in play.
private actor DemoSteps {
    let client: ShakyClient
    let answers: [String: String]
    let shakeTime: Double
    private var step = 0

    init(client: ShakyClient, answers: [String: String], shakeTime: Double) {
        self.client = client
        self.answers = answers
        self.shakeTime = shakeTime
    }

    func next() async -> String? {
        defer { step += 1 }
        switch step {
        case 0: return "n"
        case 1: return "w \(shakeTime)"
        case 2: return "b Owls"
        case 3: return "b Foxes"
        case 4: return "w 1"
        case 5: return "a no idea"
        case 6: return "w 1"
        case 7:
            let question = try? await client.game.status().question
            return "a " + (question.flatMap { answers[$0] } ?? "pass")
        case 8: return "w 1"
        case 9: return "n"
        case 10: return "w 1"
        case 11: return "t"
        case 12: return "q"
        default: return nil
        }
    }
}
