#pragma once
#include <dlfcn.h>
#include <sndfile.h>
#include <stddef.h>

// libsndfile is loaded at first need (dlopen), not linked: a daemon with no sound device never maps it, nor the
// FLAC, Vorbis, Opus, mpg123 and LAME libraries it brings. Every function the project calls is listed once here;
// each field is typed from the header's own declaration (typeof), so a call with the wrong signature does not
// compile.
#define SHAKY_SNDFILE_FUNCTIONS(F) \
    F(sf_open) \
    F(sf_open_fd) \
    F(sf_close) \
    F(sf_readf_short) \
    F(sf_readf_float) \
    F(sf_error) \
    F(sf_strerror)

/// libsndfile's functions, resolved from one dlopen handle.
struct shaky_sndfile_functions {
#define SHAKY_SNDFILE_FIELD(name) __typeof__(name) *_Nonnull name;
    SHAKY_SNDFILE_FUNCTIONS(SHAKY_SNDFILE_FIELD)
#undef SHAKY_SNDFILE_FIELD
};

/// Resolves every function into `functions`; returns NULL, or the name of the first one `library` lacks.
static inline const char *_Nullable shaky_sndfile_resolve(
    void *_Nonnull library, struct shaky_sndfile_functions *_Nonnull functions) {
#define SHAKY_SNDFILE_RESOLVE(name) \
    if ((functions->name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return #name;
    SHAKY_SNDFILE_FUNCTIONS(SHAKY_SNDFILE_RESOLVE)
#undef SHAKY_SNDFILE_RESOLVE
    return NULL;
}
