import Foundation
import ShakyCore
import SystemCalls

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
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            let folder = (path as NSString).deletingLastPathComponent
            let reason =
                code == ENOENT ? "there is no folder \(folder)" : FileAccessError.reason(errno: code)
            throw TraceFormatError(file: path, line: 0, problem: "cannot create the file: \(reason)")
        }
        self.handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
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
