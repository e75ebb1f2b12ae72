import Foundation
import ShakyCore
import SystemCalls

/// Writes a trace: metadata comments, the header, then one line per sample.
///
/// Numbers are written in their shortest exact form, so reading the file back gives the same samples bit for bit.
public final class TraceWriter {
    /// The file's descriptor; -1 once closed.
    private var descriptor: Int32
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
        self.descriptor = descriptor
        for (key, value) in metadata.entries {
            pending += "# \(key): \(value)\n"
        }
        pending += TraceFormat.header + "\n"
    }

    deinit {
        try? close()
    }

    /// Appends one sample.
    public func write(_ sample: AccelSample) throws {
        pending += "\(sample.timestamp),\(sample.x),\(sample.y),\(sample.z)\n"
        if pending.utf8.count >= 64 * 1024 { try flush() }
    }

    /// Writes buffered lines to the file.
    ///
    /// - Throws: ``TraceFormatError`` saying why the file cannot be written ("the disk is full").
    public func flush() throws {
        guard !pending.isEmpty, descriptor >= 0 else { return }
        defer { pending = "" }
        if let code = FileAccess.writeAll(pending, to: descriptor) { throw failure(errno: code) }
    }

    /// Flushes and closes the file; a second call does nothing.
    ///
    /// - Throws: ``TraceFormatError`` when the last lines cannot be written, or the file system reports a failure
    ///   at closing (a full disk that accepted the writes into its cache): what was recorded is then not all there.
    public func close() throws {
        guard descriptor >= 0 else { return }
        defer { descriptor = -1 }
        do {
            try flush()
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        if Glibc.close(descriptor) != 0, errno != EINTR { throw failure(errno: errno) }
    }

    private func failure(errno code: Int32) -> TraceFormatError {
        TraceFormatError(file: path, line: 0, problem: "cannot write the file: \(FileAccessError.reason(errno: code))")
    }
}
