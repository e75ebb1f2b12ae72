/// How far a save has gone when the call that makes it returns.
///
/// The database is in write-ahead-log mode, and its writer syncs the log as each transaction commits
/// (`synchronous = FULL`): what a call wrote is on the disk when it returns, and survives a power cut. A save
/// made ``written`` skips that sync (`synchronous = NORMAL` for that commit): it survives the daemon's crash or
/// `kill -9` at once, and reaches the disk with the next synced commit (whose sync takes every commit before it)
/// or the kernel's own write-back (`vm.dirty_expire_centisecs`: 30 s by default) at the latest.
public enum SaveDurability: Sendable, Equatable {
    /// On the disk when the call returns: the log is synced (`fdatasync`) as the transaction commits.
    case disk
    /// Written to the log when the call returns, on the disk with the next ``disk`` save or the kernel's
    /// write-back: a power cut before then loses it, a crash does not.
    case written
}
