import Foundation
import ShakyCore

/// Writes a trace: metadata comments, the header, then one line per sample.
///
/// Numbers are written in their shortest exact form, so reading the file back gives the same samples bit for bit.
public final class TraceWriter {
    private let handle: FileHandle
    private var pending = ""
    /// The path written to.
    public let path: String

    /// Creates (or truncates) `path` and writes the metadata and header.
    public init(path: String, metadata: TraceMetadata = TraceMetadata()) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw TraceFormatError(file: path, line: 0, problem: "cannot create the file")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw TraceFormatError(file: path, line: 0, problem: "cannot open for writing")
        }
        self.handle = handle
        for (key, value) in metadata.entries {
            pending += "# \(key): \(value)\n"
        }
        pending += TraceFormat.header + "\n"
    }

    deinit {
        try? flush()
        try? handle.close()
    }

    /// Appends one sample.
    public func write(_ sample: AccelSample) throws {
        pending += "\(sample.timestamp),\(sample.x),\(sample.y),\(sample.z)\n"
        if pending.utf8.count >= 64 * 1024 { try flush() }
    }

    /// Writes buffered lines to the file.
    public func flush() throws {
        guard !pending.isEmpty else { return }
        try handle.write(contentsOf: Data(pending.utf8))
        pending = ""
    }

    /// Flushes and closes the file.
    public func close() throws {
        try flush()
        try handle.close()
    }
}
