import Varlink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A socket folder in a place anyone can write, such as `/tmp/shaky-UID`: whoever creates it first owns it,
/// so the daemon creates it private (0700) and both the daemon and the client refuse it unless it is a real
/// folder (not a link) owned by this user that nobody else may enter.
public enum PrivateSocketDirectory {
    /// Creates the folder at `path` with mode 0700 when it is missing, then checks it with ``verify(_:)``.
    public static func create(_ path: String) throws(VarlinkSocketPathError) {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw VarlinkSocketPathError(
                path: path, reason: "cannot create the folder: \(String(cString: strerror(errno)))")
        }
        try verify(path)
    }

    /// Checks that `path` is a folder, not a link, owned by this process's effective user, with no access
    /// for its group or others.
    public static func verify(_ path: String) throws(VarlinkSocketPathError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw VarlinkSocketPathError(path: path, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw VarlinkSocketPathError(path: path, reason: "it is not a folder (a link or a file is in the way)")
        }
        guard status.st_uid == geteuid() else {
            throw VarlinkSocketPathError(
                path: path,
                reason: "the folder belongs to uid \(status.st_uid), not to you (uid \(geteuid())); "
                    + "someone else may be listening there: remove it, or set XDG_RUNTIME_DIR or pass --socket")
        }
        guard status.st_mode & 0o077 == 0 else {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw VarlinkSocketPathError(
                path: path, reason: "the folder has mode \(mode); others can reach it: chmod 700 it or remove it")
        }
    }
}
