import Foundation
import ShakyCore
import Testing

@testable import ShakyDrivers

/// libiio and libsndfile are loaded at first need, by SONAME; a library that is missing or is not the one expected
/// is a typed error that says what to install.
@Suite("Loading libiio and libsndfile at first need")
struct SharedLibraryTests {
    @Test("libiio and libsndfile load by their SONAME, with every function the drivers call")
    func installedLibrariesLoad() throws {
        #expect(LibIIO.name.soname == "libiio.so.0")
        #expect(LibSndfile.name.soname == "libsndfile.so.1")
        _ = try LibIIO.shared.get()
        let sndfile = try LibSndfile.shared.get()
        // A resolved function answers as the library does: no file opened yet, no error.
        #expect(sndfile.functions.sf_strerror(nil).map { String(cString: $0) }?.isEmpty == false)
    }

    @Test("a SONAME that is not installed is refused with the package to install")
    func missingLibrary() {
        let name = SharedLibraryName(soname: "libshaky-not-installed.so.0", package: "libiio0")
        #expect(throws: SharedLibraryError(library: name, problem: .notInstalled)) { try LibIIO(name) }
        let error = SharedLibraryError(library: name, problem: .notInstalled)
        #expect(error.description == "libshaky-not-installed.so.0 is not installed: apt install libiio0")
    }

    @Test("a library without a function the drivers call is refused, naming the function")
    func wrongLibrary() {
        // libsndfile is installed but has none of libiio's functions: the first one in the table is named.
        let impostor = SharedLibraryName(soname: "libsndfile.so.1", package: "libiio0")
        #expect(throws: SharedLibraryError(library: impostor, problem: .missingFunction("iio_create_local_context"))) {
            try LibIIO(impostor)
        }
        let other = SharedLibraryName(soname: "libiio.so.0", package: "libsndfile1")
        do {
            _ = try LibSndfile(other)
            Issue.record("libiio was taken for libsndfile")
        } catch {
            #expect(error.problem == .missingFunction("sf_open"))
            #expect(
                error.description
                    == "libiio.so.0 has no function sf_open, so it is not the version shakyd was built for: "
                    + "apt install libsndfile1")
        }
    }

    @Test("a file that is not a library is refused with the loader's words")
    func unloadableFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("libshaky-\(UUID().uuidString).so")
        try Data("not an ELF file".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let name = SharedLibraryName(soname: file.path, package: "libiio0")
        do {
            _ = try LibIIO(name)
            Issue.record("a text file loaded as libiio")
        } catch {
            guard case .unloadable(let reason) = error.problem else {
                Issue.record("\(error.problem)")
                return
            }
            #expect(reason.contains(file.path))
            #expect(error.description.hasSuffix("apt install --reinstall libiio0"))
        }
    }

    @Test("without libsndfile every cue is silent and the one problem says what to install")
    func soundBankWithoutLibsndfile() {
        let log = SoundLogRecorder()
        let missing = SharedLibraryName(soname: "libshaky-not-installed.so.1", package: "libsndfile1")
        let bank = SoundBank.load(
            overrides: nil, builtin: SoundWAV.builtinFolder,
            sndfile: Result { () throws(SharedLibraryError) in try LibSndfile(missing) }, logger: log.logger())
        #expect(bank.samples.isEmpty)
        #expect(
            bank.problems.map(\.description) == [
                "every cue: libshaky-not-installed.so.1 is not installed: apt install libsndfile1"
            ])
        #expect(
            log.warnings == [
                "sound cues are silent: libshaky-not-installed.so.1 is not installed: apt install libsndfile1"
            ])
    }
}
