#pragma once
#include <dlfcn.h>
#include <iio.h>
#include <stddef.h>

// libiio is loaded at first need (dlopen), not linked: a daemon reading evdev or a trace never maps it, nor
// libxml2, libusb, avahi and D-Bus that it brings. Every function the project calls is listed once here; each
// field is typed from the header's own declaration (typeof), so a call with the wrong signature does not compile.
#define SHAKY_IIO_FUNCTIONS(F) \
    F(iio_create_local_context) \
    F(iio_context_destroy) \
    F(iio_context_get_devices_count) \
    F(iio_context_get_device) \
    F(iio_device_is_trigger) \
    F(iio_device_get_id) \
    F(iio_device_get_name) \
    F(iio_device_find_channel) \
    F(iio_device_find_attr) \
    F(iio_device_attr_read) \
    F(iio_device_attr_write) \
    F(iio_device_buffer_attr_write) \
    F(iio_device_get_trigger) \
    F(iio_device_set_trigger) \
    F(iio_device_create_buffer) \
    F(iio_channel_is_scan_element) \
    F(iio_channel_find_attr) \
    F(iio_channel_attr_read) \
    F(iio_channel_attr_write) \
    F(iio_channel_attr_get_filename) \
    F(iio_channel_enable) \
    F(iio_channel_get_data_format) \
    F(iio_buffer_destroy) \
    F(iio_buffer_set_blocking_mode) \
    F(iio_buffer_get_poll_fd) \
    F(iio_buffer_start) \
    F(iio_buffer_first) \
    F(iio_buffer_refill) \
    F(iio_buffer_step)

/// libiio's functions, resolved from one dlopen handle.
struct shaky_iio_functions {
#define SHAKY_IIO_FIELD(name) __typeof__(name) *_Nonnull name;
    SHAKY_IIO_FUNCTIONS(SHAKY_IIO_FIELD)
#undef SHAKY_IIO_FIELD
};

/// Resolves every function into `functions`; returns NULL, or the name of the first one `library` lacks.
static inline const char *_Nullable shaky_iio_resolve(
    void *_Nonnull library, struct shaky_iio_functions *_Nonnull functions) {
#define SHAKY_IIO_RESOLVE(name) \
    if ((functions->name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return #name;
    SHAKY_IIO_FUNCTIONS(SHAKY_IIO_RESOLVE)
#undef SHAKY_IIO_RESOLVE
    return NULL;
}
