import Foundation

/// How one channel's value is laid out in an IIO buffer scan, as the kernel reports in `scan_elements/*_type`.
///
/// The text is `[be|le]:[s|u]BITS/STORAGE[XREPEAT]>>SHIFT`, e.g. `le:s16/32>>0` (a signed 16-bit value
/// in 32 bits of storage) or `be:s12/16>>4` (a signed 12-bit value in the top of a big-endian 16-bit word).
/// ``decode(_:)`` turns the stored bytes into the raw value: read `STORAGE` bits in the given byte order,
/// shift right by `SHIFT`, keep the low `BITS` bits and sign-extend them when signed.
public struct IIOScanFormat: Sendable, Hashable, CustomStringConvertible {
    /// Whether the stored word is big-endian.
    public var isBigEndian: Bool
    /// Whether the value is two's-complement signed.
    public var isSigned: Bool
    /// Significant bits of the value (1…64).
    public var bits: Int
    /// Bits of storage per value: 8, 16, 32 or 64.
    public var storageBits: Int
    /// Right shift applied to the stored word before masking.
    public var shift: Int
    /// How many values of this layout follow each other (1 unless the kernel says `X…`).
    public var repeatCount: Int

    /// Creates a layout; `nil` when the sizes are impossible.
    public init?(isBigEndian: Bool, isSigned: Bool, bits: Int, storageBits: Int, shift: Int, repeatCount: Int = 1) {
        guard [8, 16, 32, 64].contains(storageBits), (1...storageBits).contains(bits), shift >= 0,
            bits + shift <= storageBits, repeatCount >= 1
        else { return nil }
        self.isBigEndian = isBigEndian
        self.isSigned = isSigned
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// Parses the kernel's text, e.g. `le:s16/32>>0`; `nil` when it is not in that form.
    public init?(parsing text: String) {
        let text = text.trimmingWhitespace()
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0] == "le" || parts[0] == "be" else { return nil }
        var rest = Substring(parts[1])
        guard let sign = rest.first, sign == "s" || sign == "u" else { return nil }
        rest = rest.dropFirst()
        guard let slash = rest.firstIndex(of: "/"), let bits = Int(rest[..<slash]) else { return nil }
        rest = rest[rest.index(after: slash)...]
        guard let shiftMark = rest.range(of: ">>"), let shift = Int(rest[shiftMark.upperBound...]) else { return nil }
        let storageText = rest[..<shiftMark.lowerBound]
        var storage: Int
        var repeatCount = 1
        if let x = storageText.firstIndex(of: "X") {
            guard let s = Int(storageText[..<x]), let r = Int(storageText[storageText.index(after: x)...]) else {
                return nil
            }
            storage = s
            repeatCount = r
        } else {
            guard let s = Int(storageText) else { return nil }
            storage = s
        }
        self.init(
            isBigEndian: parts[0] == "be", isSigned: sign == "s", bits: bits, storageBits: storage, shift: shift,
            repeatCount: repeatCount)
    }

    /// Bytes one value occupies in a scan.
    public var storageBytes: Int { storageBits / 8 }

    /// Decodes one value from the first ``storageBytes`` bytes of `bytes`.
    public func decode(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        precondition(bytes.count >= storageBytes, "a scan value needs \(storageBytes) bytes")
        var word: UInt64 = 0
        for index in 0..<storageBytes {
            let byte = UInt64(bytes[isBigEndian ? index : storageBytes - 1 - index])
            word = word << 8 | byte
        }
        word >>= UInt64(shift)
        if bits < 64 { word &= (UInt64(1) << UInt64(bits)) - 1 }
        guard isSigned, bits < 64 else { return Int64(bitPattern: word) }
        let signBit = UInt64(1) << UInt64(bits - 1)
        return word & signBit != 0 ? Int64(bitPattern: word | ~((signBit << 1) &- 1)) : Int64(word)
    }

    /// Decodes one value from an array of bytes starting at `offset`.
    public func decode(_ bytes: [UInt8], at offset: Int = 0) -> Int64 {
        bytes.withUnsafeBytes { decode(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
    }

    /// The kernel's text for this layout.
    public var description: String {
        let repeatText = repeatCount > 1 ? "X\(repeatCount)" : ""
        return "\(isBigEndian ? "be" : "le"):\(isSigned ? "s" : "u")\(bits)/\(storageBits)\(repeatText)>>\(shift)"
    }
}
