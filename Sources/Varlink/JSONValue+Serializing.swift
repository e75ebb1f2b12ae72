extension JSONValue {
    /// The compact JSON text of this value as UTF-8, object keys sorted so the output is deterministic.
    ///
    /// The output never contains a NUL byte (NUL in a string is written `\u0000`), so it can be framed
    /// by NUL as Varlink requires. Non-finite doubles, which JSON cannot express, are written `null`.
    public func serializedBytes() -> [UInt8] {
        var writer = JSONWriter()
        writeJSON(to: &writer)
        return writer.bytes
    }

    /// The compact JSON text of this value, object keys sorted.
    public var serialized: String {
        String(decoding: serializedBytes(), as: UTF8.self)
    }
}
