import Foundation
import ShakeDetection
import Testing

@Suite("ShakeDetectorTuning")
struct ShakeDetectorTuningTests {
    @Test("Every preset is valid and matches its sensitivity", arguments: ShakeSensitivity.allCases)
    func presetsValid(sensitivity: ShakeSensitivity) throws {
        let settings = ShakeDetectorTuning(sensitivity: sensitivity)
        try settings.validate()
        let named: ShakeDetectorTuning =
            switch sensitivity {
            case .light: .light
            case .medium: .medium
            case .hard: .hard
            }
        #expect(settings == named)
        #expect(ShakeSensitivity(rawValue: sensitivity.rawValue) == sensitivity)
    }

    @Test("The default detector uses the medium preset")
    func defaultIsMedium() throws {
        #expect(try ShakeDetector().settings == .medium)
    }

    static let invalid: [(String, @Sendable (inout ShakeDetectorTuning) -> Void)] = [
        ("threshold", { $0.threshold = 0 }),
        ("threshold", { $0.threshold = .nan }),
        ("window", { $0.window = 0 }),
        ("window", { $0.window = 11 }),
        ("activeFraction", { $0.activeFraction = 1.5 }),
        ("activeFraction", { $0.activeFraction = -0.1 }),
        ("minimumReversals", { $0.minimumReversals = -1 }),
        ("sustainedMaximumFrequency", { $0.sustainedMaximumFrequency = 0 }),
        ("sustainedMaximumFrequency", { $0.sustainedMaximumFrequency = .infinity }),
        ("sustainedMaximumVerticalShare", { $0.sustainedMaximumVerticalShare = 1.1 }),
        ("sustainedMaximumVerticalShare", { $0.sustainedMaximumVerticalShare = -0.1 }),
        ("coarseThresholdShare", { $0.coarseThresholdShare = 0 }),
        ("coarseThresholdShare", { $0.coarseThresholdShare = 1.5 }),
        ("sustainedMaximumCrestFactor", { $0.sustainedMaximumCrestFactor = 0.5 }),
        ("sustainedMaximumCrestFactor", { $0.sustainedMaximumCrestFactor = .infinity }),
        ("maximumRotation", { $0.maximumRotation = -0.1 }),
        ("maximumRotation", { $0.maximumRotation = 1.5 }),
        ("maximumRotation", { $0.maximumRotation = .nan }),
        ("cooldown", { $0.cooldown = -1 }),
        ("cooldown", { $0.cooldown = .infinity }),
        ("gravityTimeConstant", { $0.gravityTimeConstant = 0 }),
        ("maximumGap", { $0.maximumGap = -0.5 }),
    ]

    @Test("Invalid settings are rejected, naming the parameter", arguments: invalid.indices)
    func rejectsInvalid(index: Int) throws {
        let (parameter, change) = Self.invalid[index]
        var settings = ShakeDetectorTuning.medium
        change(&settings)
        let error = #expect(throws: ShakeDetectorTuningError.self) { try settings.validate() }
        #expect(error?.parameter == parameter)
        #expect(error?.description.contains(parameter) == true)
        #expect(throws: ShakeDetectorTuningError.self) { try ShakeDetector(settings: settings) }
    }

    @Test("Settings survive a JSON round trip")
    func codable() throws {
        var settings = ShakeDetectorTuning.hard
        settings.maximumGap = 0.75
        let data = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(ShakeDetectorTuning.self, from: data) == settings)
    }
}
