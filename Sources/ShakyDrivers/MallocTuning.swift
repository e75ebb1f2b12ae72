import CMalloc

/// glibc's malloc settings for a small daemon whose threads mostly wait.
public enum MallocTuning {
    /// The most malloc arenas: glibc gives every thread that meets a locked arena one of its own (up to eight per
    /// core), each keeping what its thread freed; two are plenty for a daemon whose threads mostly wait.
    public static let arenas: Int32 = 2
    /// Freed memory above this many bytes at the top of a heap goes back to the kernel, and blocks this large are
    /// mapped on their own (and unmapped when freed), so a burst of watchers or a big import does not stay resident.
    public static let trimThreshold: Int32 = 256 * 1024

    /// Applies ``arenas`` and ``trimThreshold``; call once, first thing in `main`, before threads allocate.
    ///
    /// A fixed threshold also stops glibc from raising it after each large free, which is what keeps the memory of
    /// a burst resident by default.
    public static func apply() {
        _ = mallopt(M_ARENA_MAX, arenas)
        _ = mallopt(M_TRIM_THRESHOLD, trimThreshold)
        _ = mallopt(M_MMAP_THRESHOLD, trimThreshold)
    }

    /// Gives the free memory inside malloc's heaps back to the kernel (`malloc_trim`): after a burst that is over,
    /// such as many watchers hanging up, whose freed blocks sit between live ones where no threshold reaches them.
    /// Walks every heap, so call it after a burst, not per event.
    public static func releaseFreeMemory() {
        _ = malloc_trim(0)
    }
}
