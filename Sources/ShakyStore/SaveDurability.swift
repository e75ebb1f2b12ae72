/// How far a game's save has gone when the call that saves it returns.
///
/// The database is in write-ahead-log mode with `synchronous = NORMAL`: a commit is written to the log, which
/// survives the daemon's crash or `kill -9` at once, but reaches the disk only at the log's next checkpoint or
/// with the kernel's own write-back, seconds later. A save that must survive a power cut syncs the log as it
/// commits (`synchronous = FULL` for that commit); that sync also takes every commit before it to the disk.
public enum SaveDurability: Sendable, Equatable {
    /// On the disk when the call returns: the log is synced (`fdatasync`) as the transaction commits.
    case disk
    /// Written to the log when the call returns, on the disk with the next ``disk`` save or the kernel's
    /// write-back: a power cut before then loses it, a crash does not.
    case written
}
