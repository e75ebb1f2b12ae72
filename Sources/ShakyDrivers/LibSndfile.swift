import CSndfile

/// libsndfile (`libsndfile.so.1`), loaded the first time a sound file is decoded: the functions ``SoundBank``
/// calls.
///
/// It is not linked, so a daemon with no sound device (`--sound-device none`) never maps libsndfile nor the codecs
/// it brings (FLAC, Vorbis, Opus, mpg123, LAME). The functions are typed from `sndfile.h` (the `CSndfile` shim),
/// so each call is checked against the C signature as a linked call would be.
struct LibSndfile: @unchecked Sendable {  // Immutable addresses of functions that may be called from any thread.
    /// The library and the package that installs it.
    static let name = SharedLibraryName(soname: "libsndfile.so.1", package: "libsndfile1")

    /// The process's libsndfile, loaded at its first use; the same error every time when it cannot be.
    static let shared = Result { () throws(SharedLibraryError) in try LibSndfile(name) }

    /// Every libsndfile function the project calls.
    let functions: shaky_sndfile_functions

    /// Loads `library` (the tests name libraries that are not libsndfile, or not there).
    init(_ library: SharedLibraryName) throws(SharedLibraryError) {
        functions = try SharedLibrary.load(library) { handle, table in shaky_sndfile_resolve(handle, table) }
    }
}
