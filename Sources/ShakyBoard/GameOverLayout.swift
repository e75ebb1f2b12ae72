/// The game-over screen: who won, a podium for the first three places, and every team's stats.
struct GameOverLayout {
    var result: BoardState.Result
    var teams: [BoardState.Team]
    /// Whether the host ended the game while its last question played was open.
    var endedDuringQuestion = false

    private func markIndex(_ team: String) -> Int {
        teams.firstIndex { $0.name == team } ?? 0
    }

    private func label(_ team: String) -> String {
        "\(TeamMark(index: markIndex(team)).symbol) \(team)"
    }

    /// Draws between rows `top` and `bottom` of `screen`.
    func draw(on screen: inout BoardScreen, top: Int, bottom: Int) {
        let width = screen.width
        var row = top
        // Wrapped, not cut: on a narrow board two winners with long names lost "share the win!".
        for line in DisplayWidth.wrap(winnersLine, columns: width - 2).prefix(3) {
            screen.center(line, row: row, style: .strong)
            row += 1
        }
        // As `shaky status` says it: no question played, so no places and no game in the history.
        let played =
            switch (result.endedEarly, endedDuringQuestion) {
            case _ where result.questionsPlayed == 0: "Ended before its first question, so not kept in the history"
            case (true, true): "Ended during question \(result.questionsPlayed) of \(result.questionCount)"
            case (true, false): "Ended after \(result.questionsPlayed) of \(result.questionCount) questions"
            case (false, _): "\(result.questionsPlayed) of \(result.questionCount) questions played"
            }
        for line in DisplayWidth.wrap(played, columns: width - 2).prefix(2) {
            screen.center(line, row: row, style: .dim)
            row += 1
        }
        row += 1
        let table = statsTable(width: width - 2)
        let podiumHeight = bottom - row - table.count - 1
        // No winner (no team scored): no podium, which would put every team on a first place.
        if podiumHeight >= 5, !result.winners.isEmpty {
            drawPodium(on: &screen, top: row, height: min(podiumHeight, 14))
            row += min(podiumHeight, 14) + 1
        }
        // On a screen too short for every team, the last row says how many more there are (they were left out
        // without a word).
        let rows = bottom - row
        let shown = table.count > rows ? max(0, rows - 1) : table.count
        // Centred under the podium and the winners line: on a wide board the table sat against the left edge.
        let tableWidth = table.map { DisplayWidth.of($0) }.max() ?? 0
        let column = max(1, (width - tableWidth) / 2)
        for (index, line) in table.prefix(shown).enumerated() {
            let style: BoardScreen.Style =
                index == 0 ? .strong : .team(markIndex(sortedStandings[index - 1].team))
            screen.put(line, row: row, column: column, style: style)
            row += 1
        }
        if shown < table.count, rows > 0 {
            // The header is not a team: with no room even for it, every team is one of the more.
            let more = table.count - max(1, shown)
            screen.put("+\(more) more", row: row, column: column, style: .dim)
        }
    }

    private var winnersLine: String {
        switch result.winners.count {
        case 0: return "Game over: no winner"
        case 1: return "\(label(result.winners[0])) wins!"
        default: return result.winners.map(label).joined(separator: " and ") + " share the win!"
        }
    }

    private var sortedStandings: [BoardState.Standing] {
        result.standings.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
            .map(\.element)
    }

    /// Pillars for the first three, 2nd · 1st · 3rd, each with its team and points on top; teams tied first read
    /// from left to right in the order the winners line and the table give them.
    private func drawPodium(on screen: inout BoardScreen, top: Int, height: Int) {
        let podium = Array(sortedStandings.prefix(3))
        guard !podium.isEmpty else { return }
        let columnWidth = min(24, (screen.width - 4) / 3)
        guard columnWidth >= 5 else { return }
        let left = (screen.width - columnWidth * 3) / 2
        let pillarMax = height - 2
        let tiedFirst = podium.count > 1 && podium[1].rank == podium[0].rank
        let places: [(slot: Int, position: Int)] = tiedFirst ? [(0, 0), (1, 1), (2, 2)] : [(1, 0), (0, 1), (2, 2)]
        for (slot, position) in places where position < podium.count {
            let standing = podium[position]
            let pillar = max(2, pillarMax - (standing.rank - 1) * pillarMax / 3)
            let x = left + slot * columnWidth
            let pillarTop = top + height - pillar
            let style = BoardScreen.Style.team(markIndex(standing.team))
            // Over the pillar itself (its column `x` is the gap before it): a name as wide as the pillar does not
            // touch the edge of the pillar to its left.
            screen.center(
                DisplayWidth.truncated(label(standing.team), columns: columnWidth - 1), row: pillarTop - 2,
                style: style, column: x + 1, span: columnWidth - 1)
            screen.center(
                "\(standing.points)", row: pillarTop - 1, style: .strong, column: x + 1, span: columnWidth - 1)
            let inner = columnWidth - 3
            screen.put("┌" + String(repeating: "─", count: inner) + "┐", row: pillarTop, column: x + 1, style: style)
            for row in (pillarTop + 1)..<(top + height) {
                screen.put("│" + String(repeating: " ", count: inner) + "│", row: row, column: x + 1, style: style)
            }
            screen.center(
                BoardLayout.ordinal(standing.rank), row: pillarTop + 1, style: .strong, column: x + 1,
                span: columnWidth - 1)
        }
    }

    /// The stats table as lines, header first; columns are dropped from the right when it is too wide.
    private func statsTable(width: Int) -> [String] {
        let standings = sortedStandings
        var columns: [(title: String, values: [String])] = [
            // With no winner there are no places: every team would read "1st".
            ("Rank", standings.map { result.winners.isEmpty ? "–" : BoardLayout.ordinal($0.rank) }),
            ("Team", standings.map { label($0.team) }),
            ("Points", standings.map { "\($0.points)" }),
            ("Right", standings.map { "\($0.correctAnswers)" }),
            ("Hints", standings.map { "\($0.hintsUsed)" }),
            ("Buzzes", standings.map { "\($0.buzzes)" }),
            ("Avg buzz", standings.map { BoardLayout.seconds($0.averageBuzzTime) }),
        ]
        func widths() -> [Int] {
            columns.map { column in ([column.title] + column.values).map { DisplayWidth.of($0) }.max() ?? 0 }
        }
        while columns.count > 3, widths().reduce(0, +) + 2 * (columns.count - 1) > width {
            columns.removeLast()
        }
        // Still too wide: the team names give way, so that every team's points show.
        let overflow = widths().reduce(0, +) + 2 * (columns.count - 1) - width
        if overflow > 0 {
            let nameWidth = max(4, widths()[1] - overflow)
            columns[1].values = columns[1].values.map { DisplayWidth.truncated($0, columns: nameWidth) }
        }
        let columnWidths = widths()
        func line(_ cells: [String]) -> String {
            var text = ""
            for (index, cell) in cells.enumerated() {
                let padding = max(0, columnWidths[index] - DisplayWidth.of(cell))
                let numeric = index >= 2
                let padded =
                    numeric
                    ? String(repeating: " ", count: padding) + cell : cell + String(repeating: " ", count: padding)
                text += (index == 0 ? "" : "  ") + padded
            }
            return DisplayWidth.truncated(text, columns: width)
        }
        var lines = [line(columns.map(\.title))]
        for index in standings.indices {
            lines.append(line(columns.map { $0.values[index] }))
        }
        return lines
    }
}
