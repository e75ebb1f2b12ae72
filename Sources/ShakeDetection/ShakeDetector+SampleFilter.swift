import ShakyCore

extension ShakeDetector {
    /// A filter for a reader thread that runs this detector: it keeps the samples the detector fires at, and tells
    /// the reader the earliest time it could fire at (``firesNoSoonerThan``), before which nothing can be kept.
    public func sampleFilter() -> SampleFilter {
        var detector = self
        return { sample in
            let fired = detector.process(sample) != nil
            return SampleVerdict(isKept: fired, keepsNoneBefore: detector.firesNoSoonerThan)
        }
    }
}
