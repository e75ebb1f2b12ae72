import CIIO

/// libiio (`libiio.so.0`), loaded the first time an IIO device is looked for: the functions the IIO drivers call.
///
/// It is not linked, so a daemon that reads evdev or a trace never maps libiio nor what it brings (libxml2,
/// libusb, avahi, D-Bus). The functions are typed from `iio.h` (the `CIIO` shim), so each call is checked against
/// the C signature as a linked call would be.
struct LibIIO: @unchecked Sendable {  // Immutable addresses of functions that may be called from any thread.
    /// The library and the package that installs it.
    static let name = SharedLibraryName(soname: "libiio.so.0", package: "libiio0")

    /// The process's libiio, loaded at its first use; the same error every time when it cannot be.
    static let shared = Result { () throws(SharedLibraryError) in try LibIIO(name) }

    /// Every libiio function the project calls.
    let functions: shaky_iio_functions

    /// Loads `library` (the tests name libraries that are not libiio, or not there).
    init(_ library: SharedLibraryName) throws(SharedLibraryError) {
        functions = try SharedLibrary.load(library) { handle, table in shaky_iio_resolve(handle, table) }
    }
}
