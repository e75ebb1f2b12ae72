import Foundation
import ShakyCore
import ShakyDrivers
import ShakyTesting
import Testing

@Suite struct UdevHotplugMonitorTests {
    /// Unplugs and re-plugs an emulated accelerometer (umockdev's GI API) while `shakyd record` reads it.
    @Test func recordingSurvivesUnplugAndReattaches() async throws {
        _ = try UmockdevHarness.tool("umockdev-wrapper", installHint: "install umockdev (make setup)")
        let directory = try UmockdevHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("hotplug.csv").path
        let outcome = try await UmockdevHarness.runTestbedScript(
            "hotplug-record.py", [try UmockdevHarness.shakyd(), output])
        let log = outcome.standardOutput + outcome.standardError
        #expect(outcome.status == 0, "\(log)")
        #expect(log.contains("is gone"), "\(log)")
        #expect(log.contains("waiting for it to come back"), "\(log)")
        #expect(log.contains("the accelerometer is back at /dev/iio:device0"), "\(log)")
        #expect(log.contains("exit=0"), "shakyd kept running and stopped cleanly on SIGINT: \(log)")

        let samples = try TraceReader(path: output).readAll()
        let before = samples.prefix { $0.x == 0 }
        let after = samples.dropFirst(before.count)
        #expect(!before.isEmpty, "samples before the unplug")
        #expect(!after.isEmpty, "samples after the re-plug")
        #expect(after.allSatisfy { abs($0.x - 256 * 0.019153) < 1e-9 }, "the re-plugged device reads x = 256 raw")
        #expect(samples.allSatisfy { abs($0.z - 512 * 0.019153) < 1e-9 })
    }

    @Test func trackerReportsGoneThenBackForTheDeviceInUse() {
        let info = SourceInfo(
            driver: "iio-poll", devicePath: "/dev/iio:device0", deviceName: "mma8451",
            sysfsPath: "/sys/devices/platform/i2c/iio:device0")
        var tracker = HotplugTracker(watching: info)
        func event(_ action: String, _ sysname: String, name: String?, subsystem: String = "iio") -> UdevDevice {
            UdevDevice(
                sysfsPath: "/sys/devices/platform/i2c/\(sysname)", sysname: sysname, subsystem: subsystem,
                devicePath: subsystem == "iio" ? "/dev/\(sysname)" : nil, name: name, action: action)
        }
        #expect(tracker.handle(event("add", "iio:device1", name: "mma8451")) == nil, "not gone yet")
        #expect(tracker.handle(event("remove", "iio:device1", name: "mma8451")) == nil, "another device")
        #expect(tracker.handle(event("remove", "input3", name: nil, subsystem: "input")) == nil)
        #expect(tracker.handle(event("change", "iio:device0", name: "mma8451")) == nil)
        #expect(tracker.handle(event("remove", "iio:device0", name: "mma8451")) == .gone(device: "/dev/iio:device0"))
        #expect(tracker.handle(event("remove", "iio:device0", name: "mma8451")) == nil, "reported once")
        #expect(tracker.handle(event("add", "iio:device3", name: "bmc150")) == nil, "a different sensor")
        #expect(tracker.handle(event("add", "iio:device2", name: "mma8451")) == .back(device: "/dev/iio:device2"))
        #expect(tracker.handle(event("remove", "iio:device2", name: "mma8451")) == .gone(device: "/dev/iio:device2"))
    }

    @Test func trackerForEvdevMatchesTheEventNode() {
        var tracker = HotplugTracker(
            watching: SourceInfo(driver: "evdev", devicePath: "/dev/input/event5", deviceName: "Accel"))
        let parent = UdevDevice(
            sysfsPath: "/sys/devices/virtual/input/input9", sysname: "input9", subsystem: "input",
            name: "Accel", action: "add")
        let node = UdevDevice(
            sysfsPath: "/sys/devices/virtual/input/input9/event5", sysname: "event5",
            subsystem: "input", devicePath: "/dev/input/event5", name: "Accel", action: "remove")
        #expect(tracker.handle(node) == .gone(device: "/dev/input/event5"))
        #expect(tracker.handle(parent) == nil, "the parent has no node to open")
        var added = node
        added.action = "add"
        #expect(tracker.handle(added) == .back(device: "/dev/input/event5"))
    }

    @Test func anyNewDeviceIsReportedWhileNoneIsInUse() {
        var tracker = HotplugTracker(waitingForAnyDevice: ())
        let controller = UdevDevice(
            sysfsPath: "/sys/devices/usb1/input30/event30", sysname: "event30", subsystem: "input",
            devicePath: "/dev/input/event30",
            name: "Sony Interactive Entertainment DualSense Wireless Controller "
                + "Motion Sensors", action: "add")
        #expect(tracker.handle(controller) == .appeared(device: "/dev/input/event30"))
        var parent = controller
        parent.sysname = "input30"
        parent.devicePath = nil
        #expect(tracker.handle(parent) == nil, "no node to open")
        var removed = controller
        removed.action = "remove"
        #expect(tracker.handle(removed) == nil)
        let iio = UdevDevice(
            sysfsPath: "/sys/devices/i2c/iio:device1", sysname: "iio:device1", subsystem: "iio", action: "add")
        #expect(tracker.handle(iio) == .appeared(device: "/dev/iio:device1"))
    }

    @Test func anotherDeviceCountsOnlyWhileTheOneInUseIsGone() {
        var tracker = HotplugTracker(
            watching: SourceInfo(driver: "evdev", devicePath: "/dev/input/event5", deviceName: "Accel"),
            reportsNewDevices: true)
        let other = UdevDevice(
            sysfsPath: "/sys/devices/x/input8/event8", sysname: "event8", subsystem: "input",
            devicePath: "/dev/input/event8", name: "Other", action: "add")
        #expect(tracker.handle(other) == nil, "the sensor in use is still there")
        tracker.markGone()
        #expect(tracker.handle(other) == .appeared(device: "/dev/input/event8"))
    }

    @Test func markGoneLetsTheNextAddReportBack() {
        var tracker = HotplugTracker(
            watching: SourceInfo(driver: "iio-buffer", devicePath: "/dev/iio:device0", deviceName: "lis3dh"))
        tracker.markGone()
        let added = UdevDevice(
            sysfsPath: "/sys/devices/x/iio:device0", sysname: "iio:device0", subsystem: "iio", name: "lis3dh",
            action: "add")
        #expect(tracker.handle(added) == .back(device: "/dev/iio:device0"))
    }
}
