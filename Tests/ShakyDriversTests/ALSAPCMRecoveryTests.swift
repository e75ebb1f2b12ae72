import Foundation
import Testing

@testable import ShakyDrivers

/// The recovery the output thread applies when `snd_pcm_writei` fails, on a real alsa-lib PCM (the `file` plugin).
/// Its null slave never underruns by itself, so the test stops the PCM, which then refuses frames as after an
/// underrun, and hands the error to ``ALSAPCM/recover(from:)`` as the output thread would.
@Suite("ALSA PCM recovery")
struct ALSAPCMRecoveryTests {
    private func write(_ frames: [Int16], to pcm: ALSAPCM) throws -> Int {
        try frames.withUnsafeBufferPointer { buffer throws(DeviceError) in try pcm.write(buffer) }
    }

    @Test("after an underrun is recovered, the next frames play")
    func recoveredPCMPlaysOn() throws {
        let device = try ALSACaptureDevices.claim()
        let before = (0..<480).map { Int16($0 * 50) }
        let after = (0..<480).map { Int16(-$0 * 50) }
        do {
            let pcm = try ALSAPCM(name: device.name, periodFrames: 240, bufferFrames: 960)
            try pcm.prepare()
            #expect(try write(before, to: pcm) == before.count)
            try pcm.drop()
            #expect(throws: DeviceError.self) { try write(after, to: pcm) }
            try pcm.recover(from: DeviceError(device: device.name, operation: "write", code: EPIPE))
            #expect(try write(after, to: pcm) == after.count)
        }
        #expect(try device.frames() == before + after)
    }

    @Test("underruns, suspends and interruptions are recoverable; any other error is reported as it is")
    func onlyTransientErrorsAreRecovered() throws {
        let device = try ALSACaptureDevices.claim()
        let pcm = try ALSAPCM(name: device.name, periodFrames: 240, bufferFrames: 960)
        try pcm.prepare()
        for code in [EPIPE, ESTRPIPE, EINTR] {
            let failure = DeviceError(device: device.name, operation: "write", code: code)
            #expect(ALSAPCM.isRecoverable(failure))
            try pcm.recover(from: failure)
        }
        for code in [EIO, ENODEV, EBADFD] {
            let failure = DeviceError(device: device.name, operation: "write", code: code)
            #expect(!ALSAPCM.isRecoverable(failure))
            let error = #expect(throws: DeviceError.self) { try pcm.recover(from: failure) }
            #expect(error?.code == code)
        }
    }
}

@Suite struct ALSAOpenAdviceTests {
    @Test func aMissingSoundDeviceIsAnsweredWithAplay() {
        #expect {
            try ALSAPCM(name: "hw:CARD=NoSuchCard,DEV=0", periodFrames: 240, bufferFrames: 960)
        } throws: { error in
            let text = "\(error)"
            return text.contains("aplay -L") && !text.contains("list-devices")
        }
    }

    @Test func aCardNumberALSACannotHaveIsAnsweredWithAplayToo() {
        // alsa-lib answers a card index past its last (31) with EINVAL, not ENOENT.
        #expect {
            try ALSAPCM(name: "hw:99", periodFrames: 240, bufferFrames: 960)
        } throws: { error in
            "\(error)".contains("aplay -L")
        }
    }
}
