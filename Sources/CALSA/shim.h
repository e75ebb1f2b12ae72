#pragma once
#include <alsa/asoundlib.h>

// alsa-lib's error handler is variadic, which Swift cannot define: this one drops the library's own stderr
// messages (the player reports each failure itself, once, with its errno).
static inline void CALSA_quiet_error_handler(const char *file, int line, const char *function, int err,
                                             const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// Routes alsa-lib's error messages to CALSA_quiet_error_handler.
static inline int CALSA_silence_library_errors(void) {
    return snd_lib_error_set_handler(CALSA_quiet_error_handler);
}
