import GRDB

/// A device's learned shake: the thresholds a calibration set for `medium`, kept per device.
public struct SensorCalibration: Codable, Equatable, Sendable {
    /// The device it belongs to: the interface it is read through and the device's own name (`iio:mpu6050`), so
    /// it survives re-plugging and a change of reading mode (buffered or polled).
    public var device: String
    /// The brisk window's threshold, m/s².
    public var threshold: Double
    /// The sustained window's threshold, m/s².
    public var sustainedThreshold: Double
    /// The typical stroke peak of the calibration's shaking, m/s².
    public var strokePeak: Double
    /// The noise while the device was held still, m/s².
    public var noise: Double

    /// Creates a calibration.
    public init(device: String, threshold: Double, sustainedThreshold: Double, strokePeak: Double, noise: Double) {
        self.device = device
        self.threshold = threshold
        self.sustainedThreshold = sustainedThreshold
        self.strokePeak = strokePeak
        self.noise = noise
    }
}

extension SensorCalibration: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "sensorCalibration"
}

extension AppDatabase {
    /// The calibration saved for `device`, or `nil`.
    public func sensorCalibration(device: String) throws -> SensorCalibration? {
        try read { db in try SensorCalibration.fetchOne(db, key: device) }
    }

    /// Saves `calibration`, replacing the device's previous one.
    ///
    /// - Throws: ``StoreError/invalidPreferences(problem:)`` for an empty device name or a threshold that is not a
    ///   positive number up to 100 m/s².
    public func saveSensorCalibration(_ calibration: SensorCalibration) throws {
        guard !calibration.device.isEmpty, calibration.device.utf8.count <= 300 else {
            throw StoreError.invalidPreferences(problem: "the calibration's device name is empty or too long")
        }
        for (name, value) in [
            ("threshold", calibration.threshold), ("sustained threshold", calibration.sustainedThreshold),
        ] where !(value > 0 && value <= 100) {
            throw StoreError.invalidPreferences(problem: "the calibration's \(name) \(value) is outside 0…100 m/s²")
        }
        for (name, value) in [("stroke peak", calibration.strokePeak), ("noise", calibration.noise)]
        where !(value >= 0 && value.isFinite) {
            throw StoreError.invalidPreferences(problem: "the calibration's \(name) \(value) is not a measurement")
        }
        try write { db in try calibration.save(db) }
    }

    /// Forgets the calibration of `device`; returns whether there was one.
    @discardableResult
    public func deleteSensorCalibration(device: String) throws -> Bool {
        try write { db in try SensorCalibration.deleteOne(db, key: device) }
    }
}
