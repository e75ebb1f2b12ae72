extension VarlinkInterface {
    /// The description of `io.shakywords.Packs`, served verbatim.
    public static let packsDescription = #"""
        # Quiz packs: the questions games are drawn from. Built-in packs are
        # read-only; Duplicate copies one into an editable pack. Names are unique
        # ignoring case. Listing, showing, searching and exporting are open to every
        # local user; changes need root, the daemon's user or group shaky.
        interface io.shakywords.Packs

        # A pack and how many questions of each difficulty it holds.
        type Pack (
          name: string,
          builtin: bool,
          questions: int,
          easy: int,
          medium: int,
          hard: int
        )

        # A question as written into a pack.
        type Question (
          text: string,
          # At most 40 letters.
          answer: string,
          # Other answers that count as right.
          alternates: ?[]string,
          difficulty: (easy, medium, hard)
        )

        # A question stored in a pack.
        type StoredQuestion (
          id: int,
          pack: string,
          text: string,
          answer: string,
          alternates: []string,
          difficulty: (easy, medium, hard)
        )

        # Every pack.
        method List() -> (packs: []Pack)

        # One pack and its questions.
        method Show(name: string) -> (pack: Pack, questions: []StoredQuestion)

        # A new, empty pack.
        method Create(name: string) -> (pack: Pack)

        method Rename(name: string, newName: string) -> (pack: Pack)

        # Delete a pack and its questions.
        method Delete(name: string) -> ()

        # Copy a pack (built-in or not) into a new editable pack.
        method Duplicate(name: string, newName: string) -> (pack: Pack)

        method AddQuestion(pack: string, question: Question) -> (question: StoredQuestion)

        method EditQuestion(id: int, question: Question) -> (question: StoredQuestion)

        method DeleteQuestion(id: int) -> ()

        # Questions whose text or answer contains the words, ignoring case and accents.
        method Search(text: string, pack: ?string, limit: ?int) -> (questions: []StoredQuestion)

        # Add a pack from a file's contents: JSON, or CSV with the header
        # question,answer,difficulty,alternates (alternates separated by |).
        # A bad file imports nothing.
        method Import(data: string, format: (json, csv), name: ?string) -> (pack: Pack)

        # A pack as JSON or CSV.
        method Export(name: string, format: (json, csv)) -> (data: string)

        error PackNotFound (name: string)

        # Built-in packs cannot be changed; duplicate one to edit a copy.
        error PackReadOnly (name: string)

        error PackExists (name: string)

        error QuestionNotFound (id: int)

        # A question or pack name that breaks the rules, said for people.
        error InvalidPack (message: string)

        # The file was not imported; line is set for CSV, field names the column or JSON path.
        error ImportFailed (line: ?int, field: ?string, problem: string)

        # The daemon could not save; nothing was changed.
        error StorageFailed (message: string)

        """#

    /// The description of `io.shakywords.Sensor`, served verbatim.
    public static let sensorDescription = #"""
        # The accelerometer whose shakes reveal hints.
        interface io.shakywords.Sensor

        type SensorStatus (
          # absent: none found (hints are manual); ready: attached, read while a
          # round is open; reading: being read now; gone: unplugged, waiting for it.
          state: (absent, ready, reading, gone),
          # iio-buffer, iio-poll, evdev or trace.
          driver: ?string,
          device: ?string,
          # Samples per second.
          rate: ?float,
          # Shakes detected since the daemon started.
          shakes: int,
          # light, medium or hard.
          sensitivity: string,
          # Why there is no sensor, the last problem, or how it is read when not the usual way.
          message: ?string,
          # Which way the readings' axes point (a game controller lying flat reads gravity on +y).
          frame: ?string
        )

        method Status() -> (sensor: SensorStatus)

        """#

    /// The description of `io.shakywords.Settings`, served verbatim.
    public static let settingsDescription = #"""
        # Daemon settings that change live and are kept across restarts.
        interface io.shakywords.Settings

        type Settings (
          # Sound cues on or off.
          sound: bool,
          # 0 to 1.
          volume: float,
          # How hard a shake must be to count.
          sensitivity: (light, medium, hard)
        )

        method Get() -> (settings: Settings)

        # Change the settings given; the others stay.
        method Set(sound: ?bool, volume: ?float, sensitivity: ?(light, medium, hard)) -> (settings: Settings)

        # A value out of range, said for people.
        error InvalidSetting (name: string, message: string)

        """#
}
