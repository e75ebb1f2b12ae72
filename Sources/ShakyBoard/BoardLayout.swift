import ShakyCore

/// The board's layout: a pure function from what the board knows, the screen's size and the time to the
/// cells to draw. No terminal, no clock: tests call it directly.
///
/// ```
///  SHAKY WORDS                                         Question 1 of 10
///                  Which animal has the longest neck?
///              (big letters of the scramble, hints marked)
///                     8 points · 1 hint taken
///  ████████████████████████████████░░░░░░░░░░░░░░░░░░░░░  23 s
///                          Buzzers open
///  ───────────────────────────────────────────────────────────────
///  1. ● Owls 12    2. ■ Foxes 8
/// ```
public enum BoardLayout {
    /// Draws `state` on a `width` × `height` screen at board time `now`, the big letters with the block
    /// `characters` the terminal shows.
    public static func render(
        _ state: BoardState, width: Int, height: Int, now: Duration, characters: BlockFont.Characters = .halfBlocks
    ) -> BoardScreen {
        let state = state.counted(at: now)
        var screen = BoardScreen(width: width, height: height)
        guard width >= 10, height >= 5 else {
            screen.put("Shaky Words", row: 0, column: 0, style: .strong)
            screen.put("too small", row: 1, column: 0)
            return screen
        }
        let top = header(state, on: &screen, now: now)
        let scoresTop: Int
        if state.phase == .gameOver, let result = state.result {
            scoresTop = height
            GameOverLayout(result: result, teams: state.teams, endedDuringQuestion: state.roundEnd == .gameEnded).draw(
                on: &screen, top: top, bottom: height)
        } else {
            scoresTop = scores(state, on: &screen, below: top)
            // A row apart from the scores, but on a very short screen: there it shows who is up.
            let area = Area(top: top, bottom: scoresTop - (height >= 12 ? 1 : 0), left: 1, right: width - 1)
            switch state.phase {
            case .noGame where state.connection != .connected:
                waitingForDaemon(state, on: &screen, in: area, characters: characters)
            case .noGame: waiting(state, on: &screen, in: area, characters: characters)
            case .ready: ready(state, on: &screen, in: area, characters: characters)
            case .open, .answering, .roundOver:
                question(
                    state, on: &screen, in: area, gapBelow: scoresTop - area.bottom, now: now, characters: characters)
            case .gameOver: screen.center("Game over", row: area.top, style: .strong)
            }
        }
        return screen
    }

    /// A rectangle of rows `top..<bottom` and columns `left..<right`.
    struct Area {
        var top: Int
        var bottom: Int
        var left: Int
        var right: Int
        var width: Int { max(0, right - left) }
        var height: Int { max(0, bottom - top) }
    }

    // MARK: Header and notices

    /// Draws the title line and the notices under it; returns the first row free below them.
    private static func header(_ state: BoardState, on screen: inout BoardScreen, now: Duration) -> Int {
        screen.put("SHAKY WORDS", row: 0, column: 1, style: .strong)
        var right: String
        switch state.phase {
        case .noGame: right = ""
        case .ready: right = state.questionCount == 1 ? "1 question" : "\(state.questionCount) questions"
        case .gameOver: right = "Game over"
        case .open, .answering, .roundOver:
            right = state.questionNumber.map { "Question \($0) of \(state.questionCount)" } ?? ""
        }
        if !right.isEmpty {
            let room = max(0, screen.width - 14)
            let text = DisplayWidth.truncated(right, columns: room)
            screen.put(text, row: 0, column: screen.width - 1 - DisplayWidth.of(text), style: .strong)
        }
        let notices = self.notices(state, width: screen.width, now: now)
        guard !notices.isEmpty else { return 2 }
        var lines: [String] = []
        for notice in notices {
            if let last = lines.last, DisplayWidth.of(last + " · " + notice) <= screen.width - 2 {
                lines[lines.count - 1] = last + " · " + notice
            } else {
                lines.append(notice)
            }
        }
        for (index, line) in lines.prefix(3).enumerated() {
            screen.center(line, row: 1 + index, style: .bad)
        }
        return 1 + min(3, lines.count) + 1
    }

