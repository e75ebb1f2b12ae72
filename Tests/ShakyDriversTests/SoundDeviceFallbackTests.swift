import Foundation
import ShakyDrivers
import Testing

@Suite("Device fallback order and back-off")
struct SoundDeviceFallbackTests {
    @Test("configured first, then the fallbacks, without repeats")
    func order() {
        #expect(
            SoundDeviceFallback(device: "hw:1", fallbacks: ["default"], retryInterval: .seconds(10)).devices == [
                "hw:1", "default",
            ])
        #expect(
            SoundDeviceFallback(device: "default", fallbacks: ["default"], retryInterval: .seconds(10)).devices == [
                "default"
            ])
    }

    @Test("each failure and the fall to silence are reported once; retry after the interval")
    func reportOnceAndRetry() {
        var fallback = SoundDeviceFallback(device: "a", fallbacks: ["b"], retryInterval: .seconds(10))
        let missing = DeviceError(device: "a", operation: "open", code: ENOENT)
        let busy = DeviceError(device: "b", operation: "open", code: EBUSY)
        #expect(fallback.mayTry(at: .zero))
        let firstMissing = fallback.recordFailure(missing)
        #expect(firstMissing)
        let firstBusy = fallback.recordFailure(busy)
        #expect(firstBusy)
        let firstSilence = fallback.recordAllFailed(at: .seconds(1))
        #expect(firstSilence)
        #expect(!fallback.mayTry(at: .seconds(10.999)))
        #expect(fallback.mayTry(at: .seconds(11)))
        let repeatedMissing = fallback.recordFailure(missing)
        #expect(!repeatedMissing)
        let repeatedBusy = fallback.recordFailure(busy)
        #expect(!repeatedBusy)
        let repeatedSilence = fallback.recordAllFailed(at: .seconds(11))
        #expect(!repeatedSilence)
        #expect(!fallback.mayTry(at: .seconds(12)))
        _ = fallback.recordOpened("a", at: .seconds(12))
        #expect(fallback.mayTry(at: .seconds(12)))
        let missingWhileUnproven = fallback.recordFailure(missing)
        #expect(!missingWhileUnproven, "an open device that has not played yet proves nothing")
        fallback.recordPlayed()
        let missingAfterPlaying = fallback.recordFailure(missing)
        #expect(missingAfterPlaying)
    }

    @Test("a device lost after it played may be replaced at once")
    func lostDevice() {
        var fallback = SoundDeviceFallback(device: "a", fallbacks: [], retryInterval: .seconds(10))
        _ = fallback.recordAllFailed(at: .seconds(5))
        _ = fallback.recordOpened("a", at: .seconds(5))
        fallback.recordPlayed()
        fallback.recordLost(at: .seconds(6))
        #expect(fallback.mayTry(at: .seconds(6)))
    }

    @Test("on a fallback, the devices before it are tried again every interval, quietly; the preferred one stays")
    func preferredDeviceTriedAgain() {
        var fallback = SoundDeviceFallback(device: "usb", fallbacks: ["default"], retryInterval: .seconds(10))
        let missing = DeviceError(device: "usb", operation: "open", code: ENOENT)
        let reported = fallback.recordFailure(missing)
        #expect(reported)
        let announced = fallback.recordOpened("default", at: .seconds(1))
        #expect(announced)
        fallback.recordPlayed()
        #expect(!fallback.shouldTryPreferred(at: .seconds(10.999)))
        #expect(fallback.shouldTryPreferred(at: .seconds(11)))
        // Left and tried again: the preferred device still fails, the same way: not logged, not announced.
        fallback.recordClosed()
        #expect(!fallback.shouldTryPreferred(at: .seconds(12)))
        let reportedAgain = fallback.recordFailure(missing)
        #expect(!reportedAgain)
        let reannounced = fallback.recordOpened("default", at: .seconds(12))
        #expect(!reannounced)
        fallback.recordPlayed()
        #expect(!fallback.shouldTryPreferred(at: .seconds(21.999)))
        #expect(fallback.shouldTryPreferred(at: .seconds(22)))
        // Back: the preferred device is announced and kept.
        fallback.recordClosed()
        let preferred = fallback.recordOpened("usb", at: .seconds(23))
        #expect(preferred)
        fallback.recordPlayed()
        #expect(!fallback.shouldTryPreferred(at: .seconds(1000)))
    }

    @Test("a device that breaks before it played waits out the interval, and its reopening is not announced")
    func deviceFailingEveryWrite() {
        var fallback = SoundDeviceFallback(device: "a", fallbacks: [], retryInterval: .seconds(10))
        let announced = fallback.recordOpened("a", at: .zero)
        #expect(announced)
        let writeFailed = DeviceError(device: "a", operation: "write", code: EIO)
        let first = fallback.recordFailure(writeFailed)
        #expect(first)
        fallback.recordLost(at: .seconds(1))
        #expect(!fallback.mayTry(at: .seconds(10.999)))
        #expect(fallback.mayTry(at: .seconds(11)))
        let reannounced = fallback.recordOpened("a", at: .seconds(11))
        #expect(!reannounced)
        let again = fallback.recordFailure(writeFailed)
        #expect(!again)
        fallback.recordLost(at: .seconds(11))
        #expect(!fallback.mayTry(at: .seconds(20)))
        #expect(fallback.mayTry(at: .seconds(21)))
    }
}
