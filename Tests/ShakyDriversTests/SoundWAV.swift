import Foundation
import ShakyTesting

/// A minimal WAV reader and writer for tests, independent of libsndfile, so decoded cues can be checked.
enum SoundWAV {
    struct Parsed {
        var sampleRate: Int
        var channels: Int
        var bitsPerSample: Int
        var samples: [Int16]
    }

    enum Failure: Error, CustomStringConvertible {
        case notWAV(String)
        var description: String {
            switch self {
            case .notWAV(let why): "not a 16-bit PCM WAV: \(why)"
            }
        }
    }

    /// Reads a 16-bit PCM WAV: the `fmt ` and `data` chunks.
    static func read(_ url: URL) throws -> Parsed {
        let data = try Data(contentsOf: url)
        let bytes = [UInt8](data)
        guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF",
            String(decoding: bytes[8..<12], as: UTF8.self) == "WAVE"
        else { throw Failure.notWAV("no RIFF/WAVE header in \(url.path)") }
        var offset = 12
        var format: (rate: Int, channels: Int, bits: Int)?
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(uint32(bytes, offset + 4))
            let body = offset + 8
            if id == "fmt " {
                format = (Int(uint32(bytes, body + 4)), Int(uint16(bytes, body + 2)), Int(uint16(bytes, body + 14)))
            } else if id == "data", let format {
                guard format.bits == 16 else { throw Failure.notWAV("\(format.bits) bits in \(url.path)") }
                let end = min(body + size, bytes.count)
                return Parsed(
                    sampleRate: format.rate, channels: format.channels, bitsPerSample: format.bits,
                    samples: int16LittleEndian(Data(bytes[body..<end])))
            }
            offset = body + size + (size & 1)
        }
        throw Failure.notWAV("no data chunk in \(url.path)")
    }

    /// Writes a 16-bit PCM WAV with interleaved `samples`.
    static func write(_ samples: [Int16], sampleRate: Int = 48_000, channels: Int = 1, to url: URL) throws {
        var data = header(
            formatTag: 1, channels: channels, bitsPerSample: 16, sampleRate: sampleRate,
            frames: samples.count / channels)
        for sample in samples { withUnsafeBytes(of: sample.littleEndian) { data.append(contentsOf: $0) } }
        try data.write(to: url)
    }

    /// Writes a mono 32-bit IEEE float WAV (format tag 3), as many editors export by default.
    static func writeFloat(_ samples: [Float], sampleRate: Int = 48_000, to url: URL) throws {
        var data = header(formatTag: 3, channels: 1, bitsPerSample: 32, sampleRate: sampleRate, frames: samples.count)
        for sample in samples { withUnsafeBytes(of: sample.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        try data.write(to: url)
    }

    /// A WAV file's RIFF, `fmt ` and `data` headers for `frames` frames of the format given; the samples follow.
    private static func header(formatTag: Int, channels: Int, bitsPerSample: Int, sampleRate: Int, frames: Int) -> Data
    {
        var data = Data()
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { data.append(contentsOf: $0) } }
        let frameBytes = channels * bitsPerSample / 8
        data.append(contentsOf: Array("RIFF".utf8))
        append32(36 + frames * frameBytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append32(16)
        append16(formatTag)
        append16(channels)
        append32(sampleRate)
        append32(sampleRate * frameBytes)
        append16(frameBytes)
        append16(bitsPerSample)
        data.append(contentsOf: Array("data".utf8))
        append32(frames * frameBytes)
        return data
    }

    /// Little-endian 16-bit samples from raw bytes.
    static func int16LittleEndian(_ data: Data) -> [Int16] {
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
    }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    private static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    /// The built-in sound folder of the checkout.
    static var builtinFolder: URL {
        BuiltProduct.checkout.appendingPathComponent("sounds")
    }
}
