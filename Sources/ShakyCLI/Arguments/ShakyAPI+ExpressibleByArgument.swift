import ArgumentParser
import ShakyProtocol

// Each value's description is what `--help` and the manual list under the option (argument-parser lists the values
// of an enumeration in the manual only when they are described).

extension ShakyAPI.GameInterface.NewParameters.Difficulty: ExpressibleByArgument {
    public var defaultValueDescription: String {
        switch self {
        case .any: "Questions of every difficulty (the default)."
        case .easy: "Easy questions only."
        case .medium: "Medium questions only."
        case .hard: "Hard questions only."
        }
    }
}

extension ShakyAPI.Question.Difficulty: ExpressibleByArgument {
    public var defaultValueDescription: String {
        switch self {
        case .easy: "Most of the room would know it."
        case .medium: "Some would know it."
        case .hard: "Few would know it."
        }
    }
}

extension ShakyAPI.PacksInterface.ImportParameters.Format: ExpressibleByArgument {
    public var defaultValueDescription: String {
        switch self {
        case .json: "JSON: the pack's name and a list of questions."
        case .csv: "CSV: a header line, then a question a line."
        }
    }
}

extension ShakyAPI.PacksInterface.ExportParameters.Format: ExpressibleByArgument {
    public var defaultValueDescription: String {
        switch self {
        case .json: "JSON: the pack's name and a list of questions."
        case .csv: "CSV: a header line, then a question a line."
        case .tsv: "TSV: CSV with tabs between the fields, as spreadsheets copy and save it."
        }
    }
}

extension ShakyAPI.Settings.Sensitivity: ExpressibleByArgument {
    public var defaultValueDescription: String {
        switch self {
        case .light: "Gentler shaking counts; so may a walk with the device in a pocket or bag."
        case .medium: "The balance between missed shakes and false ones."
        case .hard: "Only vigorous shaking counts."
        }
    }
}

/// `--sound`: `on` or `off`.
enum SoundSwitch: String, ExpressibleByArgument, CaseIterable, Sendable {
    case on, off

    /// Whether the switch is on.
    var isOn: Bool { self == .on }

    var defaultValueDescription: String {
        switch self {
        case .on: "Play the sound cues."
        case .off: "Play none."
        }
    }
}
