import Foundation
import ShakyTesting
import Testing

@testable import ShakeDetection

/// The decays of a jittered interval come from the anchor interval's by a series: it must agree with `exp`.
@Suite struct ShakeDetectorDecaySeriesTests {
    private static func relativeError(_ x: Double) -> Double {
        let exact = exp(-x)
        return abs(ShakeDetector.decaySeries(x) - exact) / exact
    }

    @Test func agreesWithExpAcrossItsRangeToTheLastDigitsOfADouble() {
        let limit = ShakeDetector.seriesStepLimit
        var steps: [Double] = [0, -0.0, limit, -limit, limit.nextDown, (-limit).nextUp, 1e-9, -1e-9, 1e-6, -1e-6]
        var generator = SplitMix64(seed: 17)
        for _ in 0..<10_000 { steps.append(Double.random(in: -limit...limit, using: &generator)) }
        for step in steps {
            #expect(Self.relativeError(step) < 1e-13, "at \(step)")
        }
    }

    @Test func aHundredTimesFurtherTheLeftOutTermShows() {
        // The limit is what keeps the left-out term negligible: a hundred times further, it is not.
        #expect(Self.relativeError(ShakeDetector.seriesStepLimit * 100) > 1e-10)
    }
}
