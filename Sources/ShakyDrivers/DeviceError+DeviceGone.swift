import ShakyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension DeviceError {
    /// Whether this errno means the device is no longer there.
    var meansDeviceGone: Bool {
        code == ENODEV || code == ENOENT || code == ENXIO || code == EIO || code == ESHUTDOWN
    }

    /// This error as ``AccelerometerGoneError`` when it means the device is gone; itself otherwise.
    var classified: any Error {
        meansDeviceGone ? AccelerometerGoneError(device: device, reason: "\(operation) failed: \(reason)") : self
    }
}
