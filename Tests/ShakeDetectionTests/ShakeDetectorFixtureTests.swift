import Foundation
import ShakeDetection
import ShakyCore
import Testing

private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

private func readFixture(_ name: String) throws -> [AccelSample] {
    let url = fixtures.appendingPathComponent(name)
    return try TraceFormat.parse(String(contentsOf: url, encoding: .utf8), file: url.path).samples
}

@Suite("ShakeDetector on recorded walking (Oxford step counter data, CC BY 4.0)")
struct ShakeDetectorFixtureTests {
    @Test(
        "Real walking does not trigger medium or hard",
        arguments: ["walk_frontpocket.csv", "walk_inhand.csv"], [ShakeSensitivity.medium, .hard])
    func walkingIsSilent(fixture: String, sensitivity: ShakeSensitivity) throws {
        let samples = try readFixture(fixture)
        #expect(samples.count > 1000)
        #expect(try triggerTimes(samples, settings: ShakeDetectorTuning(sensitivity: sensitivity)).isEmpty)
    }

    @Test("A shake added on top of real walking in the hand triggers once, near its start")
    func shakeDuringWalking() throws {
        let walk = try readFixture("walk_inhand.csv")
        let shake = SyntheticMotion.shake(amplitude: 3 * AccelSample.standardGravity, frequency: 4, from: 12, to: 12.7)
        let samples = walk.map { sample in
            let extra = shake(sample.timestamp)
            return AccelSample(
                timestamp: sample.timestamp, x: sample.x + extra.x, y: sample.y + extra.y, z: sample.z + extra.z)
        }
        let times = try triggerTimes(samples, settings: .medium)
        try #require(times.count == 1)
        #expect(times[0] >= 12 && times[0] <= 12.5)
    }
}
