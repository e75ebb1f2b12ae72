import ArgumentParser
import Foundation
import ShakeDetection
import ShakyCore
import ShakyDrivers
import SystemCalls

/// `--sensitivity`: `--help` and the manual list the presets with what each is for.
extension ShakeSensitivity: ExpressibleByArgument {
    public var defaultValueDescription: String {
        switch self {
        case .light: "Gentler shaking counts; so may a walk with the device in a pocket or bag."
        case .medium: "The balance between missed shakes and false ones."
        case .hard: "Only vigorous shaking counts."
        }
    }
}

extension Shakyd {
    /// `shakyd detect`: replays recorded traces through the shake detector and prints the triggers as CSV.
    struct Detect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay trace files through the shake detector and print each trigger as CSV.",
            discussion: """
                Each FILE is a trace (CSV with the header t,x,y,z: seconds and m/s² including gravity). \
                Every file is replayed as fast as possible through a fresh detector (a cold start per file). \
                Standard output gets the header "file,t" and one row per trigger: the file's name without \
                directories and the trigger time on the trace's own clock. A malformed file is reported on \
                standard error with its line number; the other files are still processed and the exit status is 1.

                EXAMPLES:
                Score the output against labelled traces (the pattern leaves out labels.csv and manifest.csv, \
                which are not traces):
                  shakyd detect traces/dev/*_*.csv > triggers.csv
                  python3 traces/score.py traces/dev triggers.csv
                The same with the hard preset and a longer cooldown:
                  shakyd detect --sensitivity hard --cooldown 2 traces/dev/*_*.csv
                """
        )

        @Option(help: "The preset to start from")
        var sensitivity: ShakeSensitivity = .medium

        @Option(
            help: ArgumentHelp(
                "Override: gravity-removed acceleration that counts as vigorous motion (brisk window), m/s².",
                valueName: "acceleration"), transform: DecimalText.argument)
        var threshold: Double?

        @Option(
            help: ArgumentHelp(
                "Override: share (0-1] of the brisk threshold that counts below 20 Hz sampling.", valueName: "share"),
            transform: DecimalText.argument)
        var coarseThresholdShare: Double?

        @Option(
            help: ArgumentHelp(
                "Override: length of the brisk window, seconds (above 0, at most 10).", valueName: "seconds"),
            transform: DecimalText.argument)
        var window: Double?

        @Option(
            help: ArgumentHelp(
                "Override: share of the brisk window (0-1) that must be above the threshold.", valueName: "share"),
            transform: DecimalText.argument)
        var activeFraction: Double?

        @Option(
            help: ArgumentHelp(
                "Override: direction reversals needed inside the brisk window, 0 to 1000 (one fewer below 20 Hz).",
                valueName: "count"), transform: DecimalText.wholeNumberArgument)
        var minimumReversals: Int?

        @Option(
            help: ArgumentHelp(
                "Override: gravity-removed acceleration that counts in the sustained window, m/s².",
                valueName: "acceleration"), transform: DecimalText.argument)
        var sustainedThreshold: Double?

        @Option(
            help: ArgumentHelp(
                "Override: length of the sustained window, seconds (above 0, at most 10).", valueName: "seconds"),
            transform: DecimalText.argument)
        var sustainedWindow: Double?

        @Option(
            help: ArgumentHelp(
                "Override: share of the sustained window (0-1) that must be above its threshold.", valueName: "share"),
            transform: DecimalText.argument)
        var sustainedActiveFraction: Double?

        @Option(
            help: ArgumentHelp(
                "Override: straight reversals needed inside the sustained window, 0 to 1000.", valueName: "count"),
            transform: DecimalText.wholeNumberArgument)
        var sustainedReversals: Int?

        @Option(
            help: ArgumentHelp(
                "Override: highest frequency of the motion in the sustained window, Hz.", valueName: "hertz"),
            transform: DecimalText.argument)
        var sustainedMaximumFrequency: Double?

        @Option(
            help: ArgumentHelp(
                "Override: highest share (0-1) of the sustained window's motion along gravity.", valueName: "share"),
            transform: DecimalText.argument)
        var sustainedMaximumVerticalShare: Double?

        @Option(
            help: ArgumentHelp(
                "Override: highest crest factor (peak over root mean square, at least 1) of the sustained window's "
                    + "motion.", valueName: "factor"), transform: DecimalText.argument)
        var sustainedMaximumCrestFactor: Double?

        @Option(
            help: ArgumentHelp(
                "Override: highest rotation (0-1) of the motion's direction, 1 round a circle, 0 along a line.",
                valueName: "share"), transform: DecimalText.argument)
        var maximumRotation: Double?

        @Option(
            help: ArgumentHelp(
                "Override: seconds during which nothing fires again after a trigger, 0 or more.", valueName: "seconds"),
            transform: DecimalText.argument)
        var cooldown: Double?

        @Option(
            help: ArgumentHelp(
                "Calibrate on this stretch of each file (START:END, seconds on the trace's clock) as the shaking "
                    + "step; repeat for several stretches. Needs --calibrate-still too.",
                valueName: "start:end"))
        var calibrateShaking: [TimeSpan] = []

        @Option(
            help: ArgumentHelp(
                "Calibrate on this stretch of each file as the holding-still step; repeat for several stretches.",
                valueName: "start:end"))
        var calibrateStill: [TimeSpan] = []

        @Option(
            help: ArgumentHelp(
                "Take the calibration stretches from this trace, once, and use the result for every FILE (as a host "
                    + "calibrates a device once); without it each FILE is calibrated on its own stretches.",
                valueName: "trace"),
            completion: .file(extensions: ["csv"]))
        var calibrationTrace: String?

        @Argument(help: "Trace files to replay.", completion: .file(extensions: ["csv"]))
        var files: [String]

        /// The preset with the overrides applied.
        var settings: ShakeDetectorTuning {
            var settings = ShakeDetectorTuning(sensitivity: sensitivity)
            if let threshold { settings.threshold = threshold }
            if let coarseThresholdShare { settings.coarseThresholdShare = coarseThresholdShare }
            if let window { settings.window = window }
            if let activeFraction { settings.activeFraction = activeFraction }
            if let minimumReversals { settings.minimumReversals = minimumReversals }
            if let sustainedThreshold { settings.sustainedThreshold = sustainedThreshold }
            if let sustainedWindow { settings.sustainedWindow = sustainedWindow }
            if let sustainedActiveFraction { settings.sustainedActiveFraction = sustainedActiveFraction }
            if let sustainedReversals { settings.sustainedReversals = sustainedReversals }
            if let sustainedMaximumFrequency { settings.sustainedMaximumFrequency = sustainedMaximumFrequency }
            if let sustainedMaximumVerticalShare {
                settings.sustainedMaximumVerticalShare = sustainedMaximumVerticalShare
            }
            if let sustainedMaximumCrestFactor { settings.sustainedMaximumCrestFactor = sustainedMaximumCrestFactor }
            if let maximumRotation { settings.maximumRotation = maximumRotation }
            if let cooldown { settings.cooldown = cooldown }
            return settings
        }

        func validate() throws {
            if calibrateShaking.isEmpty != calibrateStill.isEmpty {
                throw ValidationError("--calibrate-shaking and --calibrate-still go together")
            }
            if calibrationTrace != nil && calibrateShaking.isEmpty {
                throw ValidationError("--calibration-trace needs --calibrate-shaking and --calibrate-still")
            }
            do {
                try settings.validate()
            } catch {
                // Named by the flag that set it, not the detector's field (`minimumReversals = -1.0`).
                let flag = "--" + error.parameter.replacing(/[A-Z]/) { "-" + $0.output.lowercased() }
                let whole = error.value.rounded() == error.value && abs(error.value) < 1e15
                let value = whole ? String(Int(error.value)) : "\(error.value)"
                throw ValidationError("\(flag) must be \(error.requirement), not \(value)")
            }
        }

        func run() throws {
            var settings = settings
            if let calibrationTrace {
                do {
                    settings = try calibrated(settings, path: calibrationTrace)
                } catch {
                    printError("shakyd detect: \(calibrationTrace): \(error)")
                    throw ExitCode.failure
                }
            }
            var output = "file,t\n"
            var failed = 0
            for path in files {
                let name = path.split(separator: "/").last.map(String.init) ?? path
                do {
                    let fileSettings = calibrationTrace == nil ? try calibrated(settings, path: path) : settings
                    var detector = try ShakeDetector(settings: fileSettings)
                    let reader = try TraceReader(path: path)
                    while let sample = try reader.next() {
                        if let event = detector.process(sample) { output += "\(name),\(event.timestamp)\n" }
                    }
                } catch let error as TraceFormatError {
                    failed += 1
                    printError("shakyd detect: \(error)")
                } catch {
                    failed += 1
                    printError("shakyd detect: \(path): \(error)")
                }
                if output.utf8.count >= 1 << 16 {
                    try CommandOutput.write(output, command: "detect")
                    output = ""
                }
            }
            try CommandOutput.write(output, command: "detect")
            if failed > 0 {
                printError("shakyd detect: \(failed) of \(files.count) files could not be read")
                throw ExitCode.failure
            }
        }

        /// `settings` calibrated on the stretches of `path` given by the options (unchanged without them); the
        /// calibrated thresholds go to standard error.
        private func calibrated(_ settings: ShakeDetectorTuning, path: String) throws -> ShakeDetectorTuning {
            guard !calibrateShaking.isEmpty else { return settings }
            var calibration = ShakeCalibration()
            let reader = try TraceReader(path: path)
            var wasShaking = false
            var wasStill = false
            while let sample = try reader.next() {
                let shaking = calibrateShaking.contains { $0.contains(sample.timestamp) }
                let still = calibrateStill.contains { $0.contains(sample.timestamp) }
                if shaking { calibration.addShaking(sample) } else if wasShaking { calibration.endShakingStretch() }
                if still {
                    calibration.addHoldingStill(sample)
                } else if wasStill {
                    calibration.endHoldingStillStretch()
                }
                wasShaking = shaking
                wasStill = still
            }
            let result = try calibration.result()
            printError(
                "shakyd detect: \(path): calibrated threshold \(result.threshold) m/s², sustained threshold "
                    + "\(result.sustainedThreshold) m/s² (stroke peak \(result.strokePeak) m/s², noise \(result.noise) m/s²)"
            )
            return settings.calibrated(by: result)
        }

        private func printError(_ message: String) {
            StandardStreams.writeError(message + "\n")
        }
    }
}

/// A stretch of time on a trace's clock, given as `START:END` seconds.
struct TimeSpan: ExpressibleByArgument, Sendable {
    var start: Double
    var end: Double

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = DecimalText.number(String(parts[0])),
            let end = DecimalText.number(String(parts[1])), start <= end
        else { return nil }
        self.start = start
        self.end = end
    }

    func contains(_ time: Double) -> Bool { time >= start && time <= end }
}
