/// Text in UTF-16 or UTF-32, which Windows' editors and spreadsheets save as "Unicode", told from its first bytes.
///
/// Such a file is not UTF-8 from its first character on; without a byte order mark, UTF-16 text of the ASCII range
/// even is valid UTF-8, full of zero bytes. Said as what it is, the file's author knows to save it as UTF-8.
public enum WideText {
    /// The encoding of text starting with `bytes` and why it is taken for it ("UTF-16", "it starts with a UTF-16
    /// byte order mark"); `nil` when it is not UTF-16 or UTF-32 by its first bytes.
    public static func encoding(of bytes: some Collection<UInt8>) -> (name: String, sign: String)? {
        let first = Array(bytes.prefix(4))
        if first.starts(with: [0xFF, 0xFE, 0, 0]) || first.starts(with: [0, 0, 0xFE, 0xFF]) {
            return ("UTF-32", "it starts with a UTF-32 byte order mark")
        }
        if first.starts(with: [0xFF, 0xFE]) || first.starts(with: [0xFE, 0xFF]) {
            return ("UTF-16", "it starts with a UTF-16 byte order mark")
        }
        // Without a mark: a first character of the ASCII range is one zero byte beside one that is not, which no
        // UTF-8 text starts with.
        if first.count >= 2, (first[0] == 0) != (first[1] == 0) {
            return ("UTF-16", "every other byte of its first character is zero")
        }
        return nil
    }
}
