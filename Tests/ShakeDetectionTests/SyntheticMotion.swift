import Foundation
import ShakeDetection
import ShakyCore

/// Builds synthetic accelerometer streams: rest, sinusoidal shakes, walking, at any rate.
struct SyntheticMotion {
    /// Standard gravity, m/s².
    static let g = AccelSample.standardGravity

    /// Gravity as the device reads it at rest (a unit direction times g), e.g. face-up is (0, 0, 1).
    var gravityDirection: (x: Double, y: Double, z: Double) = (0, 0, 1)
    /// Extra (gravity-free) acceleration at time t, m/s², in device axes.
    var motion: @Sendable (Double) -> (x: Double, y: Double, z: Double) = { _ in (0, 0, 0) }

    /// The sample at time t.
    func sample(at t: Double) -> AccelSample {
        let m = motion(t)
        let norm =
            (gravityDirection.x * gravityDirection.x + gravityDirection.y * gravityDirection.y
            + gravityDirection.z * gravityDirection.z).squareRoot()
        let scale = Self.g / norm
        return AccelSample(
            timestamp: t, x: gravityDirection.x * scale + m.x, y: gravityDirection.y * scale + m.y,
            z: gravityDirection.z * scale + m.z)
    }

    /// Samples every 1/rate seconds over [start, end).
    func samples(rate: Double, from start: Double = 0, to end: Double) -> [AccelSample] {
        let count = Int(((end - start) * rate).rounded())
        return (0..<count).map { sample(at: start + Double($0) / rate) }
    }

    /// Samples at the given timestamps.
    func samples(at times: [Double]) -> [AccelSample] { times.map(sample(at:)) }

    /// A sinusoidal shake of `amplitude` m/s² at `frequency` Hz along `axis`, during [start, end).
    static func shake(
        amplitude: Double, frequency: Double, from start: Double, to end: Double,
        axis: (x: Double, y: Double, z: Double) = (1, 0, 0)
    ) -> @Sendable (Double) -> (x: Double, y: Double, z: Double) {
        { t in
            guard t >= start, t < end else { return (0, 0, 0) }
            let a = amplitude * sin(2 * Double.pi * frequency * (t - start))
            return (axis.x * a, axis.y * a, axis.z * a)
        }
    }

    /// Walking along the device's z axis: a 1.8 Hz sway of 0.3 g plus a sharp heel strike of `heelStrike` m/s²
    /// (30 ms wide) at every step.
    static func walking(
        heelStrike: Double = 25, stepRate: Double = 1.8
    )
        -> @Sendable (Double) -> (x: Double, y: Double, z: Double)
    {
        { t in
            let phase = (t * stepRate).truncatingRemainder(dividingBy: 1) / stepRate
            let spike = heelStrike * exp(-pow((phase - 0.05) / 0.015, 2))
            let sway = 0.3 * g * sin(2 * Double.pi * stepRate * t)
            return (0.1 * sway, 0, sway + spike)
        }
    }
}

/// Runs samples through a fresh detector and returns the trigger times.
func triggerTimes(_ samples: [AccelSample], settings: ShakeDetectorTuning) throws -> [Double] {
    var detector = try ShakeDetector(settings: settings)
    return samples.compactMap { detector.process($0)?.timestamp }
}
