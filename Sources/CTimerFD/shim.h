#pragma once
// Linux's timer and event descriptors (timerfd_create, eventfd), which Swift's Glibc module leaves out: a thread that
// waits in poll() for either a wake-up or a deadline on CLOCK_BOOTTIME. Part of libc, so nothing to link.
#include <sys/eventfd.h>
#include <sys/timerfd.h>