    /// What a paused game's notice says, longest first; the shortest fits the narrowest board (40 columns).
    static let pausedNotices = [
        "Paused — resume with shaky resume or p in shaky play", "Paused — shaky resume, or p in shaky play",
        "Paused — shaky resume, or p in play",
    ]

    /// What the board says when the daemon sends what it does not know, longest first; the shortest fits the
    /// narrowest board (40 columns).
    static let newerDaemonNotices = ["Daemon newer than this board: update shaky", "Daemon newer: update shaky"]

    /// The small notices under the header, on a screen `width` columns wide at board time `now`: the link, a daemon
    /// newer than the board, the pause (and how the host goes on), the sensor, the sound, a joining, a press that did
    /// nothing and the terminal.
    static func notices(_ state: BoardState, width: Int = .max, now: Duration = .zero) -> [String] {
        var notices: [String] = []
        switch state.connection {
        case .connected: break
        case .connecting: notices.append("Connecting to the game…")
        case .reconnecting:
            if state.phase == .noGame {
                // With no game shown (the main area says where the board looks), there is no game to have lost.
                notices.append("No answer from the daemon: trying again…")
            } else {
                // Why, where it fits: the host learns from the TV whether the daemon is gone or only restarting.
                let lost = "Lost the game: reconnecting…"
                let why = state.daemonProblem.map { "Lost the game (\($0)): reconnecting…" }
                notices.append(why.flatMap { DisplayWidth.of($0) <= width - 2 ? $0 : nil } ?? lost)
            }
        }
        if state.unknownDaemonValue != nil {
            notices.append(
                newerDaemonNotices.first { DisplayWidth.of($0) <= width - 2 }
                    ?? newerDaemonNotices[newerDaemonNotices.count - 1])
        }
        if state.isPaused, state.phase != .gameOver {
            // A restarted daemon restores the game paused: the room and the host see how it goes on, from a command or
            // from shaky play, in the most words that fit.
            notices.append(
                pausedNotices.first { DisplayWidth.of($0) <= width - 2 } ?? pausedNotices[pausedNotices.count - 1])
        }
        if state.isSensorGone { notices.append("Sensor gone: hints by hand") }
        if state.isSoundSilent { notices.append("Sound off") }
        // Away from the ready screen (which shows it in its team list), a joining is a notice.
        if let team = state.joiningTeam, state.phase != .ready { notices.append("\(team): press your button") }
        if let press = state.unheardPress(at: now) { notices.append(unheardPressWords(press, width: width)) }
        if let change = state.scoreChange(at: now) {
            let points = change.delta > 0 ? "+\(change.delta)" : "\(change.delta)"
            let reason = change.reason.flatMap { $0.isEmpty ? nil : ": \($0)" } ?? ""
            let words = "Score: \(teamLabel(change.team, in: state)) \(points)\(reason)"
            notices.append(DisplayWidth.truncated(words, columns: max(1, width - 2)))
        }
        if let standIn = state.terminalStandIn {
            notices.append("TERM \(standIn.term) unknown here: drawn as \(standIn.drawnAs)")
        }
        return notices
    }

    /// What the board says of a press that did nothing: whose button it is while joining, else that no team has it
    /// and how the host gives it (the command shortened when the screen is narrow).
    static func unheardPressWords(_ press: BoardState.UnheardPress, width: Int) -> String {
        // The most words that fit: cut short at 40 columns, "press another button" was lost.
        let choices: [String]
        if let owner = press.owner {
            let asking = press.asking ?? "the team asked"
            choices = [
                "That button is \(owner.possessive) — \(asking): press another button",
                "\(owner.possessive) button — \(asking): press another",
                "\(asking): press another button",
            ]
        } else {
            let nobody = "No team has \(press.keyName) on \(press.device): shaky buzzers join"
            choices = [
                nobody + ", or shaky buzzers assign TEAM \(ShellWord.quoted(press.device)) \(press.keyName)", nobody,
                "No team has \(press.keyName): shaky buzzers join",
            ]
        }
        return choices.first { DisplayWidth.of($0) <= width - 2 } ?? choices[choices.count - 1]
    }

    // MARK: Scores

    /// The rows a question of one line keeps on any screen: its text, its letters, its points, the countdown and
    /// what happens (buzzers open, who is up), or the empty rows that set the letters apart where there is room.
    static let questionRows = 5

