import Glibc

/// The process's standard output and error, written with write(2).
///
/// Foundation's `FileHandle.write(_:)` traps when its descriptor cannot be written: a standard error closed by the
/// caller (`2>&-`), a full disk behind a redirection, a journal's socket gone while journald restarts. These write
/// what they can and tell what stopped them.
public enum StandardStreams {
    /// Writes all of `text` to `descriptor`, again after an interrupted call; the `errno` that stopped it (`EPIPE`
    /// when the reader went away, `ENOSPC`, `EBADF`), or `nil` when all of it was written.
    @discardableResult
    public static func write(_ text: String, to descriptor: Int32) -> Int32? {
        FileAccess.writeAll(text, to: descriptor)
    }

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
        write(text, to: STDERR_FILENO)
    }

    /// Writes `text` to standard output; the `errno` that stopped it, or `nil`.
    @discardableResult
    public static func writeOutput(_ text: String) -> Int32? {
        write(text, to: STDOUT_FILENO)
    }
}
