#pragma once
#include <libevdev/libevdev.h>
#include <linux/input.h>

/// The event's time, seconds part (`input_event_sec` is a macro whose field name depends on the time ABI).
static inline long long CEvdev_input_event_sec(const struct input_event *event) { return event->input_event_sec; }

/// The event's time, microseconds part.
static inline long long CEvdev_input_event_usec(const struct input_event *event) { return event->input_event_usec; }
