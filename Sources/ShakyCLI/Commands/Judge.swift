import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky judge`: the host's corrections to the game's judgements.
    struct Judge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Overrule the last judgement or take back a buzz.",
            discussion: """
                The host has the last word. `shaky judge overrule` reverses the last judgement on the \
                question in play or just over: a wrong answer becomes right (the team scores what the \
                question was worth when it buzzed, and the question ends), a right one becomes wrong (the \
                points go back and play goes on as after a wrong answer). `shaky judge undo-buzz TEAM` \
                takes back a buzz pressed by mistake, before the team answers. Scores, statistics and the \
                history follow. Overruling also works after the game is over, until a new game starts: it \
                reverses the last judgement of the last question played, and the result, the winners and the \
                game's line in the history are corrected (the game stays over).

                EXAMPLES:
                The last answer was right after all (or wrong after all):
                  shaky judge overrule
                Foxes buzzed by mistake:
                  shaky judge undo-buzz Foxes
                """,
            subcommands: [Overrule.self, UndoBuzz.self])
    }
}
