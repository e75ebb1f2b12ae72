import Foundation
import ShakyCore
import Testing

@Suite("The sound level")
struct SoundLevelTests {
    @Test("volume is clamped into 0…1 when set in code")
    func clamping() {
        #expect(SoundLevel(volume: 1.5).volume == 1)
        #expect(SoundLevel(volume: -2).volume == 0)
        var settings = SoundLevel()
        settings.volume = 7
        #expect(settings.volume == 1)
    }

    @Test("settings round-trip through JSON")
    func roundTrip() throws {
        let settings = SoundLevel(enabled: false, volume: 0.5)
        let data = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(SoundLevel.self, from: data) == settings)
    }

    @Test("a volume outside 0…1 in JSON is an error naming the field")
    func badVolumeIsRejected() {
        let json = Data(#"{"enabled": true, "volume": 1.5}"#.utf8)
        #expect {
            try JSONDecoder().decode(SoundLevel.self, from: json)
        } throws: { error in
            "\(error)".contains("volume") && "\(error)".contains("between 0 and 1")
        }
    }
}
