import Glibc

/// The process's standard output and error, written with write(2).
///
/// Foundation's `FileHandle.write(_:)` traps when its descriptor cannot be written: a standard error closed by the
/// caller (`2>&-`), a full disk behind a redirection, a journal's socket gone while journald restarts. These write
/// what they can and tell what stopped them.
public enum StandardStreams {
    /// Puts a placeholder in place of each of standard input, output and error that the program was started without
    /// (`shakyd 2>&-`): `/dev/null`, opened so that using it fails as a closed descriptor does (EBADF: standard input
    /// write-only, output and error read-only). Without it the first file or socket the program opens takes the
    /// free number, and what is written to standard error (the log) would go into that file or socket. Call it first.
    public static func holdClosedDescriptors() {
        for descriptor in STDIN_FILENO...STDERR_FILENO where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let placeholder = open("/dev/null", (descriptor == STDIN_FILENO ? O_WRONLY : O_RDONLY) | O_NOCTTY)
            // The lowest free number is this one, as the lower ones are open by now.
            if placeholder >= 0, placeholder != descriptor {
                dup2(placeholder, descriptor)
                close(placeholder)
            }
        }
    }

    /// Writes `text` to standard error. A failure is lost: there is nowhere left to say it.
    public static func writeError(_ text: String) {
        _ = FileAccess.writeAll(text, to: STDERR_FILENO)
    }

    /// Writes `text` to standard output; the `errno` that stopped it, or `nil`.
    @discardableResult
    public static func writeOutput(_ text: String) -> Int32? {
        FileAccess.writeAll(text, to: STDOUT_FILENO)
    }

    /// What `program` says on standard error when standard output could not be written (`errno` `code`): what was
    /// to be written is lost, which a script must hear of. `nil` for `EPIPE`: the reader went away (`| head`), and
    /// the program ends quietly.
    public static func outputLost(errno code: Int32, by program: String) -> String? {
        guard code != EPIPE else { return nil }
        return "\(program): cannot write to standard output: \(FileAccessError.reason(errno: code)); what was to be "
            + "written is lost\n"
    }
}
