/// What the players chose for sound: on or off, and how loud.
public struct SoundLevel: Codable, Equatable, Sendable {
    /// Whether cues play at all. Off is mute: nothing plays, and what was playing stops.
    public var enabled: Bool
    /// Loudness from 0 (silent) to 1 (the cues as recorded). Values outside are clamped.
    public var volume: Double {
        didSet { volume = Self.clamp(volume) }
    }

    /// Creates a level, clamping `volume` into 0…1.
    public init(enabled: Bool = true, volume: Double = 1) {
        self.enabled = enabled
        self.volume = Self.clamp(volume)
    }

    /// Sound on at full volume.
    public static let `default` = SoundLevel()

    private enum CodingKeys: String, CodingKey {
        case enabled, volume
    }

    /// Decodes a level; a volume outside 0…1 (or not a number) is an error naming the field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let enabled = try container.decode(Bool.self, forKey: .enabled)
        let volume = try container.decode(Double.self, forKey: .volume)
        guard volume.isFinite, (0...1).contains(volume) else {
            throw DecodingError.dataCorruptedError(
                forKey: .volume, in: container, debugDescription: "sound volume must be between 0 and 1, got \(volume)")
        }
        self.init(enabled: enabled, volume: volume)
    }

    private static func clamp(_ volume: Double) -> Double {
        guard volume.isFinite else { return volume == .infinity ? 1 : 0 }
        return min(max(volume, 0), 1)
    }
}