    /// Draws the scores band at the bottom, under the title and notices that end at row `top`, and returns its first
    /// row (the separator).
    private static func scores(_ state: BoardState, on screen: inout BoardScreen, below top: Int) -> Int {
        guard !state.teams.isEmpty else { return screen.height }
        // Before anyone scores there are no places: every team would read "1st".
        let anyScored = state.teams.contains { $0.score != 0 }
        let entries = ranked(state.teams).map { entry in
            ScoreEntry(
                lead: (anyScored ? "\(ordinal(entry.rank)) " : "") + "\(TeamMark(index: entry.index).symbol) ",
                name: entry.team.name, score: " \(entry.team.score)", index: entry.index)
        }
        let columnWidth = min(screen.width - 2, (entries.map { DisplayWidth.of($0.text) }.max() ?? 0) + 3)
        let perRow = max(1, (screen.width - 2) / max(1, columnWidth))
        // The question keeps its rows (title and notices above, its text, letters and points): on a small screen
        // the scores show the leaders and how many more there are.
        let textLines = max(1, questionLines(state, width: screen.width - 2, height: screen.height).count)
        // And the letters the rows they need at the least: a long answer takes several.
        let letterRows =
            switch state.phase {
            case .open, .answering, .roundOver:
                letters(state, now: .zero).minimumHeight(width: screen.width - 2)
            case .noGame, .ready, .gameOver: 1
            }
        let mostRows = max(1, screen.height - 2 - top - (Self.questionRows - 2 + textLines + letterRows))
        var shown = entries
        if (entries.count + perRow - 1) / perRow > mostRows, mostRows * perRow == 1, let leader = entries.first {
            // One row for the scores: the leader and how many more share it (a row of its own for "+2 more" took
            // the row of who is up from a question of three lines).
            var withMore = leader
            withMore.score += "  +\(entries.count - 1) more"
            shown = [withMore]
        } else if (entries.count + perRow - 1) / perRow > mostRows {
            let kept = max(1, mostRows * perRow - 1)
            shown = Array(entries.prefix(kept)) + [ScoreEntry(more: entries.count - kept)]
        }
        let cellWidth = perRow == 1 ? screen.width - 2 : columnWidth
        let rowCount = (shown.count + perRow - 1) / perRow
        let separator = max(3, screen.height - rowCount - 1)
        screen.put(String(repeating: "─", count: screen.width), row: separator, column: 0, style: .dim)
        for (position, entry) in shown.enumerated() {
            let row = separator + 1 + position / perRow
            let column = 1 + (position % perRow) * columnWidth
            screen.put(
                entry.fitted(columns: cellWidth - 1), row: row, column: column,
                style: entry.index < 0 ? .dim : .team(entry.index))
        }
        return separator
    }

    /// A team's place in the scores band: its rank and mark, its name, its points (and, alone on a narrow board,
    /// how many more teams there are).
    struct ScoreEntry {
        var lead: String
        var name: String
        var score: String
        /// The team's join-order index; -1 for "+N more".
        var index: Int

        init(lead: String, name: String, score: String, index: Int) {
            self.lead = lead
            self.name = name
            self.score = score
            self.index = index
        }

        /// "+N more".
        init(more: Int) {
            self.init(lead: "", name: "+\(more) more", score: "", index: -1)
        }

        var text: String { lead + name + score }

        /// The entry in at most `columns` columns: a long name gives way so that its points (and "+N more") still
        /// show, where before the whole line was cut at its end; on a board too narrow even for that, the line is.
        func fitted(columns: Int) -> String {
            guard DisplayWidth.of(text) > columns else { return text }
            let room = columns - DisplayWidth.of(lead) - DisplayWidth.of(score)
            guard room >= 2 else { return DisplayWidth.truncated(text, columns: columns) }
            return lead + DisplayWidth.truncated(name, columns: room) + score
        }
    }

    /// The teams, best first, with their join-order index and their rank (ties share a rank).
    static func ranked(_ teams: [BoardState.Team]) -> [(team: BoardState.Team, index: Int, rank: Int)] {
        let sorted = teams.enumerated().sorted { ($0.element.score, -$0.offset) > ($1.element.score, -$1.offset) }
        var result: [(team: BoardState.Team, index: Int, rank: Int)] = []
        for (position, entry) in sorted.enumerated() {
            let rank =
                position > 0 && sorted[position - 1].element.score == entry.element.score
                ? result[position - 1].rank : position + 1
            result.append((entry.element, entry.offset, rank))
        }
        return result
    }

