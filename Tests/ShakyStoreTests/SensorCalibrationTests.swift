import Testing

@testable import ShakyStore

@Suite struct SensorCalibrationTests {
    private let mpu = SensorCalibration(
        device: "iio-buffer:mpu6050", threshold: 14, sustainedThreshold: 4.2, strokePeak: 28, noise: 0.2)

    @Test func nothingUntilSavedThenPerDevice() throws {
        let database = try AppDatabase.inMemory()
        #expect(try database.sensorCalibration(device: mpu.device) == nil)
        try database.saveSensorCalibration(mpu)
        var other = mpu
        other.device = "evdev:Shaky Test Accelerometer"
        other.threshold = 20
        try database.saveSensorCalibration(other)
        #expect(try database.sensorCalibration(device: mpu.device) == mpu)
        #expect(try database.sensorCalibration(device: other.device) == other)
    }

    @Test func aNewCalibrationReplacesTheOldAndCanBeForgotten() throws {
        let database = try AppDatabase.inMemory()
        try database.saveSensorCalibration(mpu)
        var again = mpu
        again.threshold = 18
        try database.saveSensorCalibration(again)
        #expect(try database.sensorCalibration(device: mpu.device) == again)
        #expect(try database.deleteSensorCalibration(device: mpu.device))
        #expect(try database.sensorCalibration(device: mpu.device) == nil)
        #expect(try !database.deleteSensorCalibration(device: mpu.device))
    }

    @Test(
        "Out-of-range values are refused and change nothing",
        arguments: [
            SensorCalibration(device: "", threshold: 14, sustainedThreshold: 4, strokePeak: 28, noise: 0.2),
            SensorCalibration(device: "a", threshold: 0, sustainedThreshold: 4, strokePeak: 28, noise: 0.2),
            SensorCalibration(device: "a", threshold: .nan, sustainedThreshold: 4, strokePeak: 28, noise: 0.2),
            SensorCalibration(device: "a", threshold: 14, sustainedThreshold: 1e300, strokePeak: 28, noise: 0.2),
            SensorCalibration(device: "a", threshold: 14, sustainedThreshold: 4, strokePeak: .infinity, noise: 0.2),
            SensorCalibration(device: "a", threshold: 14, sustainedThreshold: 4, strokePeak: 28, noise: -1),
        ])
    func refused(calibration: SensorCalibration) throws {
        let database = try AppDatabase.inMemory()
        #expect(throws: StoreError.self) { try database.saveSensorCalibration(calibration) }
        #expect(try database.sensorCalibration(device: calibration.device) == nil)
    }
}
