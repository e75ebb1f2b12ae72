import Foundation

/// umockdev read scripts (`umockdev-run -s NODE=FILE`): each chunk of bytes is written to the node's PTY a given
/// number of milliseconds after the previous one.
///
/// The format (umockdev's `docs/script-format.txt`) is raw bytes: a line is `r <delay> <data>`, where bytes below
/// 32 are written `^` + (byte + 64) and `^` itself as ``^` ``; every other byte, a space included, is literal.
/// Because the delay is read with `scanf("%u ")`, a chunk whose data starts with a space would lose that byte, so
/// such a chunk goes at the end of the previous line (it arrives with it, which a reader of whole scans cannot
/// tell apart).
enum UmockdevScript {
    /// The script for `chunks` (delay in milliseconds before each, bytes) on `node`.
    static func encode(node: String, chunks: [(delayMilliseconds: Int, bytes: [UInt8])]) -> Data {
        var lines: [[UInt8]] = []
        for chunk in chunks {
            let escaped = escape(chunk.bytes)
            if chunk.bytes.first == 0x20, !lines.isEmpty {
                lines[lines.count - 1] += escaped
            } else {
                lines.append(Array("r \(chunk.delayMilliseconds) ".utf8) + escaped)
            }
        }
        var script = Data("d 0 \(node)\n".utf8)
        for line in lines {
            script.append(contentsOf: line)
            script.append(UInt8(ascii: "\n"))
        }
        return script
    }

    /// The bytes as they appear in a script line.
    static func escape(_ bytes: [UInt8]) -> [UInt8] {
        var escaped: [UInt8] = []
        for byte in bytes {
            if byte == UInt8(ascii: "^") {
                escaped += [UInt8(ascii: "^"), UInt8(ascii: "`")]
            } else if byte < 32 {
                escaped += [UInt8(ascii: "^"), byte + 64]
            } else {
                escaped.append(byte)
            }
        }
        return escaped
    }
}