    /// `1st`, `2nd`, `3rd`, `11th`.
    static func ordinal(_ rank: Int) -> String {
        let suffix: String
        switch (rank % 10, rank % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(rank)\(suffix)"
    }

    static func markIndex(of team: String, in state: BoardState) -> Int {
        state.teams.firstIndex { $0.name == team } ?? 0
    }

    static func teamLabel(_ team: String, in state: BoardState) -> String {
        "\(TeamMark(index: markIndex(of: team, in: state)).symbol) \(team)"
    }

    // MARK: Waiting and ready

    private static func waiting(
        _ state: BoardState, on screen: inout BoardScreen, in area: Area, characters: BlockFont.Characters
    ) {
        let lines = [
            "Waiting for a game.",
            "Start one:  shaky new --team Owls --team Foxes",
            "then open the first question:  shaky next",
        ]
        title(lines, on: &screen, in: area, characters: characters)
    }

    /// Before the daemon answers: which socket the board tries, and where to look when the daemon does not start.
    private static func waitingForDaemon(
        _ state: BoardState, on screen: inout BoardScreen, in area: Area, characters: BlockFont.Characters
    ) {
        var trying =
            "Trying " + (state.daemonSockets.isEmpty ? "its socket" : state.daemonSockets.joined(separator: ", then "))
        if let problem = state.daemonProblem { trying += " (\(problem))" }
        let lines = [
            "Waiting for the Shaky Words daemon.",
            trying,
            "Why it does not start:  journalctl -u shakyd -b",
            "Another socket:  shaky board --socket PATH",
        ]
        title(lines, on: &screen, in: area, characters: characters)
    }

    private static func ready(
        _ state: BoardState, on screen: inout BoardScreen, in area: Area, characters: BlockFont.Characters
    ) {
        var lines = ["Get ready!"]
        var asked: Int?
        for (index, team) in state.teams.enumerated() {
            let mark = "\(TeamMark(index: index).symbol) \(team.name)"
            // The longest words that fit the width: on a narrow board a wrapped line pushed the last teams off it
            // and left "◀" alone on a row.
            var choices = [mark]
            if isAsked(team.name, in: state) {
                // Press to join: the team asked now stands out until it has pressed.
                choices = ["▶ \(mark): press your button now ◀", "▶ \(mark): press now ◀", "▶ \(mark) ◀"]
                asked = 1 + index
            } else if state.knowsButtons || state.joiningTeam != nil {
                if let words = state.buttonWords(team: team.name) {
                    choices = [mark + " · " + words]
                } else {
                    choices = [mark + " · press your button to join", mark + " · to join"]
                }
            }
            lines.append(choices.first { DisplayWidth.of($0) <= area.width } ?? choices.last ?? mark)
        }
        lines.append("The host opens the first question:  shaky next")
        title(
            lines, on: &screen, in: area, characters: characters, teamLines: 1..<(1 + state.teams.count),
            highlighted: asked)
    }

    /// Whether the daemon is asking `team` to press its button now.
    static func isAsked(_ team: String, in state: BoardState) -> Bool {
        state.joiningTeam.map { $0.lowercased() == team.lowercased() } ?? false
    }

    /// The big title with `lines` under it, centred in `area`.
    private static func title(
        _ lines: [String], on screen: inout BoardScreen, in area: Area, characters: BlockFont.Characters,
        teamLines: Range<Int> = 0..<0, highlighted: Int? = nil
    ) {
        let wrapped = lines.enumerated().flatMap { index, line in
            DisplayWidth.wrap(line, columns: area.width).map { (index, $0) }
        }
        let textHeight = wrapped.count + 1
        let block = TileBlock(tiles: TileBlock.letters("SHAKY WORDS"), marksFixed: false)
            .render(width: area.width, height: max(0, area.height - textHeight), maxScale: 3, characters: characters)
        let total = block.height + textHeight
        var row = area.top + max(0, (area.height - total) / 2)
        screen.blit(block, row: row, column: area.left + (area.width - block.width) / 2)
        row += block.height + 1
        for (index, line) in wrapped where row < area.bottom {
            let style: BoardScreen.Style =
                index == highlighted
                ? .highlight : teamLines.contains(index) ? .team(index - teamLines.lowerBound) : .normal
            screen.center(line, row: row, style: index == 0 ? .strong : style, column: area.left, span: area.width)
            row += 1
        }
    }

    // MARK: The question

    /// `gapBelow` is the empty row between `area` and the scores, which the question takes when it needs it.
    private static func question(
        _ state: BoardState, on screen: inout BoardScreen, in area: Area, gapBelow: Int, now: Duration,
        characters: BlockFont.Characters
    ) {
        var area = area
        var top: [(String, BoardScreen.Style)] = []
        for line in questionLines(state, width: area.width, height: screen.height) {
            top.append((line, .strong))
        }
        let showsAnswer = state.phase == .roundOver && state.answer != nil
        var points: [(String, BoardScreen.Style)] = []
        var essential: [(String, BoardScreen.Style)] = []
        if showsAnswer {
            essential.append(verdictLine(state))
        } else {
            points.append((pointsLine(state), .normal))
            essential.append((countdownBar(state, width: area.width), .normal))
        }
        for line in phaseLines(state, width: area.width) { essential.append((line, .strong)) }
        let buzzes = state.buzzes.sorted { $0.order < $1.order }.map {
            "\($0.order). \(teamLabel($0.team, in: state)) \(seconds($0.elapsed))"
        }
        var buzzed =
            buzzes.isEmpty
            ? [] : listLines("Buzzed:", buzzes, columns: area.width).map { ($0, BoardScreen.Style.normal) }
        let judgements = state.judgements.map { judgement in
            let (text, style) = judgementLine(judgement, in: state)
            return DisplayWidth.wrap(text, columns: area.width).map { ($0, style) }
        }
        var judged = judgements.flatMap { $0 }
        let tileBlock = letters(state, now: now)
        // On a screen too short for all of it (the letters keep the rows they need at the least, as normal letters:
        // a scramble cut short would be another puzzle), what goes first: the judged answers, the latest first; then
        // the buzzes, the latest first; then the question's later lines; then its worth. The countdown and who is up
        // stay in sight. Judged answers and buzzes left out are counted on a row of their own ("+2 more judged"),
        // while there is a row for it.
        let tileRows = tileBlock.minimumHeight(width: area.width)
        var overflow =
            top.count + points.count + essential.count + buzzed.count + judged.count + tileRows - area.height
        if overflow > 0, !judged.isEmpty {
            let room = judged.count - overflow
            judged = room >= 1 ? judgedLines(judgements, rows: room) : []
            overflow = max(0, -room)
        }
        if overflow > 0, !buzzed.isEmpty {
            let room = buzzed.count - overflow
            buzzed = room >= 1 ? buzzLines(buzzes, rows: room, columns: area.width) : []
            overflow = max(0, -room)
        }
        // Judged answers with no row left at all take one of the buzzes' rows, while those have two or more, to be
        // counted: a row of buzzes left out is counted there too.
        if judged.isEmpty, !judgements.isEmpty, buzzed.count >= 2 {
            buzzed = buzzLines(buzzes, rows: buzzed.count - 1, columns: area.width)
            judged = judgedLines(judgements, rows: 1)
        }
        if overflow > 0, top.count > 1 {
            let kept = max(1, top.count - overflow)
            overflow -= top.count - kept
            top.removeLast(top.count - kept)
            top[kept - 1].0 = endingInEllipsis(top[kept - 1].0, columns: area.width)
        }
        if overflow > 0, !points.isEmpty {
            overflow -= points.count
            points.removeAll()
        }
        // Then the empty row above the scores, and below the smallest board (40x12) the question's text, last of all:
        // the letters, the countdown and who is up stay.
        var gapTaken = false
        if overflow > 0, gapBelow > 0 {
            area.bottom += gapBelow
            overflow -= gapBelow
            gapTaken = true
        }
        if overflow > 0, !top.isEmpty {
            top.removeAll()
        }
        // Buzzes and judged answers with no row left at all are counted on the phase's last line, as far as it has
        // room ("Buzzers open · 4 buzzed", "Owls to answer · 2 buzzed, 1 judged"): the room still sees that teams
        // buzzed and answered, and how many. A line too narrow for the counts leaves them to a row of their own, where
        // one is spare (at 40 columns, "▲ Bees to answer for 10 points" lost them with empty rows under it).
        let uncounted = [
            buzzed.isEmpty && !buzzes.isEmpty ? "\(buzzes.count) buzzed" : nil,
            judged.isEmpty && !judgements.isEmpty ? "\(judgements.count) judged" : nil,
        ].compactMap { $0 }
        if let last = essential.indices.last, !uncounted.isEmpty {
            let counts = uncounted.joined(separator: ", ")
            // A spare row: one the question leaves, else the empty row above the scores.
            let spare =
                area.height - (top.count + points.count + essential.count + buzzed.count + judged.count + tileRows)
                + (gapTaken ? 0 : gapBelow)
            if DisplayWidth.of(essential[last].0 + " · " + counts) > area.width, spare >= 1,
                DisplayWidth.of(counts) <= area.width
            {
                essential.append((counts, .strong))
                if !gapTaken, area.height - (top.count + points.count + essential.count + tileRows) < 0 {
                    area.bottom += gapBelow
                }
            } else {
                for count in (0..<uncounted.count).reversed() {
                    let counted = essential[last].0 + " · " + uncounted[...count].joined(separator: ", ")
                    if DisplayWidth.of(counted) <= area.width {
                        essential[last].0 = counted
                        break
                    }
                }
            }
        }
        let bottom = points + essential + buzzed + judged
        // The letters take the rows left, the two empty rows around them too when they need them; with fewer rows
        // than they need (a screen under 12 rows), they are cut and say so.
        let room = area.height - (top.count + bottom.count)
        let blockHeight = max(1, room >= tileRows + 2 ? room - 2 : room)
        let block = tileBlock.render(width: area.width, height: blockHeight, characters: characters)
        // The empty rows around the letters go first on a short screen: the countdown and who is up stay in sight.
        let spareRows = area.height - (top.count + block.height + bottom.count)
        var rows: [(String, BoardScreen.Style)?] = top.map { $0 } + (spareRows >= 1 ? [nil] : [])
        let blockRow = rows.count
        rows += Array(repeating: nil, count: block.height) + (spareRows >= 2 ? [nil] : []) + bottom.map { $0 }
        var row = area.top + max(0, (area.height - rows.count) / 2)
        for (index, line) in rows.enumerated() where row < area.bottom {
            if index == blockRow {
                screen.blit(block, row: row, column: area.left + (area.width - block.width) / 2)
            }
            if let (text, style) = line {
                screen.center(text, row: row, style: style, column: area.left, span: area.width)
            }
            row += 1
        }
    }

    /// The letters a question shows at board time `now`: the scramble, with the tiles that just moved into place
    /// highlighted, or the answer once it is revealed.
    private static func letters(_ state: BoardState, now: Duration) -> TileBlock {
        // Tightly spaced normal letters may take the margin's column too: a word kept whole is worth it.
        if state.phase == .roundOver, let answer = state.answer {
            var block = TileBlock(tiles: TileBlock.letters(answer.uppercased()), marksFixed: false)
            block.spareColumns = 1
            return block
        }
        let highlighted = Set(state.tiles.indices.filter { state.isHighlighted(tile: $0, at: now) })
        var block = TileBlock(tiles: state.tiles, highlighted: highlighted)
        block.spareColumns = 1
        return block
    }

    /// The question's text as the board shows it `width` columns wide on a screen `height` rows high: up to three
    /// lines (six on a screen of 24 rows or more, where the letters and scores keep their room), or as many as the
    /// question has of its own (up to six), so that a question written on several lines keeps them. A question cut
    /// short ends in "…", so that the room sees there is more (the host reads it out).
    private static func questionLines(_ state: BoardState, width: Int, height: Int) -> [String] {
        let question = state.question ?? ""
        let ownLines = question.split(whereSeparator: \.isNewline).count
        let most = min(6, max(height >= 24 ? 6 : 3, ownLines))
        var lines = DisplayWidth.wrap(question, columns: width)
        guard lines.count > most else { return lines }
        lines.removeLast(lines.count - most)
        lines[most - 1] = endingInEllipsis(lines[most - 1], columns: width)
        return lines
    }

    /// `line`, the last shown of a text cut short, ending in "…" within `columns` columns.
    private static func endingInEllipsis(_ line: String, columns: Int) -> String {
        DisplayWidth.of(line) < columns ? line + "…" : DisplayWidth.truncated(line + "…", columns: columns)
    }

    private static func pointsLine(_ state: BoardState) -> String {
        var parts: [String] = []
        // While a team answers, the line under the countdown says what its buzz froze. The question's worth beside it
        // said another number live, and that same frozen number, with the hints not taken off, after the board
        // came back to a restarted daemon ("10 points · 1 hint taken").
        if let points = state.points, !answersForFrozenPoints(state) {
            parts.append(points == 1 ? "1 point" : "\(points) points")
        }
        if state.hintsUsed > 0 {
            parts.append(state.hintsUsed == 1 ? "1 hint taken" : "\(state.hintsUsed) hints taken")
        }
        if let shaker = state.hintShaker { parts.append("shaken by \(shaker)") }
        return parts.joined(separator: " · ")
    }

    /// Whether a team answers whose buzz froze the points it can win (the phase's words say them).
    static func answersForFrozenPoints(_ state: BoardState) -> Bool {
        guard case .answering(let team) = state.phase else { return false }
        return state.buzzes.contains { $0.team == team && $0.points != nil }
    }

    /// `█████████░░░░░░  23 s`, as wide as the area; empty when no countdown runs.
    static func countdownBar(_ state: BoardState, width: Int) -> String {
        guard let remaining = state.remaining, remaining.isFinite else { return "" }
        let left = max(0, min(remaining, 86_400))
        let length = max(left, min(state.countdownLength ?? left, 86_400))
        let label = " \(Int(left.rounded(.up))) s"
        let barWidth = max(0, width - DisplayWidth.of(label) - 1)
        let filled = length > 0 ? Int((Double(barWidth) * left / length).rounded()) : 0
        return String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + label
    }

    /// ``phaseWords(_:)`` on as many lines as `width` needs: wrapped, not cut, so that "to answer for 10 points" after
    /// a long team name keeps its points, and the points stay whole on a line of their own.
    static func phaseLines(_ state: BoardState, width: Int) -> [String] {
        let parts = phaseParts(state)
        let words = parts.joined(separator: " ")
        guard DisplayWidth.of(words) > width else { return [words] }
        // Parts share a line while they fit ("Paused: ● Owls to answer", then "for 10 points"): a row saved is one
        // the letters may need.
        var lines: [String] = []
        for part in parts {
            if let last = lines.last, DisplayWidth.of(last + " " + part) <= width {
                lines[lines.count - 1] = last + " " + part
            } else {
                lines += DisplayWidth.wrap(part, columns: width)
            }
        }
        return lines
    }

    /// The phase in party words.
    static func phaseWords(_ state: BoardState) -> String {
        phaseParts(state).joined(separator: " ")
    }

    /// ``phaseWords(_:)`` in the parts a narrow board puts on lines of their own: who is up, then the points.
    private static func phaseParts(_ state: BoardState) -> [String] {
        // The daemon gone, the game is on hold: its countdown is held, and buzzers are not open. A restarted daemon
        // restores the game paused.
        var isReconnecting = false
        if case .reconnecting = state.connection { isReconnecting = true }
        if state.isPaused || isReconnecting {
            let word = state.isPaused ? "Paused" : "On hold"
            // Who is up stays said: a pause (or a daemon's restart, which restores the game paused) while a team
            // answers goes on with that team.
            switch state.phase {
            case .answering:
                var running = state
                running.isPaused = false
                running.connection = .connected
                return ["\(word):"] + phaseParts(running)
            case .open: return [word]
            case .noGame, .ready, .roundOver, .gameOver:
                if state.isPaused { return [word] }
            }
        }
        switch state.phase {
        case .noGame: return ["Waiting for a game"]
        case .ready: return ["Get ready"]
        case .open: return [(state.remaining ?? 1) <= 0 ? "Time's up" : "Buzzers open"]
        case .answering(let team):
            // The points froze when the team buzzed; hints since do not lower them.
            let frozen = state.buzzes.first { $0.team == team }?.points
            return ["\(teamLabel(team, in: state)) to answer"] + (frozen.map { ["for \($0) points"] } ?? [])
        case .roundOver:
            switch state.roundEnd {
            case .timeUp: return ["Time's up"]
            case .skipped: return ["Skipped"]
            case .gameEnded: return ["Game ended"]
            case .overruled: return ["Overruled by the host"]
            case .answered, .wrongAnswers: return ["Round over"]
            case nil:
                // A daemon that does not say how: with no buzz and no winner, guess that the time ran out.
                return [
                    state.roundWinner == nil && state.judgements.isEmpty && state.buzzes.isEmpty
                        ? "Time's up" : "Round over"
                ]
            }
        case .gameOver: return ["Game over"]
        }
    }

    /// `lead` and `items` two spaces apart (`Buzzed: 1. Owls 3.5 s  2. Snow Leopards 4.1 s`), broken into lines of
    /// at most `columns` columns between items, so that no team's name is cut in two; an item too long for a line of
    /// its own is wrapped within.
    /// The judged answers in at most `rows` rows (at least 1): the earliest that fit whole, then how many more were
    /// judged.
    static func judgedLines(_ judgements: [[(String, BoardScreen.Style)]], rows: Int) -> [(String, BoardScreen.Style)] {
        let total = judgements.reduce(0) { $0 + $1.count }
        guard total > rows else { return judgements.flatMap { $0 } }
        var kept: [(String, BoardScreen.Style)] = []
        var count = 0
        while count < judgements.count, kept.count + judgements[count].count <= rows - 1 {
            kept += judgements[count]
            count += 1
        }
        let left = judgements.count - count
        let summary =
            count == 0
            ? "\(judgements.count) \(judgements.count == 1 ? "answer" : "answers") judged" : "+\(left) more judged"
        return kept + [(summary, .normal)]
    }

    /// The "Buzzed:" list in at most `rows` rows (at least 1): the earliest buzzes that fit, then how many more.
    static func buzzLines(_ buzzes: [String], rows: Int, columns: Int) -> [(String, BoardScreen.Style)] {
        for shown in stride(from: buzzes.count, through: 0, by: -1) {
            let left = buzzes.count - shown
            let more = left == 0 ? [] : [shown == 0 ? "\(left) \(left == 1 ? "team" : "teams")" : "+\(left) more"]
            let lines = listLines("Buzzed:", Array(buzzes.prefix(shown)) + more, columns: columns)
            if lines.count <= rows { return lines.map { ($0, .normal) } }
        }
        return []
    }

    static func listLines(_ lead: String, _ items: [String], columns: Int) -> [String] {
        var lines: [String] = []
        var line = lead
        for item in items {
            let candidate = line == lead ? line + " " + item : line + "  " + item
            if DisplayWidth.of(candidate) <= columns {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            var parts = DisplayWidth.wrap(item, columns: columns)
            line = parts.popLast() ?? ""
            lines += parts
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    private static func verdictLine(_ state: BoardState) -> (String, BoardScreen.Style) {
        guard let winner = state.roundWinner else { return ("Nobody got it", .bad) }
        let awarded = state.judgements.last { $0.team == winner && $0.isCorrect }?.awarded
        return ("\(teamLabel(winner, in: state)) got it!" + (awarded.map { " +\($0)" } ?? ""), .good)
    }

    private static func judgementLine(
        _ judgement: BoardState.Judgement, in state: BoardState
    )
        -> (String, BoardScreen.Style)
    {
        let team = teamLabel(judgement.team, in: state)
        guard let given = judgement.given else {
            // A time-out the host overruled: no answer was given, and it counts as right.
            if judgement.isCorrect { return ("\(team): out of time, counted as right +\(judgement.awarded)", .good) }
            return ("\(team): out of time", .bad)
        }
        // Curly quotes, as `shaky watch`, `play` and `status` quote an answer: every console font has them.
        if judgement.isCorrect { return ("\(team): “\(given)” RIGHT +\(judgement.awarded)", .good) }
        return ("\(team): “\(given)” WRONG", .bad)
    }

    /// `3.2 s`, for a time that came from outside (never traps).
    static func seconds(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "-" }
        let tenths = Int(max(0, min(value, 86_400)) * 10 + 0.5)
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
