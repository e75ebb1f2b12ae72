#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A C library that is loaded at first need rather than linked: its file name for the dynamic loader (the
/// SONAME) and the Debian package that installs it.
public struct SharedLibraryName: Sendable, Equatable, CustomStringConvertible {
    /// The name `dlopen` looks for, e.g. `libiio.so.0`.
    public var soname: String
    /// The Debian package that installs it, e.g. `libiio0`.
    public var package: String

    /// Creates a name.
    public init(soname: String, package: String) {
        self.soname = soname
        self.package = package
    }

    public var description: String { soname }
}

/// A C library that is loaded at first need could not be used, and what the person running shakyd can do.
public struct SharedLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the library cannot be used.
    public enum Problem: Sendable, Equatable {
        /// The dynamic loader finds no file of that name.
        case notInstalled
        /// The file is there but does not load; the loader's words.
        case unloadable(String)
        /// The library lacks a function shakyd calls: it is not the version shakyd was built against.
        case missingFunction(String)
    }

    /// The library.
    public var library: SharedLibraryName
    /// What is wrong.
    public var problem: Problem

    /// Creates an error.
    public init(library: SharedLibraryName, problem: Problem) {
        self.library = library
        self.problem = problem
    }

    public var description: String {
        switch problem {
        case .notInstalled:
            "\(library.soname) is not installed: apt install \(library.package)"
        case .unloadable(let reason):
            "\(library.soname) cannot be loaded (\(reason)): apt install --reinstall \(library.package)"
        case .missingFunction(let function):
            "\(library.soname) has no function \(function), so it is not the version shakyd was built for: "
                + "apt install \(library.package)"
        }
    }
}

/// Loading a C library at first need: `dlopen` by SONAME, then every function the project calls resolved at once
/// into a table the C shim declares from the library's own header, so each call keeps its C signature.
///
/// A library that loads is never closed: the table's functions are used for the rest of the process, and the
/// type that holds the table (``LibIIO``, ``LibSndfile``) is the handle's one owner. A library that lacks a
/// function is closed again and refused as a whole, so no call can reach a missing function.
enum SharedLibrary {
    /// Loads `library` and fills its function table with `resolve`, which returns the name of the first function
    /// missing (the shim's `shaky_…_resolve`).
    static func load<Functions>(
        _ library: SharedLibraryName,
        resolve: (UnsafeMutableRawPointer, UnsafeMutablePointer<Functions>) -> UnsafePointer<CChar>?
    ) throws(SharedLibraryError) -> Functions {
        guard let handle = dlopen(library.soname, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
            // glibc: "NAME: cannot open shared object file: No such file or directory".
            let missing = reason.hasSuffix("No such file or directory")
            throw SharedLibraryError(library: library, problem: missing ? .notInstalled : .unloadable(reason))
        }
        let table = UnsafeMutablePointer<Functions>.allocate(capacity: 1)
        defer { table.deallocate() }
        if let missing = resolve(handle, table) {
            let function = String(cString: missing)
            dlclose(handle)
            throw SharedLibraryError(library: library, problem: .missingFunction(function))
        }
        // Every field was written by `resolve`.
        return table.move()
    }
}
