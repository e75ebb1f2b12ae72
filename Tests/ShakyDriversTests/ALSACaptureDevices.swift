import Foundation
import ShakyTesting
import Synchronization
import Testing

/// PCMs that capture what is played into files, through alsa-lib's `file` plugin with a `null` slave.
///
/// One ALSA configuration per test process: it includes `/usr/share/alsa/alsa.conf`, then defines
/// `shakycapture0`…`shakycapture31` and overrides `default`, each writing raw S16_LE frames to its own file.
/// `ALSA_CONFIG_PATH` is set once, before the first ALSA call of the process (alsa-lib reads its configuration on
/// the first `snd_pcm_open`), and never changed, so parallel tests share it safely: each claims its own PCM.
enum ALSACaptureDevices {
    /// One capture PCM and the file it writes.
    struct Device {
        /// The ALSA PCM name.
        var name: String
        /// The raw capture file (S16_LE mono frames, no header).
        var file: URL

        /// The captured frames; empty when nothing was written.
        func frames() throws -> [Int16] {
            guard FileManager.default.fileExists(atPath: file.path) else { return [] }
            return SoundWAV.int16LittleEndian(try Data(contentsOf: file))
        }
    }

    static let slotCount = 32
    private static let nextSlot = Atomic<Int>(0)

    /// Where the folder is: one per test process.
    private static let folderPath = FileManager.default.temporaryDirectory.appendingPathComponent(
        "shaky-alsa-capture-\(getpid())", isDirectory: true)

    /// The folder holding the configuration and the capture files, made on first use and removed when the test
    /// process exits.
    static let folder: URL = {
        let folder = folderPath
        try? FileManager.default.removeItem(at: folder)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try configurationText(in: folder, withLateDevice: false).write(
                to: folder.appendingPathComponent("asound.conf"), atomically: true, encoding: .utf8)
        } catch {
            fatalError("cannot make the ALSA capture folder \(folder.path): \(error)")
        }
        mkfifo(folder.appendingPathComponent(stuckDeviceFile).path, 0o600)
        setenv("ALSA_CONFIG_PATH", folder.appendingPathComponent("asound.conf").path, 1)
        atexit { try? FileManager.default.removeItem(at: ALSACaptureDevices.folderPath) }
        return folder
    }()

    private static func configurationText(in folder: URL, withLateDevice: Bool) -> String {
        var text = "</usr/share/alsa/alsa.conf>\n"
        for slot in 0..<slotCount {
            text += pcmDefinition(
                name: "shakycapture\(slot)", file: folder.appendingPathComponent("capture\(slot).raw"))
        }
        text += pcmDefinition(name: "!default", file: folder.appendingPathComponent("default.raw"))
        text += pcmDefinition(name: failingDeviceName, file: URL(fileURLWithPath: "/dev/full"))
        text += pcmDefinition(name: stuckDeviceName, file: folder.appendingPathComponent(stuckDeviceFile))
        if withLateDevice { text += pcmDefinition(name: lateDevice.name, file: lateDevice.file) }
        return text
    }

    private static func pcmDefinition(name: String, file: URL) -> String {
        ALSAFilePCM.definition(name: name, capturePath: file.path)
    }

    /// Claims a capture PCM of its own for one test; fails the test when alsa-lib's configuration is missing.
    static func claim(sourceLocation: SourceLocation = #_sourceLocation) throws -> Device {
        try #require(
            FileManager.default.fileExists(atPath: "/usr/share/alsa/alsa.conf"),
            "alsa-lib's /usr/share/alsa/alsa.conf is missing: install libasound2 (make setup)",
            sourceLocation: sourceLocation)
        let slot = nextSlot.add(1, ordering: .relaxed).oldValue
        try #require(slot < slotCount, "more than \(slotCount) capture PCMs claimed", sourceLocation: sourceLocation)
        return Device(name: "shakycapture\(slot)", file: folder.appendingPathComponent("capture\(slot).raw"))
    }

    private static let failingDeviceName = "shakyfull"

    /// A PCM that opens but fails on every write once alsa-lib flushes its file (`/dev/full`: ENOSPC, which the
    /// plugin reports as EIO); it captures nothing, so any number of tests may use it.
    static var failingDevice: String {
        _ = folder
        return failingDeviceName
    }

    private static let stuckDeviceName = "shakystuck"
    private static let stuckDeviceFile = "stuck.fifo"

    /// A PCM that never answers: alsa-lib's `file` plugin opening a named pipe that nothing reads blocks until a
    /// reader comes (``releaseStuckDevice()``); only one test may use it.
    static var stuckDevice: String {
        _ = folder
        return stuckDeviceName
    }

    /// Opens the named pipe behind ``stuckDevice`` for reading, which lets its open return; close the descriptor
    /// once the player using it has stopped.
    static func releaseStuckDevice() -> Int32 {
        open(folder.appendingPathComponent(stuckDeviceFile).path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    }

    /// A PCM that the configuration does not define until ``plugInLateDevice()``, so that opening it fails until
    /// then, as a USB speaker not there yet does; only one test may use it.
    static var lateDevice: Device {
        Device(name: "shakylate", file: folder.appendingPathComponent("late.raw"))
    }

    /// Defines ``lateDevice`` from now on: the configuration is written again with it (alsa-lib reads a changed
    /// configuration file again at the next open; every other PCM stays as it was).
    static func plugInLateDevice() throws {
        try configurationText(in: folder, withLateDevice: true).write(
            to: folder.appendingPathComponent("asound.conf"), atomically: true, encoding: .utf8)
    }

    /// The PCM that the test configuration makes `default`; only one test may use it.
    static var defaultDevice: Device {
        Device(name: "default", file: folder.appendingPathComponent("default.raw"))
    }
}
